package io.github.sparkkpca.examples.bench;

import java.util.List;

/**
 * One baseline measured against a spark-kpca fit in the same run, on the same data, m, k and γ.
 *
 * @param system the baseline, e.g. "scikit-learn 1.2.1 Nystroem+PCA" or "Spark ML PCA on UDF
 *     features"
 * @param input the data source
 * @param n rows
 * @param d dimension
 * @param m landmarks
 * @param k components
 * @param gamma the rbf γ both sides used
 * @param seconds the baseline's fit time (NaN when it failed)
 * @param sparkKpcaSeconds the spark-kpca fit time it is compared with
 * @param evMaxRelDiff max_i |Σ_i(baseline) − Σ_i(spark-kpca)| / Σ_i(spark-kpca) over the k
 *     explained variances (population normalisation both sides); NaN when not comparable
 * @param evrMaxAbsDiff max_i of the absolute difference of the explained variance ratios relative
 *     to the Nyström features' total variance; NaN when not comparable
 * @param peakRssBytes the baseline's peak memory (-1 if unknown)
 * @param status "ok" or the failure (e.g. "MemoryError")
 * @param note details (failure message, solver, memory needed)
 */
public record CompareRow(
    String system,
    String input,
    long n,
    int d,
    int m,
    int k,
    double gamma,
    double seconds,
    double sparkKpcaSeconds,
    double evMaxRelDiff,
    double evrMaxAbsDiff,
    long peakRssBytes,
    String status,
    String note) {

  public static final List<String> COLUMNS =
      List.of(
          "system",
          "input",
          "n",
          "d",
          "m",
          "k",
          "gamma",
          "fit_s",
          "spark_kpca_fit_s",
          "spark_kpca_speedup",
          "ev_max_rel_diff",
          "evr_max_abs_diff",
          "peak_rss_mb",
          "status",
          "note");

  /** How many times faster spark-kpca was: baseline time / spark-kpca time. */
  public double speedup() {
    return seconds / sparkKpcaSeconds;
  }

  public static String header() {
    return String.join(",", COLUMNS);
  }

  public String csvLine() {
    return String.join(
        ",",
        List.of(
            BenchRow.quote(system),
            BenchRow.quote(input),
            Long.toString(n),
            Integer.toString(d),
            Integer.toString(m),
            Integer.toString(k),
            BenchRow.num(gamma),
            BenchRow.num(seconds),
            BenchRow.num(sparkKpcaSeconds),
            BenchRow.num(speedup()),
            BenchRow.num(evMaxRelDiff),
            BenchRow.num(evrMaxAbsDiff),
            BenchRow.mb(peakRssBytes),
            BenchRow.quote(status),
            BenchRow.quote(note)));
  }

  /** max_i |a_i − b_i| / |b_i| over the common length. */
  static double maxRelDiff(double[] a, double[] b) {
    double worst = 0;
    for (int i = 0; i < Math.min(a.length, b.length); i++) {
      worst = Math.max(worst, Math.abs(a[i] - b[i]) / Math.abs(b[i]));
    }
    return worst;
  }

  /** max_i |a_i − b_i| over the common length. */
  static double maxAbsDiff(double[] a, double[] b) {
    double worst = 0;
    for (int i = 0; i < Math.min(a.length, b.length); i++) {
      worst = Math.max(worst, Math.abs(a[i] - b[i]));
    }
    return worst;
  }
}
