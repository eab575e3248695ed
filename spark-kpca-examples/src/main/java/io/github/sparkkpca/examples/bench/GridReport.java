package io.github.sparkkpca.examples.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@code spark-kpca bench} prints and writes: its progress lines, the table of grid points and
 * baselines, and {@code bench.csv}, {@code compare.csv} and the plots of {@link BenchCharts}.
 */
final class GridReport {

  private final PrintWriter console;

  GridReport(PrintWriter console) {
    this.console = console;
  }

  void say(String format, Object... args) {
    BenchOutput.say(console, "spark-kpca bench", format, args);
  }

  void printRow(BenchRow r, boolean header) {
    if (header) {
      console.println(
          String.format(
              Locale.ROOT,
              "%-38s %9s %4s %5s %5s %4s %8s %7s %8s %7s %8s %8s %6s %12s %6s %8s %8s %8s %7s",
              "input",
              "n",
              "d",
              "m",
              "r",
              "k",
              "fit s",
              "scan s",
              "stats s",
              "drv s",
              "GFLOP",
              "bound s",
              "eff",
              "transform/s",
              "t.eff",
              "RSS MB",
              "heap MB",
              "route",
              "min.eff"));
    }
    console.println(
        String.format(
            Locale.ROOT,
            "%-38s %9d %4d %5d %5d %4d %8.2f %7.2f %8.2f %7.2f %8.0f %8.2f %6.3f %12s %6s %8s %8s %8s %7.3f",
            r.input(),
            r.n(),
            r.d(),
            r.m(),
            r.r(),
            r.k(),
            r.fitSeconds(),
            r.scanSeconds(),
            r.statsSeconds(),
            r.driverSeconds(),
            r.flops().fitFlops() / 1e9,
            r.fitBoundSeconds(),
            r.fitEfficiency(),
            Double.isFinite(r.transformSeconds())
                ? String.format(Locale.ROOT, "%.0f", r.transformRowsPerSecond())
                : "-",
            Double.isFinite(r.transformSeconds())
                ? String.format(Locale.ROOT, "%.3f", r.transformEfficiency())
                : "-",
            BenchRow.mb(r.peakRssBytes()),
            BenchRow.mb(r.peakHeapBytes()),
            r.statisticsRoute(),
            r.minimalBoundSeconds() / r.fitSeconds()));
    console.flush();
  }

  void printComparison(CompareRow c) {
    console.println(
        String.format(
            Locale.ROOT,
            "  vs %s: %s, fit %s s vs spark-kpca %.2f s: spark-kpca %s× faster; "
                + "explained variance max rel. diff %s, ratio max abs. diff %s; peak %s MB",
            c.system(),
            c.status(),
            BenchRow.num(c.seconds()),
            c.sparkKpcaSeconds(),
            BenchRow.num(c.speedup()),
            BenchRow.num(c.evMaxRelDiff()),
            BenchRow.num(c.evrMaxAbsDiff()),
            BenchRow.mb(c.peakRssBytes())));
    if (!c.note().isEmpty()) {
      console.println("     " + c.note());
    }
    console.flush();
  }

  /** Writes the result files into {@code out}, the plots unless {@code plots} is false. */
  void writeResults(Path out, boolean plots, List<BenchRow> rows, List<CompareRow> comparisons)
      throws IOException {
    Path csv = out.resolve("bench.csv");
    List<String> lines = new ArrayList<>(List.of(BenchRow.header()));
    rows.forEach(r -> lines.add(r.csvLine()));
    Files.write(csv, lines, StandardCharsets.UTF_8);
    say("wrote %s", csv);
    if (!comparisons.isEmpty()) {
      Path cmp = out.resolve("compare.csv");
      List<String> c = new ArrayList<>(List.of(CompareRow.header()));
      comparisons.forEach(r -> c.add(r.csvLine()));
      Files.write(cmp, c, StandardCharsets.UTF_8);
      say("wrote %s", cmp);
    }
    if (plots && !rows.isEmpty()) {
      BenchRow first = rows.get(0);
      String subtitle =
          String.format(
              Locale.ROOT,
              " (%s, %.0f GFLOP/s dgemm)",
              first.dgemm().implementation(),
              first.dgemm().gflops());
      for (Path p : BenchCharts.writeAll(rows, out, subtitle)) {
        say("wrote %s", p);
      }
      if (!comparisons.isEmpty()) {
        say("wrote %s", BenchCharts.comparison(comparisons, out, subtitle));
      }
    }
  }
}
