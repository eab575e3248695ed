package io.github.sparkkpca.examples.bench;

import java.util.List;
import java.util.Locale;

/**
 * One measured grid point of {@code spark-kpca bench}: a whole fit (and transform) of one (input,
 * n, d, m, k) with its flop counts, the dgemm bound and the efficiency bound/time, as a CSV line.
 *
 * @param input the data source, e.g. {@code synthetic:n=1000000,d=50,seed=1}
 * @param n rows
 * @param d input dimension
 * @param m landmarks
 * @param r numerical rank of K_mm the fit kept
 * @param k components
 * @param gamma the kernel's γ as fitted
 * @param partitions partitions of the input
 * @param blockSize rows per BLAS block
 * @param fitSeconds wall time of {@code NystromKernelPCA.fit} (best of the repeats)
 * @param scanSeconds of which the validating scan job(s) (count, checks, uniform landmarks)
 * @param statsSeconds of which the statistics job (kernel blocks, F = WᵀK, SYRK)
 * @param otherJobSeconds of which other Spark jobs (e.g. leverage or k-means landmarks); the rest
 *     of the fit is driver work: K_mm and covariance eigendecompositions, broadcasts, scheduling
 * @param transformSeconds wall time of transforming all n rows (noop sink), NaN when not measured
 * @param dgemm the dgemm rate measured in this run
 * @param openblasThreads {@code OPENBLAS_NUM_THREADS} or "default"
 * @param taskSlots Spark's default parallelism (concurrent tasks)
 * @param peakRssBytes resident-set peak during the fit and transform (-1 if unknown)
 * @param peakHeapBytes heap peak during the fit and transform
 * @param loadStart 1-minute load average before the measurement
 * @param loadEnd 1-minute load average after it
 * @param explainedVarianceSum Σ_{i≤k} Σ_i of the fitted model (a sanity check across runs)
 * @param statisticsRoute the statistics route the fit took (whitened or gram)
 * @param conditionEstimate cond(K_mm) over the retained spectrum, as the fit recorded it
 * @param eigenvalueDifference max_i≤k |λ_i − λ_i'| / λ_1' against the first route of the same grid
 *     point (NaN for the first route)
 */
public record BenchRow(
    String input,
    long n,
    int d,
    int m,
    int r,
    int k,
    double gamma,
    int partitions,
    int blockSize,
    double fitSeconds,
    double scanSeconds,
    double statsSeconds,
    double otherJobSeconds,
    double transformSeconds,
    DgemmRate dgemm,
    String openblasThreads,
    int taskSlots,
    long peakRssBytes,
    long peakHeapBytes,
    double loadStart,
    double loadEnd,
    double explainedVarianceSum,
    String statisticsRoute,
    double conditionEstimate,
    double eigenvalueDifference) {

  /** The CSV columns, in order. */
  public static final List<String> COLUMNS =
      List.of(
          "input",
          "n",
          "d",
          "m",
          "r",
          "k",
          "gamma",
          "partitions",
          "block_size",
          "fit_s",
          "scan_s",
          "stats_s",
          "driver_s",
          "stats_efficiency",
          "fit_gflop",
          "fit_bound_s",
          "fit_efficiency",
          "exponentials",
          "transform_s",
          "transform_rows_per_s",
          "transform_gflop",
          "transform_bound_s",
          "transform_efficiency",
          "dgemm_gflops",
          "dgemm_single_gflops",
          "dgemm_concurrent_gflops",
          "blas",
          "openblas_threads",
          "task_slots",
          "peak_rss_mb",
          "peak_heap_mb",
          "load_start",
          "load_end",
          "explained_variance_sum",
          "statistics_route",
          "condition_estimate",
          "minimal_bound_s",
          "minimal_efficiency",
          "eigenvalue_diff_vs_first_route");

  public FlopModel flops() {
    return new FlopModel(n, d, m, r, k);
  }

  public double fitBoundSeconds() {
    return FlopModel.boundSeconds(flops().fitFlops(), dgemm.gflops());
  }

  /**
   * The minimal-work bound: 2·n·m·d + n·m² flops (kernel GEMM and one SYRK of k_x) at the dgemm
   * rate.
   */
  public double minimalBoundSeconds() {
    return FlopModel.boundSeconds(flops().kernelFlops() + (double) n * m * m, dgemm.gflops());
  }

  /** bound / measured: 1 would be a fit running at the dgemm rate with nothing else to do. */
  public double fitEfficiency() {
    return fitBoundSeconds() / fitSeconds;
  }

  /** Fit time outside Spark jobs: the driver's eigendecompositions, broadcasts and scheduling. */
  public double driverSeconds() {
    return fitSeconds - scanSeconds - statsSeconds - otherJobSeconds;
  }

  /** bound / time of the statistics job alone (it does all the counted flops). */
  public double statsEfficiency() {
    return statsSeconds > 0 ? fitBoundSeconds() / statsSeconds : Double.NaN;
  }

  public double transformBoundSeconds() {
    return FlopModel.boundSeconds(flops().transformFlops(), dgemm.gflops());
  }

  public double transformEfficiency() {
    return transformBoundSeconds() / transformSeconds;
  }

  public double transformRowsPerSecond() {
    return n / transformSeconds;
  }

  public static String header() {
    return String.join(",", COLUMNS);
  }

  public String csvLine() {
    return String.join(
        ",",
        List.of(
            quote(input),
            Long.toString(n),
            Integer.toString(d),
            Integer.toString(m),
            Integer.toString(r),
            Integer.toString(k),
            num(gamma),
            Integer.toString(partitions),
            Integer.toString(blockSize),
            num(fitSeconds),
            num(scanSeconds),
            num(statsSeconds),
            num(driverSeconds()),
            num(statsEfficiency()),
            num(flops().fitFlops() / 1e9),
            num(fitBoundSeconds()),
            num(fitEfficiency()),
            num(flops().exponentials()),
            num(transformSeconds),
            num(transformRowsPerSecond()),
            num(flops().transformFlops() / 1e9),
            num(transformBoundSeconds()),
            num(transformEfficiency()),
            num(dgemm.gflops()),
            num(dgemm.singleGflops()),
            num(dgemm.concurrentGflops()),
            dgemm.implementation(),
            openblasThreads,
            Integer.toString(taskSlots),
            mb(peakRssBytes),
            mb(peakHeapBytes),
            num(loadStart),
            num(loadEnd),
            num(explainedVarianceSum),
            statisticsRoute,
            num(conditionEstimate),
            num(minimalBoundSeconds()),
            num(minimalBoundSeconds() / fitSeconds),
            num(eigenvalueDifference)));
  }

  static String mb(long bytes) {
    return bytes < 0 ? "" : String.format(Locale.ROOT, "%.0f", bytes / 1048576.0);
  }

  static String num(double x) {
    if (Double.isNaN(x) || Double.isInfinite(x)) {
      return "";
    }
    return String.format(Locale.ROOT, "%.6g", x);
  }

  static String quote(String s) {
    return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
  }
}
