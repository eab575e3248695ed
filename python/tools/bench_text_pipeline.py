"""Times a text Pipeline's fit with NystromKernelPCA as its last stage, on an uncached input (the fit persists
the IDF output for its passes) and on features cached beforehand, so that the two differ only by the
featurizers' one run.

    python tools/bench_text_pipeline.py [--rows 3000] [--repeats 3]

Needs PySpark and the library jar (spark_kpca.jar_path(), or SPARK_KPCA_JAR). The documents are generated:
8 to 60 words each, Zipf-distributed (exponent 1.3) over a 20,000-word vocabulary, seeded.
"""

import argparse
import time

import numpy as np
from pyspark.ml import Pipeline
from pyspark.ml.feature import IDF, HashingTF, RegexTokenizer, StopWordsRemover
from pyspark.sql import SparkSession

import spark_kpca
from spark_kpca.ml import NystromKernelPCA


def documents(spark, rows, seed=7, labelled=False):
    """Columns id and text; with ``labelled``, a label too (0 and 1 alternately), the odd rows' words drawn from a
    vocabulary shifted by 7, so that a classifier has something to learn."""
    rng = np.random.default_rng(seed)
    text = []
    for i in range(rows):
        ranks = rng.zipf(1.3, size=int(rng.integers(8, 61)))
        shift = 7 * (i % 2) if labelled else 0
        words = " ".join(f"w{(int(r) + shift) % 20000}" for r in ranks)
        text.append((i, float(i % 2), words) if labelled else (i, words))
    return spark.createDataFrame(text, ["id", "label", "text"] if labelled else ["id", "text"]).repartition(2)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    spark = (SparkSession.builder.master("local[2]").config("spark.jars", spark_kpca.jar_path())
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("WARN")
    raw = documents(spark, args.rows).cache()
    raw.count()
    featurizers = [
        RegexTokenizer(inputCol="text", outputCol="words", pattern="\\W+"),
        StopWordsRemover(inputCol="words", outputCol="filtered"),
        HashingTF(inputCol="filtered", outputCol="tf", numFeatures=1 << 18),
        IDF(inputCol="tf", outputCol="features"),
    ]
    kpca = NystromKernelPCA(kernel="cosine", k=50, numLandmarks=1000, seed=1)
    for repeat in range(args.repeats):
        start = time.perf_counter()
        Pipeline(stages=featurizers + [kpca]).fit(raw)
        pipeline = time.perf_counter() - start
        features = Pipeline(stages=featurizers).fit(raw).transform(raw).select("features").cache()
        features.count()
        start = time.perf_counter()
        kpca.fit(features)
        cached = time.perf_counter() - start
        features.unpersist(True)
        print(f"run {repeat + 1}: Pipeline.fit (featurizers + kPCA, uncached input) {pipeline:.2f} s; "
              f"kPCA fit on cached features {cached:.2f} s")
    spark.stop()


if __name__ == "__main__":
    main()
