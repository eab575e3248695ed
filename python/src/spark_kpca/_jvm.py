"""The library's Java classes as seen from Python, and one clear error when the JVM lacks the library jar.

Without the jar, Py4J resolves a dotted name such as ``io.github.sparkkpca.ml.NystromKernelPCA`` to a
``JavaPackage`` (it cannot tell a missing class from a package), and calling it fails with ``TypeError:
'JavaPackage' object is not callable``. Every constructor, reader and utility call of :mod:`spark_kpca.ml` goes
through :func:`java_class`, which raises :class:`MissingJarError` instead, saying how to add the jar.
"""

from typing import Any, Optional

from spark_kpca.errors import SparkKpcaError

#: Shown in the messages: the one library class every jar holds.
PROBE_CLASS = "io.github.sparkkpca.ml.NystromKernelPCA"


class MissingJarError(SparkKpcaError, RuntimeError):
    """The Spark session's JVM lacks the spark-kpca library jar (or there is no Spark session)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, None, None)


def _jar_hint() -> str:
    try:
        from spark_kpca._jar import jar_path

        return f"spark_kpca.jar_path() = {jar_path()}"
    except Exception as exc:  # noqa: BLE001 - the hint only; the error is the missing jar
        return f"spark_kpca.jar_path() finds none here: {exc}"


def missing_jar_message(java_class: str) -> str:
    """The one-line message for a JVM without the library jar (Java class ``java_class`` not found)."""
    return (
        f"the Spark session's JVM has no class {java_class}: the spark-kpca library jar is not on its class "
        'path. Start the session with .config("spark.jars", spark_kpca.jar_path()) (spark-submit: --jars); '
        "for a session another library starts (MLflow's pyfunc loader and spark_udf workers), set "
        'PYSPARK_SUBMIT_ARGS="--jars <jar> pyspark-shell" in the environment before it starts; on Databricks, '
        f"install the jar as a cluster library ({_jar_hint()})"
    )


def missing_jar_on_server_message(java_class: str) -> str:
    """The one-line message for a Spark Connect server that cannot find ``java_class``."""
    return (
        f"the Spark Connect server cannot find the class {java_class}: the spark-kpca library jar is not on the "
        "server's class path (or the class is not one of the library's stages). Start the Connect server with "
        "the jar (start-connect-server.sh --jars <jar>, or spark.jars in its configuration; locally "
        'SparkSession.builder.remote("local[*]").config("spark.jars", spark_kpca.jar_path())); '
        f"{_jar_hint()}"
    )


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
