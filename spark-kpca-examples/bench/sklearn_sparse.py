#!/usr/bin/env python3
"""scikit-learn's Nystroem + PCA on a libsvm file read as a scipy.sparse CSR matrix, timed as spark-kpca's
fit is timed (loading excluded; the median of --repeats fits in this process); run by
`spark-kpca bench sparse --compare sklearn`.

    python3 sklearn_sparse.py --input text.libsvm --num-features 262144 --kernel cosine --m 500 --k 10 \
        --seed 1 --repeats 3 --json-out sk.json

The fit is what a scikit-learn user writes (with --landmark-rows, Nystroem is fitted on those m rows, the
landmarks spark-kpca used, and then transforms every row):

    features = Nystroem(kernel=kernel, gamma=gamma, n_components=m, random_state=seed).fit_transform(X)
    pca = PCA(n_components=k, random_state=seed).fit(features)

Explained variance: PCA's default solver on these shapes is randomized (svd_solver "auto" picks it when
k < 0.8 min(n, m)), which is fast but accurate only to about 1e-3 relative. The timed fit is that default, what a
user gets; the spectrum compared with spark-kpca's ("explained_variance") is computed after the clock stops,
exactly, from the same Nystroem features: the k leading eigenvalues of their population covariance (divided by
n, as spark-kpca's explainedVariance() is). "explained_variance_pca" is what the timed PCA gave (its n - 1
divisor converted to n).
"""

import argparse
import json

import numpy as np
import resource
import time

from sklearn.datasets import load_svmlight_file
from sklearn.decomposition import PCA
from sklearn.kernel_approximation import Nystroem


def peak_rss_mb():
    """VmHWM of this process (ru_maxrss may keep the parent JVM's peak across fork and exec)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--input", required=True)
    p.add_argument("--num-features", type=int, required=True)
    p.add_argument("--kernel", default="cosine")
    p.add_argument("--gamma", type=float, default=None)
    p.add_argument("--m", type=int, required=True)
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--landmark-rows", default=None,
                   help="a file of m zero-based row numbers: Nystroem is fitted on exactly these rows "
                        "(spark-kpca's landmarks), else it samples its own")
    p.add_argument("--repeats", type=int, default=1,
                   help="fits in this process; fit_s is their median, fit_times_s lists them")
    p.add_argument("--json-out", required=True)
    a = p.parse_args()
    x, _ = load_svmlight_file(a.input, n_features=a.num_features)
    n, d = x.shape
    rows = None
    if a.landmark_rows:
        with open(a.landmark_rows) as f:
            rows = [int(t) for t in f.read().split()]
        if len(rows) != a.m:
            raise SystemExit(f"--landmark-rows: {len(rows)} rows for m = {a.m}")
    params = {} if a.gamma is None or a.kernel == "cosine" else {"gamma": a.gamma}
    times = []
    for _ in range(max(1, a.repeats)):
        start = time.perf_counter()
        nystroem = Nystroem(kernel=a.kernel, n_components=a.m, random_state=a.seed, **params)
        if a.landmark_rows:
            # n_components = m rows given: Nystroem keeps all of them (in a permuted order).
            nystroem.fit(x[rows])
            features = nystroem.transform(x)
        else:
            features = nystroem.fit_transform(x)
        pca = PCA(n_components=a.k, random_state=a.seed).fit(features)
        times.append(time.perf_counter() - start)
    fit_s = float(np.median(times))
    scale = (n - 1) / n
    centred = features - features.mean(axis=0)
    exact = np.linalg.eigvalsh(centred.T @ centred / n)[::-1][: a.k]
    out = {
        "system": "scikit-learn",
        "status": "ok",
        "n": n,
        "d": d,
        "nnz": int(x.nnz),
        "fit_s": fit_s,
        "fit_times_s": times,
        "explained_variance": [float(v) for v in exact],
        "explained_variance_pca": [float(v) * scale for v in pca.explained_variance_],
        "explained_variance_ratio": [float(v) for v in pca.explained_variance_ratio_],
        "peak_rss_mb": peak_rss_mb(),
        "pca_svd_solver": getattr(pca, "_fit_svd_solver", ""),
    }
    with open(a.json_out, "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
