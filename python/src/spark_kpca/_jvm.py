"""The library's Java classes as seen from Python, and one clear error when the JVM lacks the library jar.

Without the jar, Py4J resolves a dotted name such as ``io.github.sparkkpca.ml.NystromKernelPCA`` to a
``JavaPackage`` (it cannot tell a missing class from a package), and calling it fails with ``TypeError:
'JavaPackage' object is not callable``. Every constructor, reader and utility call of :mod:`spark_kpca.ml` goes
through :func:`java_class`, which raises :class:`~spark_kpca.errors.MissingJarError` instead, saying how to add
the jar.
"""

from typing import Any, Optional

from spark_kpca.errors import MissingJarError, missing_jar_message

#: Shown in the messages: the one library class every jar holds.
PROBE_CLASS = "io.github.sparkkpca.ml.NystromKernelPCA"


def _active_context() -> Any:
    from pyspark import SparkContext

    sc = SparkContext._active_spark_context
    if sc is None:
        raise MissingJarError(
            "no active SparkContext: start a SparkSession with the library jar first, "
            'SparkSession.builder.config("spark.jars", spark_kpca.jar_path()).getOrCreate()'
        )
    return sc


#: The Py4J gateway whose JVM was seen to hold the library's classes (checked once per gateway).
_verified_gateway: Optional[Any] = None


def require_jar() -> None:
    """Raises :class:`MissingJarError` unless the active SparkContext's JVM has the library jar (one Py4J
    lookup per JVM; later calls cost nothing)."""
    global _verified_gateway
    sc = _active_context()
    if _verified_gateway is not None and _verified_gateway is sc._gateway:
        return
    _resolve(sc, PROBE_CLASS)
    _verified_gateway = sc._gateway


def _resolve(sc: Any, name: str) -> Any:
    from py4j.java_gateway import JavaClass

    obj = sc._jvm
    for part in name.split("."):
        obj = getattr(obj, part)
    if not isinstance(obj, JavaClass):
        raise MissingJarError(missing_jar_message(name))
    return obj


def java_class(name: str) -> Any:
    """The Py4J handle of the Java class ``name`` (for constructors and static methods).

    :raises MissingJarError: when there is no active SparkContext or its JVM has no such class.
    """
    return _resolve(_active_context(), name)
