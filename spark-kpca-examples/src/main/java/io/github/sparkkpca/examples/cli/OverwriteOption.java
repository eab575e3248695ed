package io.github.sparkkpca.examples.cli;

import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --overwrite} (a picocli mixin) of every command that writes files, and the {@link
 * OutputTargets} it governs. What a command replaces differs, so each command's help text is the
 * key {@code <command path>.overwrite} of the CLI's resource bundle ({@code
 * SparkKpcaCli.properties}).
 */
public final class OverwriteOption {

  @Option(
      names = "--overwrite",
      descriptionKey = "overwrite",
      description = "Replace the outputs of an earlier run written by spark-kpca.")
  boolean overwrite;

  /**
   * The outputs of this run, checked against each other and against {@code reads}, the paths the
   * command reads with the options that name them (never replaced, never written into).
   */
  OutputTargets targetsReading(ManagedSession spark, List<OutputRules.Named> reads) {
    return new OutputTargets(
        spark.session().sparkContext().hadoopConfiguration(), overwrite, reads);
  }
}
