"""Every Python Param equals its Java Param: name, doc text, default; and every Java setter has a Python one."""

import functools

import pytest
from generate_params import OUTPUT_ONLY
from generate_params import STAGES as GENERATED_STAGES
from java_stages import java_stage as _new_java_stage
from pyspark.ml.param import Params

import spark_kpca.ml as ml
from spark_kpca._java_classes import JAVA_CLASSES

java_stage = functools.lru_cache(maxsize=None)(_new_java_stage)

STAGES = [name for name in JAVA_CLASSES if name != "StreamingKernelPCA"]


def output_only(name):
    """The model's output-only Params that the Java estimator ``name`` lists too and the Python one does not."""
    for stage, mixin, estimator in GENERATED_STAGES:
        if stage == name and estimator:
            return set(OUTPUT_ONLY.get(mixin, ()))
    return set()


def _java_default(java, param):
    option = java.getDefault(param)
    if not option.isDefined():
        return None
    value = option.get()
    if hasattr(value, "__len__") and not isinstance(value, str):
        return [float(v) for v in value]
    return value


@pytest.mark.parametrize("name", STAGES)
def test_params_equal_the_java_ones(spark, name):
    java = java_stage(spark, name)
    py = getattr(ml, name)()
    hidden = output_only(name)
    java_names = sorted(p.name() for p in java.params())
    py_names = sorted(p.name for p in py.params)
    assert py_names == sorted(set(java_names) - hidden)
    for param in java.params():
        if param.name() in hidden:
            continue
        p = py.getParam(param.name())
        assert p.doc == param.doc(), param.name()
        java_default = _java_default(java, param)
        if java_default is None:
            assert not py.hasDefault(p), param.name()
        else:
            assert py.hasDefault(p), param.name()
            assert py.getOrDefault(p) == java_default, param.name()
            assert type(py.getOrDefault(p)) is type(java_default), param.name()


@pytest.mark.parametrize("name", STAGES)
def test_every_java_setter_has_a_python_setter_and_getter(spark, name):
    java = java_stage(spark, name)
    py_class = getattr(ml, name)
    names = {p.name() for p in java.params()}
    setters = set()
    for method in java.getClass().getMethods():
        m = method.getName()
        if len(m) > 3 and m.startswith("set") and method.getParameterCount() == 1:
            param = m[3].lower() + m[4:]
            if param in names:
                setters.add(param)
    assert setters, name
    for param in sorted(setters):
        cap = param[0].upper() + param[1:]
        assert callable(getattr(py_class, "set" + cap, None)), f"{name}.set{cap}"
    assert not setters & output_only(name), name
    for param in names - output_only(name):
        cap = param[0].upper() + param[1:]
        assert callable(getattr(py_class, "get" + cap, None)), f"{name}.get{cap}"


def test_output_only_params_are_the_models_and_not_the_estimators():
    """The Nyström model's fit outputs are listed by the model only; the estimator takes the pre-image Params."""
    estimator_params = {p.name for p in ml.NystromKernelPCA().params}
    assert output_only("NystromKernelPCA") == {
        "kernelBlockPath", "kernelDegenerate", "landmarkConditionEstimate", "landmarkResidualCurve",
        "statisticsRouteCheck", "statisticsRouteTaken",
    }
    assert not output_only("NystromKernelPCA") & estimator_params
    assert output_only("NystromKernelPCA") <= set(dir(ml.NystromKernelPCAModel))
    for estimator in (ml.NystromKernelPCA, ml.RandomFeatureKernelPCA, ml.KernelPCA):
        for param in ("reconstructionCol", "preimageMethod", "preimageMaxIter", "preimageRidge"):
            assert param in estimator._init_params, (estimator.__name__, param)


def test_keyword_only_constructor_and_set_params():
    kpca = ml.NystromKernelPCA(k=3, numLandmarks=40, kernel="laplacian", seed=5)
    assert (kpca.getK(), kpca.getNumLandmarks(), kpca.getKernel(), kpca.getSeed()) == (3, 40, "laplacian", 5)
    with pytest.raises(TypeError):
        ml.NystromKernelPCA(3)  # positional arguments are refused
    assert kpca.setParams(k=4, gamma=0.25) is kpca
    assert kpca.getK() == 4 and kpca.getGamma() == 0.25
    assert kpca.setCentered(False).getCentered() is False
    # type converters
    kpca.setNumLandmarks(50.0)
    assert kpca.getNumLandmarks() == 50 and isinstance(kpca.getNumLandmarks(), int)
    with pytest.raises(TypeError):
        kpca.setK("three")
    reg = ml.RelevantDimensionEstimator(gammaGrid=[1, 2])
    assert reg.getGammaGrid() == [1.0, 2.0]


def test_params_are_shared_mixins():
    assert issubclass(ml.NystromKernelPCA, ml._params._KernelPCAParams)
    assert issubclass(ml.NystromKernelPCAModel, ml._params._NystromKernelPCAParams)
    assert issubclass(ml.KernelPCARegressor, ml._params._KernelParams)
    for name in STAGES:
        assert issubclass(getattr(ml, name), Params)


def test_generated_params_mention_every_java_class_once():
    # the Java class names live in _java_classes only
    import inspect

    from spark_kpca.ml import _params

    source = inspect.getsource(_params)
    assert "io.github" not in source
