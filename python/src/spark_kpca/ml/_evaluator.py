"""The evaluator: held-out reconstruction error for ``CrossValidator`` and ``TrainValidationSplit``."""

from pyspark.ml.evaluation import JavaEvaluator
from pyspark.ml.util import JavaMLReadable, JavaMLWritable
from pyspark.sql import DataFrame

from spark_kpca.errors import IllegalArgumentException, jvm_errors
from spark_kpca.ml import _params
from spark_kpca.ml._datasets import as_spark_dataframe
from spark_kpca.ml._wrapper import _KpcaParams


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
