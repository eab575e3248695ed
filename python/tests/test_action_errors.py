"""A bad row found by a task at action time (the user's collect) reaches Python as one short exception with
the library's one-line message first, the row named as the fit names it where the task knows its number."""

import traceback

from py4j.protocol import Py4JJavaError
import pytest
from pyspark.errors import PySparkException
from pyspark.ml.linalg import Vectors

from spark_kpca.errors import IllegalArgumentException, SparkKpcaError
from spark_kpca.ml import NystromKernelPCA


@pytest.fixture(scope="module")
def model(blobs):
    df, _ = blobs
    return NystromKernelPCA(k=2, numLandmarks=20, seed=1).fit(df)


def frame(spark, rows, partitions):
    """The rows in order, in consecutive slices of ``partitions`` partitions."""
    from pyspark.ml.linalg import VectorUDT
    from pyspark.sql.types import StructField, StructType

    schema = StructType([StructField("features", VectorUDT())])
    data = spark.sparkContext.parallelize([(Vectors.dense(r),) for r in rows], partitions)
    return spark.createDataFrame(data, schema)


def short(exc: BaseException, first_line: str) -> None:
    text = str(exc)
    assert text == first_line
    printed = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    assert "Py4JJavaError" not in printed and "\tat " not in printed and "JVM stacktrace" not in printed
    assert len(printed.splitlines()) <= 25, printed  # the Python frames of the test and collect only


def test_nan_at_collect(spark, model):
    rows = [[0.0, 1.0, 2.0]] * 3 + [[1.0, float("nan"), 0.0]] + [[0.0, 0.0, 0.0]]
    with pytest.raises(IllegalArgumentException) as info:
        model.transform(frame(spark, rows, 1)).collect()
    message = "Column 'features': the vector in row 3 (partition 0, position 3) has a non-finite value (NaN)"
    short(info.value, "IllegalArgumentException: " + message)
    assert isinstance(info.value, ValueError) and isinstance(info.value, SparkKpcaError)
    assert info.value.java_exception.getClass().getName() == "io.github.sparkkpca.execution.InvalidRowException"
    # the fit of the same rows names the same row with the same words
    with pytest.raises(IllegalArgumentException) as fit:
        NystromKernelPCA(k=1, numLandmarks=2).fit(frame(spark, rows, 1))
    assert fit.value.message == message


def test_wrong_size_at_collect_and_other_actions(spark, model):
    rows = [[0.0, 1.0, 2.0, 3.0]]
    with pytest.raises(IllegalArgumentException) as info:
        model.transform(frame(spark, rows, 1)).collect()
    short(info.value, "IllegalArgumentException: Column 'features': the vector in row 0 (partition 0, "
          "position 0) has size 4, the model expects 3")
    with pytest.raises(IllegalArgumentException, match="has size 4, the model expects 3"):
        model.transform(frame(spark, rows, 1)).count()
    with pytest.raises(IllegalArgumentException, match="has size 4, the model expects 3"):
        model.transform(frame(spark, rows, 1)).toPandas()


def test_later_partitions_are_numbered_on_the_failure_path(spark, model):
    rows = [[0.0, float("inf") if i == 7 else 1.0, 0.0] for i in range(8)]
    with pytest.raises(IllegalArgumentException) as info:
        model.transform(frame(spark, rows, 2)).collect()  # rows 4..7 in partition 1
    # numbered on the failure path by counting the partitions before it, as the fit numbers it
    short(info.value, "IllegalArgumentException: Column 'features': the vector in row 7 (partition 1, position 3) "
          "has a non-finite value (Infinity)")
    with pytest.raises(IllegalArgumentException) as fit:
        NystromKernelPCA(k=1, numLandmarks=2).fit(frame(spark, rows, 2))
    assert str(fit.value) == str(info.value)


def test_other_errors_are_left_as_pyspark_raises_them(spark):
    # PySpark 4 raises one of its captured exceptions here; PySpark 3.5 leaves this one a Py4JJavaError.
    with pytest.raises((PySparkException, Py4JJavaError)) as info:
        spark.range(1).selectExpr("raise_error('boom')").collect()
    assert not isinstance(info.value, SparkKpcaError)
    assert "boom" in str(info.value)
