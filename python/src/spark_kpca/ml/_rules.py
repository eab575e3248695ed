"""Client-side checks of Param values, with the words of the Java stages' own refusals.

Every validated Java Param has a rule (Java's ``io.github.sparkkpca.ml.ParamRule``) that refuses a bad value
when it is set with ``<name> <requirement>; got <value>``, e.g. ``gamma must be finite and > 0; got Infinity``.
tools/generate_params.py copies each rule (its kind, bounds, choices and requirement text) into
``_params.PARAM_RULES``; :func:`check` applies it in Python, before any JVM call, so a bad value fails at
``setX`` or the constructor with the same message in classic PySpark and over Spark Connect alike.
"""

import math
from decimal import Decimal
from typing import Any, Optional, Sequence, Tuple

from spark_kpca.errors import IllegalArgumentException

# (kind, lower, upper, lower inclusive, upper inclusive, choices, requirement); see Java's ParamRule.kind().
Rule = Tuple[str, Optional[float], Optional[float], bool, bool, Sequence[str], str]


def java_text(value: Any) -> str:
    """``value`` as Java's ``String.valueOf`` writes it (``Infinity``, ``NaN``, ``1.0E-5``, ``[1.0, 2.0]``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        if value == 0 or 1e-3 <= abs(value) < 1e7:
            text = repr(value)
            return text if ("." in text or "e" in text) else text + ".0"
        sign, digits, exponent = Decimal(repr(value)).normalize().as_tuple()
        text = "".join(str(d) for d in digits)
        power = len(text) - 1 + int(exponent)
        mantissa = text[0] + "." + (text[1:] or "0")
        return ("-" if sign else "") + f"{mantissa}E{power}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(java_text(v) for v in value) + "]"
    return str(value)


def _within(x: float, rule: Rule) -> bool:
    _, lower, upper, lower_inclusive, upper_inclusive, _, _ = rule
    if lower is not None and not (x >= lower if lower_inclusive else x > lower):
        return False
    if upper is not None and not (x <= upper if upper_inclusive else x < upper):
        return False
    return True


def valid(rule: Rule, value: Any) -> bool:
    """Whether ``value`` (already converted by the Param's type converter) satisfies ``rule``."""
    kind = rule[0]
    if kind == "int":
        return _within(value, rule)
    if kind == "double":
        return math.isfinite(value) and _within(value, rule)
    if kind == "choice":
        return value in rule[5]
    if kind == "kernel":
        return isinstance(value, str) and value.strip().lower() in rule[5]
    if kind == "grid":
        return len(value) > 0 and all(math.isfinite(v) and v > 0 for v in value)
    raise ValueError(f"unknown rule kind {kind!r}")


def check(name: str, rule: Rule, value: Any) -> None:
    """Raises :class:`spark_kpca.errors.IllegalArgumentException` with the Java rule's message when
    ``value`` is not valid."""
    if not valid(rule, value):
        raise IllegalArgumentException(f"{name} {rule[6]}; got {java_text(value)}")
