package io.github.sparkkpca.examples.reproduce;

import io.github.sparkkpca.examples.data.ImageData;
import io.github.sparkkpca.examples.data.MnistIdx;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.spark.sql.SparkSession;

/**
 * The experiment of Sterge, Sriperumbudur, Rosasco and Rudi, <i>Gain with no Pain: Efficiency of
 * Kernel-PCA by Nyström Sampling</i> (AISTATS 2020, Section 5, Figures 1 and 2): the empirical
 * (training-set) reconstruction error of exact kernel PCA and of Nyström kernel PCA with m
 * uniformly sampled landmarks, for ℓ = 1..m components, on MNIST training digits 5 (n = 5421) and 2
 * (n = 5958), Gaussian kernel exp(−γ‖x−y‖²) with γ = 1e-7 on raw 0–255 pixels, m ∈ {100, 500,
 * 1000}, mean ± 2 sd over R repetitions (seeds 1..R; the paper used 100). Both the paper's
 * uncentred setting and the centred one.
 *
 * <p>Errors are the paper's eqs. (18) and (19): R(ℓ) = (1/n) tr K − Σ_{i≤ℓ} λ_i, with λ the exact
 * eigenvalues of K/n, respectively the Nyström eigenvalues (of the covariance compressed onto the
 * span of the landmarks' feature vectors). Centred: tr K becomes tr HKH (exact; for Nyström the
 * library's total, an upper bound) and the eigenvalues are those of the centred problem.
 *
 * <p><b>Ky Fan check.</b> The Nyström eigenvalues are those of a compression of the covariance
 * operator, so by the Ky Fan maximum principle (Cauchy interlacing) Σ_{i≤ℓ} λ_{i,m} ≤ Σ_{i≤ℓ} λ_i
 * and the Nyström error is never below the exact one. Every ℓ of every repetition is checked, with
 * tolerance 1e-9·R_exact(ℓ) + 1e-15·total; violations are counted (0 expected).
 *
 * <p><b>The paper's "surprisingly better" remark.</b> The quantity Σ_{ℓ&lt;i≤r} λ_{i,m} (the
 * Nyström error without the residual (1/n) tr(K − K̃) of projecting onto the landmarks' span) is
 * reported alongside as a diagnostic: it reaches 0 at ℓ = m and so drops below the exact error for
 * large ℓ.
 *
 * <p>Use from a notebook: {@code StergeReproduction.run(spark, StergeReproduction.Config.defaults()
 * .withReps(3).withOut(Path.of("out")))}; the command line is {@code spark-kpca reproduce sterge}.
 */
public final class StergeReproduction {

  /** The two settings. */
  public static final String UNCENTRED = "uncentred";

  public static final String CENTRED = "centred";

  private StergeReproduction() {}

  /**
   * What to run.
   *
   * @param digits MNIST training digits (the paper: 5 and 2)
   * @param ms numbers of landmarks m (the paper: 100, 500, 1000)
   * @param reps repetitions per m, seeds 1..reps (the paper: 100)
   * @param gamma γ of the Gaussian kernel (the paper: 1e-7)
   * @param limit use only the first {@code limit} images of each digit (0: all)
   * @param settings {@value #UNCENTRED} and/or {@value #CENTRED}
   * @param mnistDir directory of the MNIST IDX files
   * @param partitions partitions of the cached data (0: Spark's default parallelism)
   * @param exactCache directory caching exact spectra between runs, or null for none
   * @param out output directory for the CSV files and charts, or null to write nothing
   */
  public record Config(
      List<Integer> digits,
      List<Integer> ms,
      int reps,
      double gamma,
      int limit,
      List<String> settings,
      Path mnistDir,
      int partitions,
      Path exactCache,
      Path out) {

    public Config {
      digits = List.copyOf(digits);
      ms = ms.stream().sorted().distinct().toList();
      settings = List.copyOf(settings);
      Objects.requireNonNull(mnistDir, "mnistDir");
      if (digits.isEmpty() || ms.isEmpty() || settings.isEmpty()) {
        throw new IllegalArgumentException("digits, m values and settings must not be empty");
      }
      for (int d : digits) {
        if (d < 0 || d > 9) {
          throw new IllegalArgumentException("digits must be 0..9, got " + d);
        }
      }
      for (int m : ms) {
        if (m < 1) {
          throw new IllegalArgumentException("m must be >= 1, got " + m);
        }
      }
      for (String s : settings) {
        if (!s.equals(UNCENTRED) && !s.equals(CENTRED)) {
          throw new IllegalArgumentException(
              "settings are " + UNCENTRED + " and " + CENTRED + ", got '" + s + "'");
        }
      }
      if (reps < 1) {
        throw new IllegalArgumentException("reps must be >= 1, got " + reps);
      }
      if (!(gamma > 0) || !Double.isFinite(gamma)) {
        throw new IllegalArgumentException("gamma must be finite and > 0, got " + gamma);
      }
      if (limit < 0) {
        throw new IllegalArgumentException("limit must be >= 0, got " + limit);
      }
    }

    /** The paper's experiment with 10 repetitions, both settings, nothing written. */
    public static Config defaults() {
      return new Config(
          List.of(5, 2),
          List.of(100, 500, 1000),
          10,
          1e-7,
          0,
          List.of(UNCENTRED, CENTRED),
          MnistIdx.defaultDirectory(),
          0,
          null,
          null);
    }

    public Config withDigits(List<Integer> v) {
      return new Config(v, ms, reps, gamma, limit, settings, mnistDir, partitions, exactCache, out);
    }

    public Config withMs(List<Integer> v) {
      return new Config(
          digits, v, reps, gamma, limit, settings, mnistDir, partitions, exactCache, out);
    }

    public Config withReps(int v) {
      return new Config(
          digits, ms, v, gamma, limit, settings, mnistDir, partitions, exactCache, out);
    }

    public Config withGamma(double v) {
      return new Config(
          digits, ms, reps, v, limit, settings, mnistDir, partitions, exactCache, out);
    }

    public Config withLimit(int v) {
      return new Config(
          digits, ms, reps, gamma, v, settings, mnistDir, partitions, exactCache, out);
    }

    public Config withSettings(List<String> v) {
      return new Config(digits, ms, reps, gamma, limit, v, mnistDir, partitions, exactCache, out);
    }

    public Config withMnistDir(Path v) {
      return new Config(digits, ms, reps, gamma, limit, settings, v, partitions, exactCache, out);
    }

    public Config withPartitions(int v) {
      return new Config(digits, ms, reps, gamma, limit, settings, mnistDir, v, exactCache, out);
    }

    public Config withExactCache(Path v) {
      return new Config(digits, ms, reps, gamma, limit, settings, mnistDir, partitions, v, out);
    }

    public Config withOut(Path v) {
      return new Config(
          digits, ms, reps, gamma, limit, settings, mnistDir, partitions, exactCache, v);
    }

    int maxM() {
      return ms.get(ms.size() - 1);
    }
  }

  /**
   * One row of {@code reconstruction_error.csv}: the error at ℓ components over the repetitions.
   * For {@code exact}, m is n (all points), sd is 0 and reps is 1.
   */
  public record ErrorRow(
      int digit,
      String setting,
      String method,
      int m,
      int ell,
      double mean,
      double sd,
      double lower,
      double upper,
      int reps) {}

  /** One row of {@code runtime.csv}: wall time of one fit (for exact, m is n). */
  public record RuntimeRow(
      int digit,
      String setting,
      String method,
      int m,
      double meanSeconds,
      double sdSeconds,
      int reps) {}

  /**
   * One row of {@code kyfan.csv}: the Ky Fan checks of one (digit, setting, m), over ℓ = 1..m and
   * all repetitions.
   *
   * @param checks number of (ℓ, repetition) pairs checked
   * @param violations how many had R_nys(ℓ) &lt; R_exact(ℓ) beyond the tolerance
   * @param partialSumViolations how many had Σ_{i≤ℓ} λ_{i,m} > Σ_{i≤ℓ} λ_i beyond the tolerance
   * @param minRelativeMargin the smallest (R_nys(ℓ) − R_exact(ℓ)) / R_exact(ℓ) seen
   */
  public record KyFanRow(
      int digit,
      String setting,
      int m,
      int reps,
      long checks,
      long violations,
      long partialSumViolations,
      double minRelativeMargin) {}

  /**
   * One row of {@code error_variants.csv}, means over the repetitions at ℓ ≤ m.
   *
   * @param exact R_exact(ℓ) (eq. 18)
   * @param nystrom R_nys(ℓ) = total − Σ_{i≤ℓ} λ_{i,m} (eq. 19)
   * @param withinSpan Σ_{ℓ&lt;i≤r} λ_{i,m}: eq. 19 without the Nyström residual
   * @param residual total − Σ_i λ_{i,m}: the Nyström residual (1/n) tr(K − K̃) (centred: its
   *     analogue)
   */
  public record VariantRow(
      int digit,
      String setting,
      int m,
      int ell,
      double exact,
      double nystrom,
      double withinSpan,
      double residual) {}

  /**
   * One row of {@code error_variants_summary.csv}: where the residual-free variant first drops
   * below the exact error and below half of it (0: never), its ratio to the exact error at ℓ = 1,
   * and where eq. (19) drops below the exact error (0: never, as Ky Fan demands).
   */
  public record CrossingRow(
      int digit,
      String setting,
      int m,
      int firstEllWithinSpanBelowExact,
      int firstEllWithinSpanBelowHalfExact,
      double withinSpanOverExactAtEll1,
      int firstEllNystromBelowExact,
      double exactAtM,
      double nystromAtM,
      double withinSpanAtM) {}

  /**
   * One row of {@code exact_spectrum.csv}: diagnostics of the exact reference.
   *
   * @param lambdaMin the smallest eigenvalue kept (above 1e-12·λ_max)
   * @param traceGap total − Σ of all kept eigenvalues: what the kept spectrum does not explain
   *     (rounding, dropped or negative eigenvalues)
   */
  public record ExactRow(
      int digit,
      String setting,
      long n,
      int rank,
      int dropped,
      double lambdaMax,
      double lambdaMin,
      double total,
      double spectrumSum,
      double traceGap,
      double seconds,
      boolean cached) {}

  /**
   * Everything the run produced; {@code environment} names the cores and the load the times were
   * taken under.
   */
  public record Result(
      Config config,
      String blas,
      String environment,
      List<ErrorRow> errors,
      List<RuntimeRow> runtimes,
      List<KyFanRow> kyFan,
      List<VariantRow> variants,
      List<CrossingRow> crossings,
      List<ExactRow> exact,
      List<Path> files,
      double wallSeconds) {

    /** Ky Fan checks over all digits, settings, m, ℓ and repetitions. */
    public long kyFanChecks() {
      return kyFan.stream().mapToLong(KyFanRow::checks).sum();
    }

    /** Ky Fan violations (R_nys &lt; R_exact) over all checks; 0 expected. */
    public long kyFanViolations() {
      return kyFan.stream().mapToLong(KyFanRow::violations).sum();
    }
  }

  /** Runs the experiment, printing progress lines to standard output. */
  public static Result run(SparkSession spark, Config config) {
    PrintStream out = System.out;
    return run(spark, config, line -> out.println("sterge: " + line));
  }

  /** Runs the experiment, reporting progress lines to {@code progress}. */
  public static Result run(SparkSession spark, Config config, Consumer<String> progress) {
    RunClock clock =
        RunClock.start(
            progress,
            "gamma = "
                + config.gamma()
                + ", m = "
                + config.ms()
                + ", reps = "
                + config.reps()
                + ", settings = "
                + config.settings());
    List<ErrorRow> errors = new ArrayList<>();
    List<RuntimeRow> runtimes = new ArrayList<>();
    List<KyFanRow> kyFan = new ArrayList<>();
    List<VariantRow> variants = new ArrayList<>();
    List<CrossingRow> crossings = new ArrayList<>();
    List<ExactRow> exactRows = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    int maxM = config.maxM();
    for (int digit : config.digits()) {
      ImageData data =
          ImageData.load(
              spark,
              new ImageData.Spec("mnist", digit, 0, config.limit()),
              config.mnistDir(),
              null,
              config.partitions());
      try {
        progress.accept(
            String.format(
                Locale.ROOT, "MNIST digit %d: n = %d, d = %d", digit, data.n(), data.dim()));
        if (maxM > data.n()) {
          throw new IllegalArgumentException(
              "m = "
                  + maxM
                  + " exceeds n = "
                  + data.n()
                  + " of MNIST digit "
                  + digit
                  + (config.limit() > 0 ? " (limit " + config.limit() + ")" : ""));
        }
        for (String setting : config.settings()) {
          boolean centred = setting.equals(CENTRED);
          Spectra.Spectrum exact =
              Spectra.exact(data, config.gamma(), centred, config.exactCache(), progress);
          double[] exactErr = exact.errors(maxM);
          double[] exactCum = partialSums(exact.eigenvalues(), maxM);
          exactRows.add(exactRow(digit, setting, exact));
          int n = data.n();
          double[] exactClamped = Spectra.clamp(exactErr);
          for (int l = 1; l <= maxM; l++) {
            double v = exactClamped[l - 1];
            errors.add(new ErrorRow(digit, setting, "exact", n, l, v, 0.0, v, v, 1));
          }
          runtimes.add(new RuntimeRow(digit, setting, "exact", n, exact.seconds(), 0.0, 1));
          for (int m : config.ms()) {
            int reps = config.reps();
            double[][] err = new double[reps][];
            double[][] within = new double[reps][];
            double[] residual = new double[reps];
            double[] seconds = new double[reps];
            long checks = 0;
            long violations = 0;
            long sumViolations = 0;
            double minMargin = Double.POSITIVE_INFINITY;
            for (int r = 0; r < reps; r++) {
              Spectra.Spectrum s =
                  Spectra.nystrom(data, m, config.gamma(), centred, "uniform", r + 1L, 0);
              seconds[r] = s.seconds();
              err[r] = s.errors(m);
              double[] cum = partialSums(s.eigenvalues(), m);
              double all = s.spectrumSum();
              within[r] = new double[m];
              for (int l = 1; l <= m; l++) {
                within[r][l - 1] = Math.max(0.0, all - cum[l - 1]);
              }
              residual[r] = s.total() - all;
              for (int l = 1; l <= m; l++) {
                double ex = exactErr[l - 1];
                checks++;
                if (RunClock.belowExact(err[r][l - 1], ex, exact.total())) {
                  violations++;
                }
                if (cum[l - 1]
                    > exactCum[l - 1]
                        + 1e-9 * Math.abs(exactCum[l - 1])
                        + 1e-15 * Math.abs(exact.total())) {
                  sumViolations++;
                }
                if (Math.abs(ex) > 0) {
                  minMargin = Math.min(minMargin, (err[r][l - 1] - ex) / Math.abs(ex));
                }
              }
              progress.accept(
                  String.format(
                      Locale.ROOT,
                      "digit %d, %s, m = %d, rep %d/%d: fit %.2f s, rank %d, "
                          + "R(%d) = %.6g (exact %.6g)",
                      digit,
                      setting,
                      m,
                      r + 1,
                      reps,
                      s.seconds(),
                      s.rank(),
                      m,
                      Math.max(0, err[r][m - 1]),
                      Math.max(0, exactErr[m - 1])));
            }
            kyFan.add(
                new KyFanRow(
                    digit, setting, m, reps, checks, violations, sumViolations, minMargin));
            progress.accept(
                String.format(
                    Locale.ROOT,
                    "digit %d, %s, m = %d: Ky Fan %d checks, %d violations "
                        + "(smallest relative margin %.3g); fit %.2f s +- %.2f s",
                    digit,
                    setting,
                    m,
                    checks,
                    violations,
                    minMargin,
                    Stats.mean(seconds),
                    Stats.sd(seconds)));
            runtimes.add(
                new RuntimeRow(
                    digit, setting, "nystrom", m, Stats.mean(seconds), Stats.sd(seconds), reps));
            int firstWithin = 0;
            int firstHalf = 0;
            int firstNys = 0;
            double meanResidual = Stats.mean(residual);
            double[] nysMean = new double[m];
            double[] withinMean = new double[m];
            for (int l = 1; l <= m; l++) {
              double[] at = new double[reps];
              double[] w = new double[reps];
              for (int r = 0; r < reps; r++) {
                at[r] = Math.max(0.0, err[r][l - 1]);
                w[r] = within[r][l - 1];
              }
              double mean = Stats.mean(at);
              double sd = Stats.sd(at);
              nysMean[l - 1] = mean;
              withinMean[l - 1] = Stats.mean(w);
              errors.add(
                  new ErrorRow(
                      digit,
                      setting,
                      "nystrom",
                      m,
                      l,
                      mean,
                      sd,
                      mean - 2 * sd,
                      mean + 2 * sd,
                      reps));
              variants.add(
                  new VariantRow(
                      digit,
                      setting,
                      m,
                      l,
                      exactClamped[l - 1],
                      mean,
                      withinMean[l - 1],
                      meanResidual));
              if (firstWithin == 0 && withinMean[l - 1] < exactClamped[l - 1]) {
                firstWithin = l;
              }
              if (firstHalf == 0 && withinMean[l - 1] < 0.5 * exactClamped[l - 1]) {
                firstHalf = l;
              }
              if (firstNys == 0 && mean < exactClamped[l - 1]) {
                firstNys = l;
              }
            }
            crossings.add(
                new CrossingRow(
                    digit,
                    setting,
                    m,
                    firstWithin,
                    firstHalf,
                    withinMean[0] / exactClamped[0],
                    firstNys,
                    exactClamped[m - 1],
                    nysMean[m - 1],
                    withinMean[m - 1]));
          }
        }
      } finally {
        data.unpersist();
      }
    }
    double wall = clock.seconds();
    Result result =
        new Result(
            config,
            clock.blas(),
            clock.environment(),
            errors,
            runtimes,
            kyFan,
            variants,
            crossings,
            exactRows,
            files,
            wall);
    RunClock.finish(
        progress,
        config.out(),
        files,
        () -> write(result, config.out()),
        result.kyFanChecks(),
        result.kyFanViolations(),
        wall);
    return result;
  }

  private static double[] partialSums(double[] eigenvalues, int maxEll) {
    double[] out = new double[maxEll];
    double s = 0;
    for (int l = 1; l <= maxEll; l++) {
      if (l <= eigenvalues.length) {
        s += eigenvalues[l - 1];
      }
      out[l - 1] = s;
    }
    return out;
  }

  private static ExactRow exactRow(int digit, String setting, Spectra.Spectrum s) {
    double[] ev = s.eigenvalues();
    double sum = s.spectrumSum();
    return new ExactRow(
        digit,
        setting,
        s.n(),
        s.rank(),
        s.dropped(),
        ev.length > 0 ? ev[0] : Double.NaN,
        ev.length > 0 ? ev[ev.length - 1] : Double.NaN,
        s.total(),
        sum,
        s.total() - sum,
        s.seconds(),
        s.cached());
  }

  /**
   * Writes the CSV files, the charts and {@code summary.txt} into {@code dir}; returns their paths.
   */
  public static List<Path> write(Result result, Path dir) {
    return StergeFiles.write(result, dir);
  }
}
