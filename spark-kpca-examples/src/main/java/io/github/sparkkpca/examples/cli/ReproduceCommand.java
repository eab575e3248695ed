package io.github.sparkkpca.examples.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca reproduce}: paper reproductions and comparisons that write CSV files and
 * charts.
 */
@Command(
    name = "reproduce",
    mixinStandardHelpOptions = true,
    description =
        "Reproduce a paper's experiment or run a comparison; writes CSV files and PNG charts.",
    subcommands = {
      StergeCommand.class,
      LandmarksCommand.class,
      HallgrenCommand.class,
      RdeReproductionCommand.class
    })
public final class ReproduceCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    throw SparkKpcaCli.usage(spec, "an experiment is needed: hallgren, rde, sterge or landmarks");
  }
}
