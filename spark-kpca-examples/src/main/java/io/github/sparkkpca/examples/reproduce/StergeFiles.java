package io.github.sparkkpca.examples.reproduce;

import io.github.sparkkpca.examples.plots.Charts;
import io.github.sparkkpca.examples.reproduce.StergeReproduction.Config;
import io.github.sparkkpca.examples.reproduce.StergeReproduction.CrossingRow;
import io.github.sparkkpca.examples.reproduce.StergeReproduction.ErrorRow;
import io.github.sparkkpca.examples.reproduce.StergeReproduction.ExactRow;
import io.github.sparkkpca.examples.reproduce.StergeReproduction.KyFanRow;
import io.github.sparkkpca.examples.reproduce.StergeReproduction.Result;
import io.github.sparkkpca.examples.reproduce.StergeReproduction.RuntimeRow;
import io.github.sparkkpca.examples.reproduce.StergeReproduction.VariantRow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The files of a {@link StergeReproduction} run: its CSV tables, the charts of the reconstruction
 * error and of its variants, and {@code summary.txt}.
 */
final class StergeFiles {

  private StergeFiles() {}

  /**
   * Writes the CSV files, the charts and {@code summary.txt} into {@code dir}; returns their paths.
   */
  static List<Path> write(Result result, Path dir) {
    List<Path> files = new ArrayList<>();
    files.add(
        Csv.table(
            dir.resolve("reconstruction_error.csv"),
            "digit,setting,method,m,ell,mean,sd,lower,upper,reps",
            result.errors(),
            (ErrorRow e) ->
                new Object[] {
                  e.digit(),
                  e.setting(),
                  e.method(),
                  e.m(),
                  e.ell(),
                  e.mean(),
                  e.sd(),
                  e.lower(),
                  e.upper(),
                  e.reps()
                }));
    files.add(
        Csv.table(
            dir.resolve("runtime.csv"),
            "digit,setting,method,m,mean_seconds,sd_seconds",
            result.runtimes(),
            (RuntimeRow r) ->
                new Object[] {
                  r.digit(), r.setting(), r.method(), r.m(), r.meanSeconds(), r.sdSeconds()
                }));
    files.add(
        Csv.table(
            dir.resolve("kyfan.csv"),
            "digit,setting,m,reps,checks,violations,partial_sum_violations,min_relative_margin",
            result.kyFan(),
            (KyFanRow k) ->
                new Object[] {
                  k.digit(),
                  k.setting(),
                  k.m(),
                  k.reps(),
                  k.checks(),
                  k.violations(),
                  k.partialSumViolations(),
                  k.minRelativeMargin()
                }));
    files.add(
        Csv.table(
            dir.resolve("exact_spectrum.csv"),
            "digit,setting,n,rank,dropped,lambda_max,lambda_min_kept,total,spectrum_sum,trace_gap,seconds,cached",
            result.exact(),
            (ExactRow x) ->
                new Object[] {
                  x.digit(),
                  x.setting(),
                  x.n(),
                  x.rank(),
                  x.dropped(),
                  x.lambdaMax(),
                  x.lambdaMin(),
                  x.total(),
                  x.spectrumSum(),
                  x.traceGap(),
                  x.seconds(),
                  x.cached()
                }));
    files.add(
        Csv.table(
            dir.resolve("error_variants.csv"),
            "digit,setting,m,ell,exact,nystrom_eq19,nystrom_without_residual,nystrom_residual",
            result.variants(),
            (VariantRow v) ->
                new Object[] {
                  v.digit(),
                  v.setting(),
                  v.m(),
                  v.ell(),
                  v.exact(),
                  v.nystrom(),
                  v.withinSpan(),
                  v.residual()
                }));
    files.add(
        Csv.table(
            dir.resolve("error_variants_summary.csv"),
            "digit,setting,m,first_ell_without_residual_below_exact,first_ell_without_residual_below_half_exact,"
                + "without_residual_over_exact_at_ell1,first_ell_eq19_below_exact,exact_at_m,nystrom_eq19_at_m,"
                + "nystrom_without_residual_at_m",
            result.crossings(),
            (CrossingRow c) ->
                new Object[] {
                  c.digit(),
                  c.setting(),
                  c.m(),
                  c.firstEllWithinSpanBelowExact(),
                  c.firstEllWithinSpanBelowHalfExact(),
                  c.withinSpanOverExactAtEll1(),
                  c.firstEllNystromBelowExact(),
                  c.exactAtM(),
                  c.nystromAtM(),
                  c.withinSpanAtM()
                }));
    files.addAll(plots(result, dir));
    files.add(summary(result, dir.resolve("summary.txt")));
    return files;
  }

  private static List<Path> plots(Result result, Path dir) {
    List<Path> files = new ArrayList<>();
    Config c = result.config();
    for (int digit : c.digits()) {
      for (String setting : c.settings()) {
        List<ErrorRow> exact =
            result.errors().stream()
                .filter(
                    e ->
                        e.digit() == digit
                            && e.setting().equals(setting)
                            && e.method().equals("exact"))
                .toList();
        if (exact.isEmpty()) {
          continue;
        }
        int n = exact.get(0).m();
        double exactSeconds =
            result.runtimes().stream()
                .filter(
                    r ->
                        r.digit() == digit
                            && r.setting().equals(setting)
                            && r.method().equals("exact"))
                .findFirst()
                .orElseThrow()
                .meanSeconds();
        List<Charts.Line> lines = new ArrayList<>();
        lines.add(
            Charts.Line.of(
                    String.format(Locale.ROOT, "exact KPCA (%.0f s)", exactSeconds),
                    ells(exact),
                    exact.stream().mapToDouble(ErrorRow::mean).toArray())
                .withColor(Charts.PALETTE.get(0)));
        List<Charts.Line> variantLines = new ArrayList<>(lines);
        int colour = 1;
        for (int m : c.ms()) {
          List<ErrorRow> rows =
              result.errors().stream()
                  .filter(
                      e ->
                          e.digit() == digit
                              && e.setting().equals(setting)
                              && e.method().equals("nystrom")
                              && e.m() == m)
                  .toList();
          double seconds =
              result.runtimes().stream()
                  .filter(
                      r ->
                          r.digit() == digit
                              && r.setting().equals(setting)
                              && r.method().equals("nystrom")
                              && r.m() == m)
                  .findFirst()
                  .orElseThrow()
                  .meanSeconds();
          java.awt.Color color = Charts.PALETTE.get(colour++ % Charts.PALETTE.size());
          Charts.Line line =
              Charts.Line.of(
                      String.format(Locale.ROOT, "m = %d (%.1f s)", m, seconds),
                      ells(rows),
                      rows.stream().mapToDouble(ErrorRow::mean).toArray())
                  .withColor(color);
          lines.add(
              line.withBand(
                  rows.stream().mapToDouble(ErrorRow::lower).toArray(),
                  rows.stream().mapToDouble(ErrorRow::upper).toArray()));
          List<VariantRow> v =
              result.variants().stream()
                  .filter(x -> x.digit() == digit && x.setting().equals(setting) && x.m() == m)
                  .toList();
          variantLines.add(
              Charts.Line.of(
                      "m = " + m + ": eq. (19)",
                      ells(rows),
                      v.stream().mapToDouble(VariantRow::nystrom).toArray())
                  .withColor(color));
          variantLines.add(
              Charts.Line.of(
                      "m = " + m + ": without the Nystrom residual",
                      ells(rows),
                      v.stream().mapToDouble(VariantRow::withinSpan).toArray())
                  .withColor(color)
                  .asDashed());
        }
        String what = String.format(Locale.ROOT, "MNIST digit %d (n = %d), %s", digit, n, setting);
        files.add(
            Charts.lineChart(
                dir.resolve(
                    String.format(
                        Locale.ROOT, "reconstruction_error_digit%d_%s.png", digit, setting)),
                new Charts.Axes(
                    String.format(
                        Locale.ROOT,
                        "%s: training reconstruction error, mean +- 2 sd of %d reps; exact KPCA %.0f s",
                        what,
                        c.reps(),
                        exactSeconds),
                    "number of components l",
                    "reconstruction error R(l)",
                    false),
                lines));
        files.add(
            Charts.lineChart(
                dir.resolve(
                    String.format(Locale.ROOT, "error_variants_digit%d_%s.png", digit, setting)),
                new Charts.Axes(
                    what + ": Nystrom error with and without its residual (1/n) tr(K - K~)",
                    "number of components l",
                    "reconstruction error (log scale)",
                    true),
                variantLines));
      }
    }
    return files;
  }

  private static double[] ells(List<ErrorRow> rows) {
    return rows.stream().mapToDouble(ErrorRow::ell).toArray();
  }

  private static Path summary(Result r, Path file) {
    List<String> lines = new ArrayList<>();
    Config c = r.config();
    lines.add(
        "Sterge et al. reproduction: digits "
            + c.digits()
            + ", m = "
            + c.ms()
            + ", reps = "
            + c.reps()
            + ", gamma = "
            + c.gamma()
            + (c.limit() > 0 ? ", first " + c.limit() + " images" : "")
            + ", settings "
            + c.settings());
    lines.addAll(RunClock.summaryHead(r.blas(), r.environment(), r.wallSeconds()));
    lines.add(
        String.format(
            Locale.ROOT,
            "Ky Fan: %d checks, %d violations (R_nys(l) < R_exact(l))",
            r.kyFanChecks(),
            r.kyFanViolations()));
    for (ExactRow x : r.exact()) {
      lines.add(
          String.format(
              Locale.ROOT,
              "exact digit %d %s: n = %d, %.1f s%s, rank %d (%d dropped), "
                  + "lambda_max %.6g, lambda_min kept %.3g, total - sum(eigenvalues) = %.3g",
              x.digit(),
              x.setting(),
              x.n(),
              x.seconds(),
              x.cached() ? " (cached)" : "",
              x.rank(),
              x.dropped(),
              x.lambdaMax(),
              x.lambdaMin(),
              x.traceGap()));
    }
    for (RuntimeRow t : r.runtimes()) {
      if (t.method().equals("nystrom")) {
        lines.add(
            String.format(
                Locale.ROOT,
                "nystrom digit %d %s m = %d: %.2f s +- %.2f s per fit",
                t.digit(),
                t.setting(),
                t.m(),
                t.meanSeconds(),
                t.sdSeconds()));
      }
    }
    for (CrossingRow x : r.crossings()) {
      lines.add(
          String.format(
              Locale.ROOT,
              "digit %d %s m = %d: without the residual the Nystrom error is below "
                  + "exact from l = %s (%.2f of it at l = 1) and below half of it from l = %s; eq. (19) %s",
              x.digit(),
              x.setting(),
              x.m(),
              x.firstEllWithinSpanBelowExact() == 0
                  ? "never"
                  : String.valueOf(x.firstEllWithinSpanBelowExact()),
              x.withinSpanOverExactAtEll1(),
              x.firstEllWithinSpanBelowHalfExact() == 0
                  ? "never"
                  : String.valueOf(x.firstEllWithinSpanBelowHalfExact()),
              x.firstEllNystromBelowExact() == 0
                  ? "never drops below exact"
                  : "drops below exact at l = " + x.firstEllNystromBelowExact()));
    }
    return Csv.write(file, lines.get(0), lines.subList(1, lines.size()));
  }
}
