"""Errors of the library's tasks at action time, as one short Python exception.

``model.transform(df)`` is lazy: a bad row is found by a task when the user's own action runs
(``df.collect()``, ``df.write...``, ``toPandas()``), outside any call of this package. Spark fails the job with
a ``SparkException`` ("Job aborted due to stage failure ...") whose cause is the library's exception;
PySpark's exception capture does not know that wrapper and re-raises the raw ``Py4JJavaError`` (over a hundred
lines of Java stack). :func:`install` wraps PySpark's capture so that such an error whose causes hold an
exception of this library (its class, or the top frame of its stack, in ``io.github.sparkkpca``) is raised
as one :class:`spark_kpca.errors.SparkKpcaError` (an ``IllegalArgumentException`` for a bad row) whose text is
the library's one-line message, e.g. ``IllegalArgumentException: Column 'features': the vector in row 3
(partition 0, position 3) has a non-finite value (NaN)``. A row beyond the first partition, which the task knows
by partition and position only, is numbered on this failure path by one job over the transform's input (recent
transforms' outputs are remembered weakly, each with its input; the row found there must have the same problem;
when the output DataFrame acted on is a later one derived from the transform's, the message keeps partition and
position). Every other error is left exactly as PySpark
raises it. The Java exception stays reachable as ``java_exception``.

Spark's executor still logs the task's failure (``ERROR Executor: Exception in task ...`` with the Java stack,
then ``ERROR TaskSetManager``) on the driver's stderr in local mode; ``spark.sparkContext.setLogLevel("FATAL")``
hides those lines.
"""

import collections
import weakref
from typing import Any, Callable, Optional

_PACKAGE = "io.github.sparkkpca."
_MARK = "_spark_kpca_action_errors"


def _library_cause(java_exception: Any) -> Optional[Any]:
    """The first exception of the cause chain thrown by this library, or None."""
    seen = 0
    exc = java_exception
    while exc is not None and seen < 20:
        seen += 1
        if exc.getClass().getName().startswith(_PACKAGE):
            return exc
        frames = exc.getStackTrace()
        if len(frames) > 0 and frames[0].getClassName().startswith(_PACKAGE):
            # only a task's exception: a driver-side call of ours is translated by its wrapper already
            if java_exception is not exc:
                return exc
        cause = exc.getCause()
        if cause is None or cause.equals(exc):
            return None
        exc = cause
    return None


# The outputs of the latest transforms (weak references), each holding its input's JVM Dataset: where a failed
# scoring task's row is counted. An output that is no longer referenced takes its input with it.
_RECENT_OUTPUTS: "collections.deque[weakref.ref[Any]]" = collections.deque(maxlen=8)


def remember(output: Any, dataset: Any) -> None:
    """Notes ``dataset`` as the input of the transform that gave ``output``, so that a bad row found later in a
    partition other than the first can be named by its global row number (one counting job on the failure
    path only)."""
    try:
        output._spark_kpca_input = dataset._jdf
        _RECENT_OUTPUTS.append(weakref.ref(output))
    except (TypeError, AttributeError):
        pass


def _numbered(ours: Any) -> Optional[str]:
    """The message of an InvalidRowException beyond partition 0 with the row's global number, when one of the
    recent transform inputs holds that row with that problem; else None."""
    try:
        if not ours.getClass().getName().endswith(".InvalidRowException") or ours.partition() == 0:
            return None
        for ref in reversed(list(_RECENT_OUTPUTS)):
            output = ref()
            if output is None:
                continue
            message = ours.messageWithRow(output._spark_kpca_input)
            if message is not None:
                return str(message)
    except Exception:  # noqa: BLE001 - the numbering is a courtesy: keep the task's own message
        return None
    return None


def _wrap(get_return_value: Callable[..., Any]) -> Callable[..., Any]:
    if getattr(get_return_value, _MARK, False):
        return get_return_value

    def get_return_value_with_library_errors(*args: Any, **kwargs: Any) -> Any:
        from py4j.protocol import Py4JJavaError

        try:
            return get_return_value(*args, **kwargs)
        except Py4JJavaError as error:
            try:
                ours = _library_cause(error.java_exception)
            except Exception:  # the JVM is gone: keep PySpark's error
                ours = None
            if ours is None:
                raise
            from spark_kpca.errors import IllegalArgumentException, from_java

            translated = from_java(ours)
            numbered = _numbered(ours)
            if numbered is not None:
                translated = IllegalArgumentException(numbered, java_exception=ours)
            if isinstance(translated, IllegalArgumentException):
                # named as the fit's refusals are (InvalidRowException is an IllegalArgumentException)
                translated = IllegalArgumentException(translated.message, java_exception=ours)
            raise translated from None

    setattr(get_return_value_with_library_errors, _MARK, True)
    return get_return_value_with_library_errors


def install() -> None:
    """Wraps the Py4J return-value hook now and whenever PySpark installs its own again (each new
    ``SparkSession`` does). Idempotent; without classic PySpark (a Connect-only client) it does nothing."""
    try:
        import py4j.java_gateway
        from pyspark.errors.exceptions import captured
    except ImportError:
        return
    py4j.java_gateway.get_return_value = _wrap(py4j.java_gateway.get_return_value)
    original = captured.capture_sql_exception
    if getattr(original, _MARK, False):
        return

    def capture_sql_exception(f: Callable[..., Any]) -> Callable[..., Any]:
        return _wrap(original(f))

    setattr(capture_sql_exception, _MARK, True)
    captured.capture_sql_exception = capture_sql_exception  # type: ignore[assignment]
