package io.github.sparkkpca.examples.reproduce;

import io.github.sparkkpca.examples.data.ImageData;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.apache.spark.sql.SparkSession;

/**
 * Landmark selection strategies at equal m: {@code uniform}, {@code leverage} (approximate ridge
 * leverage scores) and {@code kmeans} (k-means centres), compared by the training reconstruction
 * error R(ℓ) of centred Nyström kernel PCA (the library default) at a few ℓ, relative to exact
 * kernel PCA at the same ℓ (when n ≤ 10,000), and by fit time; mean ± sd over seeds 1..R.
 *
 * <p>Kernel: Gaussian. γ is {@code mnistGamma} (1e-7, as Sterge et al.) for MNIST and, for
 * Fashion-MNIST, {@code fashionGamma} or, when that is null, the median heuristic
 * 1/(2·median‖x−y‖²) over all pairs of the data set's first 1000 images, computed once so every
 * method sees the same kernel.
 *
 * <p>Every (ℓ, seed) is also checked against the exact error (Ky Fan: R_method(ℓ) ≥ R_exact(ℓ) for
 * any landmark set, k-means centres included, since Nyström PCA is PCA of a compression).
 */
public final class LandmarkComparison {

  /** The strategies of {@code NystromKernelPCA.setLandmarkSampling}. */
  public static final List<String> METHODS = List.of("uniform", "leverage", "kmeans");

  private LandmarkComparison() {}

  /**
   * A data set of the comparison.
   *
   * @param gammaSource how γ was chosen
   * @param exactSeconds time of the exact reference (NaN when n > 10,000 and none was computed)
   */
  public record DatasetRow(
      String dataset,
      String description,
      int n,
      double gamma,
      String gammaSource,
      double exactSeconds,
      boolean exactCached) {}

  /**
   * One row of {@code landmarks.csv}: a (data set, method, m, ℓ), means and sds over the seeds.
   *
   * @param exactError R_exact(ℓ), NaN when not computed
   * @param meanRatio mean of R(ℓ)/R_exact(ℓ)
   * @param meanLandmarks mean effective number of landmarks (distinct k-means centres may be fewer
   *     than m)
   */
  public record Row(
      String dataset,
      int n,
      double gamma,
      String method,
      int m,
      int ell,
      double meanError,
      double sdError,
      double exactError,
      double meanRatio,
      double sdRatio,
      double meanFitSeconds,
      double sdFitSeconds,
      double meanLandmarks,
      int reps) {}

  /**
   * Everything the comparison produced; {@code environment} names the cores and load of the
   * timings.
   */
  public record Result(
      LandmarkComparisonConfig config,
      String blas,
      String environment,
      List<DatasetRow> datasets,
      List<Row> rows,
      long kyFanChecks,
      long kyFanViolations,
      List<Path> files,
      double wallSeconds) {}

  /** Runs the comparison, printing progress lines to standard output. */
  public static Result run(SparkSession spark, LandmarkComparisonConfig config) {
    PrintStream out = System.out;
    return run(spark, config, line -> out.println("landmarks: " + line));
  }

  /** Runs the comparison, reporting progress lines to {@code progress}. */
  public static Result run(
      SparkSession spark, LandmarkComparisonConfig config, Consumer<String> progress) {
    RunClock clock =
        RunClock.start(
            progress,
            "methods "
                + config.methods()
                + ", m = "
                + config.ms()
                + ", l = "
                + config.ells()
                + ", reps = "
                + config.reps()
                + (config.kmeansMaxIter() > 0
                    ? ", kmeans maxIter = " + config.kmeansMaxIter()
                    : ""));
    List<DatasetRow> datasets = new ArrayList<>();
    List<Row> rows = new ArrayList<>();
    long checks = 0;
    long violations = 0;
    for (String specText : config.datasets()) {
      ImageData.Spec spec = ImageData.Spec.parse(specText, config.limit());
      ImageData data =
          ImageData.load(spark, spec, config.mnistDir(), config.fashionDir(), config.partitions());
      try {
        double gamma;
        String gammaSource;
        if (spec.source().equals("mnist")) {
          gamma = config.mnistGamma();
          gammaSource = "stated (MNIST)";
        } else if (config.fashionGamma() != null) {
          gamma = config.fashionGamma();
          gammaSource = "stated (--fashion-gamma)";
        } else {
          int p = Math.min(1000, data.n());
          gamma =
              Kernel.medianHeuristicGamma(KernelType.RBF, data.firstImages(p), p, data.dim(), p);
          gammaSource = "median heuristic 1/(2 median |x-y|^2) over the first " + p + " images";
        }
        progress.accept(
            String.format(
                Locale.ROOT,
                "%s: n = %d, gamma = %.4g (%s)",
                spec.describe(),
                data.n(),
                gamma,
                gammaSource));
        int maxEll = config.ells().get(config.ells().size() - 1);
        Spectra.Spectrum exact = null;
        if (data.n() <= 10_000) {
          exact = Spectra.exact(data, gamma, true, config.exactCache(), progress);
        } else {
          progress.accept("n > 10000: no exact reference, ratios are left empty");
        }
        double[] exactErr = exact == null ? null : exact.errors(maxEll);
        datasets.add(
            new DatasetRow(
                spec.id(),
                spec.describe(),
                data.n(),
                gamma,
                gammaSource,
                exact == null ? Double.NaN : exact.seconds(),
                exact != null && exact.cached()));
        for (int m : config.ms()) {
          if (m > data.n()) {
            throw new IllegalArgumentException(
                "m = " + m + " exceeds n = " + data.n() + " of " + spec.describe());
          }
          List<Integer> ells = config.ells().stream().filter(l -> l <= m).toList();
          for (String method : config.methods()) {
            int reps = config.reps();
            double[][] err = new double[ells.size()][reps];
            double[] seconds = new double[reps];
            double[] support = new double[reps];
            for (int r = 0; r < reps; r++) {
              Spectra.Spectrum s =
                  Spectra.nystrom(data, m, gamma, true, method, r + 1L, config.kmeansMaxIter());
              seconds[r] = s.seconds();
              support[r] = s.support();
              double[] e = s.errors(maxEll);
              for (int j = 0; j < ells.size(); j++) {
                err[j][r] = Math.max(0.0, e[ells.get(j) - 1]);
              }
              if (exactErr != null) {
                int upTo = Math.min(m, maxEll);
                for (int l = 1; l <= upTo; l++) {
                  checks++;
                  double ex = exactErr[l - 1];
                  if (RunClock.belowExact(e[l - 1], ex, exact.total())) {
                    violations++;
                  }
                }
              }
              progress.accept(
                  String.format(
                      Locale.ROOT,
                      "%s, %s, m = %d, seed %d: fit %.2f s, %d landmarks, " + "R(%d) = %.6g",
                      spec.id(),
                      method,
                      m,
                      r + 1,
                      s.seconds(),
                      s.support(),
                      ells.get(ells.size() - 1),
                      err[ells.size() - 1][r]));
            }
            for (int j = 0; j < ells.size(); j++) {
              int l = ells.get(j);
              double ex = exactErr == null ? Double.NaN : Math.max(0.0, exactErr[l - 1]);
              double[] ratio = new double[reps];
              for (int r = 0; r < reps; r++) {
                ratio[r] = err[j][r] / ex;
              }
              rows.add(
                  new Row(
                      spec.id(),
                      data.n(),
                      gamma,
                      method,
                      m,
                      l,
                      Stats.mean(err[j]),
                      Stats.sd(err[j]),
                      ex,
                      exactErr == null ? Double.NaN : Stats.mean(ratio),
                      exactErr == null ? Double.NaN : Stats.sd(ratio),
                      Stats.mean(seconds),
                      Stats.sd(seconds),
                      Stats.mean(support),
                      reps));
            }
            progress.accept(
                String.format(
                    Locale.ROOT,
                    "%s, %s, m = %d: fit %.2f s +- %.2f s; R/R_exact at l = %d: " + "%.4f",
                    spec.id(),
                    method,
                    m,
                    Stats.mean(seconds),
                    Stats.sd(seconds),
                    ells.get(ells.size() - 1),
                    rows.get(rows.size() - 1).meanRatio()));
          }
        }
      } finally {
        data.unpersist();
      }
    }
    double wall = clock.seconds();
    List<Path> files = new ArrayList<>();
    Result result =
        new Result(
            config,
            clock.blas(),
            clock.environment(),
            datasets,
            rows,
            checks,
            violations,
            files,
            wall);
    RunClock.finish(
        progress, config.out(), files, () -> write(result, config.out()), checks, violations, wall);
    return result;
  }

  /**
   * Writes {@code landmarks.csv}, {@code datasets.csv}, the charts and {@code summary.txt} into
   * {@code dir}.
   */
  public static List<Path> write(Result result, Path dir) {
    return LandmarkFiles.write(result, dir);
  }

  /**
   * Redraws the charts of a finished comparison from {@code landmarks.csv} and {@code datasets.csv}
   * in {@code dir}, without fitting anything; the CSV files and {@code summary.txt} are left as
   * they are.
   */
  public static List<Path> replot(Path dir) {
    return LandmarkFiles.replot(dir);
  }
}
