package io.github.sparkkpca.examples.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A child process of a bench, measured as a whole: its wall time from start to exit, its peak
 * resident set and how it ended. Its output goes into a log file, which is where a failure is
 * looked for (an {@code OutOfMemoryError} anywhere in it, else its last line).
 *
 * <p>The peak resident set is the child's {@code VmHWM} ({@code /proc/<pid>/status}) read every
 * {@value #POLL_MS} ms while it runs: a lower bound that misses at most the growth of the last
 * {@value #POLL_MS} ms. {@code bin/spark-kpca} replaces its shell by the JVM ({@code exec}), so the
 * pid polled is the JVM's.
 */
final class ChildProcess {

  private static final long POLL_MS = 100;

  private ChildProcess() {}

  /**
   * How a child ended.
   *
   * @param exitCode its exit code (-1 when it was killed at the time limit)
   * @param seconds wall time from start to exit
   * @param peakRssBytes the largest VmHWM read, or -1
   * @param timedOut whether it was killed at the time limit
   * @param outOfMemory whether its log holds an OutOfMemoryError
   * @param lastLine the first OutOfMemoryError line of its log with the project's frame that raised
   *     it, else the log's last non-blank line (the error, when it failed)
   * @param log the log file
   */
  record Outcome(
      int exitCode,
      double seconds,
      long peakRssBytes,
      boolean timedOut,
      boolean outOfMemory,
      String lastLine,
      Path log) {

    boolean ok() {
      return exitCode == 0 && !timedOut && !outOfMemory;
    }

    /** ok, out-of-memory, timeout or "failed (exit N)". */
    String status() {
      if (outOfMemory) {
        return "out-of-memory";
      }
      if (timedOut) {
        return "timeout";
      }
      return exitCode == 0 ? "ok" : "failed (exit " + exitCode + ")";
    }

    /** "" when ok, else the status, when it ended, the error and the log's path. */
    String message() {
      return ok()
          ? ""
          : String.format(
              java.util.Locale.ROOT,
              "%s after %.1f s: %s (log %s)",
              status(),
              seconds,
              lastLine,
              log);
    }
  }

  /**
   * Runs {@code command} with {@code env} added to this process's environment, its output into
   * {@code log}; kills it (and its descendants) after {@code limitSeconds}.
   */
  static Outcome run(List<String> command, Map<String, String> env, Path log, long limitSeconds)
      throws IOException, InterruptedException {
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().putAll(env);
    long start = System.nanoTime();
    Process process = builder.start();
    Path status = Path.of("/proc", Long.toString(process.pid()), "status");
    long peak = -1;
    long deadline = start + TimeUnit.SECONDS.toNanos(limitSeconds);
    boolean timedOut = false;
    while (!process.waitFor(POLL_MS, TimeUnit.MILLISECONDS)) {
      peak = Math.max(peak, vmHwm(status));
      if (System.nanoTime() > deadline) {
        timedOut = true;
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor();
        break;
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    // Decoded leniently: a log is not refused for a stray byte.
    String[] lines = new String(Files.readAllBytes(log), StandardCharsets.UTF_8).split("\n");
    String last = "";
    String oom = null;
    for (int i = 0; i < lines.length; i++) {
      if (oom == null && lines[i].contains("OutOfMemoryError")) {
        // The error and the project's frame that asked for the memory, not the trace's last line.
        oom = lines[i].trim();
        for (int j = i + 1; j < lines.length && lines[j].trim().startsWith("at "); j++) {
          if (lines[j].contains("io.github.sparkkpca.")) {
            oom += " " + lines[j].trim();
            break;
          }
        }
      }
      if (!lines[i].isBlank()) {
        last = lines[i].trim();
      }
    }
    return new Outcome(
        timedOut ? -1 : process.exitValue(),
        seconds,
        peak,
        timedOut,
        oom != null,
        oom != null ? oom : last,
        log);
  }

  private static long vmHwm(Path status) {
    try {
      return PeakMemory.parseStatusField(Files.readString(status), "VmHWM:");
    } catch (IOException | RuntimeException e) {
      return -1; // exited between the poll and the read, or no /proc
    }
  }
}
