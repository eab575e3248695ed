"""Finding the spark-kpca library jar that matches the installed PySpark."""

import glob
import os
import re
from pathlib import Path
from typing import List, Optional

from spark_kpca._version import MAVEN_VERSION

#: Environment variable that names the jar explicitly (it wins over every search).
JAR_ENV = "SPARK_KPCA_JAR"


def pyspark_scala_version() -> str:
    """The Scala binary version (``"2.12"`` or ``"2.13"``) of the installed PySpark.

    Read from the ``scala-library`` jar PySpark ships; when that is absent (a PySpark without jars), from its
    version: Spark 3.x is built for Scala 2.12 (as published on PyPI), Spark 4 only for 2.13.
    """
    import pyspark

    jars = Path(pyspark.__file__).parent / "jars"
    for jar in sorted(jars.glob("scala-library-*.jar")):
        match = re.match(r"scala-library-(\d+\.\d+)\.", jar.name)
        if match:
            return match.group(1)
    major = int(pyspark.__version__.split(".")[0])
    return "2.12" if major < 4 else "2.13"


def _candidates(scala: str) -> List[Path]:
    name = f"spark-kpca-core_{scala}-{MAVEN_VERSION}.jar"
    here = Path(__file__).resolve().parent
    found = [here / "jars" / name]
    # A source checkout: python/src/spark_kpca/_jar.py -> <root>/spark-kpca-core/target/<name>.
    for parent in here.parents:
        target = parent / "spark-kpca-core" / "target"
        if target.is_dir():
            found.append(target / name)
            break
    return found


def jar_path(scala_version: Optional[str] = None) -> str:
    """The path of the spark-kpca library jar for the installed PySpark's Scala version.

    For ``spark.jars`` (``SparkSession.builder.config("spark.jars", jar_path())``) or ``--jars``. Looks, in
    order, at the environment variable ``SPARK_KPCA_JAR``, the jars shipped inside this package
    (``spark_kpca/jars/spark-kpca-core_<scala>-<version>.jar``) and, in a source checkout, the jar Maven
    builds (``spark-kpca-core/target/spark-kpca-core_<scala>-<version>.jar``).

    :param scala_version: ``"2.12"`` or ``"2.13"``; default that of the installed PySpark.
    :raises FileNotFoundError: naming the places searched, when there is no such jar.
    """
    explicit = os.environ.get(JAR_ENV)
    if explicit:
        if not os.path.isfile(explicit):
            raise FileNotFoundError(f"{JAR_ENV} = {explicit}: no such file")
        return explicit
    scala = scala_version or pyspark_scala_version()
    if scala not in ("2.12", "2.13"):
        raise ValueError(f"scala_version = {scala!r}: expected '2.12' or '2.13'")
    candidates = _candidates(scala)
    for candidate in candidates:
        if candidate.is_file():
            return str(candidate)
    others = sorted(
        os.path.basename(p)
        for c in candidates
        for p in glob.glob(str(c.parent / "spark-kpca-core_*.jar"))
        if not p.endswith(("-tests.jar", "-sources.jar", "-javadoc.jar"))
    )
    hint = f" (found instead: {', '.join(others)})" if others else ""
    raise FileNotFoundError(
        f"no spark-kpca library jar for Scala {scala}, version {MAVEN_VERSION}; looked for "
        + ", ".join(str(c) for c in candidates)
        + hint
        + f". Build it with Maven (the spark-3.5 profile for Scala 2.12) or set {JAR_ENV}"
    )
