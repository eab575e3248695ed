"""Seeded synthetic data for the incremental/decremental measurements: three Gaussian clusters in R^5."""
import random
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
rng = random.Random(2021)
print("x1,x2,x3,x4,x5")
for i in range(n):
    c = i % 3
    print(",".join(f"{(2.0 * c if t < 2 else 0.0) + rng.gauss(0, 1):.6f}" for t in range(5)))
