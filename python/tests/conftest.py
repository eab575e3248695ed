"""One local SparkSession (local[2]) for the whole test session, with the library jar from jar_path()."""

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))


@pytest.fixture(scope="session")
def spark(tmp_path_factory):
    from pyspark.sql import SparkSession

    import spark_kpca

    warehouse = tmp_path_factory.mktemp("warehouse")
    session = (
        SparkSession.builder.master("local[2]")
        .appName("spark-kpca-python-tests")
        .config("spark.jars", spark_kpca.jar_path())
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.warehouse.dir", str(warehouse))
        .config("spark.driver.memory", os.environ.get("SPARK_KPCA_TEST_DRIVER_MEMORY", "1g"))
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def jvm(spark):
    return spark.sparkContext._jvm


@pytest.fixture(scope="session")
def blobs(spark):
    """200 rows in 3 dimensions, two Gaussian blobs (fixed numpy seed), 2 partitions."""
    import numpy as np
    from pyspark.ml.linalg import Vectors

    rng = np.random.default_rng(11)
    a = rng.normal(0.0, 1.0, size=(100, 3))
    b = rng.normal(3.0, 0.5, size=(100, 3))
    data = np.vstack([a, b])
    rows = [(Vectors.dense(row.tolist()),) for row in data]
    return spark.createDataFrame(rows, ["features"]).repartition(2).cache(), data
