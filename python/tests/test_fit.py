"""Fits from Python: equal to exact kernel PCA in numpy when m = n, bit-identical to the same fit from Java, and
the models' attributes and methods."""

import numpy as np
import pytest
from pyspark.ml.linalg import DenseMatrix, DenseVector, Vectors
from pyspark.sql import DataFrame

from spark_kpca.errors import IllegalArgumentException, SparkKpcaError
from spark_kpca.ml import (
    KernelPCA,
    KernelPCAModel,
    KernelPCARegressionModel,
    KernelPCARegressor,
    NystromKernelPCA,
    NystromKernelPCAModel,
    RandomFeatureKernelPCA,
    RandomFeatureKernelPCAModel,
    RelevantDimensionEstimator,
)


def exact_kpca(x: np.ndarray, gamma: float, k: int):
    """Centred rbf kernel PCA: eigenvalues of the centred kernel matrix / n and the training scores."""
    n = x.shape[0]
    sq = ((x[:, None, :] - x[None, :, :]) ** 2).sum(axis=2)
    kernel = np.exp(-gamma * sq)
    h = np.eye(n) - np.ones((n, n)) / n
    kc = h @ kernel @ h
    w, u = np.linalg.eigh(kc)
    order = np.argsort(w)[::-1]
    w, u = w[order], u[:, order]
    scores = u[:, :k] * np.sqrt(w[:k])
    return w / n, scores


@pytest.fixture(scope="module")
def small(spark):
    rng = np.random.default_rng(3)
    x = rng.normal(size=(60, 3))
    rows = [(i, Vectors.dense(r.tolist())) for i, r in enumerate(x)]
    return spark.createDataFrame(rows, ["id", "features"]).repartition(2).cache(), x


def scores_of(df: DataFrame, column: str = "kpca") -> np.ndarray:
    rows = df.orderBy("id").select(column).collect()
    return np.array([r[0].toArray() for r in rows])


def assert_equal_up_to_sign(actual: np.ndarray, expected: np.ndarray, atol: float) -> None:
    for j in range(expected.shape[1]):
        sign = np.sign(actual[:, j] @ expected[:, j])
        np.testing.assert_allclose(sign * actual[:, j], expected[:, j], atol=atol)


def test_nystrom_with_m_equal_n_is_exact_kernel_pca(small):
    df, x = small
    eigen, scores = exact_kpca(x, 0.5, 4)
    model = NystromKernelPCA(k=4, numLandmarks=60, gamma=0.5, seed=1).fit(df)
    assert isinstance(model, NystromKernelPCAModel)
    np.testing.assert_allclose(model.eigenvalues.toArray()[:4], eigen[:4], rtol=1e-8)
    np.testing.assert_allclose(model.explainedVariance.toArray(), eigen[:4], rtol=1e-8)
    assert_equal_up_to_sign(scores_of(model.transform(df)), scores, atol=1e-7)


def test_exact_kernel_pca_equals_numpy(small):
    df, x = small
    eigen, scores = exact_kpca(x, 0.5, 3)
    model = KernelPCA(k=3, gamma=0.5).fit(df)
    assert isinstance(model, KernelPCAModel)
    np.testing.assert_allclose(model.explainedVariance.toArray(), eigen[:3], rtol=1e-9)
    np.testing.assert_allclose(model.totalVariance, eigen.sum(), rtol=1e-9)
    assert_equal_up_to_sign(scores_of(model.transform(df)), scores, atol=1e-8)
    assert model.numSupportPoints == 60 and model.numRows == 60


def test_python_and_java_fits_are_bit_identical(spark, jvm, blobs):
    df, _ = blobs
    df = df.selectExpr("monotonically_increasing_id() AS id", "features").cache()
    py_model = NystromKernelPCA(k=3, numLandmarks=40, seed=42, residualCol="residual").fit(df)
    java = (
        jvm.io.github.sparkkpca.ml.NystromKernelPCA()
        .setK(3)
        .setNumLandmarks(40)
        .setSeed(42)
        .setResidualCol("residual")
    )
    java_model = java.fit(df._jdf)
    assert list(py_model.eigenvalues.toArray()) == list(java_model.eigenvalues().toArray())
    assert list(py_model.landmarks.toArray().ravel(order="F")) == list(java_model.landmarks().toArray())
    assert list(py_model.projector.toArray().ravel(order="F")) == list(java_model.projector().toArray())
    assert list(py_model.offset.toArray()) == list(java_model.offset().toArray())
    # The γ the median heuristic chose: the Java model's getter reads the fitted kernel.
    assert py_model.getGamma() == java_model.getGamma()
    py_scores = py_model.transform(df).orderBy("id").collect()
    java_scores = DataFrame(java_model.transform(df._jdf), spark).orderBy("id").collect()
    assert [r.kpca.toArray().tolist() for r in py_scores] == [r.kpca.toArray().tolist() for r in java_scores]
    assert [r.residual for r in py_scores] == [r.residual for r in java_scores]


def test_model_attributes(blobs):
    df, data = blobs
    model = NystromKernelPCA(k=3, numLandmarks=40, gamma=0.3, seed=9, residualCol="res").fit(df)
    assert (model.numComponents, model.numFeatures, model.numRows, model.numSupportPoints) == (3, 3, 200, 40)
    assert 0 < model.rank <= 40 and model.droppedRank == 40 - model.rank
    assert model.hasLandmarks and model.isUpdatable
    assert repr(model).startswith(f"NystromKernelPCAModel: uid={model.uid}, k=3, m=40, d=3")
    assert "uniform" in model.landmarkSelection
    assert isinstance(model.eigenvalues, DenseVector) and isinstance(model.landmarks, DenseMatrix)
    assert model.landmarks.numRows == 40 and model.landmarks.numCols == 3
    assert model.projector.numRows == 40 and model.projector.numCols == 3
    assert len(model.offset) == 3
    ev = model.explainedVariance.toArray()
    assert np.all(np.diff(ev) <= 0)
    np.testing.assert_allclose(model.explainedVarianceRatio.toArray(), ev / model.totalVariance, rtol=1e-12)
    np.testing.assert_allclose(
        model.reconstructionError.toArray(), np.maximum(model.totalVariance - np.cumsum(ev), 0), rtol=1e-12
    )
    assert model.getGamma() == 0.3 and model.getResidualCol() == "res"
    assert model.getStatisticsRouteTaken() in ("whitened", "gram")
    assert model.getLandmarkConditionEstimate() >= 1.0
    # landmarks are rows of the data
    data_rows = {tuple(r) for r in data}
    assert all(tuple(r) in data_rows for r in model.landmarks.toArray())


def test_update_equals_a_fit_with_the_same_landmarks(spark, blobs):
    df, _ = blobs
    first, second = df.randomSplit([0.5, 0.5], seed=4)
    model = NystromKernelPCA(k=2, numLandmarks=30, gamma=0.3, seed=2).fit(first)
    updated = model.update(second)
    assert isinstance(updated, NystromKernelPCAModel)
    assert updated.numRows == df.count()
    refit = NystromKernelPCA(k=2, gamma=0.3).setLandmarksFrom(model)
    assert refit.hasSuppliedLandmarks()
    refit_model = refit.fit(df)
    np.testing.assert_allclose(
        updated.eigenvalues.toArray()[:2], refit_model.eigenvalues.toArray()[:2], rtol=1e-9
    )
    assert KernelPCA(k=1, gamma=0.3).fit(first.limit(20)).isUpdatable is False
    with pytest.raises(IllegalArgumentException, match="keeps no statistics and cannot be updated"):
        KernelPCA(k=1, gamma=0.3).fit(first.limit(20)).update(second)


def test_supplied_landmarks(spark, blobs):
    df, data = blobs
    landmarks = spark.createDataFrame([(Vectors.dense(r.tolist()),) for r in data[:25]], ["lm"])
    model = NystromKernelPCA(k=2, gamma=0.3).setLandmarks(landmarks, "lm").fit(df)
    assert model.numSupportPoints == 25
    np.testing.assert_array_equal(model.landmarks.toArray(), data[:25])


def test_model_getters_read_what_the_fit_chose(jvm, blobs):
    df, _ = blobs
    model = NystromKernelPCA(k=2, numLandmarks=30, seed=4).fit(df)  # γ by the median heuristic
    java_model = model._java_obj
    assert not java_model.isSet(java_model.getParam("gamma")), "the fit does not set γ on the model"
    gamma = model.getGamma()
    assert isinstance(gamma, float) and np.isfinite(gamma) and gamma > 0
    assert gamma == java_model.getGamma() == java_model.fittedKernel().gamma()
    assert model.getKernel() == "rbf" and model.getNumLandmarks() == model.numSupportPoints == 30
    assert (model.getDegree(), model.getCoef0()) == (3, 1.0)
    poly = NystromKernelPCA(k=2, numLandmarks=20, seed=4, kernel="polynomial", degree=2, coef0=0.5).fit(df)
    assert (poly.getKernel(), poly.getDegree(), poly.getCoef0()) == ("polynomial", 2, 0.5)
    assert poly.getGamma() == poly._java_obj.getGamma()
    laplacian = KernelPCA(k=2, kernel="laplacian", gamma=0.7).fit(df.limit(40))
    assert (laplacian.getKernel(), laplacian.getGamma()) == ("laplacian", 0.7)
    rf = RandomFeatureKernelPCA(k=2, numRandomFeatures=48, seed=5).fit(df)
    assert rf.getNumRandomFeatures() == 48 and rf.getGamma() == rf._java_obj.getGamma() > 0
    with pytest.raises(SparkKpcaError, match="has no Java model"):
        NystromKernelPCAModel().getGamma()


def test_random_feature_model(blobs):
    df, _ = blobs
    model = RandomFeatureKernelPCA(k=2, numRandomFeatures=64, gamma=0.3, seed=5).fit(df)
    assert isinstance(model, RandomFeatureKernelPCAModel)
    assert model.frequencies.numRows == 64 and model.frequencies.numCols == 3
    assert len(model.phases) == 64
    assert model.components.numRows == 64 and model.components.numCols == 2
    assert model.rank == 64 and not model.hasLandmarks
    with pytest.raises(SparkKpcaError, match="has no landmarks: it is a random feature model") as info:
        model.landmarks
    assert info.value.java_class == "java.lang.UnsupportedOperationException"


def test_export_confidence_bound_captured_variance_and_mpress(tmp_path, blobs):
    df, _ = blobs
    model = NystromKernelPCA(k=2, numLandmarks=30, gamma=0.3, seed=2, centered=False).fit(df)
    bundle = tmp_path / "bundle"
    model.export(str(bundle))
    assert bundle.is_dir() and any(bundle.iterdir())
    with pytest.raises(SparkKpcaError):
        model.export(str(bundle))  # never replaces
    bound = model.confidenceBound(0.9)
    assert bound.deviation > 0 and len(bound.angleBounds) == 2
    assert len(bound.reconstructionErrorBound) == 2 and len(bound.subsetEigenvalues) == 30
    with pytest.raises(IllegalArgumentException, match="uncentred"):
        NystromKernelPCA(k=2, numLandmarks=30, gamma=0.3).fit(df).confidenceBound(0.9)
    # Ky Fan's bound holds when both numbers are taken on the same rows (exactSample >= n).
    captured = model.capturedVariance(df, exactSample=200, seed=1)
    assert captured.sampleRows == 200 and captured.n == 200
    assert 0 < captured.capturedVariance <= captured.optimalVariance * (1 + 1e-9)
    sampled = model.capturedVariance(df, exactSample=100, seed=1)
    assert sampled.sampleRows == 100 and sampled.n == 200
    assert sampled.capturedVariance == pytest.approx(captured.capturedVariance, rel=1e-12)
    curve = model.mpressCurve(df, maxK=3)
    assert len(curve) == 3 and all(v > 0 for v in curve)


@pytest.fixture(scope="module")
def regression(spark):
    rng = np.random.default_rng(8)
    x = rng.uniform(-3, 3, size=(120, 1))
    y = np.sin(x[:, 0]) + rng.normal(0, 0.1, size=120)
    rows = [(Vectors.dense(a.tolist()), float(b)) for a, b in zip(x, y)]
    return spark.createDataFrame(rows, ["features", "label"]).repartition(2).cache()


def test_kernel_pca_regression(regression):
    model = KernelPCARegressor(dimension=4, gamma=0.5, numLandmarks=60, seed=3).fit(regression)
    assert isinstance(model, KernelPCARegressionModel)
    assert model.getDimension() == 4 and model.numSupportPoints == 60
    assert model.getNumLandmarks() == 60 and model.getGamma() == 0.5 and model.getKernel() == "rbf"
    assert model.numTrainingRows == 120 and model.labelCoding.mode == "real"
    assert len(model.widths) == 1 and model.chosenWidth == 0
    assert model.trainingError < 0.1
    rows = model.transform(regression).select("features", "prediction").limit(5).collect()
    for r in rows:
        assert model.predict(r.features) == pytest.approx(r.prediction, rel=1e-12, abs=1e-12)
        assert model.outputs(r.features) == [pytest.approx(r.prediction, rel=1e-12, abs=1e-12)]


def test_relevant_dimension_estimator(regression):
    grid = [0.1, 1.0, 10.0]
    model = RelevantDimensionEstimator(gammaGrid=grid, numLandmarks=60, seed=3).fit(regression)
    widths = model.widths
    assert [w.gamma for w in widths] == grid
    chosen = widths[model.chosenWidth]
    assert model.getGamma() == chosen.gamma
    assert model.getDimension() == chosen.dimension
    assert chosen.dimension == int(np.argmin(chosen.logLikelihood)) + 1
    assert model.logLikelihood == chosen.logLikelihood
    assert model.gammaCv in grid and model.dimensionCv >= 1
    assert len(model.signalVariance) == len(model.noiseVariance) == len(model.labelSquares) == 1


def test_models_record_the_feature_names_of_a_vector_assembler(spark, tmp_path):
    """featureNames: the names VectorAssembler gave the input's features, kept by save and load; a column with
    the same names in another order is refused with both lists; a column without names has none."""
    from pyspark.ml.feature import VectorAssembler

    rng = np.random.default_rng(5)
    x = rng.normal(size=(50, 3)) * np.array([1.0, 4.0, 0.3])
    table = spark.createDataFrame(
        [(i, float(a), float(b), float(c), float(a + b)) for i, (a, b, c) in enumerate(x)],
        ["id", "x1", "x2", "x3", "label"],
    )

    def assembled(*columns):
        return VectorAssembler(inputCols=list(columns), outputCol="features").transform(table)

    named = assembled("x1", "x2", "x3")
    models = [
        NystromKernelPCA(k=2, numLandmarks=20, seed=1).fit(named),
        RandomFeatureKernelPCA(k=2, numRandomFeatures=30, seed=1).fit(named),
        KernelPCA(k=2).fit(named),
        KernelPCARegressor(gamma=0.3, numLandmarks=20, dimension=2).fit(named),
    ]
    for i, model in enumerate(models):
        assert model.featureNames == ["x1", "x2", "x3"], type(model).__name__
        path = str(tmp_path / f"model-{i}")
        model.save(path)
        loaded = type(model).load(path)
        assert loaded.featureNames == ["x1", "x2", "x3"], type(model).__name__
        with pytest.raises(IllegalArgumentException, match=r"\[x3, x1, x2\].*\[x1, x2, x3\]"):
            loaded.transform(assembled("x3", "x1", "x2")).count()

    unnamed = spark.createDataFrame(
        [(i, Vectors.dense(r.tolist())) for i, r in enumerate(x)], ["id", "features"]
    )
    assert NystromKernelPCA(k=2, numLandmarks=20, seed=1).fit(unnamed).featureNames == []


def test_top_k_route_in_a_pipeline_is_exact_kernel_pca_at_m_equal_n(small, tmp_path):
    """statisticsRoute = top-k from Python, inside a Pipeline: at m = n the eigenvalues and scores are
    exact kernel PCA's (numpy), the model reports its passes, saves and loads with equal scores."""
    from pyspark.ml import Pipeline, PipelineModel

    df, x = small
    eigen, scores = exact_kpca(x, 0.5, 4)
    stage = NystromKernelPCA(
        k=4, numLandmarks=60, gamma=0.5, seed=1, statisticsRoute="top-k", topKTolerance=1e-10
    )
    fitted = Pipeline(stages=[stage]).fit(df)
    model = fitted.stages[0]
    assert model.getOrDefault("statisticsRouteTaken") == "top-k"
    assert "passes" in model.getOrDefault("statisticsRouteCheck")
    np.testing.assert_allclose(model.eigenvalues.toArray()[:4], eigen[:4], rtol=1e-8)
    assert_equal_up_to_sign(scores_of(fitted.transform(df)), scores, atol=1e-7)
    path = str(tmp_path / "topk")
    fitted.save(path)
    np.testing.assert_array_equal(
        scores_of(PipelineModel.load(path).transform(df)), scores_of(fitted.transform(df))
    )


def test_a_degenerate_gamma_is_reported_on_the_model(blobs):
    """γ 10⁴ times the median heuristic: the kernel on the landmarks is the identity (checked in numpy from the
    model's landmarks), and the model's kernelDegenerate says so with the heuristic's value; at the heuristic it
    says none."""
    df, _ = blobs
    at_heuristic = NystromKernelPCA(k=3, numLandmarks=40, seed=9).fit(df)
    gamma0 = at_heuristic.getGamma()
    far = NystromKernelPCA(k=3, numLandmarks=40, seed=9, gamma=1e4 * gamma0).fit(df)

    def off_diagonal_row_sums(model):
        z = model.landmarks.toArray()
        kmm = np.exp(-model.getGamma() * ((z[:, None, :] - z[None, :, :]) ** 2).sum(axis=2))
        return (kmm - np.diag(np.diag(kmm))).sum(axis=1).max()

    assert off_diagonal_row_sums(far) < 0.01 < off_diagonal_row_sums(at_heuristic)
    warning = far.getKernelDegenerate()
    assert warning.startswith("identity: the rbf kernel with gamma = "), warning
    assert f"the median heuristic gives gamma = {gamma0:.4g}" in warning, warning
    assert "leave gamma unset" in warning
    assert at_heuristic.getKernelDegenerate() == "none"
