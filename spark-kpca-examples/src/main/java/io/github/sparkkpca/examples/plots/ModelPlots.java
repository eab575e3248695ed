package io.github.sparkkpca.examples.plots;

import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The diagnostic charts of a fitted kernel PCA model as PNG files: the scree plot, the
 * reconstruction-error curves and the 2-D embedding coloured by label. {@code spark-kpca
 * fit|transform|demo --plots DIR} writes them, and notebooks call the same methods (plain Spark and
 * Java types in, file paths out, so they work with the relocated plotting library of the examples
 * jar).
 *
 * <ul>
 *   <li><b>Scree</b> ({@code scree.png}): Σ_i / total for the leading components of the whole
 *       spectrum the fit found, their running sum, and a marker at the k components kept.
 *   <li><b>Reconstruction error</b> ({@code reconstruction-error.png}): R(ℓ)/total for ℓ = 1..k,
 *       the mean squared feature-space distance to the ℓ-dimensional principal subspace, from the
 *       fit (training data) and measured on the plotted rows as mean e_ℓ(x) with e_ℓ(x) = e(x) +
 *       Σ_{ℓ&lt;c≤k} y_c(x)², where e(x) is the model's per-row residual. On training rows the two
 *       curves agree (up to sampling); on new rows the second is the held-out error.
 *   <li><b>Embedding</b> ({@code embedding.png}): the rows on the first two components, one colour
 *       per label (one group when there is no label column, or more than {@value #MAX_LABELS}
 *       labels).
 * </ul>
 */
public final class ModelPlots {

  /** Rows scored for the embedding and the measured error curve, unless told otherwise. */
  public static final int DEFAULT_MAX_POINTS = 5000;

  /** Components shown by the scree plot, at most. */
  public static final int SCREE_COMPONENTS = 50;

  /** Labels drawn as separate groups, at most. */
  public static final int MAX_LABELS = 30;

  private ModelPlots() {}

  /**
   * A sample of scored rows: their scores (k per row), residuals e(x) and labels (null when there
   * is no label column).
   */
  public record ScoredSample(double[][] scores, double[] residuals, String[] labels) {
    public int size() {
      return scores.length;
    }
  }

  /**
   * Scores up to {@code maxPoints} rows of {@code data}, a uniform sample fixed by {@code seed},
   * with a copy of {@code model} (the model itself is not changed).
   *
   * @param rows the number of rows of {@code data} if known (sets the sampling fraction), else ≤ 0
   *     (then it is counted)
   * @param labelCol the label column, or null
   */
  public static ScoredSample sample(
      AbstractKernelPCAModel<?> model,
      Dataset<Row> data,
      String labelCol,
      long rows,
      int maxPoints,
      long seed) {
    if (maxPoints < 1) {
      throw new IllegalArgumentException("maxPoints must be >= 1, got " + maxPoints);
    }
    long n = rows > 0 ? rows : data.count();
    if (n == 0) {
      throw new IllegalArgumentException("no rows to plot");
    }
    String scoresCol = "scores_" + model.uid();
    String residualCol = "residual_" + model.uid();
    AbstractKernelPCAModel<?> copy = (AbstractKernelPCAModel<?>) model.copy(ParamMap.empty());
    copy.setOutputCol(scoresCol).setResidualCol(residualCol).setReconstructionCol("");
    double fraction = Math.min(1.0, 1.2 * maxPoints / n);
    Dataset<Row> picked = fraction < 1.0 ? data.sample(false, fraction, seed) : data;
    // Column names taken literally: user-chosen names may contain dots.
    List<Column> columns = new ArrayList<>(List.of(LoadedData.column(copy.getInputCol())));
    if (labelCol != null) {
      columns.add(LoadedData.column(labelCol));
    }
    List<Row> scored =
        copy.transform(picked.select(columns.toArray(new Column[0])).limit(maxPoints))
            .select(
                labelCol == null
                    ? new Column[] {LoadedData.column(scoresCol), LoadedData.column(residualCol)}
                    : new Column[] {
                      LoadedData.column(scoresCol),
                      LoadedData.column(residualCol),
                      LoadedData.column(labelCol)
                    })
            .collectAsList();
    double[][] scores = new double[scored.size()][];
    double[] residuals = new double[scored.size()];
    String[] labels = labelCol == null ? null : new String[scored.size()];
    for (int i = 0; i < scored.size(); i++) {
      Row row = scored.get(i);
      scores[i] = ((Vector) row.get(0)).toArray();
      residuals[i] = row.getDouble(1);
      if (labels != null) {
        labels[i] = labelText(row.get(2));
      }
    }
    return new ScoredSample(scores, residuals, labels);
  }

  /** The scree plot of {@code model}'s spectrum (at most {@value #SCREE_COMPONENTS} components). */
  public static Path scree(Path png, AbstractKernelPCAModel<?> model, String title) {
    double[] spectrum = model.eigenvalues().toArray();
    double total = model.totalVariance();
    int shown = Math.min(spectrum.length, Math.max(SCREE_COMPONENTS, model.numComponents()));
    double[] x = new double[shown];
    double[] ratio = new double[shown];
    double[] cumulative = new double[shown];
    double sum = 0;
    for (int i = 0; i < shown; i++) {
      x[i] = i + 1;
      ratio[i] = spectrum[i] / total;
      sum += ratio[i];
      cumulative[i] = sum;
    }
    int k = model.numComponents();
    List<Charts.Line> lines =
        List.of(
            Charts.Line.of("eigenvalue / total variance", x, ratio),
            Charts.Line.of("cumulative", x, cumulative).asDashed(),
            Charts.Line.of(
                    "k = " + k + " kept", new double[] {k, k}, new double[] {0, Math.max(1.0, sum)})
                .withColor(Charts.PALETTE.get(5)));
    return Charts.lineChart(
        png,
        new Charts.Axes(
            title(title, "spectrum"), "component", "fraction of the total variance", false),
        lines);
  }

  /**
   * The reconstruction-error curves R(ℓ)/total, ℓ = 1..k: from the fit, and measured on {@code
   * sample} (skipped when null or empty).
   */
  public static Path reconstructionError(
      Path png, AbstractKernelPCAModel<?> model, ScoredSample sample, String title) {
    int k = model.numComponents();
    double total = model.totalVariance();
    double[] x = new double[k];
    double[] fitted = model.reconstructionError().toArray();
    for (int l = 0; l < k; l++) {
      x[l] = l + 1;
      fitted[l] /= total;
    }
    List<Charts.Line> lines = new ArrayList<>();
    lines.add(Charts.Line.of("training (from the fit)", x, fitted));
    if (sample != null && sample.size() > 0) {
      lines.add(
          Charts.Line.of(
                  "measured on " + sample.size() + " rows plotted",
                  x,
                  measuredError(sample, k, total))
              .asDashed());
    }
    return Charts.lineChart(
        png,
        new Charts.Axes(
            title(title, "reconstruction error"), "components ℓ", "R(ℓ) / total variance", false),
        lines);
  }

  /** mean_x e_ℓ(x) / total for ℓ = 1..k, with e_ℓ(x) = e(x) + Σ_{ℓ<c≤k} y_c(x)². */
  static double[] measuredError(ScoredSample sample, int k, double total) {
    double[] meanSquare = new double[k];
    double meanResidual = 0;
    for (int i = 0; i < sample.size(); i++) {
      meanResidual += sample.residuals()[i];
      for (int c = 0; c < k; c++) {
        double y = sample.scores()[i][c];
        meanSquare[c] += y * y;
      }
    }
    int size = sample.size();
    double[] error = new double[k];
    double tail = 0;
    for (int l = k - 1; l >= 0; l--) {
      error[l] = (meanResidual / size + tail) / total;
      tail += meanSquare[l] / size;
    }
    return error;
  }

  /** The rows of {@code sample} on the first two components, one colour per label. */
  public static Path embedding(Path png, ScoredSample sample, String title) {
    if (sample.size() == 0) {
      throw new IllegalArgumentException("no rows to plot");
    }
    if (sample.scores()[0].length < 2) {
      throw new IllegalArgumentException(
          "the embedding needs k >= 2 components, the model has " + sample.scores()[0].length);
    }
    Map<String, List<Integer>> groups = new LinkedHashMap<>();
    if (sample.labels() != null) {
      TreeMap<String, List<Integer>> byLabel = new TreeMap<>(labelOrder());
      for (int i = 0; i < sample.size(); i++) {
        byLabel.computeIfAbsent(sample.labels()[i], key -> new ArrayList<>()).add(i);
      }
      if (byLabel.size() <= MAX_LABELS) {
        groups.putAll(byLabel);
      }
    }
    if (groups.isEmpty()) {
      List<Integer> all = new ArrayList<>();
      for (int i = 0; i < sample.size(); i++) {
        all.add(i);
      }
      groups.put("rows", all);
    }
    List<Charts.Points> points = new ArrayList<>();
    groups.forEach(
        (label, members) -> {
          double[] x = new double[members.size()];
          double[] y = new double[members.size()];
          for (int j = 0; j < x.length; j++) {
            x[j] = sample.scores()[members.get(j)][0];
            y[j] = sample.scores()[members.get(j)][1];
          }
          points.add(new Charts.Points(label, x, y));
        });
    return Charts.scatterChart(
        png,
        new Charts.Axes(
            title(title, sample.size() + " rows on the first two " + "components"),
            "pc 1",
            "pc 2",
            false),
        points,
        Charts.WIDTH,
        Charts.HEIGHT);
  }

  /**
   * Writes {@code scree.png}, {@code reconstruction-error.png} and (when k ≥ 2) {@code
   * embedding.png} for {@code model} into {@code dir}, from up to {@code maxPoints} rows of {@code
   * data}; returns the files.
   */
  public static List<Path> writeAll(
      Path dir,
      AbstractKernelPCAModel<?> model,
      Dataset<Row> data,
      String labelCol,
      long rows,
      int maxPoints,
      long seed,
      String title) {
    ScoredSample sample = sample(model, data, labelCol, rows, maxPoints, seed);
    List<Path> files = new ArrayList<>();
    files.add(scree(dir.resolve("scree.png"), model, title));
    files.add(reconstructionError(dir.resolve("reconstruction-error.png"), model, sample, title));
    if (model.numComponents() >= 2) {
      files.add(embedding(dir.resolve("embedding.png"), sample, title));
    }
    return files;
  }

  /** Integral numbers without ".0" (labels 3.0 → "3"), everything else as printed. */
  static String labelText(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Double || value instanceof Float) {
      double v = ((Number) value).doubleValue();
      if (v == Math.rint(v) && Math.abs(v) < 1e15) {
        return Long.toString((long) v);
      }
    }
    return value.toString();
  }

  /** Numeric labels in numeric order, then the others alphabetically. */
  private static Comparator<String> labelOrder() {
    return (a, b) -> {
      Double x = number(a);
      Double y = number(b);
      if (x != null && y != null) {
        return x.equals(y) ? a.compareTo(b) : Double.compare(x, y);
      }
      if (x != null || y != null) {
        return x != null ? -1 : 1;
      }
      return a.compareTo(b);
    };
  }

  private static Double number(String s) {
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String title(String prefix, String what) {
    return prefix == null || prefix.isBlank() ? capitalise(what) : prefix + ": " + what;
  }

  private static String capitalise(String s) {
    return s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
  }
}
