package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.persistence.SafeOutput;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The output options of the commands that save a kernel PCA model ({@code fit}, {@code update},
 * {@code grow}; a picocli mixin): {@code --model-out}, {@code --summary-out} and {@code
 * --overwrite}, claimed through {@link OutputTargets} before any work. The help texts below are
 * fit's; what update's and grow's new model is, and what their summaries hold, are the keys {@code
 * spark-kpca.update.model-out} etc. of the CLI's resource bundle ({@code SparkKpcaCli.properties}).
 */
public final class ModelOutputOptions {

  @Option(
      names = "--model-out",
      required = true,
      paramLabel = "DIR",
      descriptionKey = "model-out",
      description =
          "Directory to save the model to. An existing DIR is replaced only with --overwrite, and "
              + "only when it holds a model saved by spark-kpca.")
  String modelOut;

  @Option(
      names = "--summary-out",
      paramLabel = "FILE.json",
      descriptionKey = "summary-out",
      description = "Also write the summary as JSON.")
  Path summaryOut;

  @Mixin OverwriteOption output;

  /**
   * Checks that {@code model} holds a saved model and claims {@code --model-out} (a saved stage)
   * and {@code --summary-out} (an earlier summary of this {@code kind}), neither of them the model
   * or an input.
   *
   * @return the summary's output, or null without {@code --summary-out}
   */
  SafeOutput claim(
      ManagedSession spark, String model, InputOptions input, SafeOutput.Kind earlierSummary) {
    TransformCommand.requireSavedModel(spark, model);
    return claim(output.targets(spark, input.reads(model)), earlierSummary);
  }

  /**
   * Claims {@code --model-out} (a saved stage) and {@code --summary-out} (an earlier summary of
   * this {@code kind}) among {@code targets}.
   *
   * @return the summary's output, or null without {@code --summary-out}
   */
  SafeOutput claim(OutputTargets targets, SafeOutput.Kind earlierSummary) {
    targets.add("--model-out", modelOut, SafeOutput.SAVED_STAGE);
    return summaryOut == null
        ? null
        : targets.addLocal("--summary-out", summaryOut, earlierSummary);
  }

  /** Whether {@code --overwrite} was given. */
  boolean overwrite() {
    return output.overwrite;
  }
}
