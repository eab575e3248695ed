#!/usr/bin/env python3
"""scikit-learn's Nystroem + PCA scoring many rows of a libsvm file read as a scipy.sparse CSR matrix, timed as
`spark-kpca bench sparse-scoring` times spark-kpca's scoring (reading and fitting excluded); run by that bench
with --compare sklearn.

    python3 sklearn_sparse_score.py --fit-input fit.libsvm --landmark-rows rows.txt --score-input score.libsvm \
        --num-features 262144 --kernel cosine --m 1000 --k 50 --output scores.npy --json-out sk.json

The model is what a scikit-learn user fits on the fit rows, with Nystroem fitted on the m landmark rows spark-kpca
used (PCA's exact solver: the fit is not timed, and the scores are then comparable with spark-kpca's):

    nystroem = Nystroem(kernel=kernel, n_components=m).fit(x_fit[rows])
    pca = PCA(n_components=k, svd_solver="full").fit(nystroem.transform(x_fit))

The timed part transforms the scored rows --chunk-rows at a time (all at once, the m-wide Nystroem features of
10^6 rows would take 8 GB at m = 1000) into one n x k array and saves it with numpy.save, as spark-kpca writes
its scores as Parquet. "score_sumsq" is the sum of the squared scores, which neither a component's sign nor the
order of components changes, for comparison with spark-kpca's.
"""

import argparse
import json
import resource
import time

import numpy as np
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
    p.add_argument("--fit-input", required=True)
    p.add_argument("--landmark-rows", required=True, help="a file of m zero-based row numbers of --fit-input")
    p.add_argument("--score-input", required=True)
    p.add_argument("--num-features", type=int, required=True)
    p.add_argument("--kernel", default="cosine")
    p.add_argument("--gamma", type=float, default=None)
    p.add_argument("--m", type=int, required=True)
    p.add_argument("--k", type=int, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--chunk-rows", type=int, default=100000)
    p.add_argument("--output", required=True, help="the scores, saved with numpy.save")
    p.add_argument("--json-out", required=True)
    a = p.parse_args()
    x_fit, _ = load_svmlight_file(a.fit_input, n_features=a.num_features)
    with open(a.landmark_rows) as f:
        rows = [int(t) for t in f.read().split()]
    if len(rows) != a.m:
        raise SystemExit(f"--landmark-rows: {len(rows)} rows for m = {a.m}")
    params = {} if a.gamma is None or a.kernel == "cosine" else {"gamma": a.gamma}
    fit_start = time.perf_counter()
    nystroem = Nystroem(kernel=a.kernel, n_components=a.m, random_state=a.seed, **params).fit(x_fit[rows])
    pca = PCA(n_components=a.k, svd_solver="full").fit(nystroem.transform(x_fit))
    fit_s = time.perf_counter() - fit_start
    read_start = time.perf_counter()
    x, _ = load_svmlight_file(a.score_input, n_features=a.num_features)
    read_s = time.perf_counter() - read_start
    n = x.shape[0]
    start = time.perf_counter()
    scores = np.empty((n, a.k))
    for lo in range(0, n, a.chunk_rows):
        hi = min(n, lo + a.chunk_rows)
        scores[lo:hi] = pca.transform(nystroem.transform(x[lo:hi]))
    np.save(a.output, scores)
    transform_s = time.perf_counter() - start
    out = {
        "system": "scikit-learn",
        "status": "ok",
        "rows": n,
        "nnz": int(x.nnz),
        "fit_s": fit_s,
        "read_s": read_s,
        "transform_s": transform_s,
        "rows_per_s": n / transform_s,
        "score_sumsq": float(np.sum(scores * scores)),
        "peak_rss_mb": peak_rss_mb(),
    }
    with open(a.json_out, "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
