package io.github.sparkkpca.examples.reproduce;

/** Mean and sample standard deviation over repetitions. */
final class Stats {

  private Stats() {}

  static double mean(double[] values) {
    double s = 0;
    for (double v : values) {
      s += v;
    }
    return s / values.length;
  }

  /** The sample standard deviation (divisor r − 1); 0 for a single value. */
  static double sd(double[] values) {
    if (values.length < 2) {
      return 0.0;
    }
    double mean = mean(values);
    double s = 0;
    for (double v : values) {
      s += (v - mean) * (v - mean);
    }
    return Math.sqrt(s / (values.length - 1));
  }
}
