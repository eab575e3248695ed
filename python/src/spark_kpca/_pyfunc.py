"""Scores a spark-kpca model with numpy and scipy alone: the loader of the MLflow ``python_function`` flavour that
:mod:`spark_kpca.mlflow` writes.

This module imports nothing but numpy (and scipy for sparse rows and sparse landmarks, on first use): no PySpark,
no JVM, not even :mod:`spark_kpca`. :mod:`spark_kpca.mlflow` copies it into each model it writes, as
``code/spark_kpca_pyfunc.py``, so that a model loads where only numpy and scipy are installed.

The model's arrays (``arrays.npz``) and settings (``spark_kpca.json``) are those of the export bundle
(``model.export(dir)``: landmarks dense or as CSR, projector P, offset o; or the random features Ω, b) and of
the pipeline stages before the kernel PCA stage (VectorAssembler, StandardScaler, Normalizer). The scores are
y(x) = Pᵀk_x − o, k_x = (k(x, z_1), …, k(x, z_m)), or y(x) = Pᵀz(x) − o, z(x) = √(2/D)·cos(Ωx + b), computed in
blocks of rows as the library computes them (rbf: rows and landmarks shifted by the landmarks' centre before
‖x‖² + ‖z‖² − 2xᵀz, pairs whose distance that expansion may have lost recomputed from coordinate differences).
"""

import json
import os
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

FORMAT = "spark-kpca pyfunc 1"
KERNELS = ("rbf", "laplacian", "polynomial", "linear", "cosine", "sigmoid")
#: Kernel values whose expansion error estimate exceeds this are recomputed (LandmarkKernel.CANCELLATION_TOLERANCE).
CANCELLATION_TOLERANCE = 1e-14
#: Doubles of a block's largest intermediate (rows × max(m, d)): 64 MiB.
BLOCK_DOUBLES = 8_000_000


def _load_pyfunc(data_path: str) -> "KernelPCAScorer":
    """MLflow's entry point: the scorer of the model whose data directory is ``data_path``."""
    return KernelPCAScorer.load(data_path)


def _sparse() -> Any:
    import scipy.sparse

    return scipy.sparse


def _is_sparse(x: Any) -> bool:
    return hasattr(x, "tocsr") and hasattr(x, "nnz")


class KernelPCAScorer:
    """The scores of a fitted kernel PCA model (and the stages before it) for rows given as a 2-D numpy array,
    a scipy.sparse matrix, or a pandas DataFrame (the pipeline's input columns, or one column of arrays, lists,
    Spark ML vectors or their dict form). ``predict`` returns the n×k scores as a float64 numpy array."""

    def __init__(self, meta: Dict[str, Any], arrays: Dict[str, np.ndarray]) -> None:
        if meta.get("format") != FORMAT:
            raise ValueError(f"spark_kpca pyfunc: unknown data format {meta.get('format')!r} (expected {FORMAT!r})")
        self.meta = meta
        self.kernel = meta["kernel"]
        # A kernel's own parameters only: the export writes gamma, degree and coef0 where the family uses them.
        self.gamma = float(meta.get("gamma", 1.0))
        self.degree = int(meta.get("degree", 1))
        self.coef0 = float(meta.get("coef0", 0.0))
        self.d = int(meta["d"])
        self.k = int(meta["k"])
        self.input_cols: Optional[List[str]] = meta.get("inputCols")
        self.stages: List[Dict[str, Any]] = meta.get("stages", [])
        self.input_dim = len(self.input_cols) if self.input_cols else int(meta.get("inputDim", self.d))
        self.arrays = arrays
        self.projector = arrays["projector"]
        self.offset = arrays["offset"]
        self.random_features = meta["featureMap"] == "rff"
        if self.random_features:
            self.omega_t = np.ascontiguousarray(arrays["omega"].T)
            self.phase = arrays["phase"]
            self.width = self.omega_t.shape[1]
            return
        if self.kernel not in KERNELS:
            raise ValueError(f"spark_kpca pyfunc: kernel '{self.kernel}' is not one of {', '.join(KERNELS)}")
        self.sparse = "landmarks_indptr" in arrays
        if self.sparse:
            sp = _sparse()
            m = len(arrays["landmarks_indptr"]) - 1
            self.landmarks = sp.csr_matrix(
                (arrays["landmarks_data"], arrays["landmarks_indices"], arrays["landmarks_indptr"]), shape=(m, self.d)
            )
        else:
            self.landmarks = arrays["landmarks"]
        self.m = self.landmarks.shape[0]
        self.width = self.m
        self._prepare_landmarks()

    @classmethod
    def load(cls, data_path: str) -> "KernelPCAScorer":
        with open(os.path.join(data_path, "spark_kpca.json"), encoding="utf-8") as f:
            meta = json.load(f)
        with np.load(os.path.join(data_path, "arrays.npz"), allow_pickle=False) as npz:
            arrays = {name: npz[name] for name in npz.files}
        return cls(meta, arrays)

    # ----------------------------------------------------------------------------------------------------
    # MLflow's interface

    def predict(self, model_input: Any, params: Optional[Dict[str, Any]] = None) -> np.ndarray:
        """The n×k scores of the rows of ``model_input``."""
        return self.transform(model_input)

    def get_raw_model(self) -> "KernelPCAScorer":
        """This scorer (``mlflow.pyfunc.load_model(uri).get_raw_model()``): its ``predict`` takes every input
        form, also those MLflow's signature check refuses (Spark ML vectors, float32)."""
        return self

    # ----------------------------------------------------------------------------------------------------
    # Scoring

    def transform(self, model_input: Any) -> np.ndarray:
        rows = self._rows(model_input)
        n = rows.shape[0]
        out = np.empty((n, self.k))
        block = max(1, min(4096, BLOCK_DOUBLES // max(self.width, self.input_dim, self.d, 1)))
        for start in range(0, n, block):
            x = rows[start : start + block]
            x = self._preprocess(x, start)
            features = self._features(x) if self.random_features else self._kernel_block(x)
            y = features @ self.projector
            y -= self.offset
            bad = ~np.isfinite(y).all(axis=1)
            if bad.any():
                raise ValueError(
                    f"spark_kpca pyfunc: row {start + int(np.argmax(bad))} has a score that is not finite "
                    f"(a kernel value overflowed: kernel '{self.kernel}', gamma {self.gamma}, degree {self.degree})"
                )
            out[start : start + len(y)] = y
        return out

    def _rows(self, data: Any) -> Any:
        """The rows as a float64 2-D numpy array or a scipy CSR matrix, checked: width and finite values."""
        cols = self.input_cols
        if hasattr(data, "iloc") and not hasattr(data, "columns"):  # a pandas Series: one column
            data = data.to_frame()
        if hasattr(data, "iloc") and hasattr(data, "columns"):  # a pandas DataFrame
            names = [str(c) for c in data.columns]
            if cols and all(c in names for c in cols):
                rows = self._numeric(data[cols].to_numpy(), "the columns " + ", ".join(cols))
            elif len(names) == 1:
                rows = self._vectors(list(data.iloc[:, 0]), f"column '{names[0]}'")
            elif len(names) == self.input_dim and not cols:
                rows = self._numeric(data.to_numpy(), f"{len(names)} columns")
            else:
                missing = [c for c in (cols or []) if c not in names]
                raise ValueError(
                    "spark_kpca pyfunc: "
                    + (
                        f"the input lacks the columns {', '.join(missing)} of the pipeline"
                        if cols
                        else f"expected one column of vectors or {self.input_dim} numeric columns"
                    )
                    + f"; got the columns {', '.join(names)}"
                )
        elif isinstance(data, dict):
            if cols and all(c in data for c in cols):
                rows = self._numeric(np.column_stack([np.asarray(data[c]) for c in cols]), "the input columns")
            elif len(data) == 1:
                (value,) = data.values()
                return self._rows(value)
            else:
                raise ValueError(f"spark_kpca pyfunc: a dict input needs one entry or the columns {cols}")
        elif _is_sparse(data):
            rows = data.tocsr().astype(np.float64)
            rows.sort_indices()
            where = "the sparse matrix"
            if not np.isfinite(rows.data).all():
                bad = np.repeat(np.arange(rows.shape[0]), np.diff(rows.indptr))[~np.isfinite(rows.data)][0]
                raise ValueError(f"spark_kpca pyfunc: row {bad} of {where} holds a value that is not finite")
        elif isinstance(data, np.ndarray) and data.dtype != object:
            rows = self._numeric(data.reshape(1, -1) if data.ndim == 1 else data, "the array")
        else:
            rows = self._vectors(list(data), "the input")
        if rows.ndim != 2 or rows.shape[1] != self.input_dim:
            raise ValueError(
                f"spark_kpca pyfunc: rows of {rows.shape[1] if rows.ndim == 2 else '?'} values; the model takes "
                f"{self.input_dim}" + (f" (the columns {', '.join(cols)})" if cols else "")
            )
        return rows

    @staticmethod
    def _numeric(values: np.ndarray, where: str) -> np.ndarray:
        try:
            rows = np.asarray(values, dtype=np.float64)
        except (TypeError, ValueError) as e:
            raise ValueError(f"spark_kpca pyfunc: {where} must be numeric ({e})") from None
        if rows.ndim != 2:
            raise ValueError(f"spark_kpca pyfunc: {where} must be 2-D, got shape {rows.shape}")
        finite = np.isfinite(rows)
        if not finite.all():
            i, j = np.argwhere(~finite)[0]
            raise ValueError(f"spark_kpca pyfunc: row {i}, value {j} of {where} is not finite ({rows[i, j]})")
        return np.ascontiguousarray(rows)

    def _vectors(self, values: List[Any], where: str) -> Any:
        """Rows from vectors: arrays, lists, Spark ML DenseVector/SparseVector, or Spark's vector struct as a
        dict ({type: 0 sparse / 1 dense, size, indices, values}); a CSR matrix when any row is sparse."""
        parsed: List[Tuple[Optional[np.ndarray], np.ndarray]] = []  # (indices or None when dense, values)
        for i, v in enumerate(values):
            if isinstance(v, dict):
                sparse = v.get("type") == 0 or (v.get("type") is None and v.get("indices") is not None)
                indices = np.asarray(v["indices"], dtype=np.int64) if sparse else None
                size = int(v["size"]) if sparse else len(v["values"])
                vals = np.asarray(v["values"], dtype=np.float64)
            elif hasattr(v, "indices") and hasattr(v, "size") and hasattr(v, "values"):  # SparseVector
                indices, size = np.asarray(v.indices, dtype=np.int64), int(v.size)
                vals = np.asarray(v.values, dtype=np.float64)
            else:  # DenseVector, array, list
                try:
                    vals = np.asarray(v.toArray() if hasattr(v, "toArray") else v, dtype=np.float64).ravel()
                except (TypeError, ValueError):
                    raise ValueError(
                        f"spark_kpca pyfunc: row {i} of {where} is a {type(v).__name__}, not a vector"
                    ) from None
                indices, size = None, len(vals)
            if size != self.input_dim:
                raise ValueError(
                    f"spark_kpca pyfunc: row {i} of {where} has {size} values; the model takes {self.input_dim}"
                )
            if not np.isfinite(vals).all():
                raise ValueError(f"spark_kpca pyfunc: row {i} of {where} holds a value that is not finite")
            parsed.append((indices, vals))
        if all(indices is None for indices, _ in parsed):
            return np.vstack([vals for _, vals in parsed]) if parsed else np.empty((0, self.input_dim))
        rows_indices = [np.flatnonzero(vals) if ix is None else ix for ix, vals in parsed]
        rows_values = [vals[ix] if ix_orig is None else vals for (ix_orig, vals), ix in zip(parsed, rows_indices)]
        indptr = np.zeros(len(parsed) + 1, dtype=np.int64)
        indptr[1:] = np.cumsum([len(ix) for ix in rows_indices])
        rows = _sparse().csr_matrix(
            (np.concatenate(rows_values), np.concatenate(rows_indices), indptr), shape=(len(parsed), self.input_dim)
        )
        rows.sort_indices()
        return rows

    # ----------------------------------------------------------------------------------------------------
    # The stages before the kernel PCA stage

    def _preprocess(self, x: Any, start: int) -> Any:
        for i, stage in enumerate(self.stages):
            kind = stage["type"]
            if kind == "VectorAssembler":
                continue  # the columns are the rows' values already
            if kind == "StandardScaler":
                mean, scale = self.arrays[f"stage{i}_mean"], self.arrays[f"stage{i}_scale"]
                if stage["withMean"]:
                    x = (x.toarray() if _is_sparse(x) else x) - mean
                    if stage["withStd"]:
                        x *= scale
                elif stage["withStd"]:
                    x = x @ _sparse().diags(scale) if _is_sparse(x) else x * scale
                    if _is_sparse(x):
                        x = x.tocsr()
            elif kind == "Normalizer":
                x = _normalise(x, float(stage["p"]))
            else:
                raise ValueError(f"spark_kpca pyfunc: unknown stage {kind}")
        return x

    # ----------------------------------------------------------------------------------------------------
    # Random features

    def _features(self, x: Any) -> np.ndarray:
        product = x @ self.omega_t
        product = np.asarray(product)
        product += self.phase
        np.cos(product, out=product)
        product *= np.sqrt(2.0 / self.width)
        return product

    # ----------------------------------------------------------------------------------------------------
    # Kernel blocks

    def _prepare_landmarks(self) -> None:
        z = self.landmarks
        self.shifted = self.kernel == "rbf"
        if not self.sparse:
            if self.shifted:
                self.centre = _centre_dense(z)
                zc = z - self.centre
            else:
                zc = z
            self.zt = np.ascontiguousarray(zc.T)
            self.z_sq = np.einsum("ij,ij->i", zc, zc)
            return
        # CSR landmarks
        self.z_l1 = np.asarray(abs(z).sum(axis=1)).ravel()
        self.z_sq_raw = np.asarray(z.multiply(z).sum(axis=1)).ravel()
        self.centre_cols = np.empty(0, dtype=np.int64)
        if self.shifted:
            c = _centre_sparse(z)
            self.centre_cols = np.flatnonzero(c)
            self.centre_values = c[self.centre_cols]
        if len(self.centre_cols):
            keep = np.ones(self.d)
            keep[self.centre_cols] = 0.0
            self.keep = _sparse().diags(keep)
            z_rest = (z @ self.keep).tocsr()
            z_rest.eliminate_zeros()
            z_c = z[:, self.centre_cols].toarray() - self.centre_values
            self.zt_rest = z_rest.T.tocsr()
            self.zt_centre = np.ascontiguousarray(z_c.T)
            self.z_sq = np.asarray(z_rest.multiply(z_rest).sum(axis=1)).ravel() + np.einsum("ij,ij->i", z_c, z_c)
        else:
            self.zt_rest = z.T.tocsr()
            self.z_sq = self.z_sq_raw
        if self.kernel == "laplacian":
            self.z_csc = z.tocsc()

    def _kernel_block(self, x: Any) -> np.ndarray:
        if self.kernel == "laplacian":
            return self._laplacian(x)
        if self.sparse:
            g, x_sq = self._sparse_products(x)
        else:
            xd = x.toarray() if _is_sparse(x) else x
            if self.shifted:
                xd = xd - self.centre
            g = xd @ self.zt
            x_sq = np.einsum("ij,ij->i", xd, xd)
        kernel, gamma = self.kernel, self.gamma
        if kernel == "rbf":  # exp(−γ·max(‖x‖² + ‖z‖² − 2⟨x,z⟩, 0)), in place
            g *= -2.0
            g += x_sq[:, None]
            g += self.z_sq[None, :]
            np.maximum(g, 0.0, out=g)
            g *= -gamma
            k = np.exp(g, out=g)
            if len(x_sq) and x_sq.max() + self.z_sq.max() > self._limit():  # else no pair can need it
                self._recompute(k, x_sq[:, None] + self.z_sq[None, :], x, squared=True)
            return k
        if kernel == "linear":
            return g
        if kernel == "polynomial":
            return (gamma * g + self.coef0) ** self.degree
        if kernel == "sigmoid":
            return np.tanh(gamma * g + self.coef0)
        # cosine: ‖x‖·‖z‖ as √‖x‖²·√‖z‖², 0 where either is 0
        z_sq = self.z_sq_raw if self.sparse else self.z_sq
        denominator = np.sqrt(x_sq)[:, None] * np.sqrt(z_sq)[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            k = g / denominator
        k[denominator == 0] = 0.0
        return k

    def _sparse_products(self, x: Any) -> Tuple[np.ndarray, np.ndarray]:
        """⟨x, z_j⟩ and ‖x‖² on the sparse path, of the rows shifted by the centre on its columns (rbf)."""
        sp = _sparse()
        xs = x if _is_sparse(x) else sp.csr_matrix(x)
        if not len(self.centre_cols):
            g = np.asarray((xs @ self.zt_rest).todense())
            return g, np.asarray(xs.multiply(xs).sum(axis=1)).ravel()
        rest = (xs @ self.keep).tocsr()
        xc = xs[:, self.centre_cols].toarray() - self.centre_values
        g = np.asarray((rest @ self.zt_rest).todense()) + xc @ self.zt_centre
        x_sq = np.asarray(rest.multiply(rest).sum(axis=1)).ravel() + np.einsum("ij,ij->i", xc, xc)
        return g, x_sq

    def _laplacian(self, x: Any) -> np.ndarray:
        gamma = self.gamma
        if not self.sparse:
            from scipy.spatial.distance import cdist

            dist = cdist(x.toarray() if _is_sparse(x) else x, self.landmarks, "cityblock")
            return np.exp(-gamma * dist)
        # ‖x − z‖₁ = ‖x‖₁ + ‖z‖₁ − Σ_{t ∈ both} (|x_t| + |z_t| − |x_t − z_t|), the overlap summed by column
        sp = _sparse()
        xs = (x if _is_sparse(x) else sp.csr_matrix(x)).tocsc()
        b = xs.shape[0]
        overlap = np.zeros((b, self.m))
        zc = self.z_csc
        common = np.flatnonzero((np.diff(xs.indptr) > 0) & (np.diff(zc.indptr) > 0))
        for t in common:
            r = xs.indices[xs.indptr[t] : xs.indptr[t + 1]]
            xv = xs.data[xs.indptr[t] : xs.indptr[t + 1]]
            c = zc.indices[zc.indptr[t] : zc.indptr[t + 1]]
            zv = zc.data[zc.indptr[t] : zc.indptr[t + 1]]
            overlap[np.ix_(r, c)] += np.abs(xv)[:, None] + np.abs(zv)[None, :] - np.abs(xv[:, None] - zv[None, :])
        x_l1 = np.asarray(abs(xs).sum(axis=1)).ravel()
        sums = x_l1[:, None] + self.z_l1[None, :]
        dist = sums - overlap
        np.maximum(dist, 0.0, out=dist)
        k = np.exp(-gamma * dist)
        self._recompute(k, sums, x, squared=False)
        return k

    def _limit(self) -> float:
        """The bound on k·(‖x‖ + ‖z‖) above which a kernel value is recomputed (CANCELLATION_TOLERANCE / (4εγ))."""
        return CANCELLATION_TOLERANCE / (4 * np.finfo(float).eps * self.gamma)

    def _recompute(self, k: np.ndarray, sums: np.ndarray, x: Any, squared: bool) -> None:
        """Recomputes, from coordinate differences, the kernel values whose distance the expansion may have
        lost to cancellation: where k·(‖x‖ + ‖z‖) exceeds the library's bound (LandmarkKernel.recomputeCancelled)."""
        rows, cols = np.nonzero(k * sums > self._limit())
        if not len(rows):
            return
        for s in range(0, len(rows), 4096):
            i, j = rows[s : s + 4096], cols[s : s + 4096]
            if self.sparse:
                xs = x if _is_sparse(x) else _sparse().csr_matrix(x)
                diff = xs[i] - self.landmarks[j]
                dist = np.asarray((diff.multiply(diff) if squared else abs(diff)).sum(axis=1)).ravel()
            else:
                xd = x.toarray() if _is_sparse(x) else x
                diff = xd[i] - self.landmarks[j]
                dist = np.einsum("ij,ij->i", diff, diff) if squared else np.abs(diff).sum(axis=1)
            k[i, j] = np.exp(-self.gamma * dist)


def _normalise(x: Any, p: float) -> Any:
    """Spark's Normalizer: each row divided by its p-norm (rows of norm 0 unchanged)."""
    if _is_sparse(x):
        a = abs(x)
        if p == 1:
            norms = np.asarray(a.sum(axis=1)).ravel()
        elif p == 2:
            norms = np.sqrt(np.asarray(x.multiply(x).sum(axis=1)).ravel())
        elif np.isinf(p):
            norms = np.asarray(a.max(axis=1).todense()).ravel()
        else:
            norms = np.asarray(a.power(p).sum(axis=1)).ravel() ** (1.0 / p)
        divisor = np.where(norms == 0, 1.0, norms)
        out = x.tocsr(copy=True)
        out.data /= np.repeat(divisor, np.diff(out.indptr))
        return out
    a = np.abs(x)
    if p == 1:
        norms = a.sum(axis=1)
    elif p == 2:
        norms = np.sqrt(np.einsum("ij,ij->i", x, x))
    elif np.isinf(p):
        norms = a.max(axis=1)
    else:
        norms = (a**p).sum(axis=1) ** (1.0 / p)
    return x / np.where(norms == 0, 1.0, norms)[:, None]


def _centre_coordinates(mean: np.ndarray, half_range: np.ndarray, first: np.ndarray) -> np.ndarray:
    """LandmarkKernel.centreCoordinate for each coordinate: the mean rounded to a multiple of 2^⌊log₂ h⌋, h the
    half-range; the first landmark's value where h = 0."""
    _, exponent = np.frexp(np.where(half_range == 0, 1.0, half_range))
    grid = np.ldexp(1.0, exponent - 1)
    return np.where(half_range == 0, first, np.rint(mean / grid) * grid)


def _centre_dense(z: np.ndarray) -> np.ndarray:
    """LandmarkKernel.centreOf: the coordinate means (summed in row order) rounded by their half-ranges."""
    m = z.shape[0]
    total = np.zeros(z.shape[1])
    for j in range(m):
        total += z[j]
    mean = total / m
    return _centre_coordinates(mean, np.abs(z - mean).max(axis=0), z[0])


def _centre_sparse(z: Any) -> np.ndarray:
    """SparseLandmarks.centre: the rule of :func:`_centre_dense` with absent entries counting as 0."""
    m, d = z.shape
    csc = z.tocsc()
    csc.sort_indices()
    counts = np.diff(csc.indptr)
    total = np.zeros(d)
    np.add.at(total, np.repeat(np.arange(d), counts), csc.data)
    mean = total / m
    half = np.where(counts < m, np.abs(mean), 0.0)
    if csc.nnz:
        columns = np.repeat(np.arange(d), counts)
        np.maximum.at(half, columns, np.abs(csc.data - mean[columns]))
    first = np.asarray(z[0].todense()).ravel() if m else np.zeros(d)
    return _centre_coordinates(mean, half, first)
