package io.github.sparkkpca.examples.cli;

import org.apache.spark.sql.streaming.Trigger;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The trigger options of the streaming commands ({@code stream}, {@code score-stream}; a picocli
 * mixin): which files a micro-batch takes and when it starts, validated and turned into Spark's
 * {@link Trigger} in one place.
 */
public final class TriggerOptions {

  @Option(names = "--available-now", description = "Process the files present now, then stop.")
  boolean availableNow;

  @Option(
      names = "--max-files-per-trigger",
      paramLabel = "N",
      description = "At most N new files per micro-batch (default: all new files).")
  Integer maxFilesPerTrigger;

  @Option(
      names = "--trigger-interval",
      paramLabel = "SECONDS",
      defaultValue = "0",
      description =
          "Without --available-now: start a micro-batch every SECONDS (0: as soon as the previous one "
              + "ends). Default: ${DEFAULT-VALUE}.")
  double triggerInterval;

  /** Checks the options (they need no file system), before Spark starts. */
  void validate(CommandSpec spec) {
    SparkKpcaCli.require(
        spec,
        maxFilesPerTrigger == null || maxFilesPerTrigger >= 1,
        "--max-files-per-trigger must be >= 1, got " + maxFilesPerTrigger);
    SparkKpcaCli.require(
        spec,
        triggerInterval >= 0 && Double.isFinite(triggerInterval),
        "--trigger-interval must be finite and >= 0, got " + triggerInterval);
    SparkKpcaCli.require(
        spec,
        !availableNow || triggerInterval == 0,
        "--trigger-interval does not apply with --available-now");
  }

  /** Spark's trigger: the files present now, or a micro-batch every --trigger-interval. */
  Trigger trigger() {
    return availableNow
        ? Trigger.AvailableNow()
        : Trigger.ProcessingTime((long) (triggerInterval * 1000));
  }

  /** The text of progress lines: what the query reads and how it stops. */
  String until() {
    return availableNow ? ", the files present now" : "; stop with Ctrl-C";
  }
}
