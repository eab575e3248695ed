"""spark_kpca.mlflow: kernel PCA models and pipelines logged with our python_function flavour score with numpy and
scipy alone, equal to Spark's transform to 1e-12: in a fresh Python process where PySpark cannot be imported
(dense arrays, array columns, CSR rows, a pipeline's named columns), in this process from Spark ML vectors, and
in Spark through mlflow.pyfunc.spark_udf. One small fit per kernel family and layout checks the kernel formulas
(dense and CSR landmarks, the rbf centre on both paths, random features, exact kernel PCA)."""

import json
import os
import subprocess
import sys
import textwrap

import mlflow
import mlflow.pyfunc
import numpy as np
import pytest
import scipy.sparse as sp
import yaml
from pyspark.ml import Pipeline, PipelineModel
from pyspark.ml.feature import Normalizer, StandardScaler, Tokenizer, VectorAssembler
from pyspark.ml.functions import vector_to_array
from pyspark.ml.linalg import Vectors
from pyspark.sql import functions as F

import spark_kpca.mlflow
from spark_kpca.ml import KernelPCA, NystromKernelPCA, RandomFeatureKernelPCA

TOL = 1e-12


def scores_of(model, df, column="kpca"):
    return np.array([r[column].toArray() for r in model.transform(df).orderBy("id").collect()])


def dense_rows(n=120, d=4, seed=3, shift=50.0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)) + shift  # far from the origin: the rbf centre matters


def sparse_rows(n=120, d=400, per_row=6, seed=5, dense_column=None):
    rng = np.random.default_rng(seed)
    rows = sp.lil_matrix((n, d))
    for i in range(n):
        cols = rng.choice(d if dense_column is None else d - 1, per_row, replace=False)
        rows[i, cols] = rng.uniform(0.5, 2.0, per_row)
        if dense_column is not None:
            rows[i, d - 1] = dense_column + rng.normal()
    return rows.tocsr()


def vector_frame(spark, rows):
    if sp.issparse(rows):
        data = [
            (i, Vectors.sparse(rows.shape[1], r.indices.tolist(), r.data.tolist())) for i, r in enumerate(rows)
        ]
    else:
        data = [(i, Vectors.dense(r.tolist())) for i, r in enumerate(rows)]
    return spark.createDataFrame(data, ["id", "features"]).repartition(2)


@pytest.fixture(scope="module")
def saved(spark, tmp_path_factory):
    """A dense rbf model, a sparse cosine model and a VectorAssembler → StandardScaler → NystromKernelPCA
    pipeline, each written by spark_kpca.mlflow (the first logged to a run) with its rows and Spark's scores."""
    root = tmp_path_factory.mktemp("pyfunc")
    out = {}
    x = dense_rows()
    df = vector_frame(spark, x)
    rbf = NystromKernelPCA(k=3, numLandmarks=40, kernel="rbf", gamma=0.3, seed=7).fit(df)
    mlflow.set_tracking_uri(f"sqlite:///{root}/mlflow.db")
    experiment = mlflow.create_experiment("pyfunc-tests", artifact_location=(root / "artifacts").as_uri())
    with mlflow.start_run(experiment_id=experiment):
        info = spark_kpca.mlflow.log_model(rbf, "kpca")
    out["rbf"] = (info.model_uri, x, scores_of(rbf, df))
    s = sparse_rows()
    sdf = vector_frame(spark, s)
    cosine = NystromKernelPCA(k=3, numLandmarks=40, kernel="cosine", seed=7).fit(sdf)
    spark_kpca.mlflow.save_model(cosine, str(root / "cosine"))
    out["cosine"] = (str(root / "cosine"), s, scores_of(cosine, sdf))
    cols = ["a", "b", "c", "d"]
    pdf = spark.createDataFrame([(i, *map(float, r)) for i, r in enumerate(x)], ["id", *cols]).repartition(2)
    pipeline = Pipeline(
        stages=[
            VectorAssembler(inputCols=cols, outputCol="raw"),
            StandardScaler(inputCol="raw", outputCol="features", withMean=True, withStd=True),
            NystromKernelPCA(k=3, numLandmarks=40, gamma=0.2, seed=7),
        ]
    ).fit(pdf)
    spark_kpca.mlflow.save_model(pipeline, str(root / "pipeline"))
    out["pipeline"] = (str(root / "pipeline"), x, scores_of(pipeline, pdf))
    return out


def test_the_flavour_records_numpy_scipy_a_signature_and_its_loader(saved):
    path = saved["cosine"][0]
    meta = yaml.safe_load(open(f"{path}/MLmodel"))
    assert meta["flavors"]["python_function"]["loader_module"] == "spark_kpca_pyfunc"
    assert meta["flavors"]["spark_kpca"]["kernel"] == "cosine"
    requirements = open(f"{path}/requirements.txt").read().split()
    assert {r.split("==")[0] for r in requirements} == {"mlflow", "numpy", "scipy"}, requirements
    assert f"numpy=={np.__version__}" in requirements
    inputs = json.loads(meta["signature"]["inputs"])
    assert inputs == [{"type": "tensor", "tensor-spec": {"dtype": "float64", "shape": [-1, 400]}}]
    pipeline_inputs = json.loads(yaml.safe_load(open(f"{saved['pipeline'][0]}/MLmodel"))["signature"]["inputs"])
    assert [c["name"] for c in pipeline_inputs] == ["a", "b", "c", "d"]


def test_a_fresh_process_without_pyspark_scores_as_spark(saved, tmp_path):
    """PySpark made unimportable first: the models load and score with numpy and scipy only."""
    uri, x, rbf = saved["rbf"]
    cosine_path, s, cosine = saved["cosine"]
    pipeline_path, _, pipeline = saved["pipeline"]
    np.save(tmp_path / "x.npy", x)
    sp.save_npz(tmp_path / "s.npz", s)
    script = textwrap.dedent(
        """
        import json, sys
        sys.modules["pyspark"] = None  # import pyspark raises ImportError
        import numpy as np, pandas as pd, scipy.sparse as sp, mlflow, mlflow.pyfunc
        args = json.loads(sys.argv[1])
        mlflow.set_tracking_uri(args["tracking"])
        x = np.load(args["dir"] + "/x.npy"); s = sp.load_npz(args["dir"] + "/s.npz")
        rbf = mlflow.pyfunc.load_model(args["rbf"])
        cosine = mlflow.pyfunc.load_model(args["cosine"])
        pipeline = mlflow.pyfunc.load_model(args["pipeline"])
        out = {
            "rbf_array": rbf.predict(x).tolist(),
            "rbf_lists": rbf.predict(pd.DataFrame({"features": [list(r) for r in x]})).tolist(),
            "cosine_csr": cosine.predict(s).tolist(),
            "cosine_arrays": cosine.predict(pd.DataFrame({"features": list(s.toarray())})).tolist(),
            "pipeline": pipeline.predict(pd.DataFrame(x[:, ::-1], columns=["d", "c", "b", "a"])).tolist(),
        }
        out["spark_modules"] = sorted(m for m in sys.modules if m.split(".")[0] in ("pyspark", "py4j") and sys.modules[m])
        print(json.dumps(out))
        """
    )
    args = {"dir": str(tmp_path), "rbf": uri, "cosine": cosine_path, "pipeline": pipeline_path,
            "tracking": mlflow.get_tracking_uri()}
    done = subprocess.run([sys.executable, "-c", script, json.dumps(args)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["spark_modules"] == []
    for key, expected in (("rbf_array", rbf), ("rbf_lists", rbf), ("cosine_csr", cosine), ("cosine_arrays", cosine),
                          ("pipeline", pipeline)):
        np.testing.assert_allclose(np.array(got[key]), expected, rtol=0, atol=TOL, err_msg=key)


def test_spark_ml_vectors_and_their_dict_form_score_through_the_raw_model(spark, saved):
    path, s, expected = saved["cosine"]
    scorer = spark_kpca.mlflow.load_model(path)
    frame = vector_frame(spark, s).orderBy("id").toPandas()  # a column of SparseVector objects
    np.testing.assert_allclose(scorer.predict(frame[["features"]]), expected, rtol=0, atol=TOL)
    dicts = [{"type": 0, "size": v.size, "indices": v.indices.tolist(), "values": v.values.tolist()}
             for v in frame["features"]]
    np.testing.assert_allclose(scorer.predict({"features": dicts}), expected, rtol=0, atol=TOL)
    _, x, rbf = saved["rbf"]
    dense = [Vectors.dense(r) for r in x]
    np.testing.assert_allclose(spark_kpca.mlflow.load_model(saved["rbf"][0]).predict(dense), rbf, rtol=0, atol=TOL)


def test_spark_udf_scores_as_transform(spark, saved):
    uri, x, expected = saved["rbf"]
    df = vector_frame(spark, x)
    udf = mlflow.pyfunc.spark_udf(spark, uri)  # the result type, array<double>, from the signature
    got = df.withColumn("s", udf(vector_to_array("features"))).orderBy("id").collect()
    np.testing.assert_allclose(np.array([r.s for r in got]), expected, rtol=0, atol=TOL)
    path, _, expected = saved["pipeline"]
    cols = ["a", "b", "c", "d"]
    pdf = spark.createDataFrame([(i, *map(float, r)) for i, r in enumerate(x)], ["id", *cols])
    udf = mlflow.pyfunc.spark_udf(spark, path)
    got = pdf.withColumn("s", udf(F.struct(*cols))).orderBy("id").collect()
    np.testing.assert_allclose(np.array([r.s for r in got]), expected, rtol=0, atol=TOL)


KERNELS = [
    # (name, estimator, rows): every kernel family, dense and CSR landmarks, random features, exact kernel PCA
    ("rbf-dense", lambda: NystromKernelPCA(kernel="rbf", gamma=0.2), "dense"),
    ("laplacian-dense", lambda: NystromKernelPCA(kernel="laplacian", gamma=0.1), "dense"),
    ("polynomial-dense", lambda: NystromKernelPCA(kernel="polynomial", gamma=0.5, degree=3, coef0=1.0), "small"),
    ("linear-dense", lambda: NystromKernelPCA(kernel="linear"), "small"),
    ("sigmoid-dense", lambda: NystromKernelPCA(kernel="sigmoid", gamma=0.05, coef0=0.1), "small"),
    ("rbf-csr-centred", lambda: NystromKernelPCA(kernel="rbf", gamma=0.1), "sparse-dense-column"),
    # the top-k route's model: landmarks and the expansion [P | w], no W
    ("rbf-top-k", lambda: NystromKernelPCA(kernel="rbf", gamma=0.2, statisticsRoute="top-k"), "dense"),
    ("laplacian-csr", lambda: NystromKernelPCA(kernel="laplacian", gamma=0.2), "sparse"),
    ("polynomial-csr", lambda: NystromKernelPCA(kernel="polynomial", gamma=0.5, degree=2, coef0=1.0), "sparse"),
    ("rff-rbf", lambda: RandomFeatureKernelPCA(kernel="rbf", gamma=0.2, numRandomFeatures=64), "dense"),
    ("exact-rbf", lambda: KernelPCA(kernel="rbf", gamma=0.2), "dense"),
]


@pytest.mark.parametrize("name,estimator,rows", KERNELS, ids=[k[0] for k in KERNELS])
def test_each_kernel_family_scores_as_spark(spark, tmp_path, name, estimator, rows):
    data = {
        "dense": lambda: dense_rows(n=60, d=3),
        "small": lambda: dense_rows(n=60, d=3, shift=0.0),
        "sparse": lambda: sparse_rows(n=60, d=200),
        "sparse-dense-column": lambda: sparse_rows(n=60, d=200, dense_column=1e4),
    }[rows]()
    df = vector_frame(spark, data)
    stage = estimator().setK(3)
    if stage.hasParam("numLandmarks"):
        stage = stage.setNumLandmarks(25)
    if stage.hasParam("seed"):
        stage = stage.setSeed(7)
    model = stage.fit(df)
    spark_kpca.mlflow.save_model(model, str(tmp_path / "m"))
    if "csr" in name:
        assert "landmarks_indptr" in np.load(tmp_path / "m" / "data" / "arrays.npz").files
    loaded = mlflow.pyfunc.load_model(str(tmp_path / "m"))
    got = loaded.predict(data)
    np.testing.assert_allclose(got, scores_of(model, df), rtol=0, atol=TOL)


def test_normalizer_before_the_stage(spark, tmp_path):
    x = dense_rows(n=60, d=3, shift=1.0)
    df = vector_frame(spark, x)
    model = Pipeline(
        stages=[Normalizer(inputCol="features", outputCol="unit", p=1.0),
                NystromKernelPCA(inputCol="unit", k=2, numLandmarks=20, gamma=2.0, seed=3)]
    ).fit(df)
    spark_kpca.mlflow.save_model(model, str(tmp_path / "m"))
    got = mlflow.pyfunc.load_model(str(tmp_path / "m")).predict(x)
    np.testing.assert_allclose(got, scores_of(model, df), rtol=0, atol=TOL)


def test_other_stages_and_bad_inputs_are_refused_in_one_line(spark, saved, tmp_path):
    path, x, _ = saved["rbf"]
    kpca = spark_kpca.mlflow.load_model(path)
    with pytest.raises(ValueError, match=r"row 1, value 2 of the array is not finite"):
        bad = x[:3].copy()
        bad[1, 2] = np.nan
        kpca.predict(bad)
    with pytest.raises(ValueError, match="rows of 3 values; the model takes 4"):
        kpca.predict(x[:, :3])
    df = vector_frame(spark, dense_rows(n=30, d=4))
    model = NystromKernelPCA(k=2, numLandmarks=10, seed=1).fit(df)
    other = PipelineModel(stages=[Tokenizer(inputCol="text", outputCol="words"), model])
    with pytest.raises(ValueError, match=r"stage 0 \(Tokenizer, uid .*\) is not scored without Spark.*mlflow.spark"):
        spark_kpca.mlflow.save_model(other, str(tmp_path / "other"))
    assert not (tmp_path / "other").exists()
    with pytest.raises(ValueError, match="exists already"):
        spark_kpca.mlflow.save_model(model, str(tmp_path))


def test_the_package_imports_without_mlflow():
    script = 'import sys; sys.modules["mlflow"] = None; import spark_kpca, spark_kpca.mlflow, spark_kpca.ml; print("ok")'
    src = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
    env = dict(os.environ, PYTHONPATH=src)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env)
    assert done.stdout.strip() == "ok", done.stderr[-2000:]
