"""spark-kpca's Spark ML stages for Python: thin wrappers of the JVM stages, as ``pyspark.ml.feature.PCA``
wraps Spark's.

No algorithm runs in Python: every fit, transform and evaluation is the Java library's. The Params (names,
doc texts, defaults) are generated from the Java stages (``tools/generate_params.py``) and checked against them
by the tests. Stages save in the Java format, so a model or ``Pipeline`` saved here loads in Java, Scala and the
command line, and one saved there loads here as these classes.

The JVM needs the library jar on its class path: ``spark.jars`` = :func:`spark_kpca.jar_path`.
"""

import sys

from spark_kpca._java_classes import JAVA_UTILITIES
from spark_kpca.errors import jvm_errors
from spark_kpca.ml import _action_errors, _base, _evaluator, _kernel_pca, _model, _regression
from spark_kpca.ml._base import (  # noqa: F401 (the shared bases, importable from here as before)
    _check_input_column,
    _conversion_hint,
    _FittedKernel,
    _FittedLandmarks,
    _FittedRandomFeatures,
    _FittedValues,
    _java_static,
    _KpcaEstimator,
    _KpcaModel,
)
from spark_kpca.ml._evaluator import ReconstructionErrorEvaluator
from spark_kpca.ml._kernel_pca import (
    KernelPCA,
    KernelPCAModel,
    NystromKernelPCA,
    NystromKernelPCAModel,
    RandomFeatureKernelPCA,
    RandomFeatureKernelPCAModel,
)
from spark_kpca.ml._model import _KernelPCAModelMethods, CapturedVarianceResult, ConfidenceBound
from spark_kpca.ml._regression import (
    _KpcaPredictor,
    KernelPCARegressionModel,
    KernelPCARegressor,
    LabelCoding,
    RelevantDimensionEstimator,
    WidthDiagnostics,
)
from spark_kpca.ml._streaming import StreamingKernelPCA
from spark_kpca.ml._wrapper import _install_java_package_aliases

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



def load_model(path: str) -> _KernelPCAModelMethods:
    """Loads any saved kernel PCA model (Nyström, random features or exact) as its Python class, whichever
    stage wrote it (Java's ``AbstractKernelPCAModel.loadAny``)."""
    if not isinstance(path, str):
        raise TypeError(f"path should be a string, got type {type(path).__name__}")
    from pyspark.ml.wrapper import JavaParams

    with jvm_errors():
        java_model = _java_static(JAVA_UTILITIES["AbstractKernelPCAModel"]).loadAny(path)
        return JavaParams._from_java(java_model)  # type: ignore[return-value]


# The classes live in private modules by responsibility; they are spark_kpca.ml's, as before the split: their
# names in reprs, pickles, documentation and the class names PipelineModel.load reports are spark_kpca.ml.X.
for _name in __all__:
    _value = globals()[_name]
    if isinstance(_value, type) and _value.__module__ in (
        _base.__name__, _evaluator.__name__, _kernel_pca.__name__, _model.__name__, _regression.__name__
    ):
        _value.__module__ = __name__
del _name, _value

_install_java_package_aliases(sys.modules[__name__])
_action_errors.install()
