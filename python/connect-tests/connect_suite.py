"""spark-kpca's stages driven from a Spark Connect Python client.

Run by .ci/spark-connect (pytest, in a virtual environment with ``pyspark[connect]``); it needs the
library jar in SPARK_KPCA_JAR. The test starts a local Spark Connect server in a JVM of its own
(``SparkSession.builder.remote("local[2]")``, which is what ``pyspark --remote local`` does) with the jar
in ``spark.jars``, and from then on talks to it only through the Connect protocol: the server builds our
stages by name through its ServiceLoader registrations, fits, transforms, evaluates, saves and loads them.

What Spark's attribute allowlist hides (eigenvalues, explained variance, landmarks) is read from the
export bundle that ``write().option("export", "true")`` saves beside the model, with ``spark.read``; the
scores are recomputed from that bundle with numpy and must equal the server's ``transform``.

The Python classes are those of the spark_kpca package (python/src): PySpark's Java wrappers, whose fit,
transform, evaluate and write PySpark routes through Connect, plus spark_kpca.ml._connect's reader, which
sends the Java class name (PySpark's own remote reader cannot name a third-party class).
"""

import faulthandler
import gc
import json
import os

import numpy as np
import pytest
from pyspark.ml.linalg import Vectors
from pyspark.sql import SparkSession

from spark_kpca.errors import UnsupportedOperationException
from spark_kpca.ml import NystromKernelPCA, NystromKernelPCAModel, ReconstructionErrorEvaluator


@pytest.fixture(scope="module")
def spark():
    jar = os.environ.get("SPARK_KPCA_JAR", "")
    if not os.path.isfile(jar):
        raise RuntimeError("SPARK_KPCA_JAR must name the spark-kpca-core jar, got %r" % jar)
    session = (
        SparkSession.builder.remote("local[2]")
        .config("spark.jars", jar)
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    yield session
    session.stop()


@pytest.fixture(autouse=True)
def _no_finalizer_inside_a_request():
    """Garbage is collected between tests, never while a Connect request is in flight.

    PySpark's Connect client frees a fitted model's server-side cache entry from the Python object's
    finalizer (``__del__`` sends a delete command). When the cyclic garbage collector runs that finalizer
    on a thread that is itself waiting inside a gRPC call, the nested call deadlocks the channel and the
    client waits forever (SPARK-55020, SPARK-57655; seen here once in a few runs with PySpark 4.1.4, in
    the test that follows those that fit many models). With the collector off during a test and run between
    tests, finalizers run only where no request is open. The watchdog turns any other hang into a failure
    with every thread's stack after ten minutes instead of a stalled build.
    """
    gc.collect()
    gc.disable()
    faulthandler.dump_traceback_later(600, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
        gc.enable()
        gc.collect()


def _data(spark, n, seed):
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 0.0, 0.0, 0.0], [3.0, 1.0, 0.0, -1.0], [-1.0, 3.0, 1.0, 0.0]])
    x = centres[np.arange(n) % 3] + 0.4 * rng.standard_normal((n, 4))
    rows = [(i, Vectors.dense(x[i].tolist())) for i in range(n)]
    return x, spark.createDataFrame(rows, ["id", "features"]).repartition(2)


def _scores(df):
    rows = df.orderBy("id").select("kpca", "residual").collect()
    return np.array([r.kpca.toArray() for r in rows]), np.array([r.residual for r in rows])


def _read_export(spark, path):
    """The export bundle, read through the Connect session (the server reads the files)."""
    text = "\n".join(r.value for r in spark.read.text(path + "/model.json").collect())
    meta = json.loads(text)

    def matrix(name):
        rows = spark.read.text(path + "/" + name).collect()
        # Spark reads the lines in order of the (single) file.
        return np.array([[float(v) for v in r.value.split(",")] for r in rows])

    return meta, matrix("landmarks.csv"), matrix("projector.csv"), matrix("offset.csv")[:, 0]


def test_stages_fit_transform_evaluate_save_and_load_over_connect(spark, tmp_path):
    from pyspark.sql.connect.session import SparkSession as ConnectSession

    assert isinstance(spark, ConnectSession), "the session is a Spark Connect client"
    x, df = _data(spark, 150, 1)
    estimator = NystromKernelPCA(
        k=3, numLandmarks=25, seed=7, kernel="rbf", gamma=0.2, residualCol="residual"
    )
    model = estimator.fit(df)
    scores, residual = _scores(model.transform(df))
    assert scores.shape == (150, 3)
    assert np.all(residual >= -1e-9)
    # Centred scores: mean zero over the rows the model was fitted on (to the Nyström mean's rounding).
    assert np.abs(scores.mean(axis=0)).max() < 1e-8 * max(1.0, np.abs(scores).max())

    evaluator = ReconstructionErrorEvaluator(residualCol="residual")
    error = evaluator.evaluate(model.transform(df))
    assert error == pytest.approx(residual.mean(), rel=1e-12)

    # Save with the export bundle; the hidden results are read back as files.
    path = str(tmp_path / "model")
    model.write().option("export", "true").save(path)
    meta, landmarks, projector, offset = _read_export(spark, path + "/export")
    assert meta["k"] == 3 and meta["m"] == 25 and meta["kernel"] == "rbf"
    eigenvalues = np.array(meta["eigenvalues"])
    assert np.all(np.diff(eigenvalues) <= 0), "eigenvalues descend"
    assert np.allclose(meta["explainedVariance"], eigenvalues[:3], rtol=0, atol=0)
    ratio = np.array(meta["explainedVariance"]) / meta["totalVariance"]
    assert np.allclose(meta["explainedVarianceRatio"], ratio, rtol=1e-12)
    assert landmarks.shape == (25, 4) and projector.shape == (25, 3)
    # The bundle's formula, y(x) = P^T k_x - o with the rbf kernel, gives the server's scores.
    sq = ((x[:, None, :] - landmarks[None, :, :]) ** 2).sum(axis=2)
    expected = np.exp(-meta["gamma"] * sq) @ projector - offset
    assert np.allclose(scores, expected, rtol=1e-9, atol=1e-9)

    # Load over Connect: the server finds the model class through its ServiceLoader registration.
    loaded = NystromKernelPCAModel.load(path)
    assert loaded.uid == model.uid
    loaded_scores, loaded_residual = _scores(loaded.transform(df))
    assert np.array_equal(loaded_scores, scores)
    assert np.array_equal(loaded_residual, residual)

    # Estimators and evaluators save and load too (params only).
    estimator.write().save(str(tmp_path / "estimator"))
    again = NystromKernelPCA.load(str(tmp_path / "estimator"))
    assert again.getOrDefault("k") == 3 and again.getOrDefault("numLandmarks") == 25
    refit_scores, _ = _scores(again.fit(df).transform(df))
    assert np.array_equal(refit_scores, scores), "same params and seed, same model"
    evaluator.write().save(str(tmp_path / "evaluator"))
    assert ReconstructionErrorEvaluator.load(str(tmp_path / "evaluator")).evaluate(
        model.transform(df)
    ) == pytest.approx(error, rel=1e-15)


def test_model_attributes_outside_sparks_allowlist_are_refused(spark):
    """Spark's Connect server calls only the model methods on its allowlist (MLUtils)."""
    _, df = _data(spark, 60, 2)
    model = NystromKernelPCA(k=2, numLandmarks=10, seed=1).fit(df)
    with pytest.raises(Exception) as refused:
        model._call_java("eigenvalues")
    assert "eigenvalues" in str(refused.value)
    # A property the allowlist hides: one SparkKpcaError saying why and pointing to the export option, without
    # the server's stack trace.
    with pytest.raises(UnsupportedOperationException) as hidden:
        model.explainedVarianceRatio
    message = str(hidden.value)
    assert message.startswith("UnsupportedOperationException: NystromKernelPCAModel.explainedVarianceRatio: ")
    assert "CONNECT_ML.ATTRIBUTE_NOT_ALLOWED" in message
    assert 'write().option("export", "true")' in message and "\n" not in message
    assert hidden.value.__suppress_context__
    # toString is on the allowlist (every Identifiable) and names the fitted sizes.
    assert "k=2, m=10" in model._call_java("toString")
    # The fitted kernel and m are read from the Java model's getters, which the allowlist refuses: one clear
    # error, not the estimator's value from the Python param map.
    with pytest.raises(UnsupportedOperationException, match="not reachable over Spark Connect"):
        model.getGamma()
    with pytest.raises(UnsupportedOperationException, match="getNumLandmarks"):
        model.getNumLandmarks()
    assert model.getOrDefault("k") == 2


def test_an_unregistered_class_name_is_refused_by_the_server(spark):
    _, df = _data(spark, 30, 3)
    estimator = NystromKernelPCA(k=2, numLandmarks=5)
    estimator._java_obj = "io.github.sparkkpca.ml.NoSuchStage"
    # What a server without the library jar answers for every stage: one MissingJarError saying how to add it.
    from spark_kpca import MissingJarError

    with pytest.raises(MissingJarError) as refused:
        estimator.fit(df)
    message = str(refused.value)
    assert "io.github.sparkkpca.ml.NoSuchStage" in message and "--jars" in message and "\n" not in message
    # Loading a class the server cannot find: the same error.
    from spark_kpca._java_classes import JAVA_CLASSES
    from spark_kpca.ml._connect import ConnectReader

    missing = type("NoSuchStageModel", (NystromKernelPCAModel,), {})
    JAVA_CLASSES["NoSuchStageModel"] = "io.github.sparkkpca.ml.NoSuchStageModel"
    try:
        with pytest.raises(MissingJarError, match="io.github.sparkkpca.ml.NoSuchStageModel"):
            ConnectReader(missing).load("/no-such-spark-kpca-model")
    finally:
        del JAVA_CLASSES["NoSuchStageModel"]


def test_parameters_are_checked_on_the_client_with_the_java_rules_words(spark):
    """A bad value is refused when it is set, in the Connect client, before any request reaches the server."""
    from spark_kpca.errors import SparkKpcaError

    with pytest.raises(SparkKpcaError) as refused:
        NystromKernelPCA(k=2, numLandmarks=5, gamma=float("inf"))
    assert "gamma must be finite and > 0; got Infinity" in str(refused.value)
    estimator = NystromKernelPCA(k=2, numLandmarks=5)
    with pytest.raises(SparkKpcaError, match="kernel must be one of rbf, gaussian, "):
        estimator.setKernel("foo")
    with pytest.raises(SparkKpcaError, match="k must be"):
        estimator.setK(0)
    # A refused value is not left set: the estimator still fits with its earlier values.
    assert estimator.getK() == 2 and estimator.getKernel() == "rbf"
    _, df = _data(spark, 30, 4)
    assert estimator.fit(df).transform(df).count() == 30
