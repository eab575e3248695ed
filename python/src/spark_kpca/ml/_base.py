"""The base classes and checks every stage of :mod:`spark_kpca.ml` shares: the estimator and model wrappers
(Java errors as one Python exception), the getters of the values a fit chose, and the cheap Python checks of
an input column that run before any JVM call."""

from typing import Any, Optional, TypeVar

from pyspark.ml.linalg import VectorUDT
from pyspark.ml.wrapper import JavaEstimator, JavaModel
from pyspark.sql import DataFrame

from spark_kpca._jvm import java_class
from spark_kpca.errors import IllegalArgumentException, IllegalStateException, UnsupportedOperationException, jvm_errors
from spark_kpca.ml import _action_errors
from spark_kpca.ml._datasets import as_spark_dataframe
from spark_kpca.ml._wrapper import _KpcaParams


def _is_remote() -> bool:
    try:
        from pyspark.sql.utils import is_remote
    except ImportError:  # PySpark before 3.4
        return False
    return bool(is_remote())


def _jvm() -> Any:
    from pyspark import SparkContext

    sc = SparkContext._active_spark_context
    if sc is None:
        raise RuntimeError("no active SparkContext: start a SparkSession with spark.jars = jar_path()")
    return sc._jvm


def _java_static(name: str) -> Any:
    return java_class(name)


def _check_input_column(dataset: DataFrame, column: str, what: str = "Input column") -> None:
    """Python's cheap check of the input column, with the Java message, before any JVM call."""
    if not hasattr(dataset, "schema") or not hasattr(dataset, "columns"):
        raise TypeError(f"dataset should be a DataFrame, got {type(dataset).__name__}")
    fields = {f.name: f for f in dataset.schema.fields}
    if column not in fields:
        raise IllegalArgumentException(
            f"{what} '{column}' does not exist; available columns: {', '.join(fields)}"
        )
    if not isinstance(fields[column].dataType, VectorUDT):
        raise IllegalArgumentException(
            f"{what} '{column}' must be of type Vector (org.apache.spark.ml.linalg), but is "
            f"{fields[column].dataType.simpleString()}; {_conversion_hint(fields[column].dataType)}"
        )


def _conversion_hint(data_type: Any) -> str:
    """How to turn a column of ``data_type`` into a vector column (the Java InputVectors.conversionHint)."""
    from pyspark.sql.types import ArrayType, NumericType, StringType

    if isinstance(data_type, ArrayType) and isinstance(data_type.elementType, NumericType):
        return (
            "convert the array column with org.apache.spark.ml.functions.array_to_vector"
            " (pyspark.ml.functions.array_to_vector) first"
        )
    if isinstance(data_type, StringType):
        return (
            "for text, split it into words (RegexTokenizer or Tokenizer) and turn the words into"
            " a vector (HashingTF or CountVectorizer, then IDF) first"
        )
    if isinstance(data_type, ArrayType) and isinstance(data_type.elementType, StringType):
        return "for words, turn them into a vector (HashingTF or CountVectorizer, then IDF) first"
    return "assemble numeric columns with VectorAssembler first"


_M = TypeVar("_M", bound="_KpcaModel")


class _KpcaEstimator(_KpcaParams, JavaEstimator[_M]):
    """A spark-kpca estimator: Java errors become one Python exception. Generic in its model class, so that a
    type checker knows what ``fit`` returns."""

    def _precheck(self, dataset: DataFrame) -> None:
        """Cheap checks in Python before the fit's JVM call (overridden by the stages)."""

    def _fit(self, dataset: DataFrame) -> _M:
        dataset = as_spark_dataframe(dataset, f"{type(self).__name__}.fit")
        self._precheck(dataset)
        with jvm_errors():
            return super()._fit(dataset)


class _KpcaModel(_KpcaParams, JavaModel):
    """A spark-kpca model: the Java model's Params are read back into Python when it is wrapped. The values
    the fit chose (kernel, γ, m, D) are not params of the Java model: the getters of :class:`_FittedValues`
    read them from it."""

    def __init__(self, java_model: Optional[Any] = None) -> None:
        super().__init__(java_model)
        self._set_java_defaults()  # type: ignore[attr-defined]
        if java_model is not None and not _is_remote():
            self._transfer_params_from_java()

    def _transform(self, dataset: DataFrame) -> DataFrame:
        dataset = as_spark_dataframe(dataset, f"{type(self).__name__}.transform")
        with jvm_errors():
            output = super()._transform(dataset)
        _action_errors.remember(output, dataset)
        return output

    def __repr__(self) -> str:
        if self._java_obj is None or isinstance(self._java_obj, str):
            return f"{type(self).__name__}: uid={self.uid}"
        return str(self._call_java("toString"))


class _FittedValues:
    """Getters of the values a fit chose (the kernel, γ, m or D), read from the Java model.

    A fitted Java model does not set these params (its getters read the fitted kernel and sizes; a saved
    model still stores them), so the Python param map cannot hold them: each getter here calls the Java
    model's getter, which works alike for a model just fitted, one loaded with ``load()`` and one inside a
    loaded ``PipelineModel`` or ``CrossValidatorModel``. Over Spark Connect the server's attribute allowlist
    refuses these calls: the getters raise :class:`spark_kpca.errors.UnsupportedOperationException` there;
    the model's export bundle (``write().option("export", "true")``) holds the fitted kernel and sizes.
    """

    def _fitted_value(self, getter: str, python_getter: Optional[str] = None) -> Any:
        """The Java model's ``getter()``; ``python_getter`` (default: the same name) names it in errors."""
        java_obj = getattr(self, "_java_obj", None)
        shown = python_getter or getter
        if _is_remote():
            raise UnsupportedOperationException(
                f"{type(self).__name__}.{shown}(): the fitted value is not reachable over Spark Connect "
                "(the server's attribute allowlist refuses the call); read it from the model's export "
                "bundle (write().option('export', 'true'))",
                None,
            )
        if java_obj is None or isinstance(java_obj, str):
            raise IllegalStateException(
                f"{type(self).__name__}.{shown}(): the model has no Java model (fit an estimator or "
                "load a saved model)",
                None,
            )
        return self._call_java(getter)  # type: ignore[attr-defined]


class _FittedKernel(_FittedValues):
    def getKernel(self) -> str:
        """The kernel the model was fitted with, by its param name (read from the Java model; not over Spark
        Connect)."""
        # Py4J does not find the Java getKernel() (a default method of a super-interface): the family's
        # name is the same value.
        family = self._fitted_value("getKernelType", "getKernel")
        with jvm_errors():
            return str(family.paramName())

    def getGamma(self) -> float:
        """γ of the fitted kernel: the value given, or the one the fit chose (the median heuristic, or the
        width a grid search picked); NaN for a kernel without γ. Read from the Java model; not over Spark
        Connect."""
        return float(self._fitted_value("getGamma"))

    def getDegree(self) -> int:
        """p, the fitted kernel's polynomial degree (read from the Java model; not over Spark Connect)."""
        return int(self._fitted_value("getDegree"))

    def getCoef0(self) -> float:
        """c₀ of the fitted kernel (read from the Java model; not over Spark Connect)."""
        return float(self._fitted_value("getCoef0"))


class _FittedLandmarks(_FittedValues):
    def getNumLandmarks(self) -> int:
        """m, the landmarks of the fitted model, which can differ from the estimator's ``numLandmarks``
        (residual sampling, supplied landmarks). Read from the Java model; not over Spark Connect."""
        return int(self._fitted_value("getNumLandmarks"))


class _FittedRandomFeatures(_FittedValues):
    def getNumRandomFeatures(self) -> int:
        """D, the random features of the fitted model (read from the Java model; not over Spark Connect)."""
        return int(self._fitted_value("getNumRandomFeatures"))


def _active_sc() -> Any:
    from pyspark import SparkContext

    sc = SparkContext._active_spark_context
    if sc is None:
        raise RuntimeError("no active SparkContext")
    return sc
