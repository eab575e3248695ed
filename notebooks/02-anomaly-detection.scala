// Databricks notebook source
// MAGIC %md
// MAGIC # Novelty detection with the kernel PCA residual
// MAGIC
// MAGIC A model fitted on "normal" data scores every new row with its feature-space residual
// MAGIC e(x) = ‖(k(·,x) − μ) − projection‖², the squared distance of the row's feature vector to the principal
// MAGIC subspace (Hoffmann, *Kernel PCA for novelty detection*, 2007). Rows unlike the training data lie far from
// MAGIC it. Here the normal data are the MNIST digits 0 and 1; the other eight digits of the test set play the
// MAGIC outliers, and Spark's `BinaryClassificationEvaluator` measures how well the residual ranks them (area under
// MAGIC the ROC curve).
// MAGIC
// MAGIC Libraries and data as in `01-quick-start`.

// COMMAND ----------

import io.github.sparkkpca.examples.data.MnistIdx
import io.github.sparkkpca.ml.{NystromKernelPCA, NystromKernelPCAModel}
import org.apache.spark.ml.evaluation.BinaryClassificationEvaluator
import org.apache.spark.sql.functions.{avg, col, count, when}
import java.nio.file.Path

// Where the IDX files are: $MNIST_DIR, else ~/.cache/spark-kpca/mnist. On a cluster, a path the driver reads.
val mnistDir: Path = MnistIdx.defaultDirectory()
val normalDigits = Seq(0.0, 1.0)
val isNormal = col("label").isin(normalDigits: _*)

// 1,500 normal training images; 2,000 test images of every digit, "outlier" = 1 for the digits 2–9.
val train = MnistIdx.read(mnistDir, true).toDataFrame(spark, null, 12000).where(isNormal).limit(1500).cache()
val test = MnistIdx.read(mnistDir, false).toDataFrame(spark, null, 2000)
  .withColumn("outlier", when(isNormal, 0.0).otherwise(1.0)).cache()
println(s"${train.count()} training images of the digits ${normalDigits.map(_.toInt).mkString(" and ")}; " +
  s"${test.count()} test images, ${test.where(col("outlier") === 1.0).count()} of them outliers")

// COMMAND ----------

// MAGIC %md
// MAGIC ## Fit, with the residual column
// MAGIC
// MAGIC `setResidualCol` makes `transform` add the residual next to the scores; it can also be set on a fitted model.

// COMMAND ----------

def detector(kernel: String): NystromKernelPCAModel = new NystromKernelPCA()
  .setInputCol("features")
  .setK(30)
  .setNumLandmarks(300)
  .setKernel(kernel)
  .setResidualCol("novelty")
  .setSeed(1L)
  .fit(train)

val model = detector("rbf")
val scored = model.transform(test).cache()
display(scored.select("label", "outlier", "novelty").limit(10))

// COMMAND ----------

// MAGIC %md
// MAGIC ## How well the residual finds the outliers
// MAGIC
// MAGIC The evaluator takes the residual as its raw score (higher = more likely an outlier). The mean residual per
// MAGIC digit shows which digits look least like 0s and 1s. For comparison, the same detector with the linear kernel
// MAGIC is ordinary PCA's reconstruction error; on this task the two are about equally good (0s and 1s are already
// MAGIC far from the other digits in pixel space), so compare both on your own data before choosing.

// COMMAND ----------

val evaluator = new BinaryClassificationEvaluator()
  .setLabelCol("outlier")
  .setRawPredictionCol("novelty")
  .setMetricName("areaUnderROC")
val auc = evaluator.evaluate(scored)
val linearAuc = evaluator.evaluate(detector("linear").transform(test))
println(f"area under the ROC curve: kernel PCA (rbf) $auc%.4f, linear PCA $linearAuc%.4f")

display(scored.groupBy(col("label").cast("int").as("digit"))
  .agg(count("*").as("images"), avg("novelty").as("mean residual"))
  .orderBy("mean residual"))

// Measured 0.966 when this notebook was written (0.971 with the linear kernel).
require(auc > 0.93, s"AUC $auc")

// COMMAND ----------

// MAGIC %md
// MAGIC ## A threshold
// MAGIC
// MAGIC In production a threshold on the residual flags rows: for example the 99th percentile of the training
// MAGIC residuals, so that about 1% of normal rows are flagged.

// COMMAND ----------

val threshold = model.transform(train).stat.approxQuantile("novelty", Array(0.99), 0.001)(0)
val flaggedRate: Map[Double, Double] = scored
  .groupBy("outlier").agg(avg(when(col("novelty") > threshold, 1.0).otherwise(0.0)))
  .collect().map(r => r.getDouble(0) -> r.getDouble(1)).toMap
val outliersFlagged = flaggedRate(1.0)
println(f"threshold $threshold%.4f flags ${100 * flaggedRate(0.0)}%.1f%% of the normal and ${100 * outliersFlagged}%.1f%% of the outlying test images")
// Measured: 1.5% of the normal and 55% of the outlying test images.
require(outliersFlagged > 0.4, s"only $outliersFlagged of the outliers are above the threshold")
