package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.examples.data.BreimanData;
import io.github.sparkkpca.examples.reproduce.RdeReproduction;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca reproduce rde}: Braun, Buhmann and Müller's table for twonorm, ringnorm and
 * waveform.
 */
@Command(
    name = "rde",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Braun, Buhmann and Mueller's table (relevant dimension, dim (cv), estimated error, kPCR and "
          + "KRR test error) on Breiman's twonorm, ringnorm and waveform with the IDA protocol: 400 training rows, "
          + "7000/7000/4600 test rows, R resamples.",
      "Writes resamples.csv, table.csv and table.md into --out."
    })
public final class RdeReproductionCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ReproductionOptions reproduction;

  @Option(
      names = "--datasets",
      split = ",",
      paramLabel = "NAME",
      defaultValue = "twonorm,ringnorm,waveform",
      description = "Problems. Default: ${DEFAULT-VALUE}.")
  List<String> datasets;

  @Option(
      names = "--resamples",
      paramLabel = "R",
      defaultValue = "20",
      description =
          "Resamples per problem (the paper's benchmark has 100). Default: ${DEFAULT-VALUE}.")
  int resamples;

  @Option(
      names = "--max-dimension",
      paramLabel = "K",
      defaultValue = "100",
      description = "Largest d evaluated. Default: ${DEFAULT-VALUE}.")
  int maxDimension;

  @Mixin OverwriteOption output;

  @Mixin SparkOptions sparkOptions;

  @Override
  public Integer call() throws Exception {
    SparkKpcaCli.require(spec, resamples >= 1, "--resamples must be >= 1, got " + resamples);
    SparkKpcaCli.require(
        spec, maxDimension >= 1, "--max-dimension must be >= 1, got " + maxDimension);
    SparkKpcaCli.require(
        spec,
        output.overwrite || !Files.exists(reproduction.out.resolve("table.md")),
        "--out "
            + reproduction.out
            + " holds a "
            + "table.md already; give --overwrite to replace it");
    List<BreimanData.Problem> problems = new ArrayList<>();
    for (String d : datasets) {
      BreimanData.Problem p = BreimanData.Problem.of(d);
      SparkKpcaCli.require(
          spec,
          p != null && !d.contains(":"),
          "--datasets: expected twonorm, ringnorm or " + "waveform, got '" + d + "'");
      problems.add(p);
    }
    sparkOptions.validate(spec);
    PrintWriter w = spec.commandLine().getOut();
    try (ManagedSession spark = ManagedSession.open(sparkOptions.master)) {
      Path table =
          RdeReproduction.run(
              spark.session(),
              new RdeReproduction.Config(problems, resamples, maxDimension, reproduction.out),
              line -> SparkKpcaCli.progress(w, "%s", line));
      w.print(Files.readString(table));
      w.flush();
    }
    return 0;
  }
}
