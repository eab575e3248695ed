// Databricks notebook source
// MAGIC %md
// MAGIC # Denoising MNIST with kernel PCA pre-images
// MAGIC
// MAGIC Kernel PCA denoising (Mika et al., 1999): project a noisy image's feature vector onto the first k kernel
// MAGIC principal components of clean data, then map the projection back to pixel space (the pre-image). Noise
// MAGIC lives mostly in the discarded directions, so the pre-image is closer to the clean image than the noisy input.
// MAGIC
// MAGIC `setReconstructionCol` makes `transform` add the pre-images, vectors of the input's size d. Two methods:
// MAGIC `fixed-point` (default, Gaussian kernel only) iterates x ← Σ γ_l k(z_l, x) z_l / Σ γ_l k(z_l, x) over the
// MAGIC landmarks z_l, started at the input; `ridge` applies a kernel ridge map from scores back to inputs, learned on
// MAGIC the landmarks (any kernel).
// MAGIC
// MAGIC Libraries and data as in `01-quick-start`.

// COMMAND ----------

import io.github.sparkkpca.examples.data.MnistIdx
import io.github.sparkkpca.ml.NystromKernelPCA
import org.apache.spark.ml.linalg.{Vector, Vectors}
import java.nio.file.{Files, Path, Paths}

// Where the IDX files are: $MNIST_DIR, else ~/.cache/spark-kpca/mnist. On a cluster, a path the driver reads.
val mnistDir: Path = MnistIdx.defaultDirectory()
val outputDir: Path = Files.createDirectories(Paths.get(sys.props.getOrElse("notebook.outputDir", sys.props("java.io.tmpdir"))))

// Clean training images to learn from (raw pixels 0–255).
val train = MnistIdx.read(mnistDir, true).toDataFrame(spark, null, 2000).cache()

// 100 test images with Gaussian noise of standard deviation 60 grey levels added to every pixel.
val mnistTest = MnistIdx.read(mnistDir, false)
val noiseSigma = 60.0
val clean: Array[Array[Double]] = Array.tabulate(100)(i => mnistTest.image(i))
val random = new scala.util.Random(17)
val noisyImages: Array[Array[Double]] = clean.map(_.map(_ + noiseSigma * random.nextGaussian()))
val noisy = spark.createDataFrame(noisyImages.indices.map(i => (i, Vectors.dense(noisyImages(i))))).toDF("id", "features")
println(s"${train.count()} clean training images, ${noisy.count()} noisy test images")

// COMMAND ----------

// MAGIC %md
// MAGIC ## Fit on clean digits, reconstruct the noisy ones

// COMMAND ----------

val model = new NystromKernelPCA()
  .setInputCol("features")
  .setK(60)
  .setNumLandmarks(400)
  .setKernel("rbf")
  .setSeed(3L)
  .fit(train)

val fixedPoint = model.setReconstructionCol("denoised").setPreimageMethod("fixed-point").transform(noisy)
  .select("id", "denoised").collect().sortBy(_.getInt(0)).map(_.getAs[Vector](1).toArray)
val ridge = model.setReconstructionCol("denoised").setPreimageMethod("ridge").transform(noisy)
  .select("id", "denoised").collect().sortBy(_.getInt(0)).map(_.getAs[Vector](1).toArray)

// COMMAND ----------

// MAGIC %md
// MAGIC ## How much closer to the clean images

// COMMAND ----------

def meanSquaredError(images: Array[Array[Double]]): Double =
  images.indices.map(i => images(i).indices.map(t => math.pow(images(i)(t) - clean(i)(t), 2)).sum).sum / images.length

val noisyError = meanSquaredError(noisyImages)
val fixedPointError = meanSquaredError(fixedPoint)
val ridgeError = meanSquaredError(ridge)
println(f"mean squared distance to the clean image: noisy $noisyError%.0f, fixed-point pre-image $fixedPointError%.0f (${fixedPointError / noisyError}%.2f), ridge pre-image $ridgeError%.0f (${ridgeError / noisyError}%.2f)")
require(fixedPointError < 0.5 * noisyError && ridgeError < 0.5 * noisyError, "the pre-images halve the error")

// COMMAND ----------

// MAGIC %md
// MAGIC ## Picture: clean, noisy, fixed-point, ridge (one row each)

// COMMAND ----------

import java.awt.image.BufferedImage
import javax.imageio.ImageIO

val columns = 10
val zoom = 3
val rowsOfImages = Seq(clean, noisyImages, fixedPoint, ridge)
val picture = new BufferedImage(columns * 28 * zoom, rowsOfImages.size * 28 * zoom, BufferedImage.TYPE_BYTE_GRAY)
for ((images, r) <- rowsOfImages.zipWithIndex; c <- 0 until columns; p <- 0 until 784; dy <- 0 until zoom; dx <- 0 until zoom) {
  val grey = math.max(0, math.min(255, math.round(images(c)(p)).toInt))
  picture.getRaster.setSample((c * 28 + p % 28) * zoom + dx, (r * 28 + p / 28) * zoom + dy, 0, grey)
}
val pictureFile = outputDir.resolve("denoising.png")
ImageIO.write(picture, "png", pictureFile.toFile)
displayHTML(s"""<img src="data:image/png;base64,${java.util.Base64.getEncoder.encodeToString(Files.readAllBytes(pictureFile))}"/>""")
println(s"wrote $pictureFile")
