package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.examples.data.DataSources;
import io.github.sparkkpca.persistence.SafeOutput;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The output options of the commands that turn a saved model and more rows into a new saved model
 * ({@code update}, {@code grow}; a picocli mixin): {@code --model-out}, {@code --summary-out} and
 * {@code --overwrite}, claimed through {@link OutputTargets} before any work. What the new model
 * is, and what its summary holds, differs by command: those descriptions are the keys {@code
 * model-out} and {@code summary-out} of the command's resource bundle (its class name, under {@code
 * src/main/resources}).
 */
public final class ModelOutputOptions {

  @Option(names = "--model-out", required = true, paramLabel = "DIR", descriptionKey = "model-out")
  String modelOut;

  @Option(names = "--summary-out", paramLabel = "FILE.json", descriptionKey = "summary-out")
  Path summaryOut;

  @Option(
      names = "--overwrite",
      description = "Replace an earlier model or summary written by spark-kpca.")
  boolean overwrite;

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
    List<String> reads = new ArrayList<>(DataSources.inputPaths(input.toSourceOptions()));
    reads.add(model);
    OutputTargets targets =
        new OutputTargets(spark.session().sparkContext().hadoopConfiguration(), overwrite, reads);
    targets.add("--model-out", modelOut, SafeOutput.SAVED_STAGE);
    return summaryOut == null
        ? null
        : targets.addLocal("--summary-out", summaryOut, earlierSummary);
  }
}
