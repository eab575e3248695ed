"""Kernel PCA regression: the fixed-dimension regressor, the relevant-dimension estimator and their model."""

from typing import Any, List, NamedTuple

from pyspark.ml.linalg import Vector
from pyspark.ml.util import JavaMLReadable, JavaMLWritable
from pyspark.ml.wrapper import JavaPredictionModel, JavaPredictor
from pyspark.sql import DataFrame

from spark_kpca.errors import IllegalArgumentException, jvm_errors
from spark_kpca.ml import _params
from spark_kpca.ml._base import _check_input_column, _FittedKernel, _FittedLandmarks, _KpcaEstimator, _KpcaModel
from spark_kpca.ml._wrapper import _to_list


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
