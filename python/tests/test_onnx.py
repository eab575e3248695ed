"""ONNX export: every kernel and both feature maps scored by onnxruntime against Spark's transform, the float32
graph's error, the refusals, the export bundle's kernel parameters, and a Spark pipeline as one ONNX graph."""

import json

import numpy as np
import pytest
from pyspark.ml import Pipeline
from pyspark.ml.classification import LogisticRegression
from pyspark.ml.feature import StandardScaler, VectorAssembler
from pyspark.ml.linalg import Vectors

from spark_kpca.errors import SparkKpcaError
from spark_kpca.ml import KernelPCA, NystromKernelPCA, RandomFeatureKernelPCA

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")


@pytest.fixture(scope="module")
def offset_rows(spark):
    """120 rows of d = 4 around (50, -30, 20, 10): data far from the origin, where an rbf kernel expanded
    around 0 would lose digits; 2 partitions."""
    rng = np.random.default_rng(5)
    x = rng.normal(0.0, 1.0, size=(120, 4)) + np.array([50.0, -30.0, 20.0, 10.0])
    x[:60] += 1.5
    df = spark.createDataFrame([(i, Vectors.dense(r.tolist())) for i, r in enumerate(x)], ["id", "features"])
    return df.repartition(2).cache(), x


#: (estimator, note) for every kernel family on the Nyström map, the exact expansion form and random features.
CASES = [
    ("rbf", lambda: NystromKernelPCA(k=3, numLandmarks=25, kernel="rbf", gamma=0.2, seed=1)),
    ("laplacian", lambda: NystromKernelPCA(k=3, numLandmarks=25, kernel="laplacian", gamma=0.3, seed=1)),
    (
        "polynomial",
        lambda: NystromKernelPCA(k=3, numLandmarks=25, kernel="polynomial", gamma=1e-3, degree=3, coef0=1.0, seed=1),
    ),
    ("sigmoid", lambda: NystromKernelPCA(k=3, numLandmarks=25, kernel="sigmoid", gamma=1e-4, coef0=-0.2, seed=1)),
    ("cosine", lambda: NystromKernelPCA(k=3, numLandmarks=25, kernel="cosine", seed=1)),
    ("linear", lambda: NystromKernelPCA(k=3, numLandmarks=25, kernel="linear", seed=1)),
    ("exact-rbf", lambda: KernelPCA(k=3, gamma=0.2)),
    ("rbf-top-k", lambda: NystromKernelPCA(k=3, numLandmarks=25, gamma=0.2, seed=1, statisticsRoute="top-k")),
    ("rff-rbf", lambda: RandomFeatureKernelPCA(k=3, numRandomFeatures=64, kernel="rbf", gamma=0.2, seed=2)),
    ("rff-laplacian", lambda: RandomFeatureKernelPCA(k=3, numRandomFeatures=64, kernel="laplacian", gamma=0.3, seed=2)),
]


def spark_scores(model, df):
    rows = model.setOutputCol("kpca").transform(df).select("id", "kpca").collect()  # no orderBy: no shuffle
    return np.array([r.kpca.toArray() for r in sorted(rows, key=lambda r: r.id)])


#: The kernel parameters the export bundle's model.json carries: only those the kernel family uses.
BUNDLE_PARAMETERS = {
    "rbf": {"gamma"},
    "laplacian": {"gamma"},
    "polynomial": {"gamma", "coef0", "degree"},
    "sigmoid": {"gamma", "coef0"},
    "cosine": set(),
    "linear": set(),
}


@pytest.mark.parametrize("name,estimator", CASES, ids=[c[0] for c in CASES])
def test_onnx_scores_equal_transform(tmp_path, monkeypatch, offset_rows, name, estimator):
    df, x = offset_rows
    model = estimator().fit(df)
    path = str(tmp_path / "kpca.onnx")
    model.to_onnx(path)
    proto = onnx.load(path)
    onnx.checker.check_model(proto, full_check=True)
    assert [i.name for i in proto.graph.input] == ["features"] and [o.name for o in proto.graph.output] == ["scores"]
    assert {op.domain for op in proto.opset_import} == {""} and proto.opset_import[0].version >= 13
    expected = spark_scores(model, df)
    got = ort.InferenceSession(path, providers=["CPUExecutionProvider"]).run(["scores"], {"features": x})[0]
    assert got.dtype == np.float64 and got.shape == expected.shape
    scale = max(1.0, float(np.abs(expected).max()))
    assert np.abs(got - expected).max() <= 1e-10 * scale, name
    with pytest.raises(SparkKpcaError, match="exists already"):
        model.to_onnx(path)  # never replaces
    if name in BUNDLE_PARAMETERS:
        # The export bundle's model.json: only the parameters the kernel family uses (no gamma for cosine).
        model.export(str(tmp_path / "bundle"))
        meta = json.loads((tmp_path / "bundle" / "model.json").read_text())
        assert meta["kernel"] == name
        assert {"gamma", "coef0", "degree"} & set(meta) == BUNDLE_PARAMETERS[name], meta

    if name == "rbf":
        # The persistence guide's onnxruntime block scores data.csv from kpca.onnx as transform does.
        from test_readme import ONNX, python_blocks, run_block

        monkeypatch.chdir(tmp_path)
        with open("data.csv", "w") as out:
            out.write("x1,x2,x3,x4,label\n" + "".join(",".join(map(repr, map(float, r))) + ",0\n" for r in x))
        ns = {"__name__": "__main__"}
        ((line, code),) = python_blocks(*ONNX)
        run_block(ONNX[0], line, code, ns)
        assert np.abs(ns["scores"] - expected).max() <= 1e-10 * scale

    if name in ("rbf", "rff-rbf"):
        # The float32 graph: input, constants and arithmetic in single precision. On these rows (offset 50 from
        # the origin, so each coordinate carries up to 50·2^-24 ≈ 3e-6 of rounding) the error is measured at
        # 6.7e-7 (landmarks) and 1.6e-6 (random features) of the scores' scale; the bound is 1e-5.
        single = str(tmp_path / "kpca32.onnx")
        model.to_onnx(single, float32=True)
        got32 = ort.InferenceSession(single, providers=["CPUExecutionProvider"]).run(
            ["scores"], {"features": x.astype(np.float32)}
        )[0]
        assert got32.dtype == np.float32
        error = np.abs(got32 - expected).max() / scale
        assert 0 < error <= 1e-5, error


def test_pipeline_to_onnx_probabilities_equal_spark(spark, offset_rows):
    """VectorAssembler → StandardScaler → NystromKernelPCA → LogisticRegression as one ONNX graph, through
    onnxmltools' convert_sparkml with our stage's converter; its Spark ML converters work in float32 (measured
    9.6e-7 from Spark's probabilities; the bound is 1e-5)."""
    pytest.importorskip("onnxmltools")
    from spark_kpca.onnx import pipeline_to_onnx

    _, x = offset_rows
    labels = (np.arange(len(x)) < 60).astype(float)
    columns = ["a", "b", "c", "e"]
    df = spark.createDataFrame([(float(y), *map(float, r)) for y, r in zip(labels, x)], ["label", *columns])
    model = Pipeline(
        stages=[
            VectorAssembler(inputCols=columns, outputCol="raw"),
            StandardScaler(inputCol="raw", outputCol="scaled", withMean=True),
            NystromKernelPCA(inputCol="scaled", outputCol="kpca", k=3, numLandmarks=25, gamma=0.3, seed=1),
            LogisticRegression(featuresCol="kpca", regParam=0.1, maxIter=5),
        ]
    ).fit(df)
    proto = pipeline_to_onnx(model, columns, spark=spark)
    onnx.checker.check_model(proto)
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    feeds = {c: x[:, [i]].astype(np.float32) for i, c in enumerate(columns)}
    outputs = dict(zip([o.name for o in session.get_outputs()], session.run(None, feeds)))
    expected = np.array([r.probability.toArray() for r in model.transform(df).collect()])
    assert 0.05 < expected[:, 1].mean() < 0.95, "a non-trivial classifier"
    np.testing.assert_allclose(outputs["probability"], expected, rtol=0, atol=1e-5)
    assert (outputs["prediction"] == expected.argmax(1)).mean() >= 0.99


def test_sparse_models_export_dense_landmarks_or_are_refused(spark, tmp_path):
    """A model on the sparse kernel-block path exports its landmarks dense while they fit in 512 MiB, and scores
    dense rows as transform scores the sparse ones; wider, the export is refused in one line naming m and d."""
    from pyspark.ml.linalg import SparseVector

    rng = np.random.default_rng(7)

    def rows(d):
        out = []
        for i in range(80):
            idx = np.sort(rng.choice(d, size=8, replace=False))
            out.append((i, SparseVector(d, idx.tolist(), rng.exponential(size=8).tolist())))
        return spark.createDataFrame(out, ["id", "features"]).coalesce(1)

    df = rows(3000)
    model = NystromKernelPCA(k=2, numLandmarks=30, kernel="cosine", seed=3).fit(df)
    assert model.getKernelBlockPath().startswith("sparse: ")
    model.to_onnx(str(tmp_path / "sparse.onnx"))
    dense = np.array([r.features.toArray() for r in sorted(df.collect(), key=lambda r: r.id)])
    got = ort.InferenceSession(str(tmp_path / "sparse.onnx"), providers=["CPUExecutionProvider"]).run(
        ["scores"], {"features": dense}
    )[0]
    expected = spark_scores(model, df)
    assert np.abs(got - expected).max() <= 1e-10 * max(1.0, np.abs(expected).max())

    wide = NystromKernelPCA(k=2, numLandmarks=70, kernel="cosine", seed=3).fit(rows(1 << 20))
    with pytest.raises(SparkKpcaError, match=r"sparse landmarks \(m = 70, d = 1048576\) take 560\.0 MiB"):
        wide.to_onnx(str(tmp_path / "wide.onnx"))
    assert not (tmp_path / "wide.onnx").exists()
