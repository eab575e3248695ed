package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.examples.data.DataSources;
import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.streaming.CheckpointLock;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.api.java.function.FilterFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.DataStreamWriter;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryListener;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca score-stream}: scores the CSV or Parquet files landing in a directory with a
 * saved model (Structured Streaming: {@code model.transform} of the file stream, written by Spark's
 * file sink). The sink and the checkpoint together write each input row exactly once, also when the
 * process is killed and restarted with the same {@code --checkpoint} and {@code --output}; the
 * output reads back with {@code spark.read().parquet(dir)} (or {@code .csv}), which reads only the
 * committed files.
 *
 * <p>It is a command of its own rather than {@code transform --stream}: {@code transform} writes
 * its output in input row order, swapped in at the end, with charts and pre-images, none of which a
 * stream has; {@code stream} fits a model on a stream. The outputs are checked before Spark starts
 * the query, see {@link ScoreStreamOutput}.
 */
@Command(
    name = "score-stream",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Score the files landing in a directory with a saved model (Structured Streaming): each row "
            + "written once to --output, across restarts with the same --checkpoint.")
public final class ScoreStreamCommand implements Callable<Integer> {

  /** The name of the observed metrics that count a micro-batch's scored rows. */
  private static final String OBSERVED = "spark_kpca_scored";

  @Spec CommandSpec spec;

  @Option(
      names = "--model",
      required = true,
      paramLabel = "DIR",
      description =
          "A kernel PCA model saved by fit or update, or a stream directory (its newest version).")
  String model;

  @Mixin InputOptions input;

  @Option(
      names = "--output",
      required = true,
      paramLabel = "DIR",
      description =
          "Output directory of the file sink (part files and Spark's _spark_metadata log). New, empty, "
              + "or the --output of an earlier run with the same --checkpoint.")
  String output;

  @Option(
      names = "--checkpoint",
      required = true,
      paramLabel = "DIR",
      description =
          "Checkpoint directory of the streaming query: keep it with --output to restart.")
  String checkpoint;

  @Option(
      names = "--output-format",
      paramLabel = "FORMAT",
      defaultValue = "parquet",
      description =
          "${COMPLETION-CANDIDATES}: parquet writes the label, the score vector '"
              + TransformCommand.SCORES_COL
              + "' and the residual; csv writes pc_1..pc_k[,residual][,label] with a header in "
              + "every part file. Default: ${DEFAULT-VALUE}.")
  ScoreWriter.Format outputFormat;

  @Option(
      names = "--residual",
      description =
          "Also write each row's feature-space reconstruction residual (a novelty score).")
  boolean residual;

  @Mixin TriggerOptions trigger;

  @Option(
      names = "--model-version-col",
      paramLabel = "NAME",
      description =
          "Also write a column NAME holding the model that scored the row: a stream directory's "
              + "version (version-<batch id>) or the saved model's path. A run keeps the model it "
              + "loaded at start; a restart loads a stream directory's newest version.")
  String modelVersionCol;

  @Mixin OverwriteOption overwrite;

  @Mixin SparkOptions sparkOptions;

  @Override
  public Integer call() throws Exception {
    validate();
    sparkOptions.validate(spec);
    PrintWriter out = spec.commandLine().getOut();
    long start = System.nanoTime();
    try (ManagedSession spark = ManagedSession.open(sparkOptions.master);
        ConsoleProgress progress = sparkOptions.progress(spark, out)) {
      // A saved model, or a stream directory's newest version (said on the console).
      String modelDir = SavedModels.resolve(spark, "--model", model, out);
      var conf = spark.session().sparkContext().hadoopConfiguration();
      List<OutputRules.Named> reads = input.reading(OutputRules.named("--model", model));
      // Checked before anything is written, and again once this command holds the checkpoint.
      ScoreStreamOutput.claim(conf, reads, output, checkpoint, overwrite.overwrite);
      SparkKpcaCli.progress(out, "loading the model from %s...", modelDir);
      AbstractKernelPCAModel<?> kpca = AbstractKernelPCAModel.loadAny(modelDir);
      LoadedData data =
          DataSources.stream(
              spark.session(),
              input.forModel(kpca.numFeatures(), kpca.featureNames()),
              trigger.maxFilesPerTrigger);
      kpca.setInputCol(data.featuresCol())
          .setOutputCol(TransformCommand.SCORES_COL)
          .setResidualCol(residual ? TransformCommand.RESIDUAL_COL : "")
          .setReconstructionCol("");
      Dataset<Row> scored =
          kpca.transform(checkedCells(data.data()).select(data.scoringColumns()))
              .select(
                  ScoreWriter.columns(
                      data.labelCol(),
                      TransformCommand.SCORES_COL,
                      kpca.numComponents(),
                      residual ? List.of(TransformCommand.RESIDUAL_COL) : List.of(),
                      null,
                      kpca.numFeatures(),
                      outputFormat));
      String modelName = ScoreStreamModels.name(modelDir);
      if (modelVersionCol != null) {
        scored = scored.withColumn(modelVersionCol, functions.lit(modelName));
      }
      SparkKpcaCli.progress(
          out,
          "scoring %s with %s (k = %d) into %s (%s, checkpoint %s)%s...",
          data.description(),
          model,
          kpca.numComponents(),
          output,
          outputFormat,
          checkpoint,
          trigger.until());
      // The rows written, counted by Spark per micro-batch (the source's input rows count a CSV
      // file's header line too).
      scored = scored.observe(OBSERVED, functions.count(functions.lit(1)).as("rows"));
      DataStreamWriter<Row> writer =
          scored
              .writeStream()
              .format(outputFormat.toString())
              .option("path", output)
              .option("checkpointLocation", checkpoint)
              .trigger(trigger.trigger());
      if (outputFormat == ScoreWriter.Format.CSV) {
        writer = writer.option("header", "true");
      }
      // One running command per checkpoint: a second one is refused here, naming the first,
      // before it writes anything; the outputs are checked again under the lock, as the first may
      // have changed them meanwhile.
      try (CheckpointLock lock = StreamCommand.lockCheckpoint(spec, spark, checkpoint)) {
        ScoreStreamOutput.claim(conf, reads, output, checkpoint, overwrite.overwrite).tie();
        // Part files are written under a hidden name and renamed once their micro-batch commits
        // (StagedFileCommitProtocol); what a killed run left there is completed or deleted first.
        StagedFileCommitProtocol.recover(output, conf);
        spark
            .session()
            .conf()
            .set(StagedFileCommitProtocol.SETTING, StagedFileCommitProtocol.class.getName());
        // The model is kept for the whole run: recorded in the output with the first micro-batch
        // it scores, so that every micro-batch's model can be told afterwards.
        long firstBatch = ScoreStreamModels.firstBatch(conf, output, checkpoint);
        ScoreStreamModels.record(conf, output, firstBatch, model, modelDir);
        SparkKpcaCli.progress(
            out,
            "micro-batches from %d are scored with %s, kept for this run (a restart loads the "
                + "newest version of a stream directory); recorded in %s/%s",
            firstBatch,
            modelName,
            output,
            ScoreStreamModels.DIR);
        Map<Long, Long> batchRows = new ConcurrentHashMap<>();
        // Named, so the listener (added before the first micro-batch) prints this query's only.
        String name = "spark-kpca-score-stream-" + java.util.UUID.randomUUID();
        StreamingQueryListener listener = new BatchPrinter(name, modelName, out, batchRows);
        spark.session().streams().addListener(listener);
        try {
          StreamingQuery query = writer.queryName(name).start();
          try {
            query.awaitTermination();
          } finally {
            // The listener hears of a micro-batch after it commits, maybe after the query ended:
            // the
            // query's own progress list (its last micro-batches) completes the lines and the count.
            for (StreamingQueryProgress p : query.recentProgress()) {
              BatchPrinter.print(out, modelName, batchRows, p);
            }
          }
        } finally {
          spark.session().streams().removeListener(listener);
        }
        long rows = batchRows.values().stream().mapToLong(Long::longValue).sum();
        SparkKpcaCli.progress(
            out,
            "scored %d rows in %d micro-batch%s into %s (%.1f s)",
            rows,
            batchRows.size(),
            batchRows.size() == 1 ? "" : "es",
            output,
            (System.nanoTime() - start) / 1e9);
      }
    }
    return 0;
  }

  /** Checks the options that need no file system, before Spark starts. */
  private void validate() {
    trigger.validate(spec);
  }

  /**
   * The rows, failing the micro-batch on the first row with a bad cell (empty, not a number, not
   * finite, a CSV row with too many or too few cells), named with its column and file, as {@code
   * transform} refuses it. Sources without a cell check (a vector column) pass as they are; the
   * transform checks the vectors.
   */
  static Dataset<Row> checkedCells(Dataset<Row> data) {
    List<String> names = Arrays.asList(data.schema().fieldNames());
    if (!names.contains(LoadedData.ERROR_COL)) {
      return data;
    }
    int error = names.indexOf(LoadedData.ERROR_COL);
    int file = names.indexOf(LoadedData.FILE_COL);
    return data.filter(
        (FilterFunction<Row>)
            row -> {
              if (row.isNullAt(error)) {
                return true;
              }
              throw new IllegalArgumentException(
                  LoadedData.located(
                      row.getString(error),
                      file < 0 || row.isNullAt(file) ? "" : row.getString(file)));
            });
  }

  /**
   * Prints one line per micro-batch of the query named {@code name}, once each, and counts its
   * rows.
   */
  private static final class BatchPrinter extends StreamingQueryListener {
    private final String name;
    private final String model;
    private final PrintWriter out;
    private final Map<Long, Long> batchRows;

    BatchPrinter(String name, String model, PrintWriter out, Map<Long, Long> batchRows) {
      this.name = name;
      this.model = model;
      this.out = out;
      this.batchRows = batchRows;
    }

    @Override
    public void onQueryStarted(QueryStartedEvent event) {}

    @Override
    public void onQueryProgress(QueryProgressEvent event) {
      if (name.equals(event.progress().name())) {
        print(out, model, batchRows, event.progress());
      }
    }

    /** Prints the line of a micro-batch that scored rows, unless it was printed before. */
    static void print(
        PrintWriter out, String model, Map<Long, Long> batchRows, StreamingQueryProgress p) {
      Row observed = p.observedMetrics().get(OBSERVED);
      long rows = observed == null ? 0 : observed.getLong(0);
      if (rows == 0 || batchRows.putIfAbsent(p.batchId(), rows) != null) {
        return;
      }
      synchronized (out) {
        out.printf(
            Locale.ROOT,
            "batch %d: %d rows scored with %s, %.0f rows/s, %.2f s%n",
            p.batchId(),
            rows,
            model,
            rows / Math.max(1e-3, p.batchDuration() / 1000.0),
            p.batchDuration() / 1000.0);
        out.flush();
      }
    }

    @Override
    public void onQueryTerminated(QueryTerminatedEvent event) {}
  }
}
