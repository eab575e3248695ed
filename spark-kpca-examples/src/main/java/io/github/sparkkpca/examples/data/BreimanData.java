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
 * Breiman's artificial classification problems, with labels −1/+1, as in the IDA benchmark of
 * Rätsch, Onoda and Müller (2001) that Braun, Buhmann and Müller's table uses:
 *
 * <ul>
 *   <li><b>twonorm</b> (Breiman 1996, "Bias, variance and arcing classifiers"): d = 20, class +1 ~
 *       N(a·1, I), class −1 ~ N(−a·1, I), a = 2/√20, equal priors; Bayes error Φ(−2) = 2.28 %.
 *   <li><b>ringnorm</b> (Breiman 1996): d = 20, class +1 ~ N(0, 4I), class −1 ~ N(a·1, I), a =
 *       1/√20, equal priors.
 *   <li><b>waveform</b> (Breiman, Friedman, Olshen and Stone 1984, "Classification and Regression
 *       Trees", §2.6.2): 21 attributes; with the triangular waves h₁(i) = max(6 − |i − 11|, 0),
 *       h₂(i) = h₁(i − 4), h₃(i) = h₁(i + 4) (i = 1..21), u ~ U(0, 1) and ε ~ N(0, I), the three
 *       classes (priors 1/3) are uh₁ + (1 − u)h₂ + ε, uh₁ + (1 − u)h₃ + ε and uh₂ + (1 − u)h₃ + ε.
 *       <b>Binary split:</b> the first class is +1, the two others −1 (class 0 against the rest,
 *       the split of the IDA benchmark's waveform set).
 * </ul>
 *
 * Row i is drawn from its own stream seeded by (seed, i), as {@link SyntheticData} does: the same
 * rows for any partitioning. Syntax: {@code twonorm:n=400,seed=1[,partitions=P]} (likewise
 * ringnorm, waveform).
 */
public final class BreimanData {

  /** The problems, by their source name. */
  public enum Problem {
    TWONORM(20),
    RINGNORM(20),
    WAVEFORM(21);

    private final int dim;

    Problem(int dim) {
      this.dim = dim;
    }

    public int dim() {
      return dim;
    }

    public String sourceName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** The problem an input names ({@code twonorm[:...]}), or null. */
    public static Problem of(String input) {
      String lower = input.trim().toLowerCase(Locale.ROOT);
      for (Problem p : values()) {
        if (lower.equals(p.sourceName()) || lower.startsWith(p.sourceName() + ":")) {
          return p;
        }
      }
      return null;
    }
  }

  /**
   * @param problem which problem
   * @param n rows (≥ 1)
   * @param seed the seed
   * @param partitions partitions to generate, or null for the default parallelism
   */
  public record Spec(Problem problem, long n, long seed, Integer partitions)
      implements Serializable {

    public Spec {
      if (n < 1) {
        throw new IllegalArgumentException(problem.sourceName() + ": n must be >= 1, got " + n);
      }
      if (partitions != null && partitions < 1) {
        throw new IllegalArgumentException(
            problem.sourceName() + ": partitions must be >= 1, got " + partitions);
      }
    }

    /** Parses {@code name[:n=N,seed=S,partitions=P]} (defaults n = 400, seed = 1). */
    public static Spec parse(String input) {
      Problem problem = Problem.of(input);
      if (problem == null) {
        throw new IllegalArgumentException("not a Breiman problem: " + input);
      }
      String trimmed = input.trim();
      String text =
          trimmed.length() > problem.sourceName().length()
              ? trimmed.substring(problem.sourceName().length() + 1)
              : "";
      Map<String, Long> values = new LinkedHashMap<>();
      if (!text.isBlank()) {
        for (String part : text.split(",")) {
          int eq = part.indexOf('=');
          String key = eq <= 0 ? "" : part.substring(0, eq).trim().toLowerCase(Locale.ROOT);
          if (!java.util.Set.of("n", "seed", "partitions").contains(key)) {
            throw new IllegalArgumentException(
                problem.sourceName()
                    + ": expected n=, seed= or partitions=, got '"
                    + part.trim()
                    + "'");
          }
          try {
            values.put(key, Long.parseLong(part.substring(eq + 1).trim().replace("_", "")));
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                problem.sourceName()
                    + ": "
                    + key
                    + " must be an integer, got '"
                    + part.substring(eq + 1).trim()
                    + "'");
          }
        }
      }
      Long p = values.get("partitions");
      if (p != null && (p < 1 || p > Integer.MAX_VALUE)) {
        throw new IllegalArgumentException(
            problem.sourceName() + ": partitions must be in [1, 2^31), got " + p);
      }
      return new Spec(
          problem,
          values.getOrDefault("n", 400L),
          values.getOrDefault("seed", 1L),
          p == null ? null : p.intValue());
    }

    public Spec withPartitions(Integer p) {
      return new Spec(problem, n, seed, p);
    }

    @Override
    public String toString() {
      return problem.sourceName()
          + ":n="
          + n
          + ",seed="
          + seed
          + (partitions == null ? "" : ",partitions=" + partitions);
    }
  }

  private BreimanData() {}

  /**
   * Columns {@code id} (0..n−1), {@code featuresCol} (size metadata) and {@code labelCol} (int,
   * −1/+1).
   */
  public static Dataset<Row> generate(
      SparkSession spark, Spec spec, String featuresCol, String labelCol) {
    int partitions =
        spec.partitions() != null ? spec.partitions() : spark.sparkContext().defaultParallelism();
    int d = spec.problem().dim();
    StructType schema =
        new StructType()
            .add("id", DataTypes.LongType, false)
            .add(new AttributeGroup(featuresCol, d).toStructField())
            .add(labelCol, DataTypes.IntegerType, false);
    return VectorColumns.withSize(
        spark.range(0, spec.n(), 1, partitions).map(new RowGenerator(spec), Encoders.row(schema)),
        featuresCol,
        d);
  }

  /** Row i of a problem, as features and label (for tests and in-memory use). */
  public static double[] row(Spec spec, long id, int[] label) {
    return draw(
        spec.problem(),
        new SyntheticData.Stream(
            SyntheticData.mix64(spec.seed() + SyntheticData.mix64(id) ^ spec.problem().ordinal())),
        label);
  }

  private static double[] draw(Problem problem, SyntheticData.Stream rng, int[] label) {
    double[] x = new double[problem.dim()];
    switch (problem) {
      case TWONORM -> {
        label[0] = rng.uniform() < 0.5 ? 1 : -1;
        double a = 2 / Math.sqrt(20);
        for (int t = 0; t < 20; t++) {
          x[t] = label[0] * a + rng.gaussian();
        }
      }
      case RINGNORM -> {
        label[0] = rng.uniform() < 0.5 ? 1 : -1;
        double a = 1 / Math.sqrt(20);
        for (int t = 0; t < 20; t++) {
          x[t] = label[0] == 1 ? 2 * rng.gaussian() : a + rng.gaussian();
        }
      }
      default -> {
        int cls = (int) Math.min(2, (long) (rng.uniform() * 3));
        double u = rng.uniform();
        int first = cls == 2 ? 2 : 1;
        int second = cls == 0 ? 2 : 3;
        for (int i = 1; i <= 21; i++) {
          x[i - 1] = u * wave(first, i) + (1 - u) * wave(second, i) + rng.gaussian();
        }
        label[0] = cls == 0 ? 1 : -1;
      }
    }
    return x;
  }

  /** h_k(i) of the waveform problem, i = 1..21. */
  static double wave(int k, int i) {
    int shift = k == 1 ? 0 : k == 2 ? 4 : -4;
    return Math.max(6 - Math.abs(i - shift - 11), 0);
  }

  private static final class RowGenerator implements MapFunction<Long, Row>, Serializable {
    private static final long serialVersionUID = 1L;
    private final Spec spec;

    RowGenerator(Spec spec) {
      this.spec = spec;
    }

    @Override
    public Row call(Long id) {
      int[] label = new int[1];
      double[] x = row(spec, id, label);
      return RowFactory.create(id, new DenseVector(x), label[0]);
    }
  }
}
