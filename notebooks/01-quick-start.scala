// Databricks notebook source
// MAGIC %md
// MAGIC # Kernel PCA on MNIST: quick start
// MAGIC
// MAGIC Fits `NystromKernelPCA` (Gaussian kernel, m landmarks) on MNIST digits, prints how much of the feature-space
// MAGIC variance the components explain, and draws a scree plot and the 2-D embedding of held-out digits.
// MAGIC
// MAGIC **Cluster libraries.** The spark-kpca jar that matches the runtime: on Databricks Runtime 15.x/16.x LTS
// MAGIC (Spark 3.5, Scala 2.12) build it with `mvn -P spark-3.5 -pl spark-kpca-core package`; on Spark 4
// MAGIC runtimes use the default build. The PNG charts need the Maven library `org.knowm.xchart:xchart:3.8.8`;
// MAGIC without it skip the chart cells and use `display` with the notebook's built-in plots instead.
// MAGIC
// MAGIC **Data.** The four MNIST IDX files (`bin/fetch-mnist DIR` downloads them). `MnistIdx` reads them on the
// MAGIC driver, so on a cluster put them on a path the driver can read (a Unity Catalog volume, for example) and
// MAGIC set `mnistDir` below.

// COMMAND ----------

import io.github.sparkkpca.data.MnistIdx
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
// MAGIC ## Charts (PNG, with XChart)
// MAGIC
// MAGIC The scree plot shows the spectrum the fit found (`eigenvalues`, all r of them; here the first 50) as
// MAGIC fractions of the total variance, with their running sum.

// COMMAND ----------

import org.knowm.xchart.{BitmapEncoder, XYChart, XYChartBuilder, XYSeries}
import org.knowm.xchart.BitmapEncoder.BitmapFormat
import org.knowm.xchart.style.markers.SeriesMarkers

// Saves a chart as PNG and shows it inline (displayHTML with a data URI works without DBFS).
def showPng(chart: XYChart, name: String): Path = {
  val file = outputDir.resolve(name)
  BitmapEncoder.saveBitmap(chart, file.toString, BitmapFormat.PNG)
  val base64 = java.util.Base64.getEncoder.encodeToString(Files.readAllBytes(file))
  displayHTML(s"""<img src="data:image/png;base64,$base64"/>""")
  println(s"wrote $file")
  file
}

val spectrum = model.eigenvalues.toArray.take(50).map(_ / model.totalVariance)
val component = spectrum.indices.map(_ + 1.0).toArray
val scree = new XYChartBuilder().width(800).height(450).title("Kernel PCA spectrum (MNIST, rbf, m = 300)")
  .xAxisTitle("component").yAxisTitle("fraction of the total variance").build()
scree.addSeries("eigenvalue / total", component, spectrum)
scree.addSeries("cumulative", component, spectrum.scanLeft(0.0)(_ + _).tail).setMarker(SeriesMarkers.NONE)
showPng(scree, "quick-start-scree.png")

// COMMAND ----------

val points = embedding.collect()
val chart = new XYChartBuilder().width(800).height(600).title("Held-out digits on the first two kernel principal components")
  .xAxisTitle("pc1").yAxisTitle("pc2").build()
chart.getStyler.setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter)
chart.getStyler.setMarkerSize(5)
for (digit <- 0 to 9) {
  val mine = points.filter(_.getInt(0) == digit)
  chart.addSeries(s"$digit", mine.map(_.getDouble(1)), mine.map(_.getDouble(2)))
}
showPng(chart, "quick-start-embedding.png")

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
