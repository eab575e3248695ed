"""MLflow's Spark flavour with spark-kpca stages: a PipelineModel holding a NystromKernelPCAModel and a
KernelPCARegressionModel is logged with ``mlflow.spark.log_model`` to a local tracking store (SQLite in a
temporary directory) and loaded back with ``mlflow.spark.load_model`` and as a pyfunc model, as Databricks
users ship models; the loaded models score exactly as the original."""

import math

import mlflow
import mlflow.pyfunc
import mlflow.spark
import pyspark
import pytest
import yaml
from pyspark.ml import Pipeline, PipelineModel
from pyspark.ml.feature import VectorAssembler

from spark_kpca.ml import KernelPCARegressionModel, KernelPCARegressor, NystromKernelPCA, NystromKernelPCAModel


@pytest.fixture(scope="module")
def logged(spark, tmp_path_factory):
    """The fitted pipeline, its training rows and the run's model URI."""
    df = spark.range(0, 300, 1, 2).selectExpr(
        "id",
        "sin(id * 0.37) + 0.1 * randn(1) as x1",
        "cos(id * 0.37) + 0.1 * randn(2) as x2",
        "(id % 3) + 0.1 * randn(3) as x3",
    )
    df = df.withColumn("y", df.x1 * df.x2 + df.x3).cache()
    model = Pipeline(
        stages=[
            VectorAssembler(inputCols=["x1", "x2", "x3"], outputCol="features"),
            NystromKernelPCA(k=3, numLandmarks=60, seed=7, residualCol="residual"),
            KernelPCARegressor(labelCol="y", numLandmarks=60, gamma=0.5, dimension=10, fitIntercept=True, seed=7),
        ]
    ).fit(df)
    store = tmp_path_factory.mktemp("mlflow")
    mlflow.set_tracking_uri(f"sqlite:///{store}/mlflow.db")
    # The artifacts beside the store (the default, ./mlruns, would be the working directory). The experiment is
    # named in start_run, not made the process's active one (README's test starts from MLflow's defaults).
    experiment = mlflow.create_experiment("spark-kpca-tests", artifact_location=(store / "artifacts").as_uri())
    with mlflow.start_run(experiment_id=experiment) as run:
        # Explicit requirements: otherwise MLflow infers them by loading the model in a new Python process.
        mlflow.spark.log_model(model, "model", pip_requirements=[f"pyspark=={pyspark.__version__}"])
    return model, df, f"runs:/{run.info.run_id}/model"


def scores(model, df):
    return [
        (r.id, r.kpca.toArray().tolist(), r.residual, r.prediction)
        for r in model.transform(df).orderBy("id").select("id", "kpca", "residual", "prediction").collect()
    ]


def test_the_spark_flavour_records_this_pyspark(logged):
    _, _, uri = logged
    meta = yaml.safe_load(open(mlflow.artifacts.download_artifacts(uri + "/MLmodel")))
    assert meta["flavors"]["spark"]["pyspark_version"] == pyspark.__version__
    assert meta["flavors"]["python_function"]["loader_module"] == "mlflow.spark"


def test_load_model_gives_our_stages_scoring_identically(logged):
    model, df, uri = logged
    loaded = mlflow.spark.load_model(uri)
    assert isinstance(loaded, PipelineModel)
    kinds = [type(s) for s in loaded.stages]
    assert kinds[1:] == [NystromKernelPCAModel, KernelPCARegressionModel], kinds
    assert loaded.stages[1].eigenvalues == model.stages[1].eigenvalues
    expected = scores(model, df)
    assert scores(loaded, df) == expected
    assert all(math.isfinite(p) for *_, p in expected)


def test_pyfunc_predicts_the_regression_output(logged):
    model, df, uri = logged
    rows = df.orderBy("id").limit(50)
    pandas_rows = rows.select("x1", "x2", "x3").toPandas()
    predicted = list(mlflow.pyfunc.load_model(uri).predict(pandas_rows))
    expected = [r.prediction for r in model.transform(rows).orderBy("id").select("prediction").collect()]
    assert predicted == pytest.approx(expected, rel=1e-12, abs=1e-12)
