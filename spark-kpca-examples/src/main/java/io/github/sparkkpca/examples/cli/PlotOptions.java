package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.examples.plots.ModelPlots;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** The chart options of fit, transform and demo (a picocli mixin); see {@link ModelPlots}. */
public final class PlotOptions {

  @Option(
      names = "--plots",
      paramLabel = "DIR",
      description =
          "Write PNG charts into DIR: scree.png, reconstruction-error.png and embedding.png (the "
              + "first two components of up to --plot-points rows, coloured by the label column if any). An "
              + "existing DIR is replaced only with --overwrite, and only when it holds charts of an earlier run.")
  Path plots;

  @Option(
      names = "--plot-points",
      paramLabel = "N",
      defaultValue = "" + ModelPlots.DEFAULT_MAX_POINTS,
      description =
          "Rows scored for the embedding and the measured error curve. Default: ${DEFAULT-VALUE}.")
  int plotPoints;

  private SafeOutput output;

  /** Fails with a usage error on a bad value, before Spark starts. */
  void validate(CommandSpec spec) {
    SparkKpcaCli.require(spec, plotPoints >= 1, "--plot-points must be >= 1, got " + plotPoints);
  }

  /**
   * Checks the {@code --plots} directory with the command's other outputs: it is written beside and
   * swapped in, and replaces only charts of an earlier run (marked by {@link
   * SafeOutput#MARKED_DIRECTORY}).
   */
  void prepare(OutputTargets targets) {
    if (plots != null) {
      output = targets.addLocal("--plots", plots, SafeOutput.MARKED_DIRECTORY);
    }
  }

  /** Writes the charts when {@code --plots} was given, with progress lines. */
  void write(
      PrintWriter out, AbstractKernelPCAModel<?> model, LoadedData data, long seed, String title)
      throws IOException {
    if (plots == null) {
      return;
    }
    if (output == null) {
      throw new IllegalStateException("--plots was not checked before the run");
    }
    SparkKpcaCli.progress(
        out, "drawing the charts from up to %d rows into %s...", plotPoints, plots);
    List<Path> files = new ArrayList<>();
    output.write(
        staging ->
            files.addAll(
                ModelPlots.writeAll(
                    OutputTargets.local(staging),
                    model,
                    data.data(),
                    data.labelCol(),
                    data.rows(),
                    plotPoints,
                    seed,
                    title)));
    for (Path file : files) {
      SparkKpcaCli.progress(out, "wrote %s", plots.resolve(file.getFileName()));
    }
  }
}
