"""Every validated Param refuses a bad value when it is set, in Python, with the Java rule's words: the valid
range or choices and the value (``gamma must be finite and > 0; got Infinity``)."""

import functools

import pytest
from java_stages import java_stage as _new_java_stage

import spark_kpca.ml as ml
from spark_kpca.errors import IllegalArgumentException
from spark_kpca.ml._params import PARAM_RULES
from spark_kpca.ml._rules import check

java_stage = functools.lru_cache(maxsize=None)(_new_java_stage)

# One bad value per validated Param (after the Param's type conversion).
BAD = {
    "blockSize": -1,
    "coef0": float("nan"),
    "degree": 0,
    "dimension": 0,
    "featureScale": float("inf"),
    "gamma": float("inf"),
    "gammaGrid": [1.0, float("inf")],
    "k": 0,
    "kernel": "foo",
    "kmeansMaxIter": 0,
    "labelMode": "ordinal",
    "landmarkAlpha": 1.0,
    "landmarkProbeSize": 1,
    "landmarkSampling": "random",
    "landmarkTest": "t",
    "landmarkTolerance": 0.0,
    "leverageRegularization": 0.0,
    "maxDimension": -1,
    "maxLandmarks": 0,
    "maxRows": 0,
    "metricName": "mse",
    "numLandmarks": 0,
    "numRandomFeatures": -3,
    "preimageMaxIter": 0,
    "preimageMethod": "newton",
    "preimageRidge": -1e-5,
    "rcond": 1.0,
    "spectrum": "all",
    "statisticsRoute": "fast",
    "topKMaxPasses": 0,
    "topKTolerance": 1.0,
}

STAGES = ["NystromKernelPCA", "RandomFeatureKernelPCA", "KernelPCA", "KernelPCARegressor",
          "RelevantDimensionEstimator", "ReconstructionErrorEvaluator"]


def test_every_java_rule_has_a_python_copy(spark):
    java_rules = set()
    for name in STAGES:
        for param in java_stage(spark, name).params():
            if param.isValid().getClass().getName() == "io.github.sparkkpca.ml.ParamRule":
                java_rules.add(param.name())
    assert java_rules == set(PARAM_RULES) == set(BAD)


@pytest.mark.parametrize("name", STAGES)
def test_set_time_refusal_names_the_range_with_the_java_words(spark, name):
    java = java_stage(spark, name)
    for param in java.params():
        pname = param.name()
        if pname not in PARAM_RULES:
            continue
        value = BAD[pname]
        # the Java refusal (Spark's set runs the rule)
        with pytest.raises(Exception) as java_info:
            java.set(param, _java_value(spark, value))
        java_message = _java_message(java_info.value)
        assert java_message.startswith(f"{pname} must be "), java_message
        # the Python refusal, at set time, through the setter
        stage = getattr(ml, name)()
        setter = getattr(stage, "set" + pname[0].upper() + pname[1:], None)
        with pytest.raises(IllegalArgumentException) as py_info:
            if setter is not None:
                setter(value)
            else:
                stage._set(**{pname: value})
        assert str(py_info.value) == f"IllegalArgumentException: {java_message}"
        assert "\n" not in str(py_info.value)
        assert not stage.isSet(stage.getParam(pname)), f"{pname} stays unset after a refusal"


def _java_value(spark, value):
    if isinstance(value, list):
        array = spark.sparkContext._gateway.new_array(spark.sparkContext._jvm.double, len(value))
        for i, v in enumerate(value):
            array[i] = v
        return array
    return value


def _java_message(exc):
    from spark_kpca.errors import _captured_origin, from_java

    origin = _captured_origin(exc)
    return from_java(origin).message


def test_gamma_infinity_and_the_kernel_choices_at_set_time():
    with pytest.raises(IllegalArgumentException) as info:
        ml.NystromKernelPCA(gamma=float("inf"))
    assert str(info.value) == "IllegalArgumentException: gamma must be finite and > 0; got Infinity"
    with pytest.raises(IllegalArgumentException) as info:
        ml.KernelPCA(kernel="foo")
    assert str(info.value) == (
        "IllegalArgumentException: kernel must be one of rbf, gaussian, laplacian, polynomial, poly, linear, "
        "cosine, sigmoid; got foo"
    )
    kpca = ml.NystromKernelPCA(kernel="Laplacian", gamma=0.5)
    assert kpca.getKernel() == "Laplacian" and kpca.getGamma() == 0.5
    with pytest.raises(IllegalArgumentException, match="^IllegalArgumentException: rcond must be in \\[0, 1\\); got -1.0E-20$"):
        kpca.setRcond(-1e-20)
    assert kpca.getRcond() != -1e-20


def test_python_rules_need_no_jvm():
    # the client-side copy alone (what a Spark Connect client runs): same words
    for pname, value in BAD.items():
        with pytest.raises(IllegalArgumentException) as info:
            check(pname, PARAM_RULES[pname], value)
        assert str(info.value).startswith(f"IllegalArgumentException: {pname} must be ")
    with pytest.raises(IllegalArgumentException, match="preimageRidge must be finite and > 0; got -1.0E-5"):
        check("preimageRidge", PARAM_RULES["preimageRidge"], -1e-5)
    check("kernel", PARAM_RULES["kernel"], " RBF ")
    check("rcond", PARAM_RULES["rcond"], 0.0)
