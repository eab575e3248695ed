"""The kernel PCA stages and their models: Nyström, random features and exact kernel PCA."""

from typing import Any

from pyspark.ml.linalg import DenseMatrix, DenseVector
from pyspark.ml.util import JavaMLReadable, JavaMLWritable
from pyspark.sql import DataFrame

from spark_kpca._java_classes import JAVA_UTILITIES
from spark_kpca.errors import IllegalArgumentException, jvm_errors
from spark_kpca.ml import _params
from spark_kpca.ml._base import (
    _check_input_column,
    _FittedKernel,
    _FittedLandmarks,
    _FittedRandomFeatures,
    _java_static,
    _KpcaEstimator,
)
from spark_kpca.ml._model import _KernelPCAModelMethods, ConfidenceBound


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
