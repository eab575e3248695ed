package io.github.sparkkpca.examples.cli;

import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The options every {@code reproduce} experiment shares (a picocli mixin): {@code --out}, the
 * directory its CSV files, charts and summary go to.
 */
public final class ReproductionOptions {

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output directory.")
  Path out;

  /**
   * The options of the experiments that compare Nyström with exact kernel PCA on cached image data
   * ({@code sterge}, {@code landmarks}; a picocli mixin): where exact spectra are cached and how
   * the data is partitioned.
   */
  public static final class ExactSpectra {

    @Option(
        names = "--exact-cache",
        paramLabel = "DIR",
        description =
            "Cache exact spectra in DIR and reuse them (keyed by the images, gamma and centring).")
    Path exactCache;

    @Option(
        names = "--partitions",
        paramLabel = "P",
        defaultValue = "0",
        description = "Partitions of the cached data (0: Spark's default parallelism).")
    int partitions;

    /** Checks {@code --partitions}; a usage error of {@code spec}. */
    void validate(CommandSpec spec) {
      SparkKpcaCli.require(spec, partitions >= 0, "--partitions must be >= 0, got " + partitions);
    }
  }
}
