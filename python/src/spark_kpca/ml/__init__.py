"""spark-kpca's Spark ML stages for Python: thin wrappers of the JVM stages, as ``pyspark.ml.feature.PCA``
wraps Spark's.

No algorithm runs in Python: every fit, transform and evaluation is the Java library's. The Params (names,
doc texts, defaults) are generated from the Java stages (``tools/generate_params.py``) and checked against them
by the tests. Stages save in the Java format, so a model or ``Pipeline`` saved here loads in Java, Scala and the
command line, and one saved there loads here as these classes.

The JVM needs the library jar on its class path: ``spark.jars`` = :func:`spark_kpca.jar_path`.
"""

import sys
from typing import Any, List, NamedTuple, Optional, TypeVar

from pyspark.ml.linalg import DenseMatrix, DenseVector, Matrix, Vector, VectorUDT
from pyspark.ml.util import JavaMLReadable, JavaMLWritable
from pyspark.ml.evaluation import JavaEvaluator
from pyspark.ml.wrapper import (
    JavaEstimator,
    JavaModel,
    JavaPredictionModel,
    JavaPredictor,
)
from pyspark.sql import DataFrame

from spark_kpca._java_classes import JAVA_UTILITIES
from spark_kpca._jvm import java_class
from spark_kpca.errors import (
    IllegalArgumentException,
    IllegalStateException,
    UnsupportedOperationException,
    jvm_errors,
)
from spark_kpca.ml import _action_errors, _params
from spark_kpca.ml._datasets import as_spark_dataframe
from spark_kpca.ml._wrapper import _install_java_package_aliases, _KpcaParams, _to_list

__all__ = [
    "NystromKernelPCA",
    "NystromKernelPCAModel",
    "RandomFeatureKernelPCA",
    "RandomFeatureKernelPCAModel",
    "KernelPCA",
    "KernelPCAModel",
    "KernelPCARegressor",
    "RelevantDimensionEstimator",
    "KernelPCARegressionModel",
    "ReconstructionErrorEvaluator",
    "StreamingKernelPCA",
    "ConfidenceBound",
    "CapturedVarianceResult",
    "WidthDiagnostics",
    "LabelCoding",
    "load_model",
]


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


class _KernelPCAModelMethods(_KpcaModel):
    """What every kernel PCA model (Nyström, random features, exact) tells and does."""

    @property
    def numComponents(self) -> int:
        """k, the number of components."""
        return int(self._call_java("numComponents"))

    @property
    def numFeatures(self) -> int:
        """d, the input dimension."""
        return int(self._call_java("numFeatures"))

    @property
    def featureNames(self) -> List[str]:
        """The names of the d input features, in order, as the fit found them in the input column's ML
        attribute metadata (``VectorAssembler`` writes them; the CLI writes a CSV file's header); empty when
        the column had none, or for a model saved before models recorded them. ``transform`` refuses a
        column whose names differ (other names, or another order); a column without names is scored by
        position."""
        return [str(name) for name in (_to_list(self._call_java("featureNames")) or [])]

    @property
    def numRows(self) -> int:
        """n, the number of training rows (all rows absorbed so far, after updates)."""
        return int(self._call_java("numRows"))

    @property
    def numSupportPoints(self) -> int:
        """m, the number of support points (landmarks, or training rows for exact kernel PCA); raises for a
        random feature model."""
        return int(self._call_java("numSupportPoints"))

    @property
    def rank(self) -> int:
        """r, the dimension of the feature map (support points minus :attr:`droppedRank`, or D)."""
        return int(self._call_java("rank"))

    @property
    def droppedRank(self) -> int:
        """Support directions dropped by rank thresholding (duplicates, ill-conditioning)."""
        return int(self._call_java("droppedRank"))

    @property
    def hasLandmarks(self) -> bool:
        """Whether the model scores through landmarks (Nyström and exact models)."""
        return bool(self._call_java("hasLandmarks"))

    @property
    def isUpdatable(self) -> bool:
        """Whether the model keeps its statistics, so that :meth:`update` can absorb more rows."""
        return bool(self._call_java("isUpdatable"))

    @property
    def landmarkSelection(self) -> str:
        """How the support points were chosen (strategy, effective count, and why fewer when fewer)."""
        return str(self._call_java("landmarkSelection"))

    @property
    def eigenvalues(self) -> DenseVector:
        """The eigenvalues the fit found, descending: the covariance spectrum in feature space (in H_m for
        Nyström); its leading min(r, max(k, 50)) entries unless fitted with ``spectrum = full``."""
        return self._call_java("eigenvalues")

    @property
    def explainedVariance(self) -> DenseVector:
        """Σ_1..Σ_k, the variances of the k scores on the training data (mean squares when uncentred)."""
        return self._call_java("explainedVariance")

    @property
    def explainedVarianceRatio(self) -> DenseVector:
        """Σ_i / :attr:`totalVariance` for i = 1..k (all 0 when the total variance is 0)."""
        return self._call_java("explainedVarianceRatio")

    @property
    def totalVariance(self) -> float:
        """The total feature-space variance the ratios and errors refer to."""
        return float(self._call_java("totalVariance"))

    @property
    def totalVarianceMethod(self) -> str:
        """How :attr:`totalVariance` was obtained."""
        return str(self._call_java("totalVarianceMethod"))

    @property
    def reconstructionError(self) -> DenseVector:
        """R(ℓ) = totalVariance − Σ_{i≤ℓ} Σ_i for ℓ = 1..k: the mean squared feature-space distance of the
        (centred) training points to the ℓ-dimensional principal subspace, clamped at 0."""
        return self._call_java("reconstructionError")

    @property
    def landmarks(self) -> Matrix:
        """The m×d support points, one per row (landmark models only), as stored: a DenseMatrix, or a
        SparseMatrix of the non-zeros when the model computes its kernel blocks on the sparse path."""
        return self._call_java("landmarks")

    @property
    def projector(self) -> DenseMatrix:
        """P, the m×k projector of the scores y(x) = Pᵀk_x − o (landmark models only)."""
        return self._call_java("projector")

    @property
    def offset(self) -> DenseVector:
        """o, the k offsets of the scores y(x) = Pᵀk_x − o."""
        return self._call_java("offset")

    def update(self, dataset: DataFrame) -> Any:
        """This model with the rows of ``dataset`` absorbed: equal, to rounding, to a fit on all rows with the
        same feature map (Nyström and random-feature models; an exact model raises). Returns a new model."""
        dataset = as_spark_dataframe(dataset, f"{type(self).__name__}.update")
        _check_input_column(dataset, self.getOrDefault("inputCol"))
        self._transfer_params_to_java()
        with jvm_errors():
            java_model = self._java_obj.update(dataset._jdf)
        return type(self)(java_model)

    def export(self, path: str) -> None:
        """Writes the model's portable bundle (plain arrays and JSON, for scoring without Spark) into the new
        directory ``path`` (any Hadoop file system); raises when it exists."""
        if not isinstance(path, str):
            raise TypeError(f"path should be a string, got type {type(path).__name__}")
        self._transfer_params_to_java()
        sc = _active_sc()
        with jvm_errors():
            _java_static(JAVA_UTILITIES["ModelExport"]).write(
                self._java_obj, path, sc._jsc.hadoopConfiguration()
            )

    def to_onnx(self, path: str, float32: bool = False) -> None:
        """Writes the model as one ONNX graph into the new file ``path`` (any Hadoop file system; raises when it
        exists): input ``features`` [N, d] float64, output ``scores`` [N, k], ``transform``'s scores for dense
        rows (to about 1e-12), in standard operators of opset 13, for onnxruntime or any ONNX runtime.
        ``float32=True`` writes a single-precision graph (scores to about 1e-5 relative). Raises for a model
        of wide sparse data whose dense landmarks would exceed 512 MiB. See :mod:`spark_kpca.onnx`."""
        from spark_kpca.onnx import write_model

        write_model(self, path, float32)

    def capturedVariance(
        self, heldOut: DataFrame, exactSample: int = 5000, seed: int = 0
    ) -> "CapturedVarianceResult":
        """The variance the model's k components capture on held-out rows, and the optimum: the sum of the k
        largest eigenvalues of the same-centred exact kernel matrix over at most ``exactSample`` of those rows
        (seeded subsample)."""
        if exactSample < 2:
            raise IllegalArgumentException(f"exactSample = {exactSample}: must be >= 2")
        _check_input_column(heldOut, self.getOrDefault("inputCol"))
        self._transfer_params_to_java()
        with jvm_errors():
            r = _java_static(JAVA_UTILITIES["CapturedVariance"]).evaluate(
                self._java_obj, heldOut._jdf, int(exactSample), int(seed)
            )
            return CapturedVarianceResult(
                float(r.capturedVariance()),
                float(r.optimalVariance()),
                int(r.n()),
                int(r.sampleRows()),
                str(r.method()),
            )

    def mpressCurve(
        self, dataset: DataFrame, maxK: int, maxRows: int = 300, seed: Optional[int] = None
    ) -> List[float]:
        """MPRESS(j) for j = 1..maxK: the leave-one-out reconstruction error of exact kernel PCA with the
        model's fitted kernel on the rows of its input column (Hallgren's choice of k, ``select-k``). With
        more than ``maxRows`` rows it raises unless ``seed`` is given (then a seeded subsample of maxRows rows
        is used)."""
        if maxK < 1:
            raise IllegalArgumentException(f"maxK = {maxK}: must be >= 1")
        column = self.getOrDefault("inputCol")
        _check_input_column(dataset, column)
        jvm = _jvm()
        optional = (
            jvm.java.util.OptionalLong.empty()
            if seed is None
            else jvm.java.util.OptionalLong.of(int(seed))
        )
        with jvm_errors():
            kernel = self._java_obj.fittedKernel()
            curve = _java_static(JAVA_UTILITIES["Mpress"]).compute(
                dataset._jdf, column, kernel, int(maxK), int(maxRows), optional
            )
            return [float(v) for v in curve.mpress()]


def _active_sc() -> Any:
    from pyspark import SparkContext

    sc = SparkContext._active_spark_context
    if sc is None:
        raise RuntimeError("no active SparkContext")
    return sc


class CapturedVarianceResult(NamedTuple):
    """Result of :meth:`NystromKernelPCAModel.capturedVariance` (Java's ``CapturedVariance.Result``)."""

    capturedVariance: float
    optimalVariance: float
    n: int
    sampleRows: int
    method: str


class ConfidenceBound(NamedTuple):
    """Hallgren's confidence bound of a Nyström model (Java's ``NystromConfidenceBound.Bound``).

    deviation: D, the bound on ‖C_n − C_m‖_HS; subsetEigenvalues: the eigenvalues of K_mm/m; angleBounds: D_j
    for j = 1..k; reconstructionErrorBound: the bound on R_n(Ṽ_d) − R_n(V̂_d) for d = 1..k.
    """

    deviation: float
    subsetEigenvalues: List[float]
    angleBounds: List[float]
    reconstructionErrorBound: List[float]


# ---------------------------------------------------------------------------------------------------------
# Nyström kernel PCA


class NystromKernelPCA(
    _params._NystromKernelPCABase,
    _KpcaEstimator["NystromKernelPCAModel"],
    JavaMLReadable["NystromKernelPCA"],
    JavaMLWritable,
):
    """Kernel PCA by Nyström sampling: m landmarks, the n×m kernel computed block by block on the executors,
    an m×m system eigendecomposed on the driver. With m = n it is exact kernel PCA; with the linear kernel,
    ordinary PCA.

    >>> kpca = NystromKernelPCA(k=2, numLandmarks=50, kernel="rbf", gamma=0.5, seed=7)  # doctest: +SKIP
    >>> model = kpca.fit(df)                                                             # doctest: +SKIP
    """

    def _create_model(self, java_model: Any) -> "NystromKernelPCAModel":
        return NystromKernelPCAModel(java_model)

    def _precheck(self, dataset: DataFrame) -> None:
        _check_input_column(dataset, self.getInputCol())
        if not self.isDefined(self.k):
            raise IllegalArgumentException(
                "Param k (the number of principal components) must be set"
            )
        if self.hasSuppliedLandmarks():
            return
        if self.getLandmarkSampling() == "residual":
            m, source = self.getMaxLandmarks(), "maxLandmarks"
        else:
            m, source = self.getNumLandmarks(), "numLandmarks"
        if self.getK() > m:
            raise IllegalArgumentException(
                f"k = {self.getK()} exceeds the number of landmarks m = {m} ({source}); k must be <= m"
            )

    def setLandmarks(self, dataset: DataFrame, column: str) -> "NystromKernelPCA":
        """Supplies the landmarks: the vectors of ``column`` in ``dataset`` (collected to the driver);
        ``numLandmarks`` and ``landmarkSampling`` are then ignored."""
        _check_input_column(dataset, column, "Landmark column")
        with jvm_errors():
            self._java_obj.setLandmarks(dataset._jdf, column)
        return self

    def setLandmarksFrom(self, model: "_KernelPCAModelMethods") -> "NystromKernelPCA":
        """Supplies the landmarks of a fitted landmark model (Nyström or exact) and its kernel settings."""
        with jvm_errors():
            self._java_obj.setLandmarksFrom(model._java_obj)
        self._transfer_params_from_java()
        return self

    def hasSuppliedLandmarks(self) -> bool:
        """Whether landmarks were supplied (:meth:`setLandmarks`, :meth:`setLandmarksFrom`)."""
        java_obj = self._java_obj
        if java_obj is None or isinstance(java_obj, str):  # Spark Connect: no JVM object here
            return False
        return bool(java_obj.hasSuppliedLandmarks())


class NystromKernelPCAModel(
    _FittedKernel,
    _FittedLandmarks,
    _params._NystromKernelPCAModelBase, _KernelPCAModelMethods, JavaMLReadable, JavaMLWritable
):
    """A fitted :class:`NystromKernelPCA`: scores rows (and, optionally, their feature-space residual and
    pre-image), updates with more rows, saves and loads in the Java format."""

    def confidenceBound(self, confidence: float = 0.95) -> ConfidenceBound:
        """Hallgren's (2021) bound on how far the Nyström components are from those of the full kernel PCA,
        at the given confidence (uncentred models with landmarks drawn from the training rows and a bounded
        kernel)."""
        if not 0.0 < confidence < 1.0:
            raise IllegalArgumentException(f"confidence = {confidence}: must be in (0, 1)")
        with jvm_errors():
            b = _java_static(JAVA_UTILITIES["NystromConfidenceBound"]).compute(
                self._java_obj, float(confidence)
            )
            return ConfidenceBound(
                float(b.deviation()),
                [float(v) for v in b.subsetEigenvalues()],
                [float(v) for v in b.angleBounds()],
                [float(v) for v in b.reconstructionErrorBound()],
            )


# ---------------------------------------------------------------------------------------------------------
# Random feature kernel PCA


class RandomFeatureKernelPCA(
    _params._RandomFeatureKernelPCABase,
    _KpcaEstimator["RandomFeatureKernelPCAModel"],
    JavaMLReadable["RandomFeatureKernelPCA"],
    JavaMLWritable,
):
    """Kernel PCA with D random Fourier features (rbf and laplacian kernels): the D×D feature covariance is
    accumulated on the executors and eigendecomposed on the driver."""

    def _create_model(self, java_model: Any) -> "RandomFeatureKernelPCAModel":
        return RandomFeatureKernelPCAModel(java_model)

    def _precheck(self, dataset: DataFrame) -> None:
        _check_input_column(dataset, self.getInputCol())
        if not self.isDefined(self.k):
            raise IllegalArgumentException(
                "Param k (the number of principal components) must be set"
            )


class RandomFeatureKernelPCAModel(
    _FittedKernel,
    _FittedRandomFeatures,
    _params._RandomFeatureKernelPCAModelBase,
    _KernelPCAModelMethods,
    JavaMLReadable,
    JavaMLWritable,
):
    """A fitted :class:`RandomFeatureKernelPCA`."""

    @property
    def frequencies(self) -> DenseMatrix:
        """ω, the D×d frequencies of the features z(x) = √(2/D) cos(ωx + b)."""
        return self._call_java("frequencies")

    @property
    def phases(self) -> DenseVector:
        """b, the D phases."""
        return self._call_java("phases")

    @property
    def components(self) -> DenseMatrix:
        """The D×k principal directions in feature space."""
        return self._call_java("components")


# ---------------------------------------------------------------------------------------------------------
# Exact kernel PCA


class KernelPCA(
    _params._KernelPCABase,
    _KpcaEstimator["KernelPCAModel"],
    JavaMLReadable["KernelPCA"],
    JavaMLWritable,
):
    """Exact kernel PCA: the n×n kernel matrix of at most ``maxRows`` rows, eigendecomposed on the driver."""

    def _create_model(self, java_model: Any) -> "KernelPCAModel":
        return KernelPCAModel(java_model)

    def _precheck(self, dataset: DataFrame) -> None:
        _check_input_column(dataset, self.getInputCol())
        if not self.isDefined(self.k):
            raise IllegalArgumentException(
                "Param k (the number of principal components) must be set"
            )


class KernelPCAModel(
    _FittedKernel,
    _params._KernelPCAModelBase, _KernelPCAModelMethods, JavaMLReadable, JavaMLWritable
):
    """A fitted :class:`KernelPCA`."""


# ---------------------------------------------------------------------------------------------------------
# Kernel PCA regression


class LabelCoding(NamedTuple):
    """How a regression model coded its labels (Java's ``LabelCoding``)."""

    mode: str
    classes: List[float]


class WidthDiagnostics(NamedTuple):
    """What the regression fit found at one kernel width, for d = 1..q (Java's ``WidthDiagnostics``)."""

    gamma: float
    eigenvalues: List[float]
    coefficients: List[float]
    columns: int
    logLikelihood: List[float]
    dimension: int
    leaveOneOut: List[float]
    trainingLoss: List[float]


class _KpcaPredictor(
    _KpcaEstimator["KernelPCARegressionModel"], JavaPredictor["KernelPCARegressionModel"]
):
    def _create_model(self, java_model: Any) -> "KernelPCARegressionModel":
        return KernelPCARegressionModel(java_model)

    def _precheck(self, dataset: DataFrame) -> None:
        _check_input_column(dataset, self.getFeaturesCol(), "Features column")
        if self.getLabelCol() not in dataset.columns:
            raise IllegalArgumentException(
                f"Label column '{self.getLabelCol()}' does not exist; available columns: "
                + ", ".join(dataset.columns)
            )


class KernelPCARegressor(
    _params._KernelPCARegressorBase,
    _KpcaPredictor,
    JavaMLReadable["KernelPCARegressor"],
    JavaMLWritable,
):
    """Kernel principal component regression with a fixed kernel and dimension d (Braun, Buhmann and Müller
    2008): the label projected on the d leading kernel principal components."""

    def _precheck(self, dataset: DataFrame) -> None:
        super()._precheck(dataset)
        if not self.isDefined(self.dimension):
            raise IllegalArgumentException(
                "Param dimension (the number of components d) must be set"
            )


class RelevantDimensionEstimator(
    _params._RelevantDimensionEstimatorBase,
    _KpcaPredictor,
    JavaMLReadable["RelevantDimensionEstimator"],
    JavaMLWritable,
):
    """Kernel PCA regression whose kernel width (from ``gammaGrid``) and dimension d are chosen by Braun,
    Buhmann and Müller's likelihood ℓ(d)."""


class KernelPCARegressionModel(
    _FittedKernel,
    _FittedLandmarks,
    _params._KernelPCARegressionModelBase,
    _KpcaModel,
    JavaPredictionModel,
    JavaMLReadable,
    JavaMLWritable,
):
    """A fitted kernel PCA regression: predictions, the chosen width and dimension, and the curves behind
    Braun et al.'s Figure 2."""

    @property
    def featureNames(self) -> List[str]:
        """The names of the d input features, in order, as the fit found them in the input column's ML
        attribute metadata (``VectorAssembler`` writes them; the CLI writes a CSV file's header); empty when
        the column had none, or for a model saved before models recorded them. ``transform`` refuses a
        column whose names differ (other names, or another order); a column without names is scored by
        position."""
        return [str(name) for name in (_to_list(self._call_java("featureNames")) or [])]

    @property
    def numTrainingRows(self) -> int:
        """n, the training rows."""
        return int(self._call_java("numTrainingRows"))

    @property
    def numSupportPoints(self) -> int:
        """m, the landmarks the expansion runs over."""
        return int(self._call_java("numSupportPoints"))

    @property
    def landmarkSelection(self) -> str:
        """How the landmarks were chosen, in words."""
        return str(self._call_java("landmarkSelection"))

    @property
    def labelCoding(self) -> "LabelCoding":
        """How the labels were coded: ``mode`` real, binary (±1) or multiclass (one-vs-rest), and for
        multiclass the class labels in output order."""
        with jvm_errors():
            coding = self._java_obj.labelCoding()
            classes = coding.classes()
            return LabelCoding(
                str(coding.mode()), [] if classes is None else [float(v) for v in classes]
            )

    @property
    def chosenWidth(self) -> int:
        """The index in :attr:`widths` of the kernel width used."""
        return int(self._call_java("chosenWidth"))

    @property
    def widths(self) -> List[WidthDiagnostics]:
        """The diagnostics of every kernel width tried, in the order of the grid (one for a fixed kernel)."""
        with jvm_errors():
            return [_width(w) for w in self._java_obj.widths()]

    @property
    def logLikelihood(self) -> List[float]:
        """ℓ(d), d = 1..q, at the width used (its minimum is the relevant dimension)."""
        return _to_list(self._call_java("logLikelihood")) or []

    @property
    def trainingError(self) -> float:
        """The training error of the d-component fit (error rate for ±1/multiclass, mean squared residual
        for real labels)."""
        return float(self._call_java("trainingError"))

    @property
    def signalVariance(self) -> List[float]:
        """σ₁², the variance of the relevant coefficients at d, per label column."""
        return _to_list(self._call_java("signalVariance")) or []

    @property
    def noiseVariance(self) -> List[float]:
        """σ₂², the noise-floor variance at d (an estimate of E(Y − E(Y|X))²), per label column."""
        return _to_list(self._call_java("noiseVariance")) or []

    @property
    def labelSquares(self) -> List[float]:
        """‖Y‖² (‖Y − ȳ‖² with an intercept) per label column."""
        return _to_list(self._call_java("labelSquares")) or []

    @property
    def dimensionCv(self) -> int:
        """The dimension with the smallest leave-one-out error over every width and d."""
        return int(self._call_java("dimensionCv"))

    @property
    def gammaCv(self) -> float:
        """γ of the width with the smallest leave-one-out error."""
        return float(self._call_java("gammaCv"))

    def outputs(self, features: Vector) -> List[float]:
        """The c outputs ŷ_c(x) of one row."""
        return _to_list(self._call_java("outputs", features)) or []


def _width(w: Any) -> WidthDiagnostics:
    return WidthDiagnostics(
        float(w.gamma()),
        [float(v) for v in w.eigenvalues()],
        [float(v) for v in w.coefficients()],
        int(w.columns()),
        [float(v) for v in w.logLikelihood()],
        int(w.dimension()),
        [float(v) for v in w.leaveOneOut()],
        [float(v) for v in w.trainingLoss()],
    )


# ---------------------------------------------------------------------------------------------------------
# Evaluator


class ReconstructionErrorEvaluator(
    _params._ReconstructionErrorEvaluatorBase,
    _KpcaParams,
    JavaEvaluator,
    JavaMLReadable,
    JavaMLWritable,
):
    """Held-out reconstruction error for ``CrossValidator`` and ``TrainValidationSplit`` without labels;
    smaller is better. ``metricName`` chooses what it measures, and so what it can tune:

    - ``featureSpaceResidual`` (default): the mean of the models' ``residualCol``, the squared feature-space
      distance of each row to the principal subspace. It compares models of one kernel and γ (the landmarks,
      or k at a cost); it cannot choose γ or the kernel, as it falls towards 0 when γ → 0 on any data.
    - ``inputSpaceError``: the mean of ``||x - x^||^2`` between each row and the pre-image of its scores, as
      scikit-learn users tune ``KernelPCA`` through ``inverse_transform``. It compares γ, kernels and k. It
      reads the models' ``preimageErrorCol`` when the dataset has it (computed in the span of the landmarks,
      at sparse cost: the way to tune γ on wide sparse rows such as hashed text), else ``inputCol`` and the
      dense pre-images of ``reconstructionCol``. Use ``preimageMethod="ridge"``: its map from scores to inputs
      is fitted with the model, on its landmarks, so held-out rows are reconstructed by a map that never saw
      them. ``relativeInputSpaceError`` divides it by the rows' total variance.

    Comparing residuals of models with different kernels or γ logs one warning per evaluator.

    >>> kpca = NystromKernelPCA(k=2, numLandmarks=100, preimageErrorCol="preimageError",
    ...                         preimageMethod="ridge")  # doctest: +SKIP
    >>> evaluator = ReconstructionErrorEvaluator(metricName="inputSpaceError")  # doctest: +SKIP
    """

    def _evaluate(self, dataset: DataFrame) -> float:
        dataset = as_spark_dataframe(dataset, f"{type(self).__name__}.evaluate")
        if self.getMetricName() != "featureSpaceResidual":
            from_errors = self.getPreimageErrorCol() in dataset.columns
            needed = [] if from_errors else [("reconstructionCol", self.getReconstructionCol())]
            if not from_errors or self.getMetricName() == "relativeInputSpaceError":
                needed.insert(0, ("inputCol", self.getInputCol()))
            for param, column in needed:
                if column not in dataset.columns:
                    hint = (
                        f"; set preimageErrorCol '{self.getPreimageErrorCol()}' (or reconstructionCol) and "
                        "preimageMethod ridge on the kernel PCA estimator so that its models produce it"
                        if param == "reconstructionCol"
                        else ""
                    )
                    raise IllegalArgumentException(
                        f"ReconstructionErrorEvaluator: {param} '{column}' is not a column of the dataset "
                        f"(columns: {', '.join(dataset.columns)}){hint}"
                    )
            with jvm_errors():
                return super()._evaluate(dataset)
        column = self.getResidualCol()
        if column not in dataset.columns:
            raise IllegalArgumentException(
                f"ReconstructionErrorEvaluator: residualCol '{column}' is not a column of the dataset "
                f"(columns: {', '.join(dataset.columns)}); set residualCol on the kernel PCA estimator so "
                "that its models produce it"
            )
        with jvm_errors():
            return super()._evaluate(dataset)

    def isLargerBetter(self) -> bool:
        """False: a smaller reconstruction error is better."""
        return False


from spark_kpca.ml._streaming import StreamingKernelPCA  # noqa: E402


def load_model(path: str) -> _KernelPCAModelMethods:
    """Loads any saved kernel PCA model (Nyström, random features or exact) as its Python class, whichever
    stage wrote it (Java's ``AbstractKernelPCAModel.loadAny``)."""
    if not isinstance(path, str):
        raise TypeError(f"path should be a string, got type {type(path).__name__}")
    from pyspark.ml.wrapper import JavaParams

    with jvm_errors():
        java_model = _java_static(JAVA_UTILITIES["AbstractKernelPCAModel"]).loadAny(path)
        return JavaParams._from_java(java_model)  # type: ignore[return-value]

_install_java_package_aliases(sys.modules[__name__])
_action_errors.install()
