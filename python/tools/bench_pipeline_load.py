"""Times a fresh-process ``PipelineModel.load`` of a text pipeline with NystromKernelPCA against the same
pipeline without it: RegexTokenizer → HashingTF 2^18 → IDF → NystromKernelPCA (cosine, m = 1000, k = 50) →
LogisticRegression, and RegexTokenizer → HashingTF → IDF → LogisticRegression fitted on the same rows.

    python tools/bench_pipeline_load.py [--rows 3000] [--pairs 5] [--out results.csv]

Each load runs in a new Python process (PySpark's JVM, a local[2] session, the load, then one transform of 100
rows, so that a load that defers work to the first use is charged for it), in interleaved pairs (A B A B ...).
Printed: every pair, the medians of the load alone and of load + first transform, and their ratios.
Needs PySpark and the library jar (spark_kpca.jar_path(), or SPARK_KPCA_JAR). The documents are those of
bench_text_pipeline.py, labelled (generated, seeded, two classes with shifted vocabularies).
"""

import argparse
import csv
import statistics
import tempfile

from bench_mlflow_pyfunc import fresh
from bench_text_pipeline import documents

LOAD = """
import json, sys, time
t0 = time.perf_counter()
from pyspark.sql import SparkSession
from pyspark.ml import PipelineModel
import spark_kpca.ml  # what an installed wheel's start-up hook does: PySpark finds our classes
args = json.loads(sys.argv[1])
spark = (SparkSession.builder.master("local[2]").config("spark.jars", args["jar"])
         .config("spark.ui.enabled", "false").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
rows = spark.read.parquet(args["rows"]).limit(100).cache()
rows.count()
t1 = time.perf_counter()
model = PipelineModel.load(args["model"])
t2 = time.perf_counter()
model.transform(rows).select("prediction").collect()
t3 = time.perf_counter()
print(json.dumps({"session": t1 - t0, "load": t2 - t1, "first_transform": t3 - t2}))
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=3000)
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--out", default=None, help="CSV of every run (printed either way)")
    args = parser.parse_args()

    from pyspark.ml import Pipeline
    from pyspark.ml.classification import LogisticRegression
    from pyspark.ml.feature import IDF, HashingTF, RegexTokenizer
    from pyspark.sql import SparkSession

    import spark_kpca
    from spark_kpca.ml import NystromKernelPCA

    jar = spark_kpca.jar_path()
    work = tempfile.mkdtemp(prefix="bench-pipeline-load-")
    spark = (SparkSession.builder.master("local[2]").config("spark.jars", jar)
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    documents(spark, args.rows, labelled=True).write.parquet(f"{work}/rows.parquet")
    raw = spark.read.parquet(f"{work}/rows.parquet").cache()
    featurizers = [
        RegexTokenizer(inputCol="text", outputCol="words", pattern="\\W+"),
        HashingTF(inputCol="words", outputCol="tf", numFeatures=1 << 18),
        IDF(inputCol="tf", outputCol="features"),
    ]
    kpca = NystromKernelPCA(kernel="cosine", k=50, numLandmarks=1000, seed=1, inputCol="features",
                            outputCol="kpca")
    Pipeline(stages=featurizers + [kpca, LogisticRegression(featuresCol="kpca")]).fit(raw).save(f"{work}/with")
    Pipeline(stages=featurizers + [LogisticRegression(featuresCol="features")]).fit(raw).save(f"{work}/without")
    spark.stop()

    common = {"rows": f"{work}/rows.parquet", "jar": jar}
    runs = []
    for pair in range(args.pairs):
        a = fresh(LOAD, dict(common, model=f"{work}/with"))
        b = fresh(LOAD, dict(common, model=f"{work}/without"))
        runs.append((a, b))
        print(f"pair {pair + 1}: with kPCA load {a['load']:.2f} s (+ first transform {a['first_transform']:.2f} s),"
              f" without {b['load']:.2f} s (+ {b['first_transform']:.2f} s)", flush=True)
    med = {key: (statistics.median(a[key] for a, _ in runs), statistics.median(b[key] for _, b in runs))
           for key in ("load", "first_transform")}
    both = (statistics.median(a["load"] + a["first_transform"] for a, _ in runs),
            statistics.median(b["load"] + b["first_transform"] for _, b in runs))
    print(f"medians: load {med['load'][0]:.2f} s against {med['load'][1]:.2f} s = {med['load'][0] / med['load'][1]:.2f}x;"
          f" load + first transform {both[0]:.2f} s against {both[1]:.2f} s = {both[0] / both[1]:.2f}x"
          f" ({args.pairs} pairs, load average {' '.join(open('/proc/loadavg').read().split()[:3])})")
    if args.out:
        with open(args.out, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["pair", "pipeline", "session_s", "load_s", "first_transform_s"])
            for i, (a, b) in enumerate(runs):
                w.writerow([i + 1, "with NystromKernelPCA", f"{a['session']:.3f}", f"{a['load']:.3f}",
                            f"{a['first_transform']:.3f}"])
                w.writerow([i + 1, "without", f"{b['session']:.3f}", f"{b['load']:.3f}",
                            f"{b['first_transform']:.3f}"])


if __name__ == "__main__":
    main()
