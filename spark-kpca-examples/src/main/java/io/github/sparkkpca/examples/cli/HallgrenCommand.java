package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.examples.data.MnistIdx;
import io.github.sparkkpca.examples.reproduce.HallgrenReproduction;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca reproduce hallgren}: experiments of Hallgren's thesis; see {@link
 * HallgrenReproduction}.
 */
@Command(
    name = "hallgren",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Hallgren (2021), Kernel PCA and the Nystrom method, on MNIST and synthetic data: the residual "
          + "curve of ch. 3 (Fig. 3.5), MPRESS-selected k (Table 5.1), Theorem 4's bound against the measured error "
          + "(Figs 6.1-6.3) and held-out variance of Nystrom vs subset PCA vs exact KPCA (Table 6.1).",
      "Writes CSV files, PNG charts and summary.txt into --out."
    })
public final class HallgrenCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ReproductionOptions reproduction;

  @Option(
      names = "--experiments",
      split = ",",
      paramLabel = "NAME",
      defaultValue = "residual,select-k,bound,variance",
      description = "Which experiments. Default: ${DEFAULT-VALUE}.")
  List<String> experiments;

  @Option(
      names = "--n",
      paramLabel = "N",
      defaultValue = "1000",
      description =
          "Rows per data set (residual, bound, variance; >= 100). Default: ${DEFAULT-VALUE}.")
  int n;

  @Option(
      names = "--reps",
      paramLabel = "R",
      defaultValue = "10",
      description =
          "Random orders, landmark draws or splits per data set. Default: ${DEFAULT-VALUE}.")
  int reps;

  @Option(
      names = "--m",
      paramLabel = "M",
      defaultValue = "100",
      description = "Landmarks of the bound and variance experiments. Default: ${DEFAULT-VALUE}.")
  int m;

  @Option(
      names = "--mnist-dir",
      paramLabel = "DIR",
      description =
          "Directory of the MNIST IDX files (default: $MNIST_DIR, else ~/.cache/spark-kpca/mnist).")
  Path mnistDir;

  @Mixin SparkOptions sparkOptions;

  @Override
  public Integer call() throws Exception {
    List<String> chosen = experiments.stream().map(x -> x.trim().toLowerCase(Locale.ROOT)).toList();
    for (String x : chosen) {
      SparkKpcaCli.require(
          spec,
          HallgrenReproduction.EXPERIMENTS.contains(x),
          "--experiments: expected "
              + String.join(", ", HallgrenReproduction.EXPERIMENTS)
              + ", got '"
              + x
              + "'");
    }
    SparkKpcaCli.require(spec, n >= 100, "--n must be >= 100, got " + n);
    SparkKpcaCli.require(spec, reps >= 1, "--reps must be >= 1, got " + reps);
    SparkKpcaCli.require(spec, m >= 11 && 2 * m <= n, "--m must be in [11, n / 2], got " + m);
    sparkOptions.validate(spec);
    PrintWriter w = spec.commandLine().getOut();
    try (ManagedSession spark = ManagedSession.open(sparkOptions.master)) {
      List<Path> files =
          HallgrenReproduction.run(
              spark.session(),
              new HallgrenReproduction.Config(
                  reproduction.out,
                  mnistDir == null ? MnistIdx.defaultDirectory() : mnistDir,
                  chosen,
                  n,
                  reps,
                  m),
              line -> SparkKpcaCli.progress(w, "%s", line));
      SparkKpcaCli.progress(w, "wrote %d files to %s", files.size(), reproduction.out);
    }
    return 0;
  }
}
