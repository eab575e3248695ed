"""Python exceptions for errors raised by the JVM stages.

A bad parameter or bad input makes the Java library throw an exception with a one-line message. PySpark passes
it on as a ``Py4JJavaError`` (or one of its own captured exceptions) carrying the whole Java stack trace; the
wrappers in :mod:`spark_kpca.ml` turn it into one :class:`SparkKpcaError` whose message is the Java class's
simple name and the message, e.g. ``IllegalArgumentException: k = 60 exceeds the number of landmarks m = 50
(numLandmarks); k must be <= m``. The Java exception stays reachable as :attr:`SparkKpcaError.java_exception`.
A JVM (or Spark Connect server) without the library jar is one :class:`MissingJarError`.

This module is the package's bottom layer: it imports none of the package's modules but the jar lookup
(:mod:`spark_kpca._jar`), so that the JVM bridge (:mod:`spark_kpca._jvm`) and the stages can raise its errors.
"""

import contextlib
import re
from typing import Any, Iterator, Optional, Type


class SparkKpcaError(Exception):
    """An error of the spark-kpca library, raised by the JVM or by the Python wrapper's own checks.

    :ivar java_class: the fully qualified Java exception class (``java.lang.IllegalArgumentException``), or
        None for an error found in Python.
    :ivar message: the exception's message, without the class name.
    :ivar java_exception: the Py4J handle of the Java exception, or None.
    """

    def __init__(
        self, message: str, java_class: Optional[str] = None, java_exception: Any = None
    ) -> None:
        self.message = message
        self.java_class = java_class
        self.java_exception = java_exception
        simple = (java_class or type(self).__name__).rsplit(".", 1)[-1]
        super().__init__(f"{simple}: {message}")


class IllegalArgumentException(SparkKpcaError, ValueError):
    """A bad parameter value or bad input (Java's ``IllegalArgumentException``); also a ``ValueError``."""

    def __init__(
        self,
        message: str,
        java_class: Optional[str] = "java.lang.IllegalArgumentException",
        java_exception: Any = None,
    ) -> None:
        super().__init__(message, java_class, java_exception)


class IllegalStateException(SparkKpcaError, RuntimeError):
    """An operation that the object's state does not allow (Java's ``IllegalStateException``)."""


class UnsupportedOperationException(SparkKpcaError, NotImplementedError):
    """An operation the object does not support (Java's ``UnsupportedOperationException``)."""


class JvmIOError(SparkKpcaError, OSError):
    """An I/O error of the JVM (Java's ``IOException`` and its subclasses), e.g. a missing model directory."""


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


_BY_SIMPLE_NAME = {
    "IllegalArgumentException": IllegalArgumentException,
    "NumberFormatException": IllegalArgumentException,
    "IllegalStateException": IllegalStateException,
    "UnsupportedOperationException": UnsupportedOperationException,
}


def _java_chain(java_exc: Any) -> Iterator[Any]:
    seen = 0
    while java_exc is not None and seen < 20:
        yield java_exc
        seen += 1
        cause = java_exc.getCause()
        if cause is None or cause.equals(java_exc):
            return
        java_exc = cause


def _is_io(java_exc: Any) -> bool:
    cls = java_exc.getClass()
    while cls is not None:
        if cls.getName() == "java.io.IOException":
            return True
        cls = cls.getSuperclass()
    return False


def from_java(java_exc: Any) -> SparkKpcaError:
    """The :class:`SparkKpcaError` for a Java exception: its root cause's class and first message line.

    The root cause is the innermost exception of the cause chain that has a message (Spark wraps an
    executor's exception in a ``SparkException`` whose cause is the original).
    """
    chosen = java_exc
    for exc in _java_chain(java_exc):
        if exc.getMessage() is not None:
            chosen = exc
    java_class = chosen.getClass().getName()
    message = chosen.getMessage() or ""
    first = message.strip().splitlines()[0] if message.strip() else "(no message)"
    kind: Type[SparkKpcaError] = SparkKpcaError
    # The class or its nearest superclass with a Python counterpart (e.g. an IllegalArgumentException's
    # subclass, such as the streaming sink's option mismatch, is a ValueError too).
    cls = chosen.getClass()
    while cls is not None:
        found = _BY_SIMPLE_NAME.get(cls.getName().rsplit(".", 1)[-1])
        if found is not None:
            kind = found
            break
        cls = cls.getSuperclass()
    if kind is SparkKpcaError and _is_io(chosen):
        kind = JvmIOError
    return kind(first, java_class=java_class, java_exception=chosen)


def _captured_origin(exc: BaseException) -> Any:
    """The Java exception behind one of PySpark's captured exceptions, or None."""
    origin = getattr(exc, "_origin", None)
    if origin is not None:
        return origin
    java_exception = getattr(exc, "java_exception", None)
    return java_exception


#: How a Spark Connect server answers a request for a class it cannot find (no jar, or no such stage): the
#: operator or reader is "unsupported", naming the class.
_SERVER_MISSING = re.compile(r"Unsupported (?:ML operator|read for)[^\n]*?\b(io\.github\.sparkkpca\.[\w.$]+)")


def connect_server_missing_class(exc: BaseException) -> Optional[str]:
    """The library class a Spark Connect server said it cannot find in ``exc``'s first line, else None."""
    if type(exc).__module__.startswith("py4j"):
        return None
    first = str(exc).split("\n", 1)[0]
    match = _SERVER_MISSING.search(first)
    return match.group(1) if match else None


@contextlib.contextmanager
def jvm_errors() -> Iterator[None]:
    """Turns a Java exception raised inside the block into one :class:`SparkKpcaError` (no Py4J trace)."""
    try:
        yield
    except SparkKpcaError:
        raise
    except Exception as exc:  # noqa: BLE001 - only Java-backed exceptions are translated
        missing = connect_server_missing_class(exc)
        if missing is not None:
            raise MissingJarError(missing_jar_on_server_message(missing)) from None
        origin = _captured_origin(exc)
        if origin is None:
            raise
        try:
            translated = from_java(origin)
        except Exception:  # the JVM is gone: keep the original exception
            raise exc
        raise translated from None
