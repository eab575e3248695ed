package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.pca.Preimage;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca transform}: scores an input with a saved model and writes the scores in input
 * row order (see {@link ScoreWriter}).
 *
 * <p>The input is read with the model's dimension (libsvm files need not mention the last feature),
 * cached and validated first, so bad cells fail with their column and row instead of inside a task.
 */
@Command(
    name = "transform",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Score an input with a saved model; output keeps the input row order.")
public final class TransformCommand implements Callable<Integer> {

  /** The score vector column of Parquet output. */
  static final String SCORES_COL = "kpca";

  /** The residual column. */
  static final String RESIDUAL_COL = "residual";

  /** The reconstruction (pre-image) vector column of Parquet output; CSV gets rec_1..rec_d. */
  static final String RECONSTRUCTION_COL = "reconstruction";

  /** The column of ‖x − x̂‖², each row's squared distance to its pre-image. */
  static final String PREIMAGE_ERROR_COL = "preimage_error";

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

  @Option(
      names = "--output",
      required = true,
      paramLabel = "DIR",
      description =
          "Output directory. An existing DIR is replaced only with --overwrite, and only when it holds "
              + "an earlier output of spark-kpca (marked by its "
              + SafeOutput.MARKER
              + " file).")
  String output;

  @Mixin OverwriteOption overwrite;

  @Option(
      names = "--output-format",
      paramLabel = "FORMAT",
      defaultValue = "csv",
      description =
          "${COMPLETION-CANDIDATES}: csv writes"
              + " pc_1..pc_k[,residual][,preimage_error][,rec_1..rec_d][,label] with a header;"
              + " parquet writes the label, the score vector '"
              + SCORES_COL
              + "', the residual, the pre-image error and the reconstruction. Default:"
              + " ${DEFAULT-VALUE}.")
  ScoreWriter.Format outputFormat;

  @Option(
      names = "--residual",
      description =
          "Also write each row's feature-space reconstruction residual (a novelty score).")
  boolean residual;

  @Option(
      names = "--reconstruction",
      description =
          "Also write each row's reconstruction in input space: the pre-image of its projection on "
              + "the k components (kernel PCA denoising); CSV columns rec_1..rec_d, Parquet vector '"
              + RECONSTRUCTION_COL
              + "'.")
  boolean reconstruction;

  @Option(
      names = "--preimage-error",
      description =
          "Also write each row's squared distance ||x - x^||^2 to the pre-image of its projection"
              + " (column '"
              + PREIMAGE_ERROR_COL
              + "'), computed in the span of the landmarks at sparse cost, without forming x^; the"
              + " mean over held-out rows (printed) is the input-space error that compares gamma,"
              + " kernels, k and m, also on wide sparse rows.")
  boolean preimageError;

  @Option(
      names = "--preimage-method",
      paramLabel = "NAME",
      description =
          "Pre-image of --reconstruction and --preimage-error: fixed-point (Mika et al. 1999, rbf models only) or ridge "
              + "(a kernel ridge map from scores back to inputs, any kernel). Default: fixed-point for rbf models, "
              + "else ridge.")
  String preimageMethod;

  @Option(
      names = "--preimage-max-iter",
      paramLabel = "N",
      description = "fixed-point: the maximum number of iterations (>= 1). Default 100.")
  Integer preimageMaxIter;

  @Option(
      names = "--preimage-ridge",
      paramLabel = "ALPHA",
      description = "ridge: the ridge alpha of the map (> 0). Default 0.01.")
  Double preimageRidge;

  @Mixin PlotOptions plotOptions;

  @Mixin SparkOptions sparkOptions;

  @Override
  public Integer call() throws IOException {
    Preimage.Method method = preimageMethod();
    plotOptions.validate(spec);
    sparkOptions.validate(spec);
    PrintWriter out = spec.commandLine().getOut();
    try (ManagedSession spark = ManagedSession.open(sparkOptions.master);
        ConsoleProgress progress = sparkOptions.progress(spark, out)) {
      SparkKpcaCli.progress(out, "loading the model from %s...", model);
      String modelDir = SavedModels.resolve(spark, "--model", model, out);
      // The outputs are checked before the first Spark job; see OutputTargets.
      OutputTargets targets =
          overwrite.targetsReading(spark, input.reading(OutputRules.named("--model", model)));
      SafeOutput scores = targets.add("--output", output, SafeOutput.MARKED_DIRECTORY);
      plotOptions.prepare(targets);
      AbstractKernelPCAModel<?> kpca = AbstractKernelPCAModel.loadAny(modelDir);
      if (reconstruction || preimageError) {
        configurePreimage(kpca, method);
      }
      LoadedData data =
          SparkKpcaCli.loadAndCache(
              spark, input.forModel(kpca.numFeatures(), kpca.featureNames()), out);
      try {
        long rows = data.rows();
        // Only the columns needed, so the score columns cannot clash with input columns.
        kpca.setInputCol(data.featuresCol())
            .setOutputCol(SCORES_COL)
            .setResidualCol(residual ? RESIDUAL_COL : "");
        Dataset<Row> scored = kpca.transform(data.data().select(data.scoringColumns()));
        SparkKpcaCli.progress(
            out,
            "scoring %d rows (k = %d%s) and writing %s to %s...",
            rows,
            kpca.numComponents(),
            reconstruction ? ", " + kpca.getPreimageMethod() + " pre-images" : "",
            outputFormat,
            output);
        java.util.List<String> scalars = new java.util.ArrayList<>();
        if (residual) {
          scalars.add(RESIDUAL_COL);
        }
        if (preimageError) {
          scalars.add(PREIMAGE_ERROR_COL);
        }
        scores.write(
            staging ->
                ScoreWriter.write(
                    scored,
                    data,
                    SCORES_COL,
                    kpca.numComponents(),
                    scalars,
                    reconstruction ? RECONSTRUCTION_COL : null,
                    kpca.numFeatures(),
                    outputFormat,
                    staging));
        SparkKpcaCli.progress(out, "wrote %d rows to %s", rows, output);
        if (preimageError) {
          // Read back from the output: averaging the scored rows again would score them twice.
          SparkKpcaCli.progress(
              out,
              "mean squared distance to the pre-images (input-space error) over %d rows: %.10g",
              rows,
              ScoreWriter.mean(spark.session(), output, outputFormat, PREIMAGE_ERROR_COL));
        }
        kpca.setReconstructionCol("").setPreimageErrorCol(""); // the charts need the scores only
        plotOptions.write(
            out,
            kpca,
            data,
            1L,
            String.format(java.util.Locale.ROOT, "model %s on %s", model, data.description()));
      } finally {
        data.unpersist();
      }
    }
    return 0;
  }

  /**
   * The pre-image method asked for (null for the model's kind's default); fails with the option's
   * name on a bad value, or on a pre-image option without {@code --reconstruction}, before Spark
   * starts.
   */
  Preimage.Method preimageMethod() {
    SparkKpcaCli.require(
        spec,
        reconstruction
            || preimageError
            || (preimageMethod == null && preimageMaxIter == null && preimageRidge == null),
        "--preimage-method, --preimage-max-iter and --preimage-ridge apply to "
            + "--reconstruction and --preimage-error only");
    Preimage.Method method = null;
    if (preimageMethod != null) {
      method =
          Arrays.stream(Preimage.Method.values())
              .filter(m -> m.paramName().equalsIgnoreCase(preimageMethod.trim()))
              .findFirst()
              .orElseThrow(
                  () ->
                      SparkKpcaCli.usage(
                          spec,
                          "--preimage-method: expected one of "
                              + String.join(", ", Preimage.Method.NAMES)
                              + ", got '"
                              + preimageMethod
                              + "'"));
    }
    SparkKpcaCli.require(
        spec,
        preimageMaxIter == null || preimageMaxIter >= 1,
        "--preimage-max-iter must be >= 1, got " + preimageMaxIter);
    SparkKpcaCli.require(
        spec,
        preimageRidge == null || (preimageRidge > 0 && Double.isFinite(preimageRidge)),
        "--preimage-ridge must be finite and > 0, got " + preimageRidge);
    if (method != null) {
      requireMatchingPreimageOptions(method);
    } else {
      SparkKpcaCli.require(
          spec,
          preimageMaxIter == null || preimageRidge == null,
          "--preimage-max-iter and --preimage-ridge belong to different --preimage-method values; give one");
    }
    return method;
  }

  private void requireMatchingPreimageOptions(Preimage.Method method) {
    SparkKpcaCli.require(
        spec,
        preimageMaxIter == null || method == Preimage.Method.FIXED_POINT,
        "--preimage-max-iter applies to --preimage-method fixed-point only, the pre-image is ridge");
    SparkKpcaCli.require(
        spec,
        preimageRidge == null || method == Preimage.Method.RIDGE,
        "--preimage-ridge applies to --preimage-method ridge only, the pre-image is fixed-point");
  }

  /**
   * Sets the reconstruction and pre-image error columns and the pre-image params on the loaded
   * model: the method asked for, else fixed-point for rbf models (the library's default) and ridge
   * for the others, since the fixed-point iteration exists for the Gaussian kernel only.
   */
  private void configurePreimage(AbstractKernelPCAModel<?> kpca, Preimage.Method asked) {
    String options =
        reconstruction && preimageError
            ? "--reconstruction and --preimage-error need"
            : reconstruction ? "--reconstruction needs" : "--preimage-error needs";
    if (!kpca.solution().projector().hasLandmarks()) {
      throw SparkKpcaCli.usage(
          spec,
          options
              + " a landmark model; "
              + model
              + " is a random feature "
              + "model, whose components have no pre-image here");
    }
    boolean rbf = kpca.fittedKernel().type() == KernelType.RBF;
    Preimage.Method method =
        asked != null ? asked : rbf ? Preimage.Method.FIXED_POINT : Preimage.Method.RIDGE;
    if (method == Preimage.Method.FIXED_POINT && !rbf) {
      throw SparkKpcaCli.usage(
          spec,
          "--preimage-method fixed-point needs an rbf model, "
              + model
              + " uses the "
              + kpca.fittedKernel().type().paramName()
              + " kernel; use --preimage-method ridge");
    }
    requireMatchingPreimageOptions(method);
    kpca.setPreimageMethod(method.paramName())
        .setPreimageErrorCol(preimageError ? PREIMAGE_ERROR_COL : "");
    if (preimageMaxIter != null) {
      kpca.setPreimageMaxIter(preimageMaxIter);
    }
    if (preimageRidge != null) {
      kpca.setPreimageRidge(preimageRidge);
    }
    if (reconstruction) {
      // Before the input is read: pre-images of wide rows are dense d-wide arrays (the pre-image
      // error is computed without them, at sparse cost).
      Preimage.requireDenseFits(
          "--reconstruction",
          "drop --reconstruction (--preimage-error gives ||x - x^||^2 at sparse cost)",
          kpca.numFeatures(),
          kpca.numSupportPoints(),
          Runtime.getRuntime().maxMemory());
      kpca.setReconstructionCol(RECONSTRUCTION_COL);
    }
  }
}
