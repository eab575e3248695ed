"""Writes MNIST as CSV for the streaming reproduction: pixels / 255, a label column.

Usage: mnist_csv.py MNIST_DIR OUT_DIR HELDOUT_CSV FILES ROWS_PER_FILE HELDOUT_ROWS [SEED] [validation]

The stream is FILES files of ROWS_PER_FILE training rows, drawn without replacement from the 60,000 training
rows with SEED (default 1); file f gets modification time 1.7e9 + 10 f, so the file source reads them in order.
The held-out rows are HELDOUT_ROWS test rows (seeded draw; 10000 = the whole test split), or, with the word
"validation", HELDOUT_ROWS further training rows of the same draw that are not in the stream (for tuning; the
test rows are then never read).
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


mnist, out, heldout = sys.argv[1:4]
files, rows, held = map(int, sys.argv[4:7])
seed = int(sys.argv[7]) if len(sys.argv) > 7 else 1
validation = len(sys.argv) > 8 and sys.argv[8] == "validation"
rng = np.random.default_rng(seed)
train_x = idx(os.path.join(mnist, "train-images-idx3-ubyte")).reshape(-1, 784) / 255.0
train_y = idx(os.path.join(mnist, "train-labels-idx1-ubyte"))
order = rng.permutation(len(train_x))
stream = order[: files * rows]
os.makedirs(out, exist_ok=True)
for f in range(files):
    part = stream[f * rows:(f + 1) * rows]
    path = os.path.join(out, f"part-{f:02d}.csv")
    write(path, train_x[part], train_y[part])
    os.utime(path, (1_700_000_000 + 10 * f, 1_700_000_000 + 10 * f))
if validation:
    part = order[files * rows: files * rows + held]
    write(heldout, train_x[part], train_y[part])
else:
    test_x = idx(os.path.join(mnist, "t10k-images-idx3-ubyte")).reshape(-1, 784) / 255.0
    test_y = idx(os.path.join(mnist, "t10k-labels-idx1-ubyte"))
    test = rng.permutation(len(test_x))[:held]
    write(heldout, test_x[test], test_y[test])
