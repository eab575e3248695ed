package io.github.sparkkpca.examples.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * What the {@code bench} commands share in reporting: their progress lines, the refusal of a bad
 * option, the median over rounds, the cells of a CSV line and the CSV file.
 */
final class BenchOutput {

  private BenchOutput() {}

  /** Prints {@code "<command>: "} and the line, flushed so that progress shows as it happens. */
  static void say(PrintWriter console, String command, String format, Object... args) {
    console.println(command + ": " + String.format(Locale.ROOT, format, args));
    console.flush();
  }

  /** Fails with a usage error (exit code 2) when {@code condition} is false. */
  static void require(CommandSpec spec, boolean condition, String message) {
    if (!condition) {
      throw new ParameterException(spec.commandLine(), message);
    }
  }

  /** The median of the values (the mean of the middle two of an even count); NaN for none. */
  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int h = sorted.length / 2;
    return sorted.length == 0
        ? Double.NaN
        : sorted.length % 2 == 1 ? sorted[h] : (sorted[h - 1] + sorted[h]) / 2;
  }

  /** The median of the values; NaN for none. */
  static double median(List<Double> values) {
    return median(values.stream().mapToDouble(Double::doubleValue).toArray());
  }

  /** The measured values (NaN left out) as six-digit cells, space-separated. */
  static String cells(double[] values) {
    List<String> cells = new ArrayList<>();
    for (double v : values) {
      if (!Double.isNaN(v)) {
        cells.add(BenchRow.num(v));
      }
    }
    return String.join(" ", cells);
  }

  /** Writes the lines into {@code out}, creating its directory. */
  static void writeLines(Path out, List<String> lines) throws IOException {
    if (out.toAbsolutePath().getParent() != null) {
      Files.createDirectories(out.toAbsolutePath().getParent());
    }
    Files.write(out, lines, StandardCharsets.UTF_8);
  }
}
