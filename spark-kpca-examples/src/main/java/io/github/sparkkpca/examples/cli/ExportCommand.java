package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.persistence.ModelExport;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca export}: writes a saved model as a plain bundle ({@code model.json} and
 * headerless CSV matrices, {@link ModelExport}) that numpy, R or any language scores without Spark.
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Write a saved model as model.json and CSV matrices that score without Spark.")
public final class ExportCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--model",
      required = true,
      paramLabel = "DIR",
      description =
          "A model saved by fit or update, or a directory written by stream (its newest version is "
              + "read).")
  String model;

  @Option(
      names = "--out",
      required = true,
      paramLabel = "DIR",
      description =
          "Directory to write the bundle to. An existing DIR is replaced only with --overwrite, and "
              + "only when it holds an earlier export.")
  String outDir;

  @Mixin OverwriteOption output;

  @Mixin SparkOptions sparkOptions;

  @Override
  public Integer call() throws Exception {
    sparkOptions.validate(spec);
    PrintWriter out = spec.commandLine().getOut();
    try (ManagedSession spark = ManagedSession.open(sparkOptions.master)) {
      String modelDir = SavedModels.resolve(spark, "--model", model, out);
      OutputTargets targets =
          output.targetsReading(spark, List.of(OutputRules.named("--model", model)));
      SafeOutput bundle = targets.add("--out", outDir, SafeOutput.MARKED_DIRECTORY);
      AbstractKernelPCAModel<?> kpca = AbstractKernelPCAModel.loadAny(modelDir);
      bundle.write(
          staging ->
              ModelExport.write(
                  kpca, staging, spark.session().sparkContext().hadoopConfiguration()));
      SparkKpcaCli.progress(
          out,
          "exported %s (k = %d, d = %d) to %s",
          model,
          kpca.numComponents(),
          kpca.numFeatures(),
          outDir);
    }
    return 0;
  }
}
