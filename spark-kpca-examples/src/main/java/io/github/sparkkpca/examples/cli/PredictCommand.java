package io.github.sparkkpca.examples.cli;

import static io.github.sparkkpca.examples.data.LoadedData.column;

import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.ml.KernelPCARegressionModel;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca predict}: the predictions of a kernel PCR model saved by {@code rde}, one row
 * per input row in input order: {@code prediction} (real ŷ; its sign is the class for ±1 labels;
 * the class for multiclass models) and the label column when the input has one.
 */
@Command(
    name = "predict",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Predict with a kernel PCA regression model saved by 'rde': writes the column 'prediction' (and "
            + "the label column when present), in input row order.")
public final class PredictCommand implements Callable<Integer> {

  static final String PREDICTION_COL = "prediction";

  @Spec CommandSpec spec;

  @Option(
      names = "--model",
      required = true,
      paramLabel = "DIR",
      description = "A model saved by rde.")
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

  @Option(
      names = "--output-format",
      paramLabel = "FORMAT",
      defaultValue = "csv",
      description =
          "${COMPLETION-CANDIDATES}: prediction[,label] with a header (csv) or as columns (parquet). "
              + "Default: ${DEFAULT-VALUE}.")
  ScoreWriter.Format outputFormat;

  @Mixin OverwriteOption overwrite;

  @Mixin SparkOptions sparkOptions;

  @Override
  public Integer call() throws java.io.IOException {
    sparkOptions.validate(spec);
    PrintWriter out = spec.commandLine().getOut();
    try (ManagedSession spark = ManagedSession.open(sparkOptions.master);
        ConsoleProgress progress = sparkOptions.progress(spark, out)) {
      SparkKpcaCli.progress(out, "loading the model from %s...", model);
      SavedModels.require(spark, "--model", model);
      OutputTargets targets =
          overwrite.targetsReading(spark, input.reading(OutputRules.named("--model", model)));
      SafeOutput target = targets.add("--output", output, SafeOutput.MARKED_DIRECTORY);
      KernelPCARegressionModel regression = KernelPCARegressionModel.load(model);
      LoadedData data =
          SparkKpcaCli.loadAndCache(
              spark, input.forModel(regression.numFeatures(), regression.featureNames()), out);
      try {
        regression.setFeaturesCol(data.featuresCol()).setPredictionCol(PREDICTION_COL);
        Dataset<Row> scored =
            data.inInputOrder(regression.transform(data.data().select(data.scoringColumns())));
        List<Column> columns = new ArrayList<>();
        columns.add(column(PREDICTION_COL));
        if (data.labelCol() != null) {
          columns.add(column(data.labelCol()));
        }
        Dataset<Row> result = scored.select(columns.toArray(new Column[0]));
        SparkKpcaCli.progress(
            out,
            "predicting %d rows (d = %d, %s labels) and writing %s to %s...",
            data.rows(),
            regression.getDimension(),
            regression.labelCoding(),
            outputFormat,
            output);
        target.write(
            staging -> {
              if (outputFormat == ScoreWriter.Format.CSV) {
                result.write().option("header", "true").csv(staging);
              } else {
                result.write().parquet(staging);
              }
            });
        SparkKpcaCli.progress(out, "wrote %d rows to %s", data.rows(), output);
      } finally {
        data.unpersist();
      }
    }
    return 0;
  }
}
