package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.examples.data.MnistIdx;
import io.github.sparkkpca.examples.reproduce.StergeReproduction;
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
 * {@code spark-kpca reproduce sterge}: Sterge et al. (AISTATS 2020) Figures 1 and 2, exact vs
 * Nyström kernel PCA reconstruction error on MNIST digits, with the Ky Fan check; see {@link
 * StergeReproduction}.
 */
@Command(
    name = "sterge",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Reproduce Sterge et al. (AISTATS 2020), Figures 1 and 2: training reconstruction error of exact "
          + "and Nystrom kernel PCA (uniform landmarks) on MNIST digits, l = 1..m, mean +- 2 sd over repetitions, "
          + "uncentred (as the paper) and centred.",
      "Writes reconstruction_error.csv, runtime.csv, kyfan.csv, exact_spectrum.csv, error_variants.csv, "
          + "error_variants_summary.csv, summary.txt and PNG charts into --out."
    })
public final class StergeCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ReproductionOptions reproduction;

  @Option(
      names = "--digits",
      split = ",",
      paramLabel = "D",
      defaultValue = "5,2",
      description = "MNIST training digits. Default: ${DEFAULT-VALUE}.")
  List<Integer> digits;

  @Option(
      names = "--m",
      split = ",",
      paramLabel = "M",
      defaultValue = "100,500,1000",
      description = "Numbers of landmarks. Default: ${DEFAULT-VALUE}.")
  List<Integer> ms;

  @Option(
      names = "--reps",
      paramLabel = "R",
      defaultValue = "10",
      description = "Repetitions per m, seeds 1..R (the paper: 100). Default: ${DEFAULT-VALUE}.")
  int reps;

  @Option(
      names = "--gamma",
      paramLabel = "G",
      defaultValue = "1e-7",
      description =
          "Gaussian kernel exp(-gamma |x-y|^2) on raw 0-255 pixels. Default: ${DEFAULT-VALUE}.")
  double gamma;

  @Option(
      names = "--settings",
      split = ",",
      paramLabel = "S",
      defaultValue = "uncentred,centred",
      description = "uncentred (the paper) and/or centred. Default: ${DEFAULT-VALUE}.")
  List<String> settings;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "0",
      description =
          "Use only the first N images of each digit (0: all). Default: ${DEFAULT-VALUE}.")
  int limit;

  @Option(
      names = "--mnist-dir",
      paramLabel = "DIR",
      description =
          "Directory of the MNIST IDX files (default: $MNIST_DIR, else ~/.cache/spark-kpca/mnist; "
              + "bin/fetch-mnist downloads them).")
  Path mnistDir;

  @Mixin ReproductionOptions.ExactSpectra exactSpectra;

  @Mixin SparkOptions sparkOptions;

  @Override
  public Integer call() {
    StergeReproduction.Config config = config();
    PrintWriter w = spec.commandLine().getOut();
    try (ManagedSession spark = ManagedSession.open(sparkOptions.master)) {
      StergeReproduction.Result r =
          StergeReproduction.run(
              spark.session(), config, line -> SparkKpcaCli.progress(w, "%s", line));
      w.printf(
          Locale.ROOT,
          "Ky Fan check: %d checks, %d violations%n",
          r.kyFanChecks(),
          r.kyFanViolations());
      for (StergeReproduction.RuntimeRow t : r.runtimes()) {
        w.printf(
            Locale.ROOT,
            "runtime digit %d %-9s %-7s m = %-5d %8.2f s +- %.2f s%n",
            t.digit(),
            t.setting(),
            t.method(),
            t.m(),
            t.meanSeconds(),
            t.sdSeconds());
      }
      w.printf(Locale.ROOT, "results in %s (%.1f s)%n", reproduction.out, r.wallSeconds());
      w.flush();
    }
    return 0;
  }

  StergeReproduction.Config config() {
    SparkKpcaCli.require(spec, reps >= 1, "--reps must be >= 1, got " + reps);
    SparkKpcaCli.require(
        spec, gamma > 0 && Double.isFinite(gamma), "--gamma must be finite and > 0, got " + gamma);
    SparkKpcaCli.require(spec, limit >= 0, "--limit must be >= 0, got " + limit);
    exactSpectra.validate(spec);
    for (int d : digits) {
      SparkKpcaCli.require(spec, d >= 0 && d <= 9, "--digits must be 0..9, got " + d);
    }
    for (int m : ms) {
      SparkKpcaCli.require(spec, m >= 1, "--m must be >= 1, got " + m);
    }
    List<String> s = settings.stream().map(x -> x.trim().toLowerCase(Locale.ROOT)).toList();
    for (String x : s) {
      SparkKpcaCli.require(
          spec,
          x.equals(StergeReproduction.UNCENTRED) || x.equals(StergeReproduction.CENTRED),
          "--settings: expected uncentred and/or centred, got '" + x + "'");
    }
    return new StergeReproduction.Config(
        digits,
        ms,
        reps,
        gamma,
        limit,
        s,
        mnistDir != null ? mnistDir : MnistIdx.defaultDirectory(),
        exactSpectra.partitions,
        exactSpectra.exactCache,
        reproduction.out);
  }
}
