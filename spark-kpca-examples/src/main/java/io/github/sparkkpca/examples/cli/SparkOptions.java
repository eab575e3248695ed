package io.github.sparkkpca.examples.cli;

import picocli.CommandLine.Option;

/** The Spark options every command has (a picocli mixin). */
public final class SparkOptions {

  @Option(names = "--master", paramLabel = "URL",
      description = "Spark master when no session is running, e.g. local[4] or spark://host:7077. Default: "
          + "spark.master from spark-submit, else local[*].")
  String master;
}
