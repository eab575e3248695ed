// Databricks notebook source
// MAGIC %md
// MAGIC # Kernel PCA on MNIST: quick start
// MAGIC
// MAGIC Fits `NystromKernelPCA` (Gaussian kernel, m landmarks) on MNIST digits, prints how much of the feature-space
// MAGIC variance the components explain, and draws a scree plot and the 2-D embedding of held-out digits.
// MAGIC
// MAGIC **Cluster library.** The spark-kpca examples jar built for the runtime's Scala version: it holds the library,
// MAGIC the charts (`ModelPlots`) and their shaded plotting library. On Databricks Runtime 15.x/16.x LTS (Spark 3.5,
// MAGIC Scala 2.12) that is `spark-kpca-examples_2.12-<version>.jar`, built with `mvn -P spark-3.5 clean package
// MAGIC -DskipTests`; on Spark 4 runtimes (Scala 2.13) `spark-kpca-examples_2.13-<version>.jar` from the default build.
// MAGIC
// MAGIC **Data.** The four MNIST IDX files (`bin/fetch-mnist DIR` downloads them). `MnistIdx` reads them on the
// MAGIC driver, so on a cluster put them on a path the driver can read (a Unity Catalog volume, for example) and
// MAGIC set `mnistDir` below.

// COMMAND ----------

import io.github.sparkkpca.examples.data.MnistIdx
import io.github.sparkkpca.ml.{NystromKernelPCA, NystromKernelPCAModel}
import org.apache.spark.ml.linalg.Vector
import java.nio.file.{Files, Path, Paths}

// Where the IDX files are: $MNIST_DIR, else ~/.cache/spark-kpca/mnist. On a cluster, e.g. Paths.get("/Volumes/<catalog>/<schema>/<volume>/mnist").
val mnistDir: Path = MnistIdx.defaultDirectory()
// Where the charts go (the driver's temporary directory unless the notebook.outputDir property says otherwise).
val outputDir: Path = Files.createDirectories(Paths.get(sys.props.getOrElse("notebook.outputDir", sys.props("java.io.tmpdir"))))

// Raw pixels (0–255) in a vector column "features", the digit in "label": 2,000 training and 1,000 test images.
val train = MnistIdx.read(mnistDir, true).toDataFrame(spark, null, 2000).cache()
val test = MnistIdx.read(mnistDir, false).toDataFrame(spark, null, 1000).cache()
println(s"${train.count()} training and ${test.count()} test images")

// COMMAND ----------

// MAGIC %md
// MAGIC ## Fit
// MAGIC
// MAGIC 20 components from 300 landmarks. With `gamma` unset the Gaussian kernel's scale comes from the median
// MAGIC heuristic, γ = 1 / (2 · median ‖x − y‖²) over the landmarks, and is fixed on the model.

// COMMAND ----------

val kpca = new NystromKernelPCA()
  .setInputCol("features")
  .setOutputCol("kpca")
  .setK(20)
  .setNumLandmarks(300)
  .setKernel("rbf")
  .setSeed(42L)
val model: NystromKernelPCAModel = kpca.fit(train)
println(model)
println(f"gamma (median heuristic) = ${model.getGamma}%.3g")

// COMMAND ----------

// MAGIC %md
// MAGIC ## Explained variance
// MAGIC
// MAGIC `explainedVariance` holds the variances Σ₁ ≥ … ≥ Σₖ of the scores; `explainedVarianceRatio` divides them by
// MAGIC the total feature-space variance (an upper bound when centred, so the ratios are conservative), and
// MAGIC `reconstructionError` is what the first ℓ components leave unexplained.

// COMMAND ----------

val variance = model.explainedVariance.toArray
val ratio = model.explainedVarianceRatio.toArray
val cumulative = ratio.scanLeft(0.0)(_ + _).tail
val error = model.reconstructionError.toArray
println(f"total variance ${model.totalVariance}%.4f (${model.totalVarianceMethod})")
for (i <- ratio.indices) {
  println(f"component ${i + 1}%2d: variance ${variance(i)}%.5f, ratio ${ratio(i)}%.4f, cumulative ${cumulative(i)}%.4f, reconstruction error ${error(i)}%.4f")
}
require(ratio.sliding(2).forall(p => p(0) >= p(1)), "variances are sorted")
require(cumulative.last > 0.2 && cumulative.last < 1.0, s"20 components explain ${cumulative.last}")

// COMMAND ----------

// MAGIC %md
// MAGIC ## Scores
// MAGIC
// MAGIC `transform` adds the k scores as a vector column; `vector_to_array` turns it into columns for plotting with
// MAGIC the notebook's own charts (`display`, then choose a scatter plot of `pc1` against `pc2` grouped by `label`).

// COMMAND ----------

import org.apache.spark.ml.functions.vector_to_array
import org.apache.spark.sql.functions.col

val scored = model.transform(test)
val embedding = scored
  .select(col("label"), vector_to_array(col("kpca")).as("pc"))
  .select(col("label").cast("int").as("label"), col("pc")(0).as("pc1"), col("pc")(1).as("pc2"))
display(embedding.limit(10))

// COMMAND ----------

// MAGIC %md
// MAGIC ## Charts
// MAGIC
// MAGIC `ModelPlots` draws the charts of `spark-kpca fit --plots` as PNG files: the scree plot (the spectrum the fit
// MAGIC found, `eigenvalues`, as fractions of the total variance, with the running sum), the reconstruction-error
// MAGIC curves (R(ℓ) from the fit, and the same error measured on held-out digits) and the held-out digits on the
// MAGIC first two components, coloured by label.

// COMMAND ----------

import io.github.sparkkpca.examples.plots.ModelPlots

// Shows a PNG inline (displayHTML with a data URI works without DBFS).
def showPng(file: Path): Path = {
  val base64 = java.util.Base64.getEncoder.encodeToString(Files.readAllBytes(file))
  displayHTML(s"""<img src="data:image/png;base64,$base64"/>""")
  println(s"wrote $file")
  file
}

showPng(ModelPlots.scree(outputDir.resolve("quick-start-scree.png"), model, "MNIST, rbf, m = 300"))

// COMMAND ----------

// 1,000 held-out digits, scored once for both charts.
val heldOut = ModelPlots.sample(model, test, "label", test.count(), 1000, 1L)
showPng(ModelPlots.reconstructionError(outputDir.resolve("quick-start-error.png"), model, heldOut, "MNIST, rbf, m = 300"))
showPng(ModelPlots.embedding(outputDir.resolve("quick-start-embedding.png"), heldOut, "Held-out MNIST digits"))
require(heldOut.size == 1000 && heldOut.labels.distinct.length == 10, "1,000 held-out digits of 10 labels")

// COMMAND ----------

// MAGIC %md
// MAGIC ## Save and load
// MAGIC
// MAGIC The model saves like any Spark ML model and scores identically after loading.

// COMMAND ----------

val modelPath = outputDir.resolve("quick-start-model").toString
model.write.overwrite().save(modelPath)
val reloaded = NystromKernelPCAModel.load(modelPath)
val before = scored.select("kpca").collect().map(_.getAs[Vector](0))
val after = reloaded.transform(test).select("kpca").collect().map(_.getAs[Vector](0))
require(before.sameElements(after), "the reloaded model scores identically")
println(s"saved to $modelPath and reloaded: ${after.length} identical score vectors")
