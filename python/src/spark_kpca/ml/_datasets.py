"""What the stages accept as a dataset: a Spark DataFrame (classic or Spark Connect); a pandas-on-Spark
DataFrame is taken as its Spark DataFrame, and anything else (a pandas DataFrame, above all) is refused with a
message that says what to do, before any JVM call."""

from typing import Any


def _qualified(value: Any) -> str:
    kind = type(value)
    return f"{kind.__module__}.{kind.__qualname__}"


def _is_spark_dataframe(value: Any) -> bool:
    from pyspark.sql import DataFrame

    if isinstance(value, DataFrame):
        return True
    try:  # PySpark 3.5: the Spark Connect DataFrame is not a pyspark.sql.DataFrame
        from pyspark.sql.connect.dataframe import DataFrame as ConnectDataFrame
    except ImportError:
        return False
    return isinstance(value, ConnectDataFrame)


def as_spark_dataframe(dataset: Any, where: str) -> Any:
    """``dataset`` as a Spark DataFrame for ``where`` (e.g. ``NystromKernelPCA.fit``).

    :raises TypeError: for a pandas DataFrame (with the call that converts it) or any other non-DataFrame.
    """
    if _is_spark_dataframe(dataset):
        return dataset
    module = type(dataset).__module__
    if module.startswith("pyspark.pandas") and hasattr(dataset, "to_spark"):
        return dataset.to_spark()
    if module.startswith("pandas"):
        raise TypeError(
            f"{where}: dataset is a pandas DataFrame ({_qualified(dataset)}); the stages run on Spark "
            "DataFrames: convert it with spark.createDataFrame(pandas_df) and assemble the feature columns "
            "into one vector column with pyspark.ml.feature.VectorAssembler"
        )
    raise TypeError(
        f"{where}: dataset should be a Spark DataFrame (pyspark.sql.DataFrame), got {_qualified(dataset)}"
    )
