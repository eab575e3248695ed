"""Writes MNIST as CSV for the streaming reproduction: pixels / 255, a label column, shuffled with seed 1.

Usage: mnist_csv.py MNIST_DIR OUT_DIR HELDOUT_CSV FILES ROWS_PER_FILE HELDOUT_ROWS
"""
import os
import sys

import numpy as np


def idx(path):
    with open(path, "rb") as f:
        data = f.read()
    dims = data[3]
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(dims)]
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * dims).reshape(shape)


def write(path, x, y):
    header = ",".join(f"p{i}" for i in range(x.shape[1])) + ",label"
    np.savetxt(path, np.column_stack([x, y]), delimiter=",", header=header, comments="",
               fmt=["%.6g"] * x.shape[1] + ["%d"])


mnist, out, heldout, files, rows, held = sys.argv[1], sys.argv[2], sys.argv[3], *map(int, sys.argv[4:7])
rng = np.random.default_rng(1)
train_x = idx(os.path.join(mnist, "train-images-idx3-ubyte")).reshape(-1, 784) / 255.0
train_y = idx(os.path.join(mnist, "train-labels-idx1-ubyte"))
test_x = idx(os.path.join(mnist, "t10k-images-idx3-ubyte")).reshape(-1, 784) / 255.0
test_y = idx(os.path.join(mnist, "t10k-labels-idx1-ubyte"))
order = rng.permutation(len(train_x))[: files * rows]
os.makedirs(out, exist_ok=True)
for f in range(files):
    part = order[f * rows:(f + 1) * rows]
    path = os.path.join(out, f"part-{f:02d}.csv")
    write(path, train_x[part], train_y[part])
    os.utime(path, (1_700_000_000 + 10 * f, 1_700_000_000 + 10 * f))
test = rng.permutation(len(test_x))[:held]
write(heldout, test_x[test], test_y[test])
