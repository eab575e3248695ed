#!/usr/bin/env python3
"""scikit-learn's Nystroem + PCA pipeline, timed the same way as spark-kpca's fit (data loading excluded).

    python3 sklearn_nystroem.py --input mnist:train --m 2000 --k 50 --gamma 1e-7 --json-out sk.json
    python3 sklearn_nystroem.py --input synthetic:n=5000000,d=50,seed=1 --m 2000 --k 20 --gamma 0.0125 \
        --max-memory 8G --json-out sk-5m.json

The fit is what a scikit-learn user writes for Nystroem kernel PCA:

    features = Nystroem(kernel="rbf", gamma=gamma, n_components=m, random_state=seed).fit_transform(X)
    pca = PCA(n_components=k, random_state=seed).fit(features)

Inputs:
  mnist:train / mnist:test   the original IDX files, raw pixels 0..255 as float64 (the same scale as
                             spark-kpca's mnist: source), from --mnist-dir, else $MNIST_DIR, else
                             ~/.cache/spark-kpca/mnist (bin/fetch-mnist downloads them).
  synthetic:n=N,d=D,seed=S[,clusters=C]
                             the model of spark-kpca's synthetic: source (Gaussian clusters in a 3-dimensional
                             subspace of R^d plus 0.1 isotropic noise), drawn with NumPy: the same
                             distribution, not the same rows.

Explained variance: PCA.explained_variance_ divides by n - 1; the JSON reports it times (n - 1)/n, the
population variance that spark-kpca's explainedVariance() reports.

--max-memory caps this process's address space (RLIMIT_AS) before anything is allocated, so a pipeline that
cannot fit fails with MemoryError instead of exhausting the machine; the JSON then has status "MemoryError",
the message and the size of the n x m float64 feature matrix the pipeline needs.
"""

import argparse
import json
import os
import resource
import struct
import sys
import time

import numpy as np


def parse_bytes(text):
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
    text = text.strip().lower().rstrip("b")
    if text and text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


def mnist_dir(arg):
    if arg:
        return arg
    if os.environ.get("MNIST_DIR"):
        return os.environ["MNIST_DIR"]
    return os.path.join(os.path.expanduser("~"), ".cache", "spark-kpca", "mnist")


def read_idx_images(path):
    with open(path, "rb") as f:
        magic, count, rows, cols = struct.unpack(">IIII", f.read(16))
        if magic != 0x00000803:
            raise SystemExit(f"{path}: not an IDX3 image file (magic {magic:#010x})")
        pixels = np.frombuffer(f.read(count * rows * cols), dtype=np.uint8)
    if pixels.size != count * rows * cols:
        raise SystemExit(f"{path}: truncated")
    return pixels.reshape(count, rows * cols).astype(np.float64)


def synthetic(spec):
    params = {"n": 10000, "d": 20, "seed": 1, "clusters": 4}
    for part in filter(None, spec.split(",")):
        key, _, value = part.partition("=")
        if key not in params:
            raise SystemExit(f"synthetic: unknown key {key!r} (keys: n, d, seed, clusters)")
        params[key] = int(value.replace("_", ""))
    n, d, seed, c = params["n"], params["d"], params["seed"], params["clusters"]
    rng = np.random.default_rng(seed)
    q = min(3, d)
    centres = 4.0 * rng.standard_normal((c, q))
    basis, _ = np.linalg.qr(rng.standard_normal((d, q)))
    x = np.empty((n, d))
    chunk = 1 << 20
    for start in range(0, n, chunk):
        stop = min(n, start + chunk)
        labels = rng.integers(0, c, stop - start)
        z = centres[labels] + rng.standard_normal((stop - start, q))
        x[start:stop] = z @ basis.T + 0.1 * rng.standard_normal((stop - start, d))
    return x


def load(source, mnist):
    if source.startswith("mnist:"):
        split = source.split(":", 1)[1]
        name = {"train": "train-images-idx3-ubyte", "test": "t10k-images-idx3-ubyte"}.get(split)
        if name is None:
            raise SystemExit("--input: mnist:train or mnist:test")
        return read_idx_images(os.path.join(mnist, name))
    if source.startswith("synthetic"):
        return synthetic(source.partition(":")[2])
    raise SystemExit("--input: mnist:train, mnist:test or synthetic:n=..,d=..,seed=..")


def blas_info():
    try:
        from threadpoolctl import threadpool_info
        return [{k: v for k, v in i.items() if k in ("internal_api", "version", "num_threads", "threading_layer",
                                                    "architecture")} for i in threadpool_info()]
    except ImportError:
        return []


def peak_rss_mb():
    # VmHWM belongs to this process image; ru_maxrss survives execve, so when the bench's JVM starts this
    # script, ru_maxrss starts at the JVM's own peak and reports it whenever scikit-learn's is smaller.
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0  # kB
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # kB on Linux


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--input", required=True)
    p.add_argument("--m", type=int, required=True, help="Nystroem n_components (landmarks)")
    p.add_argument("--k", type=int, required=True, help="PCA n_components")
    p.add_argument("--gamma", type=float, required=True, help="rbf gamma, exp(-gamma ||x - y||^2)")
    p.add_argument("--seed", type=int, default=0, help="random_state of Nystroem and PCA")
    p.add_argument("--mnist-dir")
    p.add_argument("--repeat", type=int, default=1, help="fits to run; the best time is reported")
    p.add_argument("--max-memory", help="address-space cap, e.g. 8G (RLIMIT_AS)")
    p.add_argument("--json-out", help="write the result as JSON to this file")
    args = p.parse_args()

    import sklearn
    from sklearn.decomposition import PCA
    from sklearn.kernel_approximation import Nystroem

    if args.max_memory:
        limit = parse_bytes(args.max_memory)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    result = {"system": "scikit-learn " + sklearn.__version__, "input": args.input, "m": args.m, "k": args.k,
              "gamma": args.gamma, "seed": args.seed, "numpy": np.__version__, "blas": blas_info(),
              "max_memory": args.max_memory}
    t = time.perf_counter()
    try:
        x = load(args.input, mnist_dir(args.mnist_dir))
    except MemoryError as e:
        result.update(status="MemoryError", message="loading the data: " + str(e))
        finish(result, args)
        return 0
    n, d = x.shape
    result.update(n=n, d=d, load_s=time.perf_counter() - t, feature_matrix_bytes=8 * n * args.m)
    print(f"sklearn: loaded {n} x {d} in {result['load_s']:.1f} s; the feature matrix needs "
          f"{8 * n * args.m / 2**30:.1f} GiB", file=sys.stderr)
    best = None
    try:
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            nystroem = Nystroem(kernel="rbf", gamma=args.gamma, n_components=args.m, random_state=args.seed)
            features = nystroem.fit_transform(x)
            t1 = time.perf_counter()
            pca = PCA(n_components=args.k, random_state=args.seed).fit(features)
            t2 = time.perf_counter()
            del features
            if best is None or t2 - t0 < best[0]:
                best = (t2 - t0, t1 - t0, t2 - t1, pca)
            print(f"sklearn: fit {t2 - t0:.2f} s (Nystroem {t1 - t0:.2f} s, PCA {t2 - t1:.2f} s)", file=sys.stderr)
    except MemoryError as e:
        result.update(status="MemoryError", message=str(e))
        finish(result, args)
        return 0
    fit_s, nystroem_s, pca_s, pca = best
    result.update(status="ok", fit_s=fit_s, nystroem_s=nystroem_s, pca_s=pca_s,
                  pca_svd_solver=pca._fit_svd_solver,
                  explained_variance=(pca.explained_variance_ * (n - 1) / n).tolist(),
                  explained_variance_ratio=pca.explained_variance_ratio_.tolist())
    finish(result, args)
    return 0


def finish(result, args):
    result["peak_rss_mb"] = peak_rss_mb()
    text = json.dumps(result, indent=1)
    if args.json_out:
        with open(args.json_out, "w") as f:
            f.write(text + "\n")
    print(text if not args.json_out else f"sklearn: {result['status']}, wrote {args.json_out}")


if __name__ == "__main__":
    sys.exit(main())
