"""The streaming sink: kernel PCA of a Structured Streaming query (Java's ``StreamingKernelPCA``)."""

from typing import Any, Optional

from pyspark.ml.wrapper import JavaParams
from pyspark.sql import DataFrame

from spark_kpca._java_classes import JAVA_CLASSES
from spark_kpca._jvm import java_class
from spark_kpca.errors import IllegalArgumentException, jvm_errors


def _jvm() -> Any:
    from pyspark import SparkContext

    sc = SparkContext._active_spark_context
    if sc is None:
        raise RuntimeError("no active SparkContext: start a SparkSession with spark.jars = jar_path()")
    return sc._jvm


def _java_class() -> Any:
    return java_class(JAVA_CLASSES["StreamingKernelPCA"])


class StreamingKernelPCA:
    """Kernel PCA of a Structured Streaming query: each micro-batch (``foreachBatch``) is folded into the model
    and the model is written as a new version ``version-<batchId>`` of ``modelDir``, atomically, so that a
    reader always finds a whole model and a restart from the checkpoint folds every row in exactly once.

    ``algorithm = "exact"``: the first non-empty micro-batch is fitted by the estimator (a
    :class:`~spark_kpca.ml.NystromKernelPCA`, or a :class:`~spark_kpca.ml.RandomFeatureKernelPCA` with fixed
    D), every later one is absorbed by the model's ``update``: the model after any micro-batch equals, to
    rounding, a batch fit on every row seen so far with the same landmarks. ``algorithm = "oja"``: RF-Oja
    (Ullah et al. 2018), Oja's rule on the random Fourier features of a RandomFeatureKernelPCA configuration.

    >>> sink = StreamingKernelPCA(estimator=kpca, modelDir="/tmp/kpca-stream")   # doctest: +SKIP
    >>> query = sink.start(stream_df, "/tmp/kpca-checkpoint", availableNow=True)  # doctest: +SKIP
    >>> query.awaitTermination(); model = StreamingKernelPCA.loadLatest("/tmp/kpca-stream")  # doctest: +SKIP
    """

    def __init__(
        self,
        *,
        estimator: Optional[Any] = None,
        modelDir: Optional[str] = None,
        algorithm: str = "exact",
        keepVersions: int = 5,
        stepSchedule: Optional[str] = None,
        miniBatchSize: int = 1,
        qrEvery: int = 16,
        warmStart: Optional[Any] = None,
        versionEveryBatches: int = 1,
        versionEverySeconds: float = 0.0,
    ) -> None:
        with jvm_errors():
            self._java_obj = _java_class()()
        self._estimator: Optional[Any] = None
        if estimator is not None:
            self.setEstimator(estimator)
        if modelDir is not None:
            self.setModelDir(modelDir)
        self.setAlgorithm(algorithm)
        self.setKeepVersions(keepVersions)
        if stepSchedule is not None:
            self.setStepSchedule(stepSchedule)
        self.setMiniBatchSize(miniBatchSize)
        self.setQrEvery(qrEvery)
        if warmStart is not None:
            self.setWarmStart(warmStart)
        self.setVersionEveryBatches(versionEveryBatches)
        self.setVersionEverySeconds(versionEverySeconds)

    def setEstimator(self, value: Any) -> "StreamingKernelPCA":
        """The estimator that fits the first micro-batch (``exact``) or whose random-feature parameters
        RF-Oja uses (``oja``)."""
        if not isinstance(value, JavaParams):
            raise TypeError(f"estimator should be a spark_kpca.ml estimator, got {type(value).__name__}")
        self._estimator = value
        return self

    def setAlgorithm(self, value: str) -> "StreamingKernelPCA":
        """``exact`` (default) or ``oja``."""
        if value not in ("exact", "oja"):
            raise IllegalArgumentException(f"algorithm must be exact or oja, got '{value}'")
        with jvm_errors():
            self._java_obj.setAlgorithm(value)
        return self

    def setModelDir(self, value: str) -> "StreamingKernelPCA":
        """The directory of the model versions (local, HDFS, any Hadoop file system)."""
        with jvm_errors():
            self._java_obj.setModelDir(str(value))
        return self

    def setKeepVersions(self, value: int) -> "StreamingKernelPCA":
        """How many of the newest versions are kept (>= 2, default 5)."""
        if int(value) < 2:
            raise IllegalArgumentException(f"keepVersions must be >= 2, got {value}")
        with jvm_errors():
            self._java_obj.setKeepVersions(int(value))
        return self

    def setVersionEveryBatches(self, value: int) -> "StreamingKernelPCA":
        """Write a model version every N micro-batches (>= 1, default 1). In between, each micro-batch's rows
        are kept in the model directory as ``pending-<batchId>`` (Parquet), so a restart still counts every
        row once, and the eigenproblem waits for the version; call :meth:`flush` when the query has ended."""
        if int(value) < 1:
            raise IllegalArgumentException(f"versionEveryBatches must be >= 1, got {value}")
        with jvm_errors():
            self._java_obj.setVersionEveryBatches(int(value))
        return self

    def setVersionEverySeconds(self, value: float) -> "StreamingKernelPCA":
        """Also write a version once this many seconds have passed since the last one (0, the default:
        only ``versionEveryBatches``)."""
        if not float(value) >= 0 or float(value) == float("inf"):
            raise IllegalArgumentException(f"versionEverySeconds must be finite and >= 0, got {value}")
        with jvm_errors():
            self._java_obj.setVersionEverySeconds(float(value))
        return self

    def flush(self) -> Optional[str]:
        """Writes a version holding every row folded in so far when the newest one does not (rows kept as
        pending since); returns the newest version's path, or None when the directory holds no model."""
        self._prepare()
        with jvm_errors():
            return self._java_obj.flush()

    def setStepSchedule(self, value: str) -> "StreamingKernelPCA":
        """RF-Oja's step sizes: ``constant:ETA``, ``inverse:C:T0`` (default ``inverse:1:10``, η_t = 1/(t + 10))
        or ``three-phase:GAP:T0:T1``."""
        jvm = _jvm()
        with jvm_errors():
            schedule = jvm.io.github.sparkkpca.pca.StepSchedule.parse(str(value))
            self._java_obj.setStepSchedule(schedule)
        return self

    def setMiniBatchSize(self, value: int) -> "StreamingKernelPCA":
        """RF-Oja's rows per step b (>= 1, default 1)."""
        if int(value) < 1:
            raise IllegalArgumentException(f"miniBatchSize must be >= 1, got {value}")
        with jvm_errors():
            self._java_obj.setMiniBatchSize(int(value))
        return self

    def setQrEvery(self, value: int) -> "StreamingKernelPCA":
        """RF-Oja: re-orthonormalise the basis every this many steps (>= 1, default 16)."""
        if int(value) < 1:
            raise IllegalArgumentException(f"qrEvery must be >= 1, got {value}")
        with jvm_errors():
            self._java_obj.setQrEvery(int(value))
        return self

    def setWarmStart(self, model: Any) -> "StreamingKernelPCA":
        """RF-Oja: start from this RandomFeatureKernelPCAModel's features and components."""
        with jvm_errors():
            self._java_obj.setWarmStart(model._java_obj)
        return self

    def _prepare(self) -> None:
        if self._estimator is None:
            raise IllegalArgumentException("StreamingKernelPCA: set the estimator first (setEstimator)")
        self._estimator._transfer_params_to_java()
        with jvm_errors():
            self._java_obj.setEstimator(self._estimator._java_obj)

    def start(
        self,
        stream: DataFrame,
        checkpoint: str,
        *,
        availableNow: bool = False,
        once: bool = False,
        processingTime: Optional[str] = None,
    ) -> Any:
        """Starts the query ``stream.writeStream.foreachBatch(...)`` with the checkpoint and one trigger
        (default: micro-batches as fast as possible); returns PySpark's ``StreamingQuery``. Before it starts,
        the model directory is tied to the checkpoint: another checkpoint, a checkpoint inside the model
        directory (or the reverse) and other model options than the recorded ones raise ValueError."""
        from pyspark.sql.streaming import StreamingQuery

        chosen = [t for t in (availableNow, once, processingTime is not None) if t]
        if len(chosen) > 1:
            raise IllegalArgumentException(
                "give at most one trigger: availableNow, once or processingTime"
            )
        if not stream.isStreaming:
            raise IllegalArgumentException("start needs a streaming DataFrame (spark.readStream...)")
        self._prepare()
        trigger = _jvm().org.apache.spark.sql.streaming.Trigger
        with jvm_errors():
            if availableNow:
                java_trigger = trigger.AvailableNow()
            elif once:
                java_trigger = trigger.Once()
            else:
                java_trigger = trigger.ProcessingTime(processingTime or "0 seconds")
            jsq = self._java_obj.start(stream._jdf, str(checkpoint), java_trigger)
        return StreamingQuery(jsq)

    @staticmethod
    def latestVersion(modelDir: str) -> Optional[str]:
        """The newest committed version directory of a streaming model directory, or None."""
        from pyspark import SparkContext

        sc = SparkContext._active_spark_context
        with jvm_errors():
            return _java_class().latestVersion(str(modelDir), sc._jsc.hadoopConfiguration())

    @staticmethod
    def loadLatest(modelDir: str) -> Any:
        """Loads the newest committed version of a streaming model directory as its Python model class."""
        with jvm_errors():
            java_model = _java_class().loadLatest(str(modelDir))
            return JavaParams._from_java(java_model)
