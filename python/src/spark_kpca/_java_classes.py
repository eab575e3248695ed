"""The Java class behind each Python class of :mod:`spark_kpca.ml`: the one place that names them.

PySpark finds the Python class of a JVM stage (when a ``PipelineModel`` or a ``CrossValidatorModel`` is loaded)
from the Java class name; :mod:`spark_kpca.ml` registers the Java packages named here as aliases of itself, and
its readers load each class through the Java class named here. When a Java class moves to another package, only
its line here changes.
"""

from typing import Dict

JAVA_CLASSES: Dict[str, str] = {
    "NystromKernelPCA": "io.github.sparkkpca.ml.NystromKernelPCA",
    "NystromKernelPCAModel": "io.github.sparkkpca.ml.NystromKernelPCAModel",
    "RandomFeatureKernelPCA": "io.github.sparkkpca.ml.RandomFeatureKernelPCA",
    "RandomFeatureKernelPCAModel": "io.github.sparkkpca.ml.RandomFeatureKernelPCAModel",
    "KernelPCA": "io.github.sparkkpca.ml.KernelPCA",
    "KernelPCAModel": "io.github.sparkkpca.ml.KernelPCAModel",
    "KernelPCARegressor": "io.github.sparkkpca.ml.KernelPCARegressor",
    "RelevantDimensionEstimator": "io.github.sparkkpca.ml.RelevantDimensionEstimator",
    "KernelPCARegressionModel": "io.github.sparkkpca.ml.KernelPCARegressionModel",
    "ReconstructionErrorEvaluator": "io.github.sparkkpca.ml.ReconstructionErrorEvaluator",
    "StreamingKernelPCA": "io.github.sparkkpca.ml.StreamingKernelPCA",
}

#: Java utility classes the models' methods call (not stages; never looked up by PySpark).
JAVA_UTILITIES: Dict[str, str] = {
    "ModelExport": "io.github.sparkkpca.ml.ModelExport",
    "NystromConfidenceBound": "io.github.sparkkpca.evaluation.NystromConfidenceBound",
    "CapturedVariance": "io.github.sparkkpca.evaluation.CapturedVariance",
    "Mpress": "io.github.sparkkpca.evaluation.Mpress",
    "AbstractKernelPCAModel": "io.github.sparkkpca.ml.AbstractKernelPCAModel",
}
