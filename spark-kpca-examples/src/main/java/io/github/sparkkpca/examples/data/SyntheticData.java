package io.github.sparkkpca.examples.data;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * A synthetic data set with structure kernel PCA can find, generated on the executors: a mixture of
 * Gaussian clusters in a low-dimensional subspace of R^d plus isotropic noise.
 *
 * <p><b>Model.</b> With q = min(3, d) latent dimensions, c clusters with centres μ_j ~ N(0, 4²
 * I_q), a random d×q matrix B with orthonormal columns, row i draws its cluster j uniformly, z =
 * μ_j + N(0, I_q) and x = B z + 0.1·N(0, I_d). The label is j. Centres and B depend on the seed
 * only.
 *
 * <p><b>Reproducibility.</b> Row i is drawn from its own SplitMix64 stream seeded by a hash of
 * (seed, i), with a hand-written Box–Muller transform, so the data are identical for any number of
 * partitions, any executor and any JVM version. Rows come from {@code spark.range(n)}, so nothing
 * is built on the driver but the centres and B.
 */
public final class SyntheticData {

  /** Latent (signal) dimensions, at most d. */
  public static final int LATENT_DIMENSIONS = 3;

  static final double CENTRE_SCALE = 4.0;
  static final double NOISE = 0.1;

  private SyntheticData() {}

  /**
   * The parameters of a synthetic data set.
   *
   * @param n rows (≥ 1)
   * @param d dimension (≥ 1)
   * @param seed the seed
   * @param clusters number of clusters c (≥ 1)
   * @param partitions partitions to generate, or null for Spark's default parallelism
   */
  public record Spec(long n, int d, long seed, int clusters, Integer partitions) {

    /** Defaults of {@link #parse}. */
    public static final long DEFAULT_N = 10_000;

    public static final int DEFAULT_D = 20;
    public static final long DEFAULT_SEED = 1;
    public static final int DEFAULT_CLUSTERS = 4;

    public Spec {
      if (n < 1) {
        throw new IllegalArgumentException("synthetic: n must be >= 1, got " + n);
      }
      if (d < 1) {
        throw new IllegalArgumentException("synthetic: d must be >= 1, got " + d);
      }
      if (clusters < 1) {
        throw new IllegalArgumentException("synthetic: clusters must be >= 1, got " + clusters);
      }
      if (partitions != null && partitions < 1) {
        throw new IllegalArgumentException("synthetic: partitions must be >= 1, got " + partitions);
      }
    }

    /**
     * Parses {@code key=value} pairs separated by commas, keys {@code n}, {@code d}, {@code seed},
     * {@code clusters} and {@code partitions}; missing keys take the defaults (n = 10000, d = 20,
     * seed 1, 4 clusters). An empty string gives all defaults.
     */
    public static Spec parse(String text) {
      Map<String, String> values = new LinkedHashMap<>();
      if (text != null && !text.isBlank()) {
        for (String part : text.split(",")) {
          int eq = part.indexOf('=');
          if (eq <= 0) {
            throw new IllegalArgumentException(
                "synthetic: expected key=value, got '"
                    + part.trim()
                    + "' (keys: n, d, seed, clusters, partitions)");
          }
          String key = part.substring(0, eq).trim().toLowerCase(Locale.ROOT);
          if (!java.util.Set.of("n", "d", "seed", "clusters", "partitions").contains(key)) {
            throw new IllegalArgumentException(
                "synthetic: unknown key '" + key + "' (keys: n, d, seed, clusters, partitions)");
          }
          values.put(key, part.substring(eq + 1).trim());
        }
      }
      return new Spec(
          number(values, "n", DEFAULT_N),
          (int) number(values, "d", DEFAULT_D),
          number(values, "seed", DEFAULT_SEED),
          (int) number(values, "clusters", DEFAULT_CLUSTERS),
          values.containsKey("partitions") ? (int) number(values, "partitions", 0) : null);
    }

    private static long number(Map<String, String> values, String key, long fallback) {
      String v = values.get(key);
      if (v == null) {
        return fallback;
      }
      try {
        long parsed = Long.parseLong(v.replace("_", ""));
        if (!key.equals("n")
            && !key.equals("seed")
            && (parsed > Integer.MAX_VALUE || parsed < Integer.MIN_VALUE)) {
          throw new IllegalArgumentException("synthetic: " + key + " = " + v + " is too large");
        }
        return parsed;
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "synthetic: " + key + " must be an integer, got '" + v + "'");
      }
    }

    /** The same data set with another partition count. */
    public Spec withPartitions(Integer p) {
      return new Spec(n, d, seed, clusters, p);
    }

    @Override
    public String toString() {
      return "synthetic:n="
          + n
          + ",d="
          + d
          + ",seed="
          + seed
          + ",clusters="
          + clusters
          + (partitions == null ? "" : ",partitions=" + partitions);
    }
  }

  /**
   * Generates the data set: columns {@code id} (long, 0..n-1), {@code featuresCol} (dense vector of
   * size d, with size metadata) and {@code labelCol} (int cluster id).
   */
  public static Dataset<Row> generate(
      SparkSession spark, Spec spec, String featuresCol, String labelCol) {
    int partitions =
        spec.partitions() != null ? spec.partitions() : spark.sparkContext().defaultParallelism();
    StructType schema =
        new StructType()
            .add("id", DataTypes.LongType, false)
            .add(new AttributeGroup(featuresCol, spec.d()).toStructField())
            .add(labelCol, DataTypes.IntegerType, false);
    return VectorColumns.withSize(
        spark.range(0, spec.n(), 1, partitions).map(new RowGenerator(spec), Encoders.row(schema)),
        featuresCol,
        spec.d());
  }

  /** Draws row i from the mixture; holds the centres and the basis (a few kB). */
  static final class RowGenerator implements MapFunction<Long, Row>, Serializable {
    private static final long serialVersionUID = 1L;
    private final long seed;
    private final int d;
    private final int q;
    private final int clusters;

    /** clusters × q, row-major. */
    private final double[] centres;

    /** d × q, row-major, orthonormal columns. */
    private final double[] basis;

    RowGenerator(Spec spec) {
      this.seed = spec.seed();
      this.d = spec.d();
      this.q = Math.min(LATENT_DIMENSIONS, d);
      this.clusters = spec.clusters();
      Stream global = new Stream(mix64(seed ^ 0x5DEECE66DL));
      this.centres = new double[clusters * q];
      for (int i = 0; i < centres.length; i++) {
        centres[i] = CENTRE_SCALE * global.gaussian();
      }
      this.basis = orthonormalColumns(global, d, q);
    }

    @Override
    public Row call(Long id) {
      Stream rng = new Stream(mix64(seed + mix64(id)));
      int label = (int) Math.min(clusters - 1, (long) (rng.uniform() * clusters));
      double[] z = new double[q];
      for (int a = 0; a < q; a++) {
        z[a] = centres[label * q + a] + rng.gaussian();
      }
      double[] x = new double[d];
      for (int i = 0; i < d; i++) {
        double s = 0;
        for (int a = 0; a < q; a++) {
          s += basis[i * q + a] * z[a];
        }
        x[i] = s + NOISE * rng.gaussian();
      }
      return RowFactory.create(id, new DenseVector(x), label);
    }

    /** Gram–Schmidt on a Gaussian d×q matrix (row-major). */
    private static double[] orthonormalColumns(Stream rng, int d, int q) {
      double[] b = new double[d * q];
      for (int i = 0; i < b.length; i++) {
        b[i] = rng.gaussian();
      }
      for (int a = 0; a < q; a++) {
        for (int prev = 0; prev < a; prev++) {
          double dot = 0;
          for (int i = 0; i < d; i++) {
            dot += b[i * q + a] * b[i * q + prev];
          }
          for (int i = 0; i < d; i++) {
            b[i * q + a] -= dot * b[i * q + prev];
          }
        }
        double norm = 0;
        for (int i = 0; i < d; i++) {
          norm += b[i * q + a] * b[i * q + a];
        }
        norm = Math.sqrt(norm);
        for (int i = 0; i < d; i++) {
          b[i * q + a] /= norm;
        }
      }
      return b;
    }
  }

  /** SplitMix64 finalizer (Steele, Lea and Flood 2014). */
  static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** A SplitMix64 stream with Box–Muller normals: fixed arithmetic, so identical on every JVM. */
  static final class Stream {
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;
    private long state;
    private double spare = Double.NaN;

    Stream(long seed) {
      this.state = seed;
    }

    long nextLong() {
      state += GOLDEN_GAMMA;
      return mix64(state);
    }

    /** Uniform in [0, 1). */
    double uniform() {
      return (nextLong() >>> 11) * 0x1.0p-53;
    }

    double gaussian() {
      if (!Double.isNaN(spare)) {
        double s = spare;
        spare = Double.NaN;
        return s;
      }
      double u1 = ((nextLong() >>> 11) + 1) * 0x1.0p-53; // (0, 1]
      double u2 = uniform();
      double r = StrictMath.sqrt(-2.0 * StrictMath.log(u1));
      double angle = 2.0 * Math.PI * u2;
      spare = r * StrictMath.sin(angle);
      return r * StrictMath.cos(angle);
    }
  }
}
