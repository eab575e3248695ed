"""Start-up hook of the spark-kpca wheel: the Java packages of the library's stages as importable names.

PySpark finds the Python class of a JVM stage by importing the stage's Java package name (``org.apache.spark``
replaced by ``pyspark``) and taking the class of the same simple name from it: ``PipelineModel.load``,
``CrossValidatorModel.load`` (``JavaParams._from_java``) and the Python-format readers
(``DefaultParamsReader``, classic and Spark Connect) all do. For this library that name is
``io.github.sparkkpca.ml``, and ``io`` is the standard library's module, not a package, so the import fails
unless ``sys.modules`` already holds the full dotted name (the import system looks there first).

The wheel installs ``spark_kpca_aliases.pth`` beside the package, so every interpreter of the environment
(a fresh ``python``, MLflow's model loaders, Spark's Python workers) runs :func:`install` at start-up. It
registers, for each Java package, a module whose attributes are looked up in :mod:`spark_kpca.ml` on first use;
nothing else is imported at start-up (no PySpark, not even :mod:`spark_kpca`). When :mod:`spark_kpca.ml` is
imported it replaces these placeholders with itself (:func:`bind`). This module has no dependencies so that the
start-up costs nothing measurable; tests/test_loading.py checks that its package list matches
``spark_kpca._java_classes``.
"""

import sys
import types
#: The Java packages that hold the library's stages (the packages of ``spark_kpca._java_classes.JAVA_CLASSES``).
JAVA_PACKAGES = (
    "io.github.sparkkpca.evaluation",
    "io.github.sparkkpca.ml",
    "io.github.sparkkpca.streaming",
)

#: The Python module that holds the classes of every stage in :data:`JAVA_PACKAGES`.
TARGET = "spark_kpca.ml"


class JavaPackageAlias(types.ModuleType):
    """A placeholder for one Java package: its public attributes are those of :mod:`spark_kpca.ml`, imported on
    first use (which imports PySpark; PySpark is what asks)."""

    def __getattr__(self, name: str) -> object:
        if name.startswith("_"):
            raise AttributeError(name)
        import importlib

        try:
            target = importlib.import_module(TARGET)
        except ImportError as exc:
            # An AttributeError, as attribute lookups expect (e.g. a tool that scans sys.modules), with the cause.
            raise AttributeError(
                f"module {self.__name__!r} (an alias of {TARGET}) has no attribute {name!r}: {TARGET} "
                f"cannot be imported ({exc})"
            ) from exc
        try:
            return getattr(target, name)
        except AttributeError:
            raise AttributeError(
                f"module {self.__name__!r} (an alias of {TARGET}) has no attribute {name!r}"
            ) from None


def install() -> None:
    """Registers a :class:`JavaPackageAlias` for each Java package that ``sys.modules`` does not hold yet."""
    for package in JAVA_PACKAGES:
        if package not in sys.modules:
            sys.modules[package] = JavaPackageAlias(
                package, f"The Java package {package} of spark-kpca: an alias of {TARGET}."
            )


def bind(module: types.ModuleType) -> None:
    """Makes each Java package a name of ``module`` (:mod:`spark_kpca.ml`, which calls this when imported).

    :raises ImportError: when ``sys.modules`` holds another module under one of the names.
    """
    for package in JAVA_PACKAGES:
        existing = sys.modules.get(package)
        if existing is not None and existing is not module and not isinstance(existing, JavaPackageAlias):
            raise ImportError(f"sys.modules[{package!r}] is already taken by {existing!r}")
        sys.modules[package] = module


install()
