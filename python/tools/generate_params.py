"""Generates src/spark_kpca/ml/_params.py from the Java stages, so that the Python Params cannot drift.

    python tools/generate_params.py            # rewrites src/spark_kpca/ml/_params.py
    python tools/generate_params.py --check    # exits 1 when the file differs from what the jar gives

Needs PySpark and the library jar (spark_kpca.jar_path(), or SPARK_KPCA_JAR). It starts a local JVM, reads each
Java Params interface's Param methods (name, doc text, Param type) and each stage's defaults and setters, and
writes one Python mixin per Java interface plus one generated base class per stage (keyword-only ``__init__``,
``setParams``, ``setX`` for every Java setter and the Java defaults). tests/test_params.py checks the result
against the live JVM stages as well.
"""

import argparse
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from spark_kpca._java_classes import JAVA_CLASSES  # noqa: E402

sys.path.insert(0, str(HERE))
from java_stages import java_stage  # noqa: E402

OUT = HERE.parent / "src" / "spark_kpca" / "ml" / "_params.py"
ML = "io.github.sparkkpca.ml."

# Python mixin -> (Java interface or class whose declared Param methods it holds, Python bases,
#                  Java stage that holds the Param objects).
MIXINS: List[Tuple[str, str, Sequence[str], str]] = [
    ("_KernelParams", ML + "KernelParams", ["Params"], "NystromKernelPCA"),
    ("_KernelPCAParams", ML + "KernelPCAParams", ["_KernelParams"], "NystromKernelPCA"),
    ("_FeaturePCAParams", ML + "FeaturePCAParams", ["_KernelPCAParams"], "NystromKernelPCA"),
    (
        "_NystromKernelPCAParams",
        ML + "NystromKernelPCAParams",
        ["_FeaturePCAParams"],
        "NystromKernelPCA",
    ),
    (
        "_NystromKernelPCAModelParams",
        ML + "NystromKernelPCAParams",
        ["_NystromKernelPCAParams"],
        "NystromKernelPCAModel",
    ),
    (
        "_RandomFeatureKernelPCAParams",
        ML + "RandomFeatureKernelPCAParams",
        ["_FeaturePCAParams"],
        "RandomFeatureKernelPCA",
    ),
    ("_KernelPCAParamsExact", "KernelPCA", ["_KernelPCAParams"], "KernelPCA"),
    (
        "_KernelPCARegressionParams",
        ML + "KernelPCARegressionParams",
        ["_KernelParams", "_PredictorParams"],
        "KernelPCARegressor",
    ),
    (
        "_ReconstructionErrorEvaluatorParams",
        "ReconstructionErrorEvaluator",
        ["Params"],
        "ReconstructionErrorEvaluator",
    ),
]

# Params that a fit sets on the model to say what it did (output only): the Java interface declares them for
# estimator and model alike, but only the model's mixin (the next entry of MIXINS) holds them in Python, so an
# estimator neither lists them nor takes them. The Java estimator has no setter for any of them (checked).
OUTPUT_ONLY: Dict[str, Sequence[str]] = {
    "_NystromKernelPCAParams": [
        "kernelBlockPath",
        "kernelDegenerate",
        "landmarkConditionEstimate",
        "landmarkResidualCurve",
        "statisticsRouteCheck",
        "statisticsRouteTaken",
    ],
}

# Python stage base -> (Java stage, its params mixin, whether it is an estimator with keyword arguments).
STAGES: List[Tuple[str, str, bool]] = [
    ("NystromKernelPCA", "_NystromKernelPCAParams", True),
    ("NystromKernelPCAModel", "_NystromKernelPCAModelParams", False),
    ("RandomFeatureKernelPCA", "_RandomFeatureKernelPCAParams", True),
    ("RandomFeatureKernelPCAModel", "_RandomFeatureKernelPCAParams", False),
    ("KernelPCA", "_KernelPCAParamsExact", True),
    ("KernelPCAModel", "_KernelPCAParamsExact", False),
    ("KernelPCARegressor", "_KernelPCARegressionParams", True),
    ("RelevantDimensionEstimator", "_KernelPCARegressionParams", True),
    ("KernelPCARegressionModel", "_KernelPCARegressionParams", False),
    ("ReconstructionErrorEvaluator", "_ReconstructionErrorEvaluatorParams", True),
]

# Java Param class -> (PySpark type converter, Python type).
CONVERTERS: Dict[str, Tuple[str, str]] = {
    "IntParam": ("TypeConverters.toInt", "int"),
    "LongParam": ("TypeConverters.toInt", "int"),
    "DoubleParam": ("TypeConverters.toFloat", "float"),
    "BooleanParam": ("TypeConverters.toBoolean", "bool"),
    "DoubleArrayParam": ("TypeConverters.toListFloat", "List[float]"),
    "Param": ("TypeConverters.toString", "str"),
}

# Spark's Predictor Params, which the regression stages have.
SPARK_SHARED = {"featuresCol", "labelCol", "predictionCol"}


def java_class(name: str) -> str:
    return name if "." in name else JAVA_CLASSES[name]


def start_jvm() -> Any:
    from pyspark.sql import SparkSession

    from spark_kpca import jar_path

    spark = (
        SparkSession.builder.master("local[1]")
        .appName("generate-params")
        .config("spark.jars", jar_path())
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    return spark


def load_class(jvm: Any, name: str) -> Any:
    loader = jvm.java.lang.Thread.currentThread().getContextClassLoader()
    return jvm.java.lang.Class.forName(name, True, loader)


def declared_params(jvm: Any, clazz: Any) -> List[str]:
    """Names of the no-argument methods declared by clazz that return a Param, in source-stable order."""
    param_class = load_class(jvm, "org.apache.spark.ml.param.Param")
    names = []
    for method in clazz.getDeclaredMethods():
        if method.getParameterCount() != 0:
            continue
        if not jvm.java.lang.reflect.Modifier.isPublic(method.getModifiers()):
            continue
        if param_class.isAssignableFrom(method.getReturnType()):
            names.append(method.getName())
    return sorted(set(names))




def default_of(stage: Any, param: Any) -> Optional[Any]:
    option = stage.getDefault(param)
    if not option.isDefined():
        return None
    value = option.get()
    if hasattr(value, "__len__") and not isinstance(value, str):
        return [float(v) for v in value]
    return value


def rule_of(param: Any) -> Optional[Tuple[Any, ...]]:
    """The Java ParamRule of a Param as a tuple (see spark_kpca.ml._rules), or None when it has none."""
    rule = param.isValid()
    if rule.getClass().getName() != "io.github.sparkkpca.ml.ParamRule":
        return None

    def bound(x: float) -> Optional[float]:
        return None if x != x else float(x)

    return (
        rule.kind(),
        bound(rule.lower()),
        bound(rule.upper()),
        bool(rule.lowerInclusive()),
        bool(rule.upperInclusive()),
        tuple(str(c) for c in rule.choices()),
        rule.requirement(),
    )


def param_rules(spark: Any) -> Dict[str, Tuple[Any, ...]]:
    """The rule of every validated Param of the stages, by name (one rule per name across the stages)."""
    rules: Dict[str, Tuple[Any, ...]] = {}
    for stage_name, _, _ in STAGES:
        stage = java_stage(spark, stage_name)
        for param in stage.params():
            rule = rule_of(param)
            if rule is None:
                continue
            name = param.name()
            if name in rules and rules[name] != rule:
                raise SystemExit(f"Param {name} has different rules in different stages: {rules[name]} vs {rule}")
            rules[name] = rule
    return rules


def param_kind(param: Any) -> str:
    simple = param.getClass().getSimpleName()
    if simple not in CONVERTERS:
        raise SystemExit(f"unknown Java Param type {simple} for {param.name()}")
    return simple


def setters(jvm: Any, java_name: str, params: Sequence[str]) -> List[str]:
    clazz = load_class(jvm, java_name)
    found = set()
    for method in clazz.getMethods():
        name = method.getName()
        if len(name) <= 3 or not name.startswith("set") or method.getParameterCount() != 1:
            continue
        param = name[3].lower() + name[4:]
        if param in params:
            found.add(param)
    return sorted(found)


def py_literal(value: Any) -> str:
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(repr(float(v)) for v in value) + "]"
    return repr(value)


def doc_literal(doc: str) -> str:
    return repr(doc)


def generate() -> str:
    spark = start_jvm()
    jvm = spark.sparkContext._jvm
    out: List[str] = []
    w = out.append
    w('"""Generated by tools/generate_params.py from the Java stages: do not edit by hand.')
    w("")
    w("Each mixin holds the Params of one Java Params interface with the Java name, doc text and a type")
    w("converter; each ``_<Stage>Base`` holds a stage's Java defaults, its keyword-only ``__init__`` arguments,")
    w("``setParams`` and the ``setX`` methods the Java stage has. tests/test_params.py checks them against the JVM.")
    w('"""')
    w("")
    w("# fmt: off")
    w("from typing import Any, Dict, List, Optional, TypeVar")
    w("")
    w("from pyspark import keyword_only")
    w("from pyspark.ml.param import Param, Params, TypeConverters")
    w("from pyspark.ml.base import _PredictorParams")
    w("")
    w("from spark_kpca._java_classes import JAVA_CLASSES")
    w("")
    w("#: The stage a setter is called on: setters return it, so a type checker keeps the stage's class.")
    w('_S = TypeVar("_S", bound=Params)')
    w("")
    kinds: Dict[str, Dict[str, Tuple[str, str]]] = {}
    mixin_params: Dict[str, List[str]] = {}
    for mixin, source, bases, stage_name in MIXINS:
        stage = java_stage(spark, stage_name)
        clazz = load_class(jvm, java_class(source))
        names = declared_params(jvm, clazz)
        inherited = set()
        for base in bases:
            inherited |= set(mixin_params.get(base, []))
        if "_PredictorParams" in bases:
            # Spark's own Params, redefined with the JVM's doc text (PySpark's differs by a full stop).
            names = sorted(set(names) | SPARK_SHARED)
        names = [n for n in names if n not in inherited and n not in OUTPUT_ONLY.get(mixin, ())]
        mixin_params[mixin] = sorted(set(names) | inherited)
        w("")
        w(f"class {mixin}({', '.join(bases)}):")
        if names and any(set(names) <= set(outputs) for outputs in OUTPUT_ONLY.values()):
            w(f'    """The output-only Params of Java\'s ``{source.rsplit(".", 1)[-1]}`` (set by a fit; the model\'s)."""')
        else:
            w(f'    """The Params of Java\'s ``{source.rsplit(".", 1)[-1]}``."""')
        w("")
        kinds[mixin] = {}
        for name in names:
            param = stage.getParam(name)
            kind = param_kind(param)
            converter, py_type = CONVERTERS[kind]
            kinds[mixin][name] = (kind, py_type)
            w(f"    {name}: Param = Param(")
            w(f"        Params._dummy(), {name!r},")
            w(f"        {doc_literal(param.doc())},")
            w(f"        typeConverter={converter})")
        for name in names:
            _, py_type = kinds[mixin][name]
            getter = "get" + name[0].upper() + name[1:]
            w("")
            w(f"    def {getter}(self) -> {py_type}:")
            w(f'        """The value of :py:attr:`{name}` (or its default)."""')
            w(f"        return self.getOrDefault(self.{name})")
        if not names:
            w("    pass")
        w("")
    w("")
    w("# Param name -> its Java ParamRule: (kind, lower, upper, lower inclusive, upper inclusive, choices,")
    w("# requirement); spark_kpca.ml._rules.check applies it at set time with the Java message.")
    w("PARAM_RULES: Dict[str, Any] = {")
    rules = param_rules(spark)
    for name in sorted(rules):
        w(f"    {name!r}: {rules[name]!r},")
    w("}")
    type_of: Dict[str, str] = {}
    for mixin in kinds.values():
        for name, (_, py_type) in mixin.items():
            type_of[name] = py_type
    for stage_name, mixin, estimator in STAGES:
        stage = java_stage(spark, stage_name)
        names = sorted(p.name() for p in stage.params())
        if estimator:
            outputs = OUTPUT_ONLY.get(mixin, ())
            names = [n for n in names if n not in outputs]
            refused = setters(jvm, java_class(stage_name), list(outputs))
            if refused:
                raise SystemExit(f"{stage_name} has setters for the output-only Params {refused}")
        defaults = {}
        for name in names:
            value = default_of(stage, stage.getParam(name))
            if value is not None:
                defaults[name] = value
        settable = setters(jvm, java_class(stage_name), names)
        w("")
        w(f"class _{stage_name}Base({mixin}):")
        w(f'    """Generated part of :class:`{stage_name}`: Java defaults and setters."""')
        w("")
        w("    _java_defaults: Dict[str, Any] = {")
        for name in sorted(defaults):
            w(f"        {name!r}: {py_literal(defaults[name])},")
        w("    }")
        w("")
        w("    def _set_java_defaults(self) -> None:")
        w("        self._setDefault(**self._java_defaults)")
        if estimator:
            args = ", ".join(f"{n}: Optional[{type_of[n]}] = None" for n in settable)
            w("")
            w("    @keyword_only")
            w(f"    def __init__(self, *, {args}) -> None:")
            w(f'        """Creates the stage over a new Java ``{stage_name}``; unset Params keep the Java defaults."""')
            w("        super().__init__()")
            w(f"        self._java_obj = self._new_java_obj(JAVA_CLASSES[{stage_name!r}], self.uid)")
            w("        self._set_java_defaults()")
            w("        self._set(**self._input_kwargs)")
            w("")
            w("    @keyword_only")
            w(f"    def setParams(self: _S, *, {args}) -> _S:")
            w('        """Sets the given Params (keyword arguments only); returns self."""')
            w("        kwargs = self._input_kwargs")
            w("        return self._set(**kwargs)")
        for name in settable:
            setter = "set" + name[0].upper() + name[1:]
            w("")
            w(f"    def {setter}(self: _S, value: {type_of[name]}) -> _S:")
            w(f'        """Sets :py:attr:`{name}`; returns self."""')
            w(f"        return self._set({name}=value)")
        w("")
        w(f"    _init_params = {settable!r}")
        w("")
    w("# fmt: on")
    spark.stop()
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, do not write")
    args = parser.parse_args()
    text = generate()
    if args.check:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            print(f"{OUT} is out of date: run python tools/generate_params.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
