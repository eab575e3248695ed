"""spark-kpca for Python: Spark ML stages for distributed Nyström kernel PCA.

The stages are in :mod:`spark_kpca.ml`; they run in the JVM, from the library jar that :func:`jar_path` finds::

    from pyspark.sql import SparkSession
    import spark_kpca
    from spark_kpca.ml import NystromKernelPCA

    spark = SparkSession.builder.config("spark.jars", spark_kpca.jar_path()).getOrCreate()
"""

from spark_kpca._jar import jar_path, pyspark_scala_version
from spark_kpca._version import MAVEN_VERSION, __version__
from spark_kpca.errors import IllegalArgumentException, MissingJarError, SparkKpcaError

__all__ = [
    "jar_path",
    "pyspark_scala_version",
    "MAVEN_VERSION",
    "__version__",
    "SparkKpcaError",
    "IllegalArgumentException",
    "MissingJarError",
]
