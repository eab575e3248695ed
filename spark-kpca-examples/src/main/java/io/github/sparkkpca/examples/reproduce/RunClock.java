package io.github.sparkkpca.examples.reproduce;

import io.github.sparkkpca.linalg.Blas;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The frame every reproduction runs in: the BLAS and the machine's load at the start, the wall
 * clock, the first progress line, and the lines that open each {@code summary.txt}.
 */
final class RunClock {

  private final long start = System.nanoTime();
  private final String blas = Blas.implementation();
  private final String loadAtStart = Environment.load();

  private RunClock() {}

  /** Starts the clock. */
  static RunClock start() {
    return new RunClock();
  }

  /** Starts the clock and reports {@code BLAS = ...; settings} to {@code progress}. */
  static RunClock start(Consumer<String> progress, String settings) {
    RunClock clock = start();
    progress.accept("BLAS = " + clock.blas + "; " + settings);
    return clock;
  }

  /** The BLAS implementation the run used. */
  String blas() {
    return blas;
  }

  /** Seconds since {@link #start}. */
  double seconds() {
    return (System.nanoTime() - start) / 1e9;
  }

  /** The machine the times were taken on: cores, Java, heap and the load at start and now. */
  String environment() {
    return Environment.describe(loadAtStart);
  }

  /**
   * The end of a run: when {@code out} is set, the files {@code write} writes there added to {@code
   * files} and counted; then the Ky Fan line.
   */
  static void finish(
      Consumer<String> progress,
      Path out,
      List<Path> files,
      Supplier<List<Path>> write,
      long checks,
      long violations,
      double wall) {
    if (out != null) {
      files.addAll(write.get());
      progress.accept("wrote " + files.size() + " files to " + out);
    }
    reportKyFan(progress, checks, violations, wall);
  }

  /** The last progress line: the Ky Fan checks and the run's wall time. */
  static void reportKyFan(Consumer<String> progress, long checks, long violations, double wall) {
    progress.accept(
        String.format(
            Locale.ROOT,
            "Ky Fan: %d checks, %d violations; %.1f s in all",
            checks,
            violations,
            wall));
  }

  /** The lines that open a summary: BLAS, machine and wall time. */
  static List<String> summaryHead(String blas, String environment, double wallSeconds) {
    List<String> lines = new ArrayList<>();
    lines.add("BLAS = " + blas);
    lines.add("machine: " + environment);
    lines.add(String.format(Locale.ROOT, "wall time of the run: %.1f s", wallSeconds));
    return lines;
  }

  /**
   * Whether an error of a compressed (Nyström) spectrum is below the exact one beyond rounding, a
   * violation of Ky Fan's maximum principle: tolerance 1e-9·|exact| + 1e-15·|total|.
   */
  static boolean belowExact(double error, double exact, double total) {
    return error < exact - (1e-9 * Math.abs(exact) + 1e-15 * Math.abs(total));
  }
}
