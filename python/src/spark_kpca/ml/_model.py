"""What every fitted kernel PCA model (Nyström, random features, exact) tells and does: its sizes, spectrum,
projector and offset, ``update``, ``export`` and the evaluations that run in the JVM."""

from typing import Any, List, NamedTuple, Optional

from pyspark.ml.linalg import DenseMatrix, DenseVector, Matrix
from pyspark.sql import DataFrame

from spark_kpca._java_classes import JAVA_UTILITIES
from spark_kpca.errors import IllegalArgumentException, jvm_errors
from spark_kpca.ml._base import _active_sc, _check_input_column, _java_static, _jvm, _KpcaModel
from spark_kpca.ml._datasets import as_spark_dataframe
from spark_kpca.ml._wrapper import _to_list


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
