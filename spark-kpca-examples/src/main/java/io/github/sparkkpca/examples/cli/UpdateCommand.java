package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca update}: absorbs more rows into a saved model and saves the result. The model
 * keeps its sufficient statistics, so the result equals, to rounding, a fit on the old and new rows
 * together with the same landmarks (or random features): {@code AbstractKernelPCAModel#update}.
 */
@Command(
    name = "update",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Absorb more rows into a saved model (exactly: as a fit on all rows with the same landmarks "
            + "would) and save the updated model.")
public final class UpdateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--model",
      required = true,
      paramLabel = "DIR",
      description =
          "A model saved by fit or update, or a directory written by stream (its newest version is "
              + "read).")
  String model;

  @Mixin InputOptions input;

  @Mixin ModelOutputOptions output;

  @Mixin SparkOptions sparkOptions;

  @Override
  public Integer call() throws Exception {
    sparkOptions.validate(spec);
    PrintWriter out = spec.commandLine().getOut();
    try (ManagedSession spark = ManagedSession.open(sparkOptions.master);
        ConsoleProgress progress = sparkOptions.progress(spark, out)) {
      String modelDir = SavedModels.resolve(spark, "--model", model, out);
      SafeOutput summaryOutput = output.claim(spark, model, input, FitSummary.EARLIER_SUMMARY);
      AbstractKernelPCAModel<?> kpca = SavedModels.loadAny(out, modelDir);
      if (!kpca.isUpdatable()) {
        throw SparkKpcaCli.usage(
            spec,
            "--model "
                + model
                + " keeps no statistics (a model saved by spark-kpca 0.1 "
                + "or an exact kernel PCA) and cannot be updated; fit a new one (fit --landmarks-from "
                + model
                + " keeps its landmarks)");
      }
      LoadedData data =
          SparkKpcaCli.loadAndCache(
              spark, input.forModel(kpca.numFeatures(), kpca.featureNames()), out);
      try {
        kpca.setInputCol(data.featuresCol());
        SparkKpcaCli.progress(
            out, "absorbing %d rows into a model of %d rows...", data.rows(), kpca.numRows());
        long start = System.nanoTime();
        AbstractKernelPCAModel<?> updated = kpca.update(data.data());
        double seconds = (System.nanoTime() - start) / 1e9;
        FitSummary.of(updated, seconds)
            .saveWithModel(updated, output.modelOut, output.overwrite(), summaryOutput, out);
      } finally {
        data.unpersist();
      }
    }
    return 0;
  }
}
