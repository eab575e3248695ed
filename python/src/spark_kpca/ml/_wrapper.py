"""Base classes of the Python stages: PySpark's Java wrappers, with spark-kpca's class names, readers and
errors."""

import types
from typing import Any, ClassVar, Dict, Generic, List, Optional, Type, TypeVar

from pyspark.ml.util import JavaMLReader, JavaMLWriter
from pyspark.ml.wrapper import JavaParams

from spark_kpca._java_classes import JAVA_CLASSES
from spark_kpca._jvm import java_class
from spark_kpca.errors import jvm_errors
from spark_kpca.ml._connect import ConnectReader, connect_errors, is_remote
from spark_kpca.ml._params import PARAM_RULES
from spark_kpca.ml._rules import check

T = TypeVar("T")


class _KpcaReader(JavaMLReader, Generic[T]):
    """PySpark's ``JavaMLReader`` with the Java class named in ``JAVA_CLASSES`` (PySpark would derive
    ``org.apache.spark...`` from the Python module) and Java errors turned into one Python exception."""

    @classmethod
    def _java_loader_class(cls, clazz: Type[Any]) -> str:
        return JAVA_CLASSES[clazz.__name__]

    @classmethod
    def _load_java_obj(cls, clazz: Type[Any]) -> Any:
        # PySpark's walk would give a Py4J JavaPackage when the jar is missing ('not callable' later).
        return java_class(cls._java_loader_class(clazz))

    def load(self, path: str) -> T:
        if not isinstance(path, str):
            raise TypeError(f"path should be a string, got type {type(path).__name__}")
        with jvm_errors():
            return super().load(path)


class _KpcaWriter(JavaMLWriter):
    """PySpark's ``JavaMLWriter`` with Java errors turned into one Python exception."""

    def save(self, path: str) -> None:
        if not isinstance(path, str):
            raise TypeError(f"path should be a string, got type {type(path).__name__}")
        with jvm_errors():
            super().save(path)


class _KpcaParams(JavaParams):
    """What every spark-kpca stage adds to PySpark's ``JavaParams``.

    - Each value set from Python is checked at once, first by a Python copy of the Java Param's rule
      (``_params.PARAM_RULES``, also over Spark Connect), then by the Java Param's own validator (one cheap
      JVM call, no Spark job), so a bad value fails at ``setX``/the constructor with the Java message, which
      names the valid range or choices, and is not stored.
    - Reads and writes go through the Java class named in ``JAVA_CLASSES``.
    - Java errors reach Python as one :class:`spark_kpca.errors.SparkKpcaError`.
    """

    _java_defaults: ClassVar[Dict[str, Any]] = {}
    # Set by __init__; the class default keeps PySpark's __del__ quiet when a constructor call is refused
    # (positional arguments) before the Java object exists.
    _java_obj: Any = None

    def _set(self, **kwargs: Any) -> Any:
        # The Java rules first, in Python (classic and Connect alike): a refused value is never stored.
        for name, value in kwargs.items():
            rule = PARAM_RULES.get(name)
            if value is None or rule is None or not self.hasParam(name):
                continue
            if rule[0] == "kernel" and self._java_obj is not None and not is_remote():
                continue  # the JVM knows the kernels registered there too (same words)
            try:
                converted = self.getParam(name).typeConverter(value)
            except TypeError:
                continue  # PySpark's own _set raises the TypeError
            check(name, rule, converted)
        previous = dict(self._paramMap)
        result = super()._set(**kwargs)
        java_obj = getattr(self, "_java_obj", None)
        if java_obj is not None and not isinstance(java_obj, str) and not is_remote():
            try:
                for name in kwargs:
                    if kwargs[name] is None:
                        continue
                    param = self.getParam(name)
                    with jvm_errors():
                        if java_obj.hasParam(name):
                            # ParamPair's constructor runs the Java validator (kernels registered in the JVM).
                            self._make_java_param_pair(param, self._paramMap[param])
            except Exception:
                self._paramMap = previous
                raise
        return result

    @staticmethod
    def _new_java_obj(java_class_name: str, *args: Any) -> Any:
        # A JVM without the library jar fails here with MissingJarError, not with Py4J's "'JavaPackage'
        # object is not callable". Over Spark Connect PySpark's method returns the class name (no JVM here).
        if not is_remote():
            java_class(java_class_name)
        return JavaParams._new_java_obj(java_class_name, *args)

    def _transfer_params_to_java(self) -> None:
        with jvm_errors():
            super()._transfer_params_to_java()

    def _call_java(self, name: str, *args: Any) -> Any:
        with jvm_errors(), connect_errors(self, name):
            return super()._call_java(name, *args)

    @classmethod
    def read(cls) -> Any:  # type: ignore[override]
        """A reader that loads this stage from a directory written by Java or Python."""
        if is_remote():
            return ConnectReader(cls)
        return _KpcaReader(cls)

    def write(self) -> Any:
        """A writer that saves this stage in the Java format (loadable from Java, Scala and Python)."""
        if is_remote():
            from pyspark.ml.connect.readwrite import RemoteMLWriter

            return RemoteMLWriter(self)
        return _KpcaWriter(self)

    @classmethod
    def load(cls: Type[T], path: str) -> T:
        """Reads a stage saved by :meth:`save` (from Python) or by the Java stage's ``save``."""
        return cls.read().load(path)  # type: ignore[attr-defined]

    def save(self, path: str) -> None:
        """Saves this stage to ``path`` (it must not exist; ``write().overwrite().save(path)`` replaces)."""
        self.write().save(path)

    def _java_class_name(self) -> str:
        return JAVA_CLASSES[type(self).__name__]


def _install_java_package_aliases(module: types.ModuleType) -> None:
    """Registers the Java packages of ``JAVA_CLASSES`` as names of ``module`` in ``sys.modules``.

    PySpark finds the Python class of a JVM stage by importing the Java class's package name (after replacing
    ``org.apache.spark`` by ``pyspark``) and taking the class of the same simple name from it. With these
    aliases, ``io.github.sparkkpca.ml`` (and any other package a stage lives in) imports as ``module``, so
    ``Pipeline.load``, ``PipelineModel.load`` and ``CrossValidatorModel.load`` give this package's classes.
    Only those full dotted names are registered; nothing is added to the standard library's ``io`` module.
    An installed wheel registers them at interpreter start-up already (``_spark_kpca_aliases``), so that a
    process which never imports this package loads such models too; this replaces those placeholders.
    """
    import _spark_kpca_aliases

    packages = sorted({name.rsplit(".", 1)[0] for name in JAVA_CLASSES.values()})
    if tuple(packages) != _spark_kpca_aliases.JAVA_PACKAGES:
        raise ImportError(
            f"_spark_kpca_aliases.JAVA_PACKAGES {_spark_kpca_aliases.JAVA_PACKAGES} differ from the packages "
            f"of JAVA_CLASSES {tuple(packages)}"
        )
    _spark_kpca_aliases.bind(module)


def _to_list(java_array: Optional[Any]) -> Optional[List[Any]]:
    return None if java_array is None else list(java_array)
