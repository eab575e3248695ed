#!/usr/bin/env python3
"""Joins the m-sweep's parts into one table and one "fit time vs m" chart for both systems.

    python3 combine.py --compare m2000-8000/compare.csv --bench m16000/bench.csv \
        --sklearn-json sklearn-m16000.json --out .

compare.csv holds the points where scikit-learn ran beside spark-kpca in the same bench run (`--compare
sklearn`). At m = 16,000 the two cannot share the machine's 24 GB (spark-kpca's JVM needs about 18 GB of heap,
scikit-learn about 17 GB), so spark-kpca's point comes from its own bench run (bench.csv) and scikit-learn's
from sklearn_nystroem.py run right after it (its JSON); this script pairs them by m. Explained variance at those
points is compared by the sum of the k explained variances (bench.csv keeps only that sum, not each one).
spark-kpca's peak RSS at every point comes from the bench.csv files given.
"""
import argparse
import csv
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.ticker  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--compare", action="append", default=[], help="compare.csv of a bench run with --compare")
    p.add_argument("--bench", action="append", default=[], help="bench.csv of a spark-kpca-only run")
    p.add_argument("--sklearn-json", action="append", default=[], help="JSON of sklearn_nystroem.py")
    p.add_argument("--out", required=True)
    a = p.parse_args()
    rows = []
    for path in a.compare:
        with open(path) as f:
            for r in csv.DictReader(f):
                rows.append(dict(m=int(r["m"]), ours=float(r["spark_kpca_fit_s"]),
                                 sklearn=float(r["fit_s"]) if r["status"] == "ok" else None,
                                 status=r["status"], sklearn_rss_mb=r["peak_rss_mb"], ours_rss_mb="",
                                 ev_check="max rel. diff of the 50 explained variances " + r["ev_max_rel_diff"],
                                 source=path))
    sk = {}
    for path in a.sklearn_json:
        with open(path) as f:
            j = json.load(f)
        sk[int(j["m"])] = (j, path)
    bench = {}
    for path in a.bench:
        with open(path) as f:
            for r in csv.DictReader(f):
                bench[int(r["m"])] = (r, path)
    for row in rows:
        if int(row["m"]) in bench:
            row["ours_rss_mb"] = bench[int(row["m"])][0]["peak_rss_mb"]
    compared = {r["m"] for r in rows}
    for m, (r, path) in sorted(bench.items()):
        if m in compared or m not in sk:
            continue
        j, jpath = sk[m]
        ok = j["status"] == "ok"
        check = ""
        if ok:
            ours_sum = float(r["explained_variance_sum"])
            their_sum = sum(j["explained_variance"])
            check = ("sum of the %d explained variances %.6f (ours) and %.6f (scikit-learn): rel. diff %.1e"
                     % (len(j["explained_variance"]), ours_sum, their_sum, abs(ours_sum - their_sum) / their_sum))
        rows.append(dict(m=m, ours=float(r["fit_s"]), sklearn=j["fit_s"] if ok else None, status=j["status"],
                         sklearn_rss_mb="%.0f" % j.get("peak_rss_mb", float("nan")), ours_rss_mb=r["peak_rss_mb"],
                         ev_check=check, source=path + " + " + jpath))
    rows.sort(key=lambda r: r["m"])
    with open(a.out + "/combined.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["m", "spark_kpca_fit_s", "sklearn_fit_s", "ours_over_sklearn", "sklearn_status",
                    "spark_kpca_peak_rss_mb", "sklearn_peak_rss_mb", "explained_variance_check", "source"])
        for r in rows:
            ratio = "%.3f" % (r["ours"] / r["sklearn"]) if r["sklearn"] else ""
            w.writerow([r["m"], "%.2f" % r["ours"], "%.2f" % r["sklearn"] if r["sklearn"] else "", ratio,
                        r["status"], r["ours_rss_mb"], r["sklearn_rss_mb"], r["ev_check"], r["source"]])
    fig, ax = plt.subplots(figsize=(8, 5))
    ax.plot([r["m"] for r in rows], [r["ours"] for r in rows], "o-", label="spark-kpca NystromKernelPCA (local[2])")
    done = [r for r in rows if r["sklearn"]]
    ax.plot([r["m"] for r in done], [r["sklearn"] for r in done], "D--",
            label="scikit-learn Nystroem + PCA (2 BLAS threads)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks([r["m"] for r in rows])
    ax.set_xticklabels([str(r["m"]) for r in rows])
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_xlabel("m (landmarks)")
    ax.set_ylabel("fit seconds")
    ax.set_title("Fit time vs m, MNIST train (60,000 x 784), k = 50, gamma = 1e-7")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(a.out + "/fit-time-vs-m-both.png", dpi=110)
    print("wrote %s/combined.csv and %s/fit-time-vs-m-both.png" % (a.out, a.out))


if __name__ == "__main__":
    main()
