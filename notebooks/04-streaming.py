# Databricks notebook source
# MAGIC %md
# MAGIC # Streaming kernel PCA from a directory of files (Python)
# MAGIC
# MAGIC `StreamingKernelPCA` is the `foreachBatch` sink of a Structured Streaming query: each micro-batch is folded
# MAGIC into the model and the model is written as a new version `version-<batchId>` of a model directory, by rename,
# MAGIC so a reader always finds a whole model. With `algorithm = "exact"` (the default) the model after every
# MAGIC micro-batch equals, to rounding, a batch fit on every row seen so far: random Fourier features
# MAGIC (`RandomFeatureKernelPCA` with a fixed D and γ), or Nyström with the landmarks of the first micro-batch. A
# MAGIC restart with the same checkpoint folds every row in once. (`algorithm = "oja"` runs RF-Oja instead; see
# MAGIC docs/streaming.md.)
# MAGIC
# MAGIC Here files land in a directory; the query reads them with the `availableNow` trigger (everything there now,
# MAGIC one file per micro-batch, then stop), as a scheduled job would. Cluster libraries (the library jar and the
# MAGIC `spark_kpca` wheel) as in `01-quick-start`; no data to fetch.

# COMMAND ----------

import json
import os
import tempfile

import numpy as np
from pyspark.ml.feature import VectorAssembler

from spark_kpca.ml import RandomFeatureKernelPCA, RandomFeatureKernelPCAModel, StreamingKernelPCA

# A directory that the driver's Python and Spark both read as the same place: on Databricks a Unity Catalog
# volume, e.g. /Volumes/<catalog>/<schema>/<volume>/kpca-stream. Empty = a new temporary directory, for local
# Spark only (on Databricks a path without a scheme is on DBFS for Spark but local for Python).
dbutils.widgets.text("work_dir", "")
dbutils.widgets.text("files", "5")
dbutils.widgets.text("rows_per_file", "2000")

work_dir = dbutils.widgets.get("work_dir") or tempfile.mkdtemp(prefix="spark-kpca-stream-")
files = int(dbutils.widgets.get("files"))
rows_per_file = int(dbutils.widgets.get("rows_per_file"))
input_dir = os.path.join(work_dir, "incoming")
model_dir = os.path.join(work_dir, "model")
checkpoint = os.path.join(work_dir, "checkpoint")
columns = [f"x{j}" for j in range(1, 6)]

# Three Gaussian blobs in 5 dimensions; each file holds `rows_per_file` rows as JSON lines. (Written by the
# driver directly: a Unity Catalog volume is a local path there. A file must appear whole, so each is written
# under a name starting with "." , which the file source ignores, and renamed.)
rng = np.random.default_rng(5)
centres = rng.normal(0.0, 2.0, size=(3, len(columns)))
os.makedirs(input_dir, exist_ok=True)
for f in range(files):
    blob = rng.integers(0, 3, size=rows_per_file)
    points = centres[blob] + rng.normal(0.0, 0.5, size=(rows_per_file, len(columns)))
    name = os.path.join(input_dir, f"part-{f:05d}.json")
    with open(os.path.join(input_dir, f".part-{f:05d}.json.writing"), "w") as out:
        for i in range(rows_per_file):
            row = {"id": f * rows_per_file + i, "blob": int(blob[i]), **dict(zip(columns, map(float, points[i])))}
            out.write(json.dumps(row) + "\n")
    os.replace(out.name, name)
rows = files * rows_per_file
print(f"{files} files of {rows_per_file} rows in {input_dir}")

# COMMAND ----------

# MAGIC %md
# MAGIC ## The query
# MAGIC
# MAGIC A file stream with a schema, one file per micro-batch (`maxFilesPerTrigger`), the features assembled into a
# MAGIC vector column, and the sink started with `availableNow`. `keepVersions` keeps every version here so that the
# MAGIC chart below can show how the spectrum settles (the default keeps the newest 5).

# COMMAND ----------

schema = "id LONG, blob INT, " + ", ".join(f"{c} DOUBLE" for c in columns)
stream = VectorAssembler(inputCols=columns, outputCol="features").transform(
    spark.readStream.schema(schema).option("maxFilesPerTrigger", 1).json(input_dir)
)
estimator = RandomFeatureKernelPCA(k=4, numRandomFeatures=300, kernel="rbf", gamma=0.1, seed=1)
sink = StreamingKernelPCA(estimator=estimator, modelDir=model_dir, keepVersions=max(2, files))
query = sink.start(stream, checkpoint, availableNow=True)
query.awaitTermination()

versions = sorted((d for d in os.listdir(model_dir) if d.startswith("version-")), key=lambda d: int(d.split("-")[1]))
batches = len(versions)
streamed = StreamingKernelPCA.loadLatest(model_dir)
print(f"{batches} micro-batches, latest model {StreamingKernelPCA.latestVersion(model_dir)}: {streamed.numRows} rows")
assert streamed.numRows == rows, streamed.numRows

# COMMAND ----------

# MAGIC %md
# MAGIC ## The streamed model equals a batch fit on every row
# MAGIC
# MAGIC The same estimator (seed, D, γ) fitted on all the files at once gives the same spectrum, to rounding.

# COMMAND ----------

everything = VectorAssembler(inputCols=columns, outputCol="features").transform(spark.read.schema(schema).json(input_dir))
batch_model = estimator.fit(everything)
streamed_eigenvalues = streamed.eigenvalues.toArray()
batch_eigenvalues = batch_model.eigenvalues.toArray()
eigenvalue_gap = float(np.max(np.abs(streamed_eigenvalues - batch_eigenvalues) / batch_eigenvalues[0]))
display(
    spark.createDataFrame(
        [(i + 1, float(s), float(b)) for i, (s, b) in enumerate(zip(streamed_eigenvalues, batch_eigenvalues))][:10],
        ["component", "streamed", "batch"],
    )
)
print(f"largest eigenvalue difference, relative to the first: {eigenvalue_gap:.2e}")
assert eigenvalue_gap < 1e-8, eigenvalue_gap

# COMMAND ----------

# MAGIC %md
# MAGIC ## Charts
# MAGIC
# MAGIC The k leading eigenvalues of every committed version, against the rows seen so far (dashed: the batch fit),
# MAGIC and the rows on the first two components of the streamed model, coloured by blob.

# COMMAND ----------

import matplotlib.pyplot as plt

history = [RandomFeatureKernelPCAModel.load(os.path.join(model_dir, v)) for v in versions]
seen = [m.numRows for m in history]
leading = np.array([m.explainedVariance.toArray() for m in history])
fig, ax = plt.subplots(figsize=(7, 4))
for c in range(leading.shape[1]):
    line = ax.plot(seen, leading[:, c], "o-", label=f"component {c + 1}")[0]
    ax.axhline(batch_model.explainedVariance[c], color=line.get_color(), ls="--", lw=0.8)
ax.set_xlabel("rows seen")
ax.set_ylabel("eigenvalue")
ax.set_title("Streaming kernel PCA, one micro-batch per file")
ax.legend(loc="center right")
display(fig)

# COMMAND ----------

scored = streamed.transform(everything).select("blob", "kpca").collect()
points = np.array([r.kpca.toArray()[:2] for r in scored])
fig, ax = plt.subplots(figsize=(5, 5))
ax.scatter(points[:, 0], points[:, 1], c=[r.blob for r in scored], cmap="viridis", s=4)
ax.set_xlabel("pc1")
ax.set_ylabel("pc2")
ax.set_title(f"{rows} rows, streamed model")
display(fig)
