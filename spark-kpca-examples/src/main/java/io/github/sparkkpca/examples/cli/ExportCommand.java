package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.persistence.ModelExport;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca export}: writes a saved model as a plain bundle ({@code model.json} and
 * headerless CSV matrices, {@link ModelExport#write}) that numpy, R or any language scores without
 * Spark, or with {@code --format onnx} as one ONNX graph ({@link ModelExport#writeOnnx}) in a
 * directory: {@code model.onnx}.
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Write a saved model as model.json and CSV matrices, or as an ONNX graph, that score without"
            + " Spark.")
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
          "Directory to write the bundle to (with --format onnx: DIR/model.onnx). An existing DIR is "
              + "replaced only with --overwrite, and only when it holds an earlier export.")
  String outDir;

  /** The export formats. */
  enum Format {
    BUNDLE,
    ONNX;

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "bundle",
      description =
          "${COMPLETION-CANDIDATES}: bundle writes model.json and CSV matrices; onnx writes "
              + "DIR/model.onnx (input features float64 [N, d], output scores [N, k], opset 13; dense "
              + "landmarks of at most 512 MiB). Default: ${DEFAULT-VALUE}.")
  Format format;

  @Option(
      names = "--float32",
      description =
          "With --format onnx: a single-precision graph (input float32; scores to about 1e-5 of their "
              + "scale instead of 1e-10).")
  boolean float32;

  /** The file of an ONNX export inside --out. */
  static final String ONNX_FILE = "model.onnx";

  @Mixin OverwriteOption output;

  @Mixin SparkOptions sparkOptions;

  @Override
  public Integer call() throws Exception {
    sparkOptions.validate(spec);
    if (float32 && format != Format.ONNX) {
      throw SparkKpcaCli.usage(spec, "--float32 applies to --format onnx only");
    }
    PrintWriter out = spec.commandLine().getOut();
    try (ManagedSession spark = ManagedSession.open(sparkOptions.master)) {
      String modelDir = SavedModels.resolve(spark, "--model", model, out);
      OutputTargets targets =
          output.targetsReading(spark, List.of(OutputRules.named("--model", model)));
      SafeOutput bundle = targets.add("--out", outDir, SafeOutput.MARKED_DIRECTORY);
      AbstractKernelPCAModel<?> kpca = AbstractKernelPCAModel.loadAny(modelDir);
      Configuration conf = spark.session().sparkContext().hadoopConfiguration();
      if (format == Format.ONNX) {
        bundle.write(
            staging -> {
              new Path(staging).getFileSystem(conf).mkdirs(new Path(staging));
              ModelExport.writeOnnx(
                  kpca,
                  new Path(staging, ONNX_FILE).toString(),
                  conf,
                  new ModelExport.OnnxOptions(float32));
            });
      } else {
        bundle.write(staging -> ModelExport.write(kpca, staging, conf));
      }
      SparkKpcaCli.progress(
          out,
          "exported %s (k = %d, d = %d) to %s",
          model,
          kpca.numComponents(),
          kpca.numFeatures(),
          format == Format.ONNX ? new Path(outDir, ONNX_FILE).toString() : outDir);
    }
    return 0;
  }
}
