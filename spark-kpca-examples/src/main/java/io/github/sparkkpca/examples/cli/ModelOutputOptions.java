package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.persistence.SafeOutput;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.sql.SparkSession;
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
   * Claims {@code --model-out} (a saved stage) and {@code --summary-out} (an earlier summary of
   * this {@code kind}), neither of them the model given to {@code --model} or an input, nor inside
   * one ({@link OutputRules}). The model is found first with {@link SavedModels#resolve}.
   *
   * @return the summary's output, or null without {@code --summary-out}
   */
  SafeOutput claim(
      ManagedSession spark, String model, InputOptions input, SafeOutput.Kind earlierSummary) {
    return claim(
        output.targetsReading(spark, input.reading(OutputRules.named("--model", model))),
        earlierSummary);
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

  /**
   * Saves {@code model} to {@code modelOut} under the rules {@link OutputTargets} checked when the
   * command started, naming the option: when another run saved a model there in the meantime (two
   * fits to one {@code --model-out} at once), the refusal is the one-line usage error "--model-out
   * DIR: a stage saved by spark-kpca already exists there; to replace it, add --overwrite" (exit
   * code 2), and the other run's model is left intact.
   */
  static void save(MLWritable model, String modelOut, boolean overwrite) throws IOException {
    String[] written = new String[1];
    try {
      SafeOutput.to(modelOut, SafeOutput.SAVED_STAGE)
          .overwrite(overwrite)
          .named("--model-out " + modelOut, "add --overwrite")
          .prepare(SparkSession.active().sparkContext().hadoopConfiguration())
          .write(
              staging -> {
                written[0] = staging;
                model.write().save(staging);
              });
    } catch (FileAlreadyExistsException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      // A refusal before writing (the model fails its loader's checks) names the path save was
      // given, the hidden sibling this writes into: name --model-out instead.
      String message = e.getMessage();
      if (written[0] != null && message != null && message.contains("'" + written[0] + "'")) {
        throw new IllegalArgumentException(
            message.replace("'" + written[0] + "'", "'" + modelOut + "'"), e);
      }
      throw e;
    }
  }

  /** Whether {@code --overwrite} was given. */
  boolean overwrite() {
    return output.overwrite;
  }
}
