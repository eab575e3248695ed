# Databricks notebook source
# MAGIC %md
# MAGIC # Relevant dimension and kernel PCA regression (Python)
# MAGIC
# MAGIC How many kernel principal components carry the label, which kernel width fits and how noisy the labels are:
# MAGIC `RelevantDimensionEstimator` (Braun, Buhmann & Müller, *On Relevant Dimensions in Kernel Feature Spaces*,
# MAGIC JMLR 2008) projects the labels on the kernel PCA components, s_i = v_iᵀY, models the first d coefficients
# MAGIC and the rest as two zero-mean Gaussian groups and picks the d (and the width) with the smallest
# MAGIC ℓ(d) = (d/N) log σ₁² + ((N − d)/N) log σ₂². σ₂² estimates the label noise variance. The model it returns,
# MAGIC `KernelPCARegressionModel`, is the kernel principal component regression on those d components, a Spark ML
# MAGIC `PredictionModel`. `KernelPCARegressor` fits the same regression with a fixed kernel and d (Hallgren's
# MAGIC Nyström kernel PCR). Details: docs/rde.md.
# MAGIC
# MAGIC The data: Braun et al.'s first example, y = sinc(x) + noise of standard deviation 0.1 on [−4, 4]. Cluster
# MAGIC libraries (the library jar and the `spark_kpca` wheel) as in `01-quick-start`; no data to fetch.

# COMMAND ----------

import numpy as np
from pyspark.ml.evaluation import RegressionEvaluator
from pyspark.ml.linalg import Vectors

from spark_kpca.ml import KernelPCARegressor, RelevantDimensionEstimator

dbutils.widgets.text("train_rows", "1000")
train_rows = int(dbutils.widgets.get("train_rows"))
noise = 0.1

rng = np.random.default_rng(8)


def sinc_rows(n, with_noise):
    x = rng.uniform(-4.0, 4.0, size=n)
    y = np.sinc(x) + (noise * rng.standard_normal(n) if with_noise else 0.0)
    return spark.createDataFrame([(Vectors.dense([float(a)]), float(b)) for a, b in zip(x, y)], ["features", "label"])


train = sinc_rows(train_rows, True).cache()
# Noise-free test labels: the error below is the distance to the true function.
test = sinc_rows(500, False).cache()
print(f"{train.count()} noisy training rows, {test.count()} noise-free test rows")

# COMMAND ----------

# MAGIC %md
# MAGIC ## The relevant dimension
# MAGIC
# MAGIC Every row is a landmark up to m = 400 (m = n is the exact method of the paper); the default `gammaGrid` is the
# MAGIC paper's 20 widths, γ from 100 down to 10⁻⁴.

# COMMAND ----------

rde = RelevantDimensionEstimator(labelCol="label", numLandmarks=min(train_rows, 400), maxDimension=60, seed=1)
model = rde.fit(train)
dimension = model.getDimension()
gamma = model.getGamma()
noise_variance = model.noiseVariance[0]
print(
    f"relevant dimension d = {dimension} at gamma = {gamma:.4g}; estimated noise variance {noise_variance:.4f} "
    f"(true {noise ** 2}); leave-one-out choice: d = {model.dimensionCv} at gamma = {model.gammaCv:.4g}"
)
display(
    spark.createDataFrame(
        [(w.gamma, w.dimension, float(min(w.logLikelihood))) for w in model.widths],
        ["gamma", "dimension", "min_log_likelihood"],
    )
)
assert 0.005 < noise_variance < 0.02, noise_variance

# COMMAND ----------

# MAGIC %md
# MAGIC ## Kernel PCA regression with a fixed kernel and dimension
# MAGIC
# MAGIC `KernelPCARegressor` with the width and d found above; both models predict like any Spark ML regressor.

# COMMAND ----------

regressor = KernelPCARegressor(
    labelCol="label", numLandmarks=min(train_rows, 400), gamma=gamma, dimension=dimension, seed=1
)
fixed = regressor.fit(train)
evaluator = RegressionEvaluator(labelCol="label", predictionCol="prediction", metricName="rmse")
test_rmse = evaluator.evaluate(fixed.transform(test))
rde_rmse = evaluator.evaluate(model.transform(test))
print(f"distance to sinc on the test rows (RMSE): KernelPCARegressor {test_rmse:.4f}, the estimator's model {rde_rmse:.4f}")
assert abs(test_rmse - rde_rmse) < 1e-9, "the same kernel and d give the same regression"
assert test_rmse < 0.15, test_rmse

# COMMAND ----------

# MAGIC %md
# MAGIC ## Charts
# MAGIC
# MAGIC ℓ(d) at the chosen width with its minimum, the leave-one-out error for comparison, and the fit against the data.

# COMMAND ----------

import matplotlib.pyplot as plt

chosen = model.widths[model.chosenWidth]
d_axis = np.arange(1, len(chosen.logLikelihood) + 1)
fig, ax = plt.subplots(figsize=(7, 4))
ax.plot(d_axis, chosen.logLikelihood, "o-", ms=3, label="ℓ(d)")
ax.axvline(dimension, color="tab:red", lw=1, label=f"d = {dimension}")
ax.set_xlabel("d, leading components")
ax.set_ylabel("ℓ(d)")
ax.set_title(f"gamma = {gamma:.3g}")
loo = ax.twinx()
loo.plot(np.arange(1, len(chosen.leaveOneOut) + 1), chosen.leaveOneOut, "--", color="tab:green")
loo.set_ylabel("leave-one-out error", color="tab:green")
ax.legend()
display(fig)

# COMMAND ----------

grid = np.linspace(-4.0, 4.0, 200)
curve = [r.prediction for r in fixed.transform(
    spark.createDataFrame([(i, Vectors.dense([float(x)])) for i, x in enumerate(grid)], ["i", "features"])
).orderBy("i").collect()]
sample = train.limit(400).collect()
fig, ax = plt.subplots(figsize=(7, 4))
ax.scatter([r.features[0] for r in sample], [r.label for r in sample], s=5, color="grey", label="training rows")
ax.plot(grid, np.sinc(grid), "k--", label="sinc(x)")
ax.plot(grid, curve, color="tab:red", label=f"kernel PCA regression, d = {dimension}")
ax.set_xlabel("x")
ax.set_ylabel("y")
ax.legend()
display(fig)
