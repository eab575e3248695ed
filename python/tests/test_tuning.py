"""γ tuned without labels: CrossValidator with ReconstructionErrorEvaluator(metricName="inputSpaceError") picks
an interior γ, the one a grid search of the same error computed independently in numpy picks."""

import numpy as np
import pytest
from pyspark.ml.linalg import Vectors
from pyspark.ml.tuning import CrossValidator, ParamGridBuilder

from spark_kpca.ml import NystromKernelPCA, ReconstructionErrorEvaluator

GAMMAS = [0.003, 0.1, 0.3, 3.0]
K = 2
ALPHA = 0.01  # preimageRidge's default


def _rbf(a, b, gamma):
    d = (a * a).sum(1)[:, None] + (b * b).sum(1)[None, :] - 2 * a @ b.T
    return np.exp(-gamma * np.maximum(d, 0.0))


def numpy_input_space_error(train, test, gamma, k=K, alpha=ALPHA):
    """Exact centred kernel PCA of ``train``; the kernel ridge map from the training rows' scores back to the
    training rows (Gaussian kernel on scores, γ = 1/(2 median squared distance) of the training scores, ridge
    α); the mean of ||x - x^||^2 over ``test``, reconstructed by that map from their scores."""
    n = len(train)
    kk = _rbf(train, train, gamma)
    col = kk.mean(0)
    kc = kk - col[:, None] - col[None, :] + kk.mean()
    values, vectors = np.linalg.eigh(kc)
    order = np.argsort(values)[::-1][:k]
    coef = vectors[:, order] / np.sqrt(values[order])
    train_scores = kc @ coef
    kt = _rbf(test, train, gamma)
    test_scores = (kt - kt.mean(1, keepdims=True) - col[None, :] + kk.mean()) @ coef
    i, j = np.triu_indices(n, 1)
    score_gamma = 1.0 / (2.0 * np.median(((train_scores[i] - train_scores[j]) ** 2).sum(1)))
    dual = np.linalg.solve(_rbf(train_scores, train_scores, score_gamma) + alpha * np.eye(n), train)
    reconstructed = _rbf(test_scores, train_scores, score_gamma) @ dual
    return float(((test - reconstructed) ** 2).sum(1).mean())


@pytest.fixture(scope="module")
def five_blobs(spark):
    """180 rows: five Gaussian blobs at 2 e_i in R^5 (σ = 0.4); fold = row % 3."""
    rng = np.random.default_rng(1)
    x = 2.0 * np.eye(5)[np.arange(180) % 5] + rng.normal(0.0, 0.4, size=(180, 5))
    rows = [(i, i % 3, Vectors.dense(r.tolist())) for i, r in enumerate(x)]
    return spark.createDataFrame(rows, ["id", "fold", "features"]).repartition(2), x


def test_cross_validator_picks_the_numpy_optimum(five_blobs):
    df, x = five_blobs
    expected = []
    for gamma in GAMMAS:
        folds = [numpy_input_space_error(x[np.arange(180) % 3 != f], x[np.arange(180) % 3 == f], gamma)
                 for f in range(3)]
        expected.append(float(np.mean(folds)))
    best = int(np.argmin(expected))
    assert 0 < best < len(GAMMAS) - 1, expected  # an interior optimum
    assert expected[best] < 0.9 * min(expected[0], expected[-1]), expected

    kpca = NystromKernelPCA(k=K, numLandmarks=120, seed=3, reconstructionCol="reconstruction",
                            preimageMethod="ridge")
    grid = ParamGridBuilder().addGrid(kpca.gamma, GAMMAS).build()
    cv = CrossValidator(estimator=kpca, estimatorParamMaps=grid, foldCol="fold", numFolds=3,
                        evaluator=ReconstructionErrorEvaluator(metricName="inputSpaceError"))
    model = cv.fit(df)
    np.testing.assert_allclose(model.avgMetrics, expected, rtol=1e-6)
    assert model.bestModel.getGamma() == GAMMAS[best]


def test_relative_error_divides_by_the_total_variance(five_blobs):
    df, x = five_blobs
    model = NystromKernelPCA(k=K, numLandmarks=40, seed=1, gamma=0.3, reconstructionCol="reconstruction",
                             preimageMethod="ridge").fit(df)
    out = model.transform(df).orderBy("id")
    rec = np.array([r.reconstruction.toArray() for r in out.select("reconstruction").collect()])
    error = ((x - rec) ** 2).sum(1).mean()
    variance = ((x - x.mean(0)) ** 2).sum(1).mean()
    evaluator = ReconstructionErrorEvaluator(metricName="inputSpaceError")
    assert evaluator.evaluate(out) == pytest.approx(error, rel=1e-12)
    assert evaluator.setMetricName("relativeInputSpaceError").evaluate(out) == pytest.approx(
        error / variance, rel=1e-12)
    assert not evaluator.isLargerBetter()


SPARSE_GAMMAS = [0.03, 1.0, 10.0]


@pytest.fixture(scope="module")
def sparse_text(spark):
    """150 unit-norm 'documents' as sparse vectors over 300 columns (about 9 non-zeros a row): counts of
    Zipf-distributed words, 30 % from a shared vocabulary, the rest from one of three topics'; fold = row % 3."""
    rng = np.random.default_rng(4)
    x = np.zeros((150, 300))
    for i in range(150):
        for rank in rng.zipf(1.6, size=15):
            r = int(rank - 1) % 80
            x[i, r if rng.random() < 0.3 else 80 + (i % 3) * 70 + r % 70] += 1.0
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    rows = [(i, i % 3, Vectors.sparse(300, {int(t): float(x[i, t]) for t in np.flatnonzero(x[i])}))
            for i in range(150)]
    return spark.createDataFrame(rows, ["id", "fold", "features"]).repartition(2), x


@pytest.mark.parametrize("offset", [0.0, 1e4])
def test_preimage_error_equals_numpy_from_the_models_landmarks(sparse_text, offset):
    """preimageErrorCol (computed in the span of the landmarks, at sparse cost) equals ||x - x^||^2 computed
    densely in numpy from the model's landmarks and scores: the ridge map of scikit-learn's inverse_transform
    fitted on the landmarks' scores. With an offset, column 299 holds it in two rows of three (a year, an id:
    a column the sparse centre cannot remove), where the error expanded around the origin erred by about
    eps * offset^2 = 2e-8 (allowance 1e-9: numpy's pre-image itself rounds to eps * offset per coordinate)."""
    df, x = sparse_text
    if offset:
        x = x.copy()
        x[np.arange(150) % 3 != 1, 299] = offset
        rows = [(i, i % 3, Vectors.sparse(300, {int(t): float(x[i, t]) for t in np.flatnonzero(x[i])}))
                for i in range(150)]
        df = df.sparkSession.createDataFrame(rows, ["id", "fold", "features"]).repartition(2)
    train, test = df.filter("fold != 0"), df.filter("fold = 0").orderBy("id")
    model = NystromKernelPCA(k=K, numLandmarks=60, seed=5, gamma=1.0, preimageMethod="ridge",
                             preimageErrorCol="preimageError").fit(train)
    z = model.landmarks.toArray()
    spark = df.sparkSession
    z_frame = spark.createDataFrame([(Vectors.dense(r.tolist()),) for r in z], ["features"])
    z_scores = np.array([r.kpca.toArray() for r in model.transform(z_frame).select("kpca").collect()])
    out = model.transform(test).orderBy("id").collect()
    scores = np.array([r.kpca.toArray() for r in out])
    i, j = np.triu_indices(len(z), 1)
    score_gamma = 1.0 / (2.0 * np.median(((z_scores[i] - z_scores[j]) ** 2).sum(1)))
    dual = np.linalg.solve(_rbf(z_scores, z_scores, score_gamma) + ALPHA * np.eye(len(z)), z)
    reconstructed = _rbf(scores, z_scores, score_gamma) @ dual
    expected = ((x[np.arange(150) % 3 == 0] - reconstructed) ** 2).sum(1)
    np.testing.assert_allclose([r.preimageError for r in out], expected, rtol=1e-9 if offset else 1e-10,
                               atol=1e-12)
    assert expected.min() > 1e-2


def test_cross_validator_tunes_gamma_on_sparse_rows(sparse_text):
    """On sparse rows, CrossValidator with inputSpaceError read from preimageErrorCol (no dense pre-image)
    picks the γ whose held-out error, computed independently in numpy (m = n: exact kernel PCA), is
    smallest; that γ is interior to the grid."""
    df, x = sparse_text
    expected = []
    for gamma in SPARSE_GAMMAS:
        folds = [numpy_input_space_error(x[np.arange(150) % 3 != f], x[np.arange(150) % 3 == f], gamma)
                 for f in range(3)]
        expected.append(float(np.mean(folds)))
    best = int(np.argmin(expected))
    assert 0 < best < len(SPARSE_GAMMAS) - 1, expected
    kpca = NystromKernelPCA(k=K, numLandmarks=100, seed=3, preimageErrorCol="preimageError",
                            preimageMethod="ridge")
    grid = ParamGridBuilder().addGrid(kpca.gamma, SPARSE_GAMMAS).build()
    cv = CrossValidator(estimator=kpca, estimatorParamMaps=grid, foldCol="fold", numFolds=3,
                        evaluator=ReconstructionErrorEvaluator(metricName="inputSpaceError"))
    model = cv.fit(df)
    np.testing.assert_allclose(model.avgMetrics, expected, rtol=1e-6)
    assert model.bestModel.getGamma() == SPARSE_GAMMAS[best]
