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
    ("rff-rbf", lambda: RandomFeatureKernelPCA(k=3, numRandomFeatures=64, kernel="rbf", gamma=0.2, seed=2)),
    ("rff-laplacian", lambda: RandomFeatureKernelPCA(k=3, numRandomFeatures=64, kernel="laplacian", gamma=0.3, seed=2)),
]


def spark_scores(model, df):
    return np.array([r.kpca.toArray() for r in model.setOutputCol("kpca").transform(df).orderBy("id").collect()])


@pytest.mark.parametrize("name,estimator", CASES, ids=[c[0] for c in CASES])
def test_onnx_scores_equal_transform(tmp_path, offset_rows, name, estimator):
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

    if name in ("rbf", "rff-rbf"):
        # The float32 graph: input, constants and arithmetic in single precision. On these rows (offset 50 from
        # the origin, so each coordinate carries 50·2^-24 ≈ 3e-6 of rounding) the error is below 1e-4 of the
        # scores' scale (measured 2e-6 for the landmark graph, 2e-5 for random features).
        single = str(tmp_path / "kpca32.onnx")
        model.to_onnx(single, float32=True)
        got32 = ort.InferenceSession(single, providers=["CPUExecutionProvider"]).run(
            ["scores"], {"features": x.astype(np.float32)}
        )[0]
        assert got32.dtype == np.float32
        error = np.abs(got32 - expected).max() / scale
        assert 0 < error <= 1e-4, error


def test_bundle_json_carries_only_the_kernels_parameters(tmp_path, offset_rows):
    df, _ = offset_rows
    fits = {
        "cosine": NystromKernelPCA(k=2, numLandmarks=10, kernel="cosine", seed=1),
        "linear": NystromKernelPCA(k=2, numLandmarks=10, kernel="linear", seed=1),
        "rbf": NystromKernelPCA(k=2, numLandmarks=10, kernel="rbf", gamma=0.2, seed=1),
        "sigmoid": NystromKernelPCA(k=2, numLandmarks=10, kernel="sigmoid", gamma=1e-4, coef0=-0.2, seed=1),
        "polynomial": NystromKernelPCA(k=2, numLandmarks=10, kernel="polynomial", gamma=1e-3, degree=2, seed=1),
    }
    expected = {
        "cosine": set(),
        "linear": set(),
        "rbf": {"gamma"},
        "sigmoid": {"gamma", "coef0"},
        "polynomial": {"gamma", "coef0", "degree"},
    }
    for kernel, estimator in fits.items():
        bundle = tmp_path / kernel
        estimator.fit(df).export(str(bundle))
        meta = json.loads((bundle / "model.json").read_text())
        assert {"gamma", "coef0", "degree"} & set(meta) == expected[kernel], (kernel, meta)
        assert meta["kernel"] == kernel


def test_pipeline_to_onnx_probabilities_equal_spark(spark, offset_rows):
    """VectorAssembler → StandardScaler → NystromKernelPCA → LogisticRegression as one ONNX graph, through
    onnxmltools' convert_sparkml with our stage's converter; its Spark ML converters work in float32."""
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
            LogisticRegression(featuresCol="kpca", regParam=0.1),
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
