"""Synthetic clusters for the large-m runs: n rows of d Gaussian features around c centres (unit spread, centres
drawn with spread 3), written as a CSV with a header row. Seeded: the same file every time.

    python3 make_data.py --n 100000 --d 100 --clusters 20 --seed 1 --out data.csv
"""

import argparse

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--d", type=int, required=True)
    parser.add_argument("--clusters", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    centres = 3.0 * rng.standard_normal((args.clusters, args.d))
    labels = rng.integers(0, args.clusters, size=args.n)
    x = centres[labels] + rng.standard_normal((args.n, args.d))
    header = ",".join(f"x{j}" for j in range(args.d))
    np.savetxt(args.out, x, delimiter=",", header=header, comments="", fmt="%.17g")


if __name__ == "__main__":
    main()
