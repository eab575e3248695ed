"""Spark Connect support: saving and loading spark-kpca stages from a Spark Connect client (Spark 4.0+).

Over Connect, PySpark's own writer already works for any Java stage, but its reader
(``pyspark/ml/connect/readwrite.py``, ``RemoteMLReader.loadInstance``) derives the Java class from the Python
module by replacing ``pyspark`` with ``org.apache.spark``, which cannot name a spark-kpca class. The reader here
sends the Java class of ``JAVA_CLASSES`` instead; the server finds it through the library jar's ServiceLoader
registrations and calls its static ``load``.
"""

import contextlib
from typing import Any, Iterator, Optional, Type

from pyspark.ml.util import MLReader

from spark_kpca._java_classes import JAVA_CLASSES


def is_remote() -> bool:
    """Whether the active session is a Spark Connect client."""
    try:
        from pyspark.sql.utils import is_remote as pyspark_is_remote
    except ImportError:  # PySpark before 3.4
        return False
    return bool(pyspark_is_remote())


class ConnectReader(MLReader):
    """Loads a saved spark-kpca stage through the Spark Connect server, under its Java class name."""

    def __init__(self, clazz: Type[Any]) -> None:
        super().__init__()
        self._clazz = clazz

    def load(self, path: str) -> Any:
        if not isinstance(path, str):
            raise TypeError(f"path should be a string, got type {type(path).__name__}")
        import pyspark.sql.connect.proto as pb2
        from pyspark.ml.connect.serialize import deserialize, deserialize_param
        from pyspark.ml.evaluation import JavaEvaluator
        from pyspark.ml.wrapper import JavaModel
        from pyspark.sql.connect.session import SparkSession

        session = SparkSession.getActiveSession()
        if session is None:
            raise RuntimeError("no active Spark Connect session to load " + path + " with")
        is_model = issubclass(self._clazz, JavaModel)
        if is_model:
            kind = pb2.MlOperator.OPERATOR_TYPE_MODEL
        elif issubclass(self._clazz, JavaEvaluator):
            kind = pb2.MlOperator.OPERATOR_TYPE_EVALUATOR
        else:
            kind = pb2.MlOperator.OPERATOR_TYPE_ESTIMATOR
        command = pb2.Command()
        command.ml_command.read.CopyFrom(
            pb2.MlCommand.Read(
                operator=pb2.MlOperator(name=JAVA_CLASSES[self._clazz.__name__], type=kind),
                path=path,
            )
        )
        from spark_kpca.errors import jvm_errors

        with jvm_errors():  # a server without the library jar: one MissingJarError
            (_, properties, _) = session.client.execute_command(command)
        result = deserialize(properties)
        if is_model:
            try:  # PySpark 4.1+: a reference counted handle of the server's model
                from pyspark.ml.util import RemoteModelRef

                instance = self._clazz(RemoteModelRef(result.obj_ref.id))
            except ImportError:  # PySpark 4.0: the id, registered in the client's model cache
                session.client.add_ml_cache(result.obj_ref.id)
                instance = self._clazz(result.obj_ref.id)
        else:
            instance = self._clazz()
        instance._resetUid(result.uid)
        params = {k: deserialize_param(v) for k, v in result.params.params.items()}
        instance._set(**{k: v for k, v in params.items() if instance.hasParam(k)})
        return instance


#: The error condition of Spark's Connect server for a model method outside its allowlist.
ATTRIBUTE_NOT_ALLOWED = "CONNECT_ML.ATTRIBUTE_NOT_ALLOWED"


def _condition(exc: BaseException) -> Optional[str]:
    for getter in ("getCondition", "getErrorClass"):
        method = getattr(exc, getter, None)
        if method is not None:
            try:
                value = method()
            except Exception:  # noqa: BLE001 - an exception without a condition
                value = None
            if value:
                return str(value)
    return None


def attribute_not_allowed_message(owner: str, name: str) -> str:
    """The one-line message for ``owner.name`` refused by the Connect server's attribute allowlist."""
    return (
        f"{owner}.{name}: the Spark Connect server does not call this method of a model of another library "
        f"({ATTRIBUTE_NOT_ALLOWED}: its allowlist holds Spark's own models' methods and toString); save the "
        'model with model.write().option("export", "true").save(path) and read the value from the bundle '
        "path/export/model.json (see docs/compatibility.md), or call it on a classic session"
    )


@contextlib.contextmanager
def connect_errors(owner: Any, name: str) -> Iterator[None]:
    """Turns the Connect server's refusal of ``owner``'s method ``name`` into one
    :class:`spark_kpca.errors.UnsupportedOperationException` (a ``SparkKpcaError``) that says why and what
    to do instead, without the server's stack trace."""
    try:
        yield
    except Exception as exc:  # noqa: BLE001 - only the allowlist's refusal is translated
        if _condition(exc) != ATTRIBUTE_NOT_ALLOWED and ATTRIBUTE_NOT_ALLOWED not in str(exc).split("\n")[0]:
            raise
        from spark_kpca.errors import UnsupportedOperationException

        raise UnsupportedOperationException(
            attribute_not_allowed_message(type(owner).__name__, name), None
        ) from None
