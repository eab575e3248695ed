"""Saved models with the library's stages load in a fresh Python process that imports nothing of ours, as
PySpark and MLflow users load them: ``PipelineModel.load``, ``CrossValidatorModel.load``,
``mlflow.spark.load_model``, ``mlflow.pyfunc.load_model(...).predict(pandas)`` and ``mlflow.pyfunc.spark_udf``
(whose Python workers load the model themselves). A session without the library jar gets one
``MissingJarError`` (a ``SparkKpcaError``) that says how to add it.

The package is installed as pip installs it: a wheel built from this directory (``pip wheel``) goes into a new
environment layered on the test environment, so that its start-up hook (``spark_kpca_aliases.pth``) runs as
it does for users. Each case runs in a new interpreter of that environment; the models are fitted here, and
the fresh process's scores are compared with this process's scores of the same rows.
"""

import json
import os
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import mlflow
import numpy as np
import mlflow.spark
import pyspark
import pytest
from pyspark.ml import Pipeline, PipelineModel
from pyspark.ml.feature import VectorAssembler
from pyspark.ml.tuning import CrossValidator, ParamGridBuilder

import _spark_kpca_aliases
import spark_kpca
from spark_kpca._java_classes import JAVA_CLASSES
from spark_kpca.ml import (
    KernelPCARegressor,
    NystromKernelPCA,
    RandomFeatureKernelPCA,
    ReconstructionErrorEvaluator,
)

PYTHON_DIR = Path(__file__).resolve().parents[1]
FEATURES = ["a", "b", "c"]


def close(got, expected):
    np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=1e-12, atol=1e-12)


def test_the_start_up_hook_names_the_packages_of_every_stage():
    packages = sorted({name.rsplit(".", 1)[0] for name in JAVA_CLASSES.values()})
    assert list(_spark_kpca_aliases.JAVA_PACKAGES) == packages
    assert (PYTHON_DIR / "src" / "spark_kpca_aliases.pth").read_text().strip() == "import _spark_kpca_aliases"


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The python of a new environment holding the wheel of this directory (and, through a path file, the
    test environment's packages: PySpark, MLflow, pandas)."""
    tmp = tmp_path_factory.mktemp("installed")
    before = sorted(p.name for p in PYTHON_DIR.iterdir())
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--disable-pip-version-check",
         "-w", str(tmp / "dist"), str(PYTHON_DIR)],
        check=True,
    )
    # Nothing of the build is left in the source tree (no build/, no *.egg-info).
    assert sorted(p.name for p in PYTHON_DIR.iterdir()) == before
    assert not list((PYTHON_DIR / "src").glob("*.egg-info"))
    wheel = next((tmp / "dist").glob("spark_kpca-*.whl"))
    env = tmp / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    (Path(site) / "test_environment.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--disable-pip-version-check",
         "--target", site, str(wheel)],
        check=True,
    )
    return python


def run_fresh(
    python, body: str, args: dict, *, submit_jar: bool = False, timeout: int = 600, environment: dict = None
) -> dict:
    """Runs ``body`` in a new interpreter of the installed environment (with ``environment`` added to its
    environment variables); it reads ``args`` and prints one JSON line as its last line of output, returned
    here."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SPARK_KPCA", "PYSPARK", "MLFLOW"))}
    env.update(environment or {})
    env["PYSPARK_PYTHON"] = str(python)  # the workers (spark_udf) run the installed environment too
    if submit_jar:
        # How a user gives the jar to sessions that MLflow starts itself (pyfunc, spark_udf's workers).
        env["PYSPARK_SUBMIT_ARGS"] = f"--jars {args['jar']} pyspark-shell"
    script = textwrap.dedent(
        """
        import json, sys
        args = json.loads(sys.argv[1])
        def session(jar):
            from pyspark.sql import SparkSession
            builder = (SparkSession.builder.master("local[2]")
                       .config("spark.ui.enabled", "false")
                       .config("spark.ui.showConsoleProgress", "false")
                       .config("spark.sql.shuffle.partitions", "2"))
            if jar:
                builder = builder.config("spark.jars", jar)
            spark = builder.getOrCreate()
            spark.sparkContext.setLogLevel("ERROR")
            return spark
        def stage_classes(pipeline_model):
            return [type(s).__module__ + "." + type(s).__name__ for s in pipeline_model.stages]
        """
    ) + textwrap.dedent(body)
    done = subprocess.run(
        [str(python), "-c", script, json.dumps(args)],
        env=env, capture_output=True, text=True, timeout=timeout,
    )
    if done.returncode != 0:
        pytest.fail(f"fresh process failed ({done.returncode}):\n{done.stderr[-6000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def saved(spark, blobs, tmp_path_factory):
    """Models of several shapes, saved here; their inputs; and this process's scores of them."""
    tmp = tmp_path_factory.mktemp("saved")
    _, data = blobs
    rows = [(i, *map(float, r), float(r[0] * r[1] + r[2])) for i, r in enumerate(data)]
    raw = spark.createDataFrame(rows, ["id", *FEATURES, "y"]).repartition(2)
    raw.write.parquet(str(tmp / "rows.parquet"))
    raw = spark.read.parquet(str(tmp / "rows.parquet")).cache()
    assembler = VectorAssembler(inputCols=FEATURES, outputCol="features")
    out = {"jar": spark_kpca.jar_path(), "rows": str(tmp / "rows.parquet")}

    pipeline = Pipeline(
        stages=[assembler, NystromKernelPCA(k=2, numLandmarks=30, gamma=0.4, seed=3, residualCol="residual")]
    ).fit(raw)
    pipeline.save(str(tmp / "pipeline"))
    out["pipeline"] = str(tmp / "pipeline")

    kpca = RandomFeatureKernelPCA(k=2, numRandomFeatures=64, seed=5, residualCol="residual")
    grid = ParamGridBuilder().addGrid(kpca.gamma, [0.05, 0.5]).build()
    cv = CrossValidator(
        estimator=Pipeline(stages=[assembler, kpca]),
        estimatorParamMaps=grid,
        evaluator=ReconstructionErrorEvaluator(residualCol="residual"),
        numFolds=2,
        seed=7,
    ).fit(raw)
    cv.save(str(tmp / "cv"))
    out["cv"] = str(tmp / "cv")

    rf_model = RandomFeatureKernelPCA(inputCol="features", k=3, numRandomFeatures=32, seed=1).fit(
        assembler.transform(raw)
    )
    regression = Pipeline(
        stages=[assembler, KernelPCARegressor(labelCol="y", numLandmarks=40, gamma=0.5, dimension=6, seed=7)]
    ).fit(raw)

    previous = mlflow.get_tracking_uri()
    mlflow.set_tracking_uri(f"sqlite:///{tmp}/mlflow.db")
    try:
        experiment = mlflow.create_experiment("loading", artifact_location=(tmp / "artifacts").as_uri())
        with mlflow.start_run(experiment_id=experiment) as run:
            requirements = [f"pyspark=={pyspark.__version__}"]
            mlflow.spark.log_model(rf_model, "rf", pip_requirements=requirements)
            mlflow.spark.log_model(regression, "regression", pip_requirements=requirements)
    finally:
        mlflow.set_tracking_uri(previous)
    out["tracking"] = f"sqlite:///{tmp}/mlflow.db"
    out["rf"] = f"runs:/{run.info.run_id}/rf"
    out["regression"] = f"runs:/{run.info.run_id}/regression"

    def scores(df, column):
        return [r[column].toArray().tolist() for r in df.orderBy("id").select(column).collect()]

    expected = {
        "pipeline": scores(pipeline.transform(raw), "kpca"),
        "cv": scores(cv.bestModel.transform(raw), "kpca"),
        "rf": scores(rf_model.transform(assembler.transform(raw)), "kpca"),
        "regression": [r.prediction for r in regression.transform(raw).orderBy("id").collect()],
    }
    return out, expected


def test_pipeline_model_loads_in_a_fresh_process(installed, saved):
    args, expected = saved
    got = run_fresh(
        installed,
        """
        import sys
        spark = session(args["jar"])
        from pyspark.ml import PipelineModel
        assert "spark_kpca" not in sys.modules
        model = PipelineModel.load(args["pipeline"])
        rows = spark.read.parquet(args["rows"])
        kpca = [r.kpca.toArray().tolist() for r in model.transform(rows).orderBy("id").collect()]
        print(json.dumps({"classes": stage_classes(model), "kpca": kpca,
                          "m": model.stages[1].getNumLandmarks()}))
        """,
        args,
    )
    assert got["classes"] == [
        "pyspark.ml.feature.VectorAssembler",
        "spark_kpca.ml.NystromKernelPCAModel",
    ]
    assert got["m"] == 30
    close(got["kpca"], expected["pipeline"])


def test_cross_validator_model_loads_in_a_fresh_process(installed, saved):
    args, expected = saved
    got = run_fresh(
        installed,
        """
        spark = session(args["jar"])
        from pyspark.ml.tuning import CrossValidatorModel
        cv = CrossValidatorModel.load(args["cv"])
        rows = spark.read.parquet(args["rows"])
        kpca = [r.kpca.toArray().tolist() for r in cv.bestModel.transform(rows).orderBy("id").collect()]
        evaluator = type(cv.getEvaluator())
        print(json.dumps({"classes": stage_classes(cv.bestModel), "kpca": kpca,
                          "evaluator": evaluator.__module__ + "." + evaluator.__name__}))
        """,
        args,
    )
    assert got["classes"][1] == "spark_kpca.ml.RandomFeatureKernelPCAModel"
    assert got["evaluator"] == "spark_kpca.ml.ReconstructionErrorEvaluator"
    close(got["kpca"], expected["cv"])


def test_mlflow_spark_load_model_in_a_fresh_process(installed, saved):
    args, expected = saved
    got = run_fresh(
        installed,
        """
        import mlflow, mlflow.spark
        mlflow.set_tracking_uri(args["tracking"])
        spark = session(args["jar"])
        from pyspark.ml.feature import VectorAssembler
        model = mlflow.spark.load_model(args["rf"])
        rows = VectorAssembler(inputCols=["a", "b", "c"], outputCol="features").transform(
            spark.read.parquet(args["rows"]))
        kpca = [r.kpca.toArray().tolist() for r in model.transform(rows).orderBy("id").collect()]
        print(json.dumps({"classes": stage_classes(model), "kpca": kpca}))
        """,
        args,
    )
    assert got["classes"] == ["spark_kpca.ml.RandomFeatureKernelPCAModel"]
    close(got["kpca"], expected["rf"])


def test_pyfunc_predicts_pandas_in_a_fresh_process_with_mlflow_s_own_session(installed, saved):
    """No session is started here: MLflow's pyfunc loader starts one, which gets the jar from
    PYSPARK_SUBMIT_ARGS."""
    args, expected = saved
    got = run_fresh(
        installed,
        """
        import mlflow, mlflow.pyfunc, pandas
        mlflow.set_tracking_uri(args["tracking"])
        rows = pandas.read_parquet(args["rows"]).sort_values("id")
        predicted = mlflow.pyfunc.load_model(args["regression"]).predict(rows[["a", "b", "c"]])
        print(json.dumps({"prediction": [float(p) for p in predicted]}))
        """,
        args,
        submit_jar=True,
    )
    close(got["prediction"], expected["regression"])


def test_spark_udf_predicts_in_the_python_workers_of_a_fresh_process(installed, saved):
    args, expected = saved
    got = run_fresh(
        installed,
        """
        import mlflow, mlflow.pyfunc
        from pyspark.sql import functions as F
        mlflow.set_tracking_uri(args["tracking"])
        spark = session(args["jar"])
        udf = mlflow.pyfunc.spark_udf(spark, args["regression"], result_type="double")
        rows = spark.read.parquet(args["rows"])
        scored = rows.withColumn("p", udf(F.struct("a", "b", "c"))).orderBy("id")
        print(json.dumps({"prediction": [r.p for r in scored.collect()]}))
        """,
        args,
        submit_jar=True,
    )
    close(got["prediction"], expected["regression"])


def test_a_session_without_the_jar_gets_one_clear_error(installed, saved):
    args, _ = saved
    got = run_fresh(
        installed,
        """
        spark = session(None)
        import spark_kpca
        from spark_kpca.ml import NystromKernelPCA, NystromKernelPCAModel, load_model
        messages = []
        for attempt in (lambda: NystromKernelPCA(k=2),
                        lambda: NystromKernelPCAModel.load(args["pipeline"] + "/stages/1_x"),
                        lambda: load_model(args["pipeline"])):
            try:
                attempt()
                messages.append(None)
            except spark_kpca.SparkKpcaError as exc:
                messages.append([type(exc).__name__, str(exc), isinstance(exc, RuntimeError)])
        from pyspark.ml import PipelineModel
        try:
            PipelineModel.load(args["pipeline"])
            pipeline_error = None
        except Exception as exc:
            pipeline_error = [type(exc).__name__, str(exc)]
        print(json.dumps({"messages": messages, "pipeline": pipeline_error}))
        """,
        args,
    )
    for kind, message, runtime in got["messages"]:
        assert (kind, runtime) == ("MissingJarError", True)
        assert "\n" not in message
        assert "has no class io.github.sparkkpca." in message
        for hint in ('"spark.jars", spark_kpca.jar_path()', "PYSPARK_SUBMIT_ARGS=", "spark_kpca.jar_path() = /"):
            assert hint in message, (hint, message)
    # PipelineModel.load: PySpark 4 loads each stage through its Python class, which raises the same error;
    # where PySpark hands the whole pipeline to Spark's Java reader, Spark's error names the missing class.
    kind, message = got["pipeline"]
    if kind == "MissingJarError":
        assert "has no class io.github.sparkkpca.ml.NystromKernelPCAModel:" in message and "\n" not in message
    else:
        assert "ClassNotFoundException" in message and "io.github.sparkkpca.ml.NystromKernelPCAModel" in message
    if pyspark.__version__ >= "4":
        assert kind == "MissingJarError", message
    assert got["messages"][0][1].startswith(
        "MissingJarError: the Spark session's JVM has no class io.github.sparkkpca.ml.NystromKernelPCA:"
    )


def test_wide_text_pipeline_loads_and_scores_in_a_fresh_process_at_the_default_driver_memory(
    installed, spark, tmp_path_factory
):
    """A text pipeline (Tokenizer → HashingTF(2^20) → IDF → cosine NystromKernelPCA, m = 160) whose landmarks
    would take 160·2^20 doubles = 1.25 GiB dense, more than a fresh session's default 1 GiB driver: it loads
    with ``PipelineModel.load`` and ``mlflow.spark.load_model`` there, from its stored sparse landmarks, and
    scores bit for bit as the fitted pipeline did here."""
    from pyspark.ml.feature import IDF, HashingTF, Tokenizer

    tmp = tmp_path_factory.mktemp("text")
    rng = np.random.default_rng(13)
    vocabulary = [f"w{i}" for i in range(3000)]
    weights = 1.0 / np.arange(1, len(vocabulary) + 1)
    documents = [
        (i, " ".join(rng.choice(vocabulary, size=25, p=weights / weights.sum()))) for i in range(200)
    ]
    spark.createDataFrame(documents, ["id", "text"]).repartition(2).write.parquet(str(tmp / "docs.parquet"))
    docs = spark.read.parquet(str(tmp / "docs.parquet")).cache()
    pipeline = Pipeline(
        stages=[
            Tokenizer(inputCol="text", outputCol="words"),
            HashingTF(inputCol="words", outputCol="tf", numFeatures=1 << 20),
            IDF(inputCol="tf", outputCol="features"),
            NystromKernelPCA(kernel="cosine", k=3, numLandmarks=160, seed=5, residualCol="residual"),
        ]
    ).fit(docs)
    assert pipeline.stages[-1].getKernelBlockPath().startswith("sparse: ")
    pipeline.save(str(tmp / "pipeline"))
    previous = mlflow.get_tracking_uri()
    mlflow.set_tracking_uri(f"sqlite:///{tmp}/mlflow.db")
    try:
        experiment = mlflow.create_experiment("text", artifact_location=(tmp / "artifacts").as_uri())
        with mlflow.start_run(experiment_id=experiment) as run:
            mlflow.spark.log_model(pipeline, "text", pip_requirements=[f"pyspark=={pyspark.__version__}"])
    finally:
        mlflow.set_tracking_uri(previous)
    scored = pipeline.transform(docs).orderBy("id").collect()
    expected = [[*r.kpca.toArray().tolist(), r.residual] for r in scored]
    args = {
        "jar": spark_kpca.jar_path(),
        "docs": str(tmp / "docs.parquet"),
        "pipeline": str(tmp / "pipeline"),
        "tracking": f"sqlite:///{tmp}/mlflow.db",
        "logged": f"runs:/{run.info.run_id}/text",
    }
    got = run_fresh(
        installed,
        """
        import mlflow, mlflow.spark
        spark = session(args["jar"])
        from pyspark.ml import PipelineModel
        heap = spark.sparkContext._jvm.java.lang.Runtime.getRuntime().maxMemory()
        docs = spark.read.parquet(args["docs"])
        def scores(model):
            return [[*r.kpca.toArray().tolist(), r.residual] for r in model.transform(docs).orderBy("id").collect()]
        loaded = PipelineModel.load(args["pipeline"])
        mlflow.set_tracking_uri(args["tracking"])
        logged = mlflow.spark.load_model(args["logged"])
        print(json.dumps({"heap": heap, "classes": stage_classes(loaded), "pipeline": scores(loaded),
                          "mlflow": scores(logged), "sparse": str(type(loaded.stages[-1].landmarks).__name__)}))
        """,
        args,
    )
    assert got["heap"] <= 1 << 30, "the fresh session runs at Spark's default driver memory"
    assert got["classes"][-1] == "spark_kpca.ml.NystromKernelPCAModel"
    assert got["sparse"] == "SparseMatrix"
    assert got["pipeline"] == expected, "PipelineModel.load, bit for bit"
    assert got["mlflow"] == expected, "mlflow.spark.load_model, bit for bit"


def test_a_signing_key_in_the_environment_signs_and_checks_in_a_fresh_process(installed, saved, tmp_path):
    """With ``SPARK_KPCA_SIGNING_KEY`` set, a fresh process refuses the unsigned models saved here
    (``PipelineModel.load``, ``mlflow.spark.load_model``), signs the model it saves, loads it (``load``,
    ``load_model``), and refuses it under another key set in the Spark conf; this process, without a key,
    loads the signed model."""
    args, _ = saved
    signed = tmp_path / "signed"
    got = run_fresh(
        installed,
        """
        import mlflow, mlflow.spark
        mlflow.set_tracking_uri(args["tracking"])
        spark = session(args["jar"])
        from pyspark.ml import PipelineModel
        from pyspark.ml.feature import VectorAssembler
        from spark_kpca.ml import NystromKernelPCA, NystromKernelPCAModel, load_model
        def refusal(load, path):
            try:
                load(path)
            except Exception as e:
                return str(e)
            return "loaded"
        out = {"pipeline": refusal(PipelineModel.load, args["pipeline"]),
               "mlflow": refusal(mlflow.spark.load_model, args["rf"])}
        rows = VectorAssembler(inputCols=["a", "b", "c"], outputCol="features").transform(
            spark.read.parquet(args["rows"]))
        NystromKernelPCA(k=2, numLandmarks=10, gamma=0.4, seed=3).fit(rows).save(args["signed"])
        out["load"] = NystromKernelPCAModel.load(args["signed"]).numComponents
        out["load_model"] = load_model(args["signed"]).numComponents
        spark.conf.set("spark.kpca.model.signingSecret", "another key")
        out["other"] = refusal(load_model, args["signed"])
        print(json.dumps(out))
        """,
        {**args, "signed": str(signed)},
        environment={"SPARK_KPCA_SIGNING_KEY": "the key of the Python test"},
    )
    not_signed = "it is not signed (no _signature.json), but a signing key is configured"
    assert not_signed in got["pipeline"] and "stages" in got["pipeline"], got["pipeline"]
    assert not_signed in got["mlflow"], got["mlflow"]
    assert got["load"] == 2 and got["load_model"] == 2
    assert "_signature.json does not match _manifest.json" in got["other"], got["other"]
    assert (signed / "_signature.json").exists()
    from spark_kpca.ml import NystromKernelPCAModel

    assert NystromKernelPCAModel.load(str(signed)).numComponents == 2
