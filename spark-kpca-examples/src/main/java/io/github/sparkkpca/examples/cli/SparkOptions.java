package io.github.sparkkpca.examples.cli;

import picocli.CommandLine.Option;

/** The Spark options every command has (a picocli mixin). */
public final class SparkOptions {

  @Option(
      names = "--master",
      paramLabel = "URL",
      description =
          "Spark master when no session is running, e.g. local[4] or spark://host:7077. Default: "
              + "spark.master from spark-submit, else local[*].")
  String master;

  @Option(
      names = "--progress-interval",
      paramLabel = "SECONDS",
      defaultValue = "10",
      description =
          "Print the progress of Spark jobs running longer than this, every SECONDS (0: off). "
              + "Default: ${DEFAULT-VALUE}.")
  double progressInterval;

  /** Fails with a usage error on a bad value, before Spark starts. */
  void validate(picocli.CommandLine.Model.CommandSpec spec) {
    SparkKpcaCli.require(
        spec,
        progressInterval >= 0 && Double.isFinite(progressInterval),
        "--progress-interval must be finite and >= 0, got " + progressInterval);
  }

  /** Starts console progress on the session's jobs (null when off). */
  ConsoleProgress progress(ManagedSession spark, java.io.PrintWriter out) {
    return ConsoleProgress.start(spark.session().sparkContext(), out, progressInterval);
  }
}
