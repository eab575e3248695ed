"""Sparse input from Python against independent dense numpy computations.

Spark's own featurizers (Tokenizer + HashingTF + IDF, CountVectorizer + IDF, OneHotEncoder) feed the estimators
inside a pyspark.ml Pipeline, and the scores equal a numpy recomputation from the model's landmarks; m = n on
sparse rows is exact kernel PCA; the same rows as sparse and as dense vectors give the same model; a saved
sparse-landmark model scores identically after loading in Python and in the JVM, and from its export bundle.

The numpy side densifies the rows on the columns that any row uses (a column that is 0 in every row and every
landmark adds nothing to any of these kernels), so a 2^18-wide hashed column costs a few hundred numpy columns.
"""

import json
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import numpy as np
import pytest
from pyspark.ml import Pipeline
from pyspark.ml.feature import IDF, CountVectorizer, HashingTF, OneHotEncoder, Tokenizer, VectorAssembler
from pyspark.ml.linalg import DenseMatrix, DenseVector, SparseMatrix, SparseVector, Vectors
from pyspark.sql import DataFrame

from spark_kpca.ml import NystromKernelPCA, NystromKernelPCAModel, RandomFeatureKernelPCA

Kernel = Callable[[np.ndarray, np.ndarray], np.ndarray]


# ---------------------------------------------------------------------------------------------------------
# Kernels and kernel PCA in numpy, from the definitions (docs/design.md, "Kernels"), by direct differences


def kernel_of(name: str, gamma: float = 1.0, degree: int = 3, coef0: float = 1.0) -> Kernel:
    def linear(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return a @ b.T

    def rbf(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.exp(-gamma * ((a[:, None, :] - b[None, :, :]) ** 2).sum(-1))

    def laplacian(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.exp(-gamma * np.abs(a[:, None, :] - b[None, :, :]).sum(-1))

    def polynomial(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return (gamma * (a @ b.T) + coef0) ** degree

    def cosine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        na, nb = np.linalg.norm(a, axis=1), np.linalg.norm(b, axis=1)
        return (a @ b.T) / np.outer(na, nb)

    return {"linear": linear, "rbf": rbf, "laplacian": laplacian, "polynomial": polynomial, "cosine": cosine}[name]


def exact_kpca(kernel: np.ndarray, k: int) -> Tuple[np.ndarray, np.ndarray]:
    """Centred kernel PCA of an n×n kernel matrix: the eigenvalues of HKH/n (descending) and the k training
    scores √(nλ)·u."""
    n = kernel.shape[0]
    h = np.eye(n) - np.ones((n, n)) / n
    w, u = np.linalg.eigh(h @ kernel @ h)
    order = np.argsort(w)[::-1]
    w, u = w[order], u[:, order]
    return w / n, u[:, :k] * np.sqrt(np.maximum(w[:k], 0))


def linear_pca_scores(f: np.ndarray, k: int, weights: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Centred linear PCA of the feature rows f (n×r): the eigenvalues of C = M/n (descending) and the scores
    U_kᵀ(φ − φ̄), each component's sign fixed as the library fixes it (the largest-magnitude entry of its
    column of P = weights·U_k positive; weights is W for Nyström, the identity for explicit features)."""
    n = f.shape[0]
    centred = f - f.mean(axis=0)
    s, u = np.linalg.eigh(centred.T @ centred / n)
    order = np.argsort(s)[::-1]
    s, u = s[order], u[:, order[:k]]
    p = weights @ u
    for c in range(k):
        if p[np.argmax(np.abs(p[:, c])), c] < 0:
            u[:, c] = -u[:, c]
    return s, centred @ u


def nystrom_reference(x: np.ndarray, z: np.ndarray, kernel: Kernel, k: int) -> Tuple[np.ndarray, np.ndarray]:
    """Nyström kernel PCA as docs/design.md defines it, from the landmarks z: K_mm = VΛVᵀ, W = V_rΛ_r^{-1/2}
    (eigenvalues above 1e-12·λ_max), φ(x) = Wᵀk_x, then centred linear PCA of φ."""
    lam, v = np.linalg.eigh(kernel(z, z))
    keep = lam > 1e-12 * lam.max()
    w = v[:, keep] / np.sqrt(lam[keep])
    return linear_pca_scores(kernel(x, z) @ w, k, w)


def assert_spectrum_gaps(eigen: np.ndarray, k: int) -> None:
    """The data must make the k components well defined: the scores are compared component by component, so
    eigenvalues 1..k+1 must be separated (otherwise any rotation within a cluster is as right as another)."""
    gaps = -np.diff(eigen[: k + 1]) / eigen[0]
    assert gaps.min() > 1e-3, f"test data with nearly repeated eigenvalues: {eigen[: k + 1]}"


# ---------------------------------------------------------------------------------------------------------
# Data


def vectors_of(df: DataFrame, column: str) -> List[Any]:
    return [r[0] for r in df.orderBy("id").select(column).collect()]


def densify(rows: List[Any], columns: np.ndarray) -> np.ndarray:
    """The rows as a dense numpy matrix on the given columns (which hold every non-zero)."""
    position = {int(c): j for j, c in enumerate(columns)}
    out = np.zeros((len(rows), len(columns)))
    for i, v in enumerate(rows):
        sv = v if isinstance(v, SparseVector) else SparseVector(v.size, *_nonzeros(v))
        for t, value in zip(sv.indices, sv.values):
            out[i, position[int(t)]] = value
    return out


def _nonzeros(v: DenseVector) -> Tuple[List[int], List[float]]:
    a = v.toArray()
    idx = np.flatnonzero(a)
    return idx.tolist(), a[idx].tolist()


def used_columns(*groups: List[Any]) -> np.ndarray:
    cols = set()
    for rows in groups:
        for v in rows:
            cols.update(int(t) for t in (v.indices if isinstance(v, SparseVector) else np.flatnonzero(v.toArray())))
    return np.array(sorted(cols), dtype=int)


def bundle_landmarks(bundle: Path) -> List[SparseVector]:
    """The landmarks of an export bundle's CSR triple (written with Java's shortest round-trip doubles)."""
    meta = json.loads((bundle / "model.json").read_text())
    csr = meta["files"]["landmarksCsr"]
    indptr = np.loadtxt(bundle / csr["indptr"], dtype=np.int64, ndmin=1)
    indices = np.loadtxt(bundle / csr["indices"], dtype=np.int64, ndmin=1)
    data = np.loadtxt(bundle / csr["data"], ndmin=1)
    assert len(indptr) == meta["m"] + 1
    return [
        SparseVector(meta["d"], indices[indptr[j] : indptr[j + 1]].tolist(), data[indptr[j] : indptr[j + 1]].tolist())
        for j in range(meta["m"])
    ]


def sparse_rows(n: int, d: int, per_row: int, seed: int) -> List[SparseVector]:
    """n sparse rows, 1..2·per_row non-zeros each on Zipf-like columns (low ones frequent), positive weights."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(n):
        count = int(rng.integers(1, 2 * per_row + 1))
        idx = set()
        while len(idx) < count:
            idx.add(int(min(d - 1, max(0, np.floor(d ** rng.random()) - 1))))
        ordered = sorted(idx)
        rows.append(SparseVector(d, ordered, (0.1 + rng.random(len(ordered))).tolist()))
    return rows


@pytest.fixture(scope="module")
def documents(spark: Any) -> DataFrame:
    """80 documents over four topics' vocabularies and a shared one, with four categorical columns."""
    rng = np.random.default_rng(8)
    rows = []
    for i in range(80):
        topic = i % 4
        words = []
        for _ in range(int(rng.integers(6, 15))):
            word = int(np.floor(rng.random() ** 2 * 25))
            words.append(f"common{word}" if rng.random() < 0.25 else f"topic{topic}w{word}")
        categories = [int(np.floor(rng.random() ** 1.5 * size)) for size in (7, 11, 13, 17)]
        rows.append((i, " ".join(words), *categories))
    return spark.createDataFrame(rows, ["id", "text", "a", "b", "c", "e"]).repartition(2).cache()


def tokenized_tf_idf(tf: Any) -> List[Any]:
    return [Tokenizer(inputCol="text", outputCol="words"), tf, IDF(inputCol="tf", outputCol="features")]


def one_hot() -> List[Any]:
    return [
        OneHotEncoder(inputCols=["a", "b", "c", "e"], outputCols=["a1", "b1", "c1", "e1"], dropLast=False),
        VectorAssembler(inputCols=["a1", "b1", "c1", "e1"], outputCol="features"),
    ]


def median_gamma(x: np.ndarray, l1: bool = False) -> float:
    """1/(2·median ‖x−y‖²) (1/median ‖x−y‖₁ for the laplacian kernel) over the distinct pairs, in numpy."""
    diff = x[:, None, :] - x[None, :, :]
    dist = np.abs(diff).sum(-1) if l1 else (diff**2).sum(-1)
    pairs = dist[np.triu_indices(len(x), 1)]
    return float(1 / np.median(pairs)) if l1 else float(1 / (2 * np.median(pairs)))


# ---------------------------------------------------------------------------------------------------------
# (a) Spark featurizers into the estimators, against numpy from the model's landmarks


PIPELINES: Dict[str, Tuple[Callable[[], List[Any]], str]] = {
    "hashed-tfidf": (
        lambda: tokenized_tf_idf(HashingTF(inputCol="words", outputCol="tf", numFeatures=1 << 18)),
        "cosine",
    ),
    "counted-tfidf": (lambda: tokenized_tf_idf(CountVectorizer(inputCol="words", outputCol="tf")), "rbf"),
    "one-hot": (one_hot, "laplacian"),
}
GAMMAS = {"hashed-tfidf": 1.0, "counted-tfidf": 0.004, "one-hot": 0.2}


@pytest.mark.parametrize("name", sorted(PIPELINES))
def test_featurizer_pipeline_into_nystrom_equals_numpy(spark: Any, documents: DataFrame, tmp_path: Path, name: str) -> None:
    featurizers, kernel_name = PIPELINES[name]
    gamma = GAMMAS[name]
    estimator = NystromKernelPCA(kernel=kernel_name, k=3, numLandmarks=30, seed=4, outputCol="kpca")
    if kernel_name != "cosine":
        estimator.setGamma(gamma)
    pipeline = Pipeline(stages=featurizers() + [estimator]).fit(documents)
    model = pipeline.stages[-1]
    assert isinstance(model, NystromKernelPCAModel)
    assert model.getKernelBlockPath().startswith("sparse: "), model.getKernelBlockPath()
    scored = pipeline.transform(documents).orderBy("id").select("features", "kpca").collect()
    rows = [r.features for r in scored]
    scores = np.array([r.kpca.toArray() for r in scored])
    assert all(isinstance(v, SparseVector) for v in rows), f"{name}: the featurizers give sparse vectors"
    if name == "hashed-tfidf":
        assert rows[0].size == 1 << 18
    columns = used_columns(rows)
    x = densify(rows, columns)
    if kernel_name != "cosine":  # γ near the median heuristic's, so that the kernel values are not all ~0 or ~1
        heuristic = median_gamma(x, l1=kernel_name == "laplacian")
        assert 0.2 < gamma / heuristic < 5, f"{name}: gamma {gamma} against the median heuristic's {heuristic}"

    model.export(str(tmp_path / "bundle"))
    landmarks = bundle_landmarks(tmp_path / "bundle")
    assert len(landmarks) == 30 and set(used_columns(landmarks)) <= set(columns)
    eigen, expected = nystrom_reference(x, densify(landmarks, columns), kernel_of(kernel_name, gamma), 3)
    assert_spectrum_gaps(eigen, 3)
    np.testing.assert_allclose(model.eigenvalues.toArray()[:3], eigen[:3], rtol=1e-10)
    np.testing.assert_allclose(scores, expected, rtol=0, atol=1e-10 * np.abs(expected).max())


def test_one_hot_pipeline_into_random_features_equals_numpy(spark: Any, documents: DataFrame, tmp_path: Path) -> None:
    """Random Fourier features: z(x) = √(2/D)·cos(Ωx + b) from the bundle's Ω and b, then linear PCA."""
    rows = vectors_of(Pipeline(stages=one_hot()).fit(documents).transform(documents), "features")
    d = rows[0].size
    x = np.array([v.toArray() for v in rows])
    estimator = RandomFeatureKernelPCA(k=3, numRandomFeatures=120, gamma=median_gamma(x), seed=4, outputCol="kpca")
    pipeline = Pipeline(stages=one_hot() + [estimator]).fit(documents)
    scores = np.array([v.toArray() for v in vectors_of(pipeline.transform(documents), "kpca")])
    pipeline.stages[-1].export(str(tmp_path / "bundle"))
    omega = np.loadtxt(tmp_path / "bundle" / "omega.csv", delimiter=",", ndmin=2)
    phase = np.loadtxt(tmp_path / "bundle" / "phase.csv", ndmin=1)
    assert omega.shape == (120, d)
    features = np.sqrt(2 / 120) * np.cos(x @ omega.T + phase)
    eigen, expected = linear_pca_scores(features, 3, np.eye(120))
    assert_spectrum_gaps(eigen, 3)
    np.testing.assert_allclose(pipeline.stages[-1].eigenvalues.toArray()[:3], eigen[:3], rtol=1e-10)
    np.testing.assert_allclose(scores, expected, rtol=0, atol=1e-10 * np.abs(expected).max())


# ---------------------------------------------------------------------------------------------------------
# (b) m = n on sparse rows is exact kernel PCA


EXACT_KERNELS = [("linear", 1.0), ("rbf", 0.5), ("polynomial", 0.7), ("cosine", 1.0), ("laplacian", 0.3)]


@pytest.fixture(scope="module")
def sparse_data(spark: Any) -> Tuple[DataFrame, DataFrame, np.ndarray]:
    """60 sparse rows of 2000 columns (about 6 non-zeros each) as sparse and as dense vectors, and numpy's."""
    rows = sparse_rows(60, 2000, 6, 1)
    sc = spark.sparkContext
    # The same order in both (the uniform sample's keys depend on the rows' order; a repartition would shuffle
    # the two forms differently).
    sparse = spark.createDataFrame(sc.parallelize(list(enumerate(rows)), 3), ["id", "features"]).cache()
    dense_rows = [(i, Vectors.dense(v.toArray().tolist())) for i, v in enumerate(rows)]
    dense = spark.createDataFrame(sc.parallelize(dense_rows, 3), ["id", "features"]).cache()
    return sparse, dense, np.array([v.toArray() for v in rows])


@pytest.mark.parametrize("kernel_name,gamma", EXACT_KERNELS)
def test_all_rows_as_landmarks_is_exact_kernel_pca(sparse_data: Any, kernel_name: str, gamma: float) -> None:
    sparse, _, x = sparse_data
    n = len(x)
    estimator = NystromKernelPCA(kernel=kernel_name, k=4, numLandmarks=n, seed=3, rcond=1e-14, degree=3, coef0=1.0)
    if kernel_name in ("rbf", "polynomial", "laplacian"):
        estimator.setGamma(gamma)
    model = estimator.fit(sparse)
    assert model.getKernelBlockPath().startswith("sparse: "), model.getKernelBlockPath()
    assert model.numSupportPoints == n
    exact, exact_scores = exact_kpca(kernel_of(kernel_name, gamma)(x, x), 4)
    ours = model.eigenvalues.toArray()
    np.testing.assert_allclose(ours, exact[: len(ours)], rtol=0, atol=1e-12 * exact[0])
    scores = np.array([r[0].toArray() for r in model.transform(sparse).orderBy("id").select("kpca").collect()])
    for c in range(4):
        sign = np.sign(scores[:, c] @ exact_scores[:, c])
        np.testing.assert_allclose(sign * scores[:, c], exact_scores[:, c], rtol=0, atol=1e-9 * np.sqrt(exact[0] * n))


# ---------------------------------------------------------------------------------------------------------
# (c) the same rows as sparse and as dense vectors


@pytest.mark.parametrize("kernel_name,gamma", [("rbf", 0.5), ("laplacian", 0.3), ("cosine", 1.0)])
def test_sparse_and_dense_vectors_give_the_same_model(sparse_data: Any, kernel_name: str, gamma: float) -> None:
    sparse, dense, _ = sparse_data
    estimator = NystromKernelPCA(kernel=kernel_name, k=3, numLandmarks=25, seed=7)
    if kernel_name != "cosine":
        estimator.setGamma(gamma)
    a, b = estimator.fit(sparse), estimator.fit(dense)
    assert a.getKernelBlockPath() == b.getKernelBlockPath()
    ea, eb = a.eigenvalues.toArray(), b.eigenvalues.toArray()
    np.testing.assert_allclose(ea, eb, rtol=0, atol=1e-13 * ea[0])
    for model_rows in (sparse, dense):  # each model scores both forms alike
        sa = np.array([r[0].toArray() for r in a.transform(model_rows).orderBy("id").select("kpca").collect()])
        sb = np.array([r[0].toArray() for r in b.transform(model_rows).orderBy("id").select("kpca").collect()])
        np.testing.assert_allclose(sa, sb, rtol=0, atol=1e-12 * np.abs(sa).max())


def test_landmarks_keep_the_jvm_form(spark: Any, sparse_data: Any) -> None:
    """``landmarks`` of a sparse-path model is a SparseMatrix, of a dense-row model a DenseMatrix; each row of
    either is a row of the data (uniform landmarks are distinct data rows)."""
    sparse, _, x = sparse_data
    dense_x = np.random.default_rng(5).normal(size=(40, 4))
    dense = spark.createDataFrame([(i, Vectors.dense(r.tolist())) for i, r in enumerate(dense_x)], ["id", "features"])
    for rows, data, form in ((sparse, x, SparseMatrix), (dense, dense_x, DenseMatrix)):
        model = NystromKernelPCA(kernel="rbf", gamma=0.5, k=2, numLandmarks=12, seed=5).fit(rows)
        z = model.landmarks
        assert type(z) is form, f"{type(z).__name__} for a {model.getKernelBlockPath()} model"
        assert (z.numRows, z.numCols) == (12, data.shape[1])
        found = {tuple(r) for r in data.tolist()}
        assert all(tuple(r) in found for r in z.toArray().tolist()), "every landmark is a row of the data"
        assert len({tuple(r) for r in z.toArray().tolist()}) == 12


# ---------------------------------------------------------------------------------------------------------
# (d) saved and loaded: Python, the JVM and the export bundle score alike


def test_saved_sparse_model_scores_identically_in_python_jvm_and_bundle(
    spark: Any, jvm: Any, sparse_data: Any, tmp_path: Path
) -> None:
    sparse, _, x = sparse_data
    model = NystromKernelPCA(kernel="rbf", gamma=0.5, k=3, numLandmarks=25, seed=2, residualCol="residual").fit(sparse)
    assert model.getKernelBlockPath().startswith("sparse: ")
    before = model.transform(sparse).orderBy("id").select("kpca", "residual").collect()
    path = str(tmp_path / "model")
    model.save(path)

    loaded = NystromKernelPCAModel.load(path)
    assert loaded.getKernelBlockPath() == model.getKernelBlockPath()
    after = loaded.transform(sparse).orderBy("id").select("kpca", "residual").collect()
    java_model = jvm.io.github.sparkkpca.ml.NystromKernelPCAModel.load(path)
    from_jvm = DataFrame(java_model.transform(sparse._jdf), spark).orderBy("id").select("kpca", "residual").collect()
    expected = [(r.kpca.toArray().tolist(), r.residual) for r in before]
    assert [(r.kpca.toArray().tolist(), r.residual) for r in after] == expected, "Python after load, bit for bit"
    assert [(r.kpca.toArray().tolist(), r.residual) for r in from_jvm] == expected, "JVM after load, bit for bit"

    loaded.export(str(tmp_path / "bundle"))
    sp = pytest.importorskip("scipy.sparse")  # the bundle's scipy.sparse scoring, where scipy is installed
    b = tmp_path / "bundle"
    meta = json.loads((b / "model.json").read_text())
    csr = meta["files"]["landmarksCsr"]
    indptr, indices, data = (np.loadtxt(b / csr[f], ndmin=1) for f in ("indptr", "indices", "data"))
    z = sp.csr_matrix((data, indices.astype(int), indptr.astype(int)), shape=(meta["m"], meta["d"]))
    p = np.loadtxt(b / "projector.csv", delimiter=",", ndmin=2)
    o = np.loadtxt(b / "offset.csv", ndmin=1)
    rows = sp.csr_matrix(x)
    sq = (
        np.asarray(rows.multiply(rows).sum(1))
        + np.asarray(z.multiply(z).sum(1)).T
        - 2 * np.asarray((rows @ z.T).todense())
    )
    bundle_scores = np.exp(-meta["gamma"] * np.maximum(sq, 0)) @ p - o
    scores = np.array([r.kpca.toArray() for r in before])
    np.testing.assert_allclose(bundle_scores, scores, rtol=0, atol=1e-12 * np.abs(scores).max())
