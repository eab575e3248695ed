package io.github.sparkkpca.examples.data;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;

/**
 * An image data set of an experiment: a selection of rows of the MNIST or Fashion-MNIST training
 * set, raw pixels 0–255, held on the driver (for the exact reference and the median heuristic) and
 * as a cached DataFrame with columns {@code features} (vector with size metadata) and {@code label}
 * (double).
 *
 * <p>Specs: {@code mnist:D} is digit D of the MNIST training set (digit 5: n = 5421, digit 2: n =
 * 5958); {@code fashion:C} is class C of the Fashion-MNIST training set (6000 images each); {@code
 * fashion:random:N} and {@code mnist:random:N} are N images drawn uniformly without replacement
 * from the 60,000 training images with {@code java.util.Random(1)} (a partial Fisher–Yates
 * shuffle), kept in file order. A limit L > 0 keeps only the first L selected images.
 */
public final class ImageData {

  /** Where Debian's {@code dataset-fashion-mnist} installs the gzipped IDX files. */
  public static final String DEBIAN_FASHION_DIR = "/usr/share/datasets/fashion-mnist";

  /** Seed of the {@code random:N} subsets. */
  public static final long SUBSET_SEED = 1L;

  private final Spec spec;
  private final MnistIdx images;
  private final int[] rows;
  private final Dataset<Row> frame;

  private ImageData(Spec spec, MnistIdx images, int[] rows, Dataset<Row> frame) {
    this.spec = spec;
    this.images = images;
    this.rows = rows;
    this.frame = frame;
  }

  /**
   * A parsed data-set spec.
   *
   * @param source {@code mnist} or {@code fashion}
   * @param label the digit or class, or null
   * @param sample size of the fixed random subset, or 0
   * @param limit keep only the first {@code limit} selected images (0: all)
   */
  public record Spec(String source, Integer label, int sample, int limit) {

    /**
     * Parses {@code mnist:D}, {@code fashion:C}, {@code mnist:random:N} or {@code
     * fashion:random:N}.
     */
    public static Spec parse(String text, int limit) {
      String[] parts = text.trim().toLowerCase(Locale.ROOT).split(":");
      if (parts.length < 2 || !(parts[0].equals("mnist") || parts[0].equals("fashion"))) {
        throw new IllegalArgumentException(
            "data set '"
                + text
                + "': expected mnist:D, fashion:C, mnist:random:N "
                + "or fashion:random:N");
      }
      try {
        if (parts.length == 3 && parts[1].equals("random")) {
          int n = Integer.parseInt(parts[2]);
          if (n < 1 || n > 60_000) {
            throw new IllegalArgumentException(
                "data set '" + text + "': N must be in 1..60000, got " + n);
          }
          return new Spec(parts[0], null, n, limit);
        }
        if (parts.length == 2) {
          int label = Integer.parseInt(parts[1]);
          if (label < 0 || label > 9) {
            throw new IllegalArgumentException(
                "data set '" + text + "': the digit or class must be 0..9, got " + label);
          }
          return new Spec(parts[0], label, 0, limit);
        }
      } catch (NumberFormatException e) {
        // Reported below.
      }
      throw new IllegalArgumentException(
          "data set '"
              + text
              + "': expected mnist:D, fashion:C, mnist:random:N "
              + "or fashion:random:N with integers D, C, N");
    }

    /** A short identifier for file names, e.g. {@code mnist-5} or {@code fashion-random-6000}. */
    public String id() {
      return source
          + "-"
          + (label != null ? String.valueOf(label) : "random-" + sample)
          + (limit > 0 ? "-first" + limit : "");
    }

    /** A human-readable description. */
    public String describe() {
      String set = source.equals("mnist") ? "MNIST" : "Fashion-MNIST";
      String what =
          label != null
              ? set + (source.equals("mnist") ? " digit " : " class ") + label + " (training set)"
              : set + " random subset of " + sample + " training images (seed " + SUBSET_SEED + ")";
      return what + (limit > 0 ? ", first " + limit + " images" : "");
    }
  }

  /** {@code $FASHION_MNIST_DIR} if set, else Debian's {@value #DEBIAN_FASHION_DIR}. */
  public static Path defaultFashionDirectory() {
    String env = System.getenv("FASHION_MNIST_DIR");
    return Path.of(env != null && !env.isBlank() ? env : DEBIAN_FASHION_DIR);
  }

  /**
   * Reads the training split of the spec's source and selects its rows (nothing on Spark yet).
   *
   * @throws IllegalArgumentException when the files are missing or unreadable (naming them and how
   *     to get them), or nothing is selected
   */
  public static ImageData load(
      SparkSession spark, Spec spec, Path mnistDir, Path fashionDir, int partitions) {
    Path dir = spec.source().equals("mnist") ? mnistDir : fashionDir;
    MnistIdx idx;
    try {
      idx = MnistIdx.read(dir, true);
    } catch (IOException e) {
      String hint =
          spec.source().equals("mnist")
              ? "run bin/fetch-mnist or pass --mnist-dir"
              : "install the Debian package dataset-fashion-mnist, or pass --fashion-dir (or set $FASHION_MNIST_DIR)";
      throw new IllegalArgumentException(
          "cannot read the "
              + (spec.source().equals("mnist") ? "MNIST" : "Fashion-MNIST")
              + " training set in "
              + dir
              + ": "
              + e.getMessage()
              + "; "
              + hint,
          e);
    }
    int[] rows = select(idx, spec);
    if (rows.length == 0) {
      throw new IllegalArgumentException(
          "data set " + spec.describe() + " in " + dir + " has no images");
    }
    List<Row> out = new ArrayList<>(rows.length);
    for (int i : rows) {
      out.add(RowFactory.create(new DenseVector(idx.image(i)), (double) idx.label(i)));
    }
    StructType schema =
        new StructType()
            .add(new AttributeGroup("features", idx.dim()).toStructField())
            .add("label", DataTypes.DoubleType, false);
    int p = partitions > 0 ? partitions : spark.sparkContext().defaultParallelism();
    Dataset<Row> frame =
        spark
            .createDataFrame(out, schema)
            .repartition(Math.max(1, p))
            .persist(StorageLevel.MEMORY_ONLY());
    frame.count();
    return new ImageData(spec, idx, rows, frame);
  }

  public static int[] select(MnistIdx idx, Spec spec) {
    int[] rows;
    if (spec.label() != null) {
      rows =
          java.util.stream.IntStream.range(0, idx.count())
              .filter(i -> idx.label(i) == spec.label())
              .toArray();
    } else {
      int count = idx.count();
      int n = Math.min(spec.sample(), count);
      int[] perm = java.util.stream.IntStream.range(0, count).toArray();
      Random random = new Random(SUBSET_SEED);
      for (int i = 0; i < n; i++) {
        int j = i + random.nextInt(count - i);
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
      }
      rows = Arrays.copyOf(perm, n);
      Arrays.sort(rows);
    }
    if (spec.limit() > 0 && rows.length > spec.limit()) {
      rows = Arrays.copyOf(rows, spec.limit());
    }
    return rows;
  }

  public Spec spec() {
    return spec;
  }

  /** Number of images n. */
  public int n() {
    return rows.length;
  }

  /** Pixels per image d. */
  public int dim() {
    return images.dim();
  }

  /** The cached DataFrame ({@code features}, {@code label}). */
  public Dataset<Row> frame() {
    return frame;
  }

  /** The first {@code p} selected images, row-major p×d. */
  public double[] firstImages(int p) {
    int count = Math.min(p, rows.length);
    int d = dim();
    double[] out = new double[count * d];
    for (int i = 0; i < count; i++) {
      System.arraycopy(images.image(rows[i]), 0, out, i * d, d);
    }
    return out;
  }

  /** A 64-bit FNV-1a hash of the selected images' pixels (keys the exact-spectrum cache). */
  public long contentHash() {
    long h = 0xcbf29ce484222325L;
    int d = dim();
    byte[] pixels = images.pixels();
    for (int i : rows) {
      for (int t = 0; t < d; t++) {
        h ^= pixels[i * d + t] & 0xFF;
        h *= 0x100000001b3L;
      }
    }
    return h;
  }

  /** Releases the cached DataFrame. */
  public void unpersist() {
    frame.unpersist(false);
  }
}
