package io.github.sparkkpca.examples.reproduce;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/** The machine a run was timed on: cores and load, to read the wall times in context. */
final class Environment {

  private Environment() {}

  /** The system load average of the last minute, or "n/a". */
  static String load() {
    double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    return load < 0 ? "n/a" : String.format(Locale.ROOT, "%.2f", load);
  }

  /** e.g. {@code 2 cores, Java 17.0.15, load average 1.20 at the start and 2.05 at the end}. */
  static String describe(String loadAtStart) {
    return Runtime.getRuntime().availableProcessors()
        + " cores, Java "
        + System.getProperty("java.version")
        + ", max heap "
        + Runtime.getRuntime().maxMemory() / (1 << 20)
        + " MiB, 1-minute load average "
        + loadAtStart
        + " at the start and "
        + load()
        + " at the end";
  }
}
