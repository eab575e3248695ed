"""Times serving a NystromKernelPCAModel (rbf, d = 784, m = 1000, k = 50) through MLflow in fresh processes: our
``python_function`` flavour (spark_kpca.mlflow, numpy and scipy) against the Spark flavour (mlflow.spark) of the
same model, and the pyfunc's predict against numpy's own rate for the rbf kernel block and K @ P.

    python tools/bench_mlflow_pyfunc.py --out ../spark-kpca-examples/bench/results/mlflow-pyfunc/bench.csv

Needs PySpark, MLflow and the library jar (spark_kpca.jar_path(), or SPARK_KPCA_JAR). The rows are generated
(seeded): 10,000 rows of 784 values in [0, 1], a 20-dimensional latent structure plus noise, as MNIST-sized
inputs. The model is fitted on 3,000 of them. Each measurement runs in a new Python process, so that the
loads are cold; predict and the numpy baseline are the best of --repeats runs, on the same 10,000 rows.
"""

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time

import numpy as np

PYFUNC = """
import json, sys, time
sys.modules["pyspark"] = None  # the pyfunc needs no PySpark: make sure it never imports it
t0 = time.perf_counter()
import numpy as np, mlflow.pyfunc
t1 = time.perf_counter()
args = json.loads(sys.argv[1])
model = mlflow.pyfunc.load_model(args["pyfunc"])
t2 = time.perf_counter()
quiet = mlflow.pyfunc.load_model(args["pyfunc"], suppress_warnings=True)
t3 = time.perf_counter()
x = np.load(args["x"])
best = float("inf")
for _ in range(args["repeats"]):
    s = time.perf_counter(); y = model.predict(x); best = min(best, time.perf_counter() - s)
data = np.load(args["pyfunc"] + "/data/arrays.npz")
z, p, o = data["landmarks"], data["projector"], data["offset"]
gamma = json.load(open(args["pyfunc"] + "/data/spark_kpca.json"))["gamma"]
numpy_best = float("inf")
for _ in range(args["repeats"]):
    s = time.perf_counter()
    k = np.exp(-gamma * np.maximum((x * x).sum(1)[:, None] + (z * z).sum(1)[None, :] - 2 * x @ z.T, 0))
    ref = k @ p - o
    numpy_best = min(numpy_best, time.perf_counter() - s)
print(json.dumps({"import": t1 - t0, "load": t2 - t1, "load_quiet": t3 - t2, "predict": best,
                  "numpy": numpy_best, "max_diff_numpy": float(np.abs(y - ref).max()),
                  "pyspark_imported": any(m.startswith("pyspark") and sys.modules[m] for m in sys.modules)}))
"""

SPARK = """
import json, sys, time
t0 = time.perf_counter()
import mlflow.spark
from pyspark.sql import SparkSession
import spark_kpca.ml  # what an installed wheel's start-up hook does: PySpark finds our classes
args = json.loads(sys.argv[1])
spark = (SparkSession.builder.master("local[2]").config("spark.jars", args["jar"])
         .config("spark.ui.enabled", "false").config("spark.driver.memory", "2g").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
t1 = time.perf_counter()
model = mlflow.spark.load_model(args["spark"])
t2 = time.perf_counter()
rows = spark.read.parquet(args["rows"])
best = float("inf")
for _ in range(args["repeats"]):
    s = time.perf_counter()
    y = [r.kpca for r in model.transform(rows).select("kpca").collect()]
    best = min(best, time.perf_counter() - s)
print(json.dumps({"import_session": t1 - t0, "load": t2 - t1, "transform": best}))
"""


def fresh(script, args):
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script), json.dumps(args)],
                          capture_output=True, text=True, env=dict(os.environ, OPENBLAS_CORETYPE="Haswell"))
    if done.returncode != 0:
        raise SystemExit(done.stderr[-4000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--fit-rows", type=int, default=3_000)
    parser.add_argument("--landmarks", type=int, default=1000)
    parser.add_argument("--k", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=None, help="CSV to write (printed either way)")
    args = parser.parse_args()

    import mlflow.spark
    from pyspark.ml.linalg import Vectors
    from pyspark.sql import SparkSession

    import spark_kpca
    import spark_kpca.mlflow
    from spark_kpca.ml import NystromKernelPCA

    jar = spark_kpca.jar_path()
    work = tempfile.mkdtemp(prefix="bench-mlflow-pyfunc-")
    rng = np.random.default_rng(1)
    latent = rng.normal(size=(args.rows, 20)) @ rng.normal(size=(20, 784)) / 20
    x = np.clip(0.5 + latent + 0.05 * rng.normal(size=(args.rows, 784)), 0, 1)
    np.save(f"{work}/x.npy", x)
    spark = (SparkSession.builder.master("local[2]").config("spark.jars", jar).config("spark.ui.enabled", "false")
             .config("spark.driver.memory", "2g").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    df = spark.createDataFrame([(Vectors.dense(r),) for r in x], ["features"]).repartition(2)
    df.write.parquet(f"{work}/rows.parquet")
    rows = spark.read.parquet(f"{work}/rows.parquet")
    start = time.perf_counter()
    model = NystromKernelPCA(k=args.k, numLandmarks=args.landmarks, seed=3).fit(rows.limit(args.fit_rows))
    fit = time.perf_counter() - start
    start = time.perf_counter()
    spark_kpca.mlflow.save_model(model, f"{work}/pyfunc")
    save = time.perf_counter() - start
    mlflow.spark.save_model(model, f"{work}/spark")
    spark.stop()

    common = {"x": f"{work}/x.npy", "pyfunc": f"{work}/pyfunc", "spark": f"{work}/spark",
              "rows": f"{work}/rows.parquet", "jar": jar, "repeats": args.repeats}
    py = fresh(PYFUNC, common)
    sk = fresh(SPARK, common)
    n = args.rows
    results = [
        ("fit (3000 rows, for reference)", fit, ""),
        ("spark_kpca.mlflow.save_model", save, ""),
        ("pyfunc: import mlflow.pyfunc (fresh process)", py["import"], ""),
        ("pyfunc: mlflow.pyfunc.load_model", py["load"], ""),
        ("pyfunc: mlflow.pyfunc.load_model(suppress_warnings=True)", py["load_quiet"], ""),
        (f"pyfunc: predict {n} rows", py["predict"], n / py["predict"]),
        (f"numpy: rbf block and K @ P, {n} rows", py["numpy"], n / py["numpy"]),
        ("pyfunc predict rate / numpy rate", py["numpy"] / py["predict"], ""),
        ("spark: import mlflow.spark + SparkSession (fresh process)", sk["import_session"], ""),
        ("spark: mlflow.spark.load_model", sk["load"], ""),
        (f"spark: transform + collect {n} rows", sk["transform"], n / sk["transform"]),
    ]
    print(f"max |pyfunc - numpy| = {py['max_diff_numpy']:.3g}; pyspark imported by the pyfunc process: "
          f"{py['pyspark_imported']}")
    for name, value, rate in results:
        print(f"{name:62s} {value:10.3f}" + (f"   {rate:10.0f} rows/s" if rate else ""))
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["measurement", "value", "rows_per_s"])
            for name, value, rate in results:
                w.writerow([name, f"{value:.4f}", f"{rate:.0f}" if rate else ""])


if __name__ == "__main__":
    main()
