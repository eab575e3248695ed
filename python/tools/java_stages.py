"""Live Java stages for tools/generate_params.py and the tests: a new estimator or evaluator, or a model fitted
on a tiny data set (the Java models have no constructor without a fitted solution)."""

from typing import Any

from spark_kpca._java_classes import JAVA_CLASSES

# Model -> (estimator, Params set on it for the tiny fit).
_FITS = {
    "NystromKernelPCAModel": ("NystromKernelPCA", {"k": 1, "numLandmarks": 4}),
    "RandomFeatureKernelPCAModel": ("RandomFeatureKernelPCA", {"k": 1, "numRandomFeatures": 8}),
    "KernelPCAModel": ("KernelPCA", {"k": 1}),
    "KernelPCARegressionModel": ("KernelPCARegressor", {"dimension": 1, "numLandmarks": 4}),
}


def _construct(jvm: Any, name: str) -> Any:
    obj = jvm
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj()


def tiny_frame(spark: Any) -> Any:
    from pyspark.ml.linalg import Vectors

    rows = [(Vectors.dense([float(i), float(i * i % 5)]), float(i % 2)) for i in range(8)]
    return spark.createDataFrame(rows, ["features", "label"])


def java_stage(spark: Any, name: str) -> Any:
    """The Java stage of the Python class ``name`` (a model fitted on :func:`tiny_frame`)."""
    jvm = spark.sparkContext._jvm
    if name not in _FITS:
        return _construct(jvm, JAVA_CLASSES[name])
    estimator_name, params = _FITS[name]
    estimator = _construct(jvm, JAVA_CLASSES[estimator_name])
    for param, value in params.items():
        estimator.set(estimator.getParam(param), value)
    return estimator.fit(tiny_frame(spark)._jdf)
