package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.examples.data.ImageData;
import io.github.sparkkpca.examples.data.MnistIdx;
import io.github.sparkkpca.examples.reproduce.LandmarkComparison;
import io.github.sparkkpca.examples.reproduce.LandmarkComparisonConfig;
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
 * {@code spark-kpca reproduce landmarks}: uniform vs leverage-score vs k-means landmarks at equal
 * m; see {@link LandmarkComparison}.
 */
@Command(
    name = "landmarks",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Compare landmark selection (uniform, leverage, kmeans) at equal m: centred Nystrom "
          + "reconstruction error at a few l relative to exact kernel PCA, and fit time, over seeds 1..R.",
      "Writes landmarks.csv, datasets.csv, summary.txt and PNG charts into --out."
    })
public final class LandmarksCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ReproductionOptions reproduction;

  @Option(
      names = "--datasets",
      split = ",",
      paramLabel = "SPEC",
      defaultValue = "mnist:5,mnist:2,fashion:random:6000",
      description =
          "Data sets: mnist:D (MNIST training digit D), fashion:C (Fashion-MNIST training class C), "
              + "mnist:random:N or fashion:random:N (N training images drawn with seed 1). Default: ${DEFAULT-VALUE}.")
  List<String> datasets;

  @Option(
      names = "--m",
      split = ",",
      paramLabel = "M",
      defaultValue = "100,500",
      description = "Numbers of landmarks. Default: ${DEFAULT-VALUE}.")
  List<Integer> ms;

  @Option(
      names = "--ell",
      split = ",",
      paramLabel = "L",
      defaultValue = "10,50,100",
      description =
          "Components at which the error is compared (only l <= m). Default: ${DEFAULT-VALUE}.")
  List<Integer> ells;

  @Option(
      names = "--methods",
      split = ",",
      paramLabel = "NAME",
      defaultValue = "uniform,leverage,kmeans",
      description = "Landmark strategies. Default: ${DEFAULT-VALUE}.")
  List<String> methods;

  @Option(
      names = "--reps",
      paramLabel = "R",
      defaultValue = "5",
      description = "Seeds 1..R per method and m. Default: ${DEFAULT-VALUE}.")
  int reps;

  @Option(
      names = "--gamma",
      paramLabel = "G",
      defaultValue = "1e-7",
      description =
          "Gaussian kernel gamma for MNIST (raw 0-255 pixels). Default: ${DEFAULT-VALUE}.")
  double gamma;

  @Option(
      names = "--fashion-gamma",
      paramLabel = "G",
      description =
          "Gamma for Fashion-MNIST. Default: the median heuristic over the first 1000 images.")
  Double fashionGamma;

  @Option(
      names = "--kmeans-iter",
      paramLabel = "N",
      defaultValue = "0",
      description = "Lloyd iterations of kmeans landmarks (0: the library default, 20).")
  int kmeansIter;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "0",
      description =
          "Use only the first N images of each data set (0: all). Default: ${DEFAULT-VALUE}.")
  int limit;

  @Option(
      names = "--mnist-dir",
      paramLabel = "DIR",
      description =
          "Directory of the MNIST IDX files (default: $MNIST_DIR, else ~/.cache/spark-kpca/mnist).")
  Path mnistDir;

  @Option(
      names = "--fashion-dir",
      paramLabel = "DIR",
      description =
          "Directory of the Fashion-MNIST IDX files, plain or .gz (default: $FASHION_MNIST_DIR, else "
              + ImageData.DEBIAN_FASHION_DIR
              + ", Debian's dataset-fashion-mnist).")
  Path fashionDir;

  @Mixin ReproductionOptions.ExactSpectra exactSpectra;

  @Option(
      names = "--replot",
      description =
          "Only redraw the charts from the CSV files already in --out (no Spark, no fitting).")
  boolean replot;

  @Mixin SparkOptions sparkOptions;

  @Override
  public Integer call() {
    if (replot) {
      List<Path> files = LandmarkComparison.replot(reproduction.out);
      SparkKpcaCli.progress(
          spec.commandLine().getOut(), "redrew %d charts in %s", files.size(), reproduction.out);
      return 0;
    }
    LandmarkComparisonConfig config = config();
    PrintWriter w = spec.commandLine().getOut();
    try (ManagedSession spark = ManagedSession.open(sparkOptions.master)) {
      LandmarkComparison.Result r =
          LandmarkComparison.run(
              spark.session(), config, line -> SparkKpcaCli.progress(w, "%s", line));
      w.printf(
          Locale.ROOT,
          "%-22s %-9s %5s %4s %12s %12s %10s%n",
          "dataset",
          "method",
          "m",
          "l",
          "R(l)",
          "R/R_exact",
          "fit s");
      for (LandmarkComparison.Row row : r.rows()) {
        w.printf(
            Locale.ROOT,
            "%-22s %-9s %5d %4d %12.6g %12.5f %10.2f%n",
            row.dataset(),
            row.method(),
            row.m(),
            row.ell(),
            row.meanError(),
            row.meanRatio(),
            row.meanFitSeconds());
      }
      w.printf(
          Locale.ROOT,
          "Ky Fan check: %d checks, %d violations%n",
          r.kyFanChecks(),
          r.kyFanViolations());
      w.printf(Locale.ROOT, "results in %s (%.1f s)%n", reproduction.out, r.wallSeconds());
      w.flush();
    }
    return 0;
  }

  LandmarkComparisonConfig config() {
    SparkKpcaCli.require(spec, reps >= 1, "--reps must be >= 1, got " + reps);
    SparkKpcaCli.require(
        spec, gamma > 0 && Double.isFinite(gamma), "--gamma must be finite and > 0, got " + gamma);
    SparkKpcaCli.require(
        spec,
        fashionGamma == null || (fashionGamma > 0 && Double.isFinite(fashionGamma)),
        "--fashion-gamma must be finite and > 0, got " + fashionGamma);
    SparkKpcaCli.require(spec, kmeansIter >= 0, "--kmeans-iter must be >= 0, got " + kmeansIter);
    SparkKpcaCli.require(spec, limit >= 0, "--limit must be >= 0, got " + limit);
    exactSpectra.validate(spec);
    List<String> m = methods.stream().map(x -> x.trim().toLowerCase(Locale.ROOT)).toList();
    for (String x : m) {
      SparkKpcaCli.require(
          spec,
          LandmarkComparison.METHODS.contains(x),
          "--methods: expected "
              + String.join(", ", LandmarkComparison.METHODS)
              + ", got '"
              + x
              + "'");
    }
    for (String d : datasets) {
      try {
        ImageData.Spec.parse(d, limit);
      } catch (IllegalArgumentException e) {
        throw SparkKpcaCli.usage(spec, "--datasets: " + e.getMessage());
      }
    }
    try {
      return new LandmarkComparisonConfig(
          datasets,
          ms,
          ells,
          m,
          reps,
          gamma,
          fashionGamma,
          limit,
          kmeansIter,
          mnistDir != null ? mnistDir : MnistIdx.defaultDirectory(),
          fashionDir != null ? fashionDir : ImageData.defaultFashionDirectory(),
          exactSpectra.partitions,
          exactSpectra.exactCache,
          reproduction.out);
    } catch (IllegalArgumentException e) {
      throw SparkKpcaCli.usage(spec, e.getMessage());
    }
  }
}
