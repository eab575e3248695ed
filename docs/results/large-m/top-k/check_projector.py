"""Checks an exported Nyström kernel PCA projector independently of Spark, with numpy, in chunks (no n×m or
m×m array is held):

    C_k p_i = lambda_i K_mm p_i   and   P' K_mm P = I,

with K_mm the landmarks' kernel matrix, C_k = (1/n) sum_x (k_x - kbar)(k_x - kbar)' the centred covariance of
the kernel columns k_x = (k(x, z_1), ..., k(x, z_m)) over the input rows (uncentred: the second moment), P the
m×k projector (projector.csv) and lambda the exported eigenvalues. Both follow from P = W U_k, W'K_mm W = I and
W'C_k W U_k = U_k Lambda. Prints the largest relative residual ||C_k p_i - lambda_i K_mm p_i|| /
||lambda_i K_mm p_i|| over i (and relative to lambda_1, the scale of the fit's tolerance), the largest |P'K_mm P - I| entry, and the scores' agreement on the first rows
(P'k_x - o against numpy). rbf kernels on dense rows.

    python3 check_projector.py --export DIR --data data.csv [--chunk 2000]
"""

import argparse
import json
import time
from pathlib import Path

import numpy as np


def rbf(x: np.ndarray, z: np.ndarray, z_sq: np.ndarray, gamma: float) -> np.ndarray:
    """exp(-gamma ||x - z||^2) for each row of x against each row of z."""
    d2 = (x * x).sum(axis=1)[:, None] + z_sq[None, :] - 2.0 * (x @ z.T)
    np.maximum(d2, 0.0, out=d2)
    return np.exp(-gamma * d2, out=d2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--export", required=True, help="the directory written by spark-kpca export")
    parser.add_argument("--data", required=True, help="the fit's input CSV (header row, numeric columns)")
    parser.add_argument("--chunk", type=int, default=2000, help="rows per chunk")
    args = parser.parse_args()
    root = Path(args.export)
    meta = json.loads((root / "model.json").read_text())
    if meta["kernel"] != "rbf" or "landmarks" not in meta["files"]:
        raise SystemExit("check_projector.py: rbf models with dense landmarks only")
    gamma = float(meta["gamma"])
    centered = bool(meta["centered"])
    lam = np.asarray(meta["eigenvalues"], dtype=float)
    start = time.time()
    z = np.loadtxt(root / meta["files"]["landmarks"], delimiter=",", ndmin=2)
    p = np.loadtxt(root / meta["files"]["projector"], delimiter=",", ndmin=2)
    offset = np.loadtxt(root / meta["files"]["offset"], delimiter=",", ndmin=1)
    x = np.loadtxt(args.data, delimiter=",", skiprows=1, ndmin=2)
    m, k = p.shape
    n = x.shape[0]
    print(f"n = {n}, d = {x.shape[1]}, m = {m}, k = {k}, gamma = {gamma:.6g}, centered = {centered}"
          f" (read in {time.time() - start:.1f} s)")
    z_sq = (z * z).sum(axis=1)
    # One pass over the rows: sum_x k_x (k_x'P) and sum_x k_x, chunk by chunk.
    start = time.time()
    second = np.zeros((m, k))
    kbar = np.zeros(m)
    first_scores = None
    for lo in range(0, n, args.chunk):
        kx = rbf(x[lo:lo + args.chunk], z, z_sq, gamma)
        t = kx @ p
        second += kx.T @ t
        kbar += kx.sum(axis=0)
        if first_scores is None:
            first_scores = t[:10] - offset
    kbar /= n
    ck_p = second / n
    if centered:
        ck_p -= np.outer(kbar, kbar @ p)
    # K_mm P, chunk by chunk over the landmarks.
    kmm_p = np.empty((m, k))
    for lo in range(0, m, args.chunk):
        kmm_p[lo:lo + args.chunk] = rbf(z[lo:lo + args.chunk], z, z_sq, gamma) @ p
    print(f"kernel passes in {time.time() - start:.1f} s")
    lhs = ck_p
    rhs = kmm_p * lam[:k][None, :]
    diff = np.linalg.norm(lhs - rhs, axis=0)
    rel = diff / np.linalg.norm(rhs, axis=0)
    # The fit's tolerance is relative to lambda_1 (every residual <= tol * lambda_1).
    rel1 = diff / (lam[0] * np.linalg.norm(kmm_p, axis=0))
    gram = p.T @ kmm_p
    off = np.abs(gram - np.eye(k)).max()
    print(f"max_i ||C_k p_i - lambda_i K_mm p_i|| / ||lambda_i K_mm p_i|| = {rel.max():.3e}"
          f" (component {int(rel.argmax()) + 1}; median {np.median(rel):.3e})")
    print(f"max_i ||C_k p_i - lambda_i K_mm p_i|| / (lambda_1 ||K_mm p_i||) = {rel1.max():.3e}")
    print(f"max |P' K_mm P - I| = {off:.3e}")
    print(f"eigenvalues: lambda_1 = {lam[0]:.6e}, lambda_k = {lam[k - 1]:.6e}")
    print("scores of the first 10 rows (numpy, P'k_x - o), first 3 components:")
    print(np.array2string(first_scores[:, :3], precision=6))


if __name__ == "__main__":
    main()
