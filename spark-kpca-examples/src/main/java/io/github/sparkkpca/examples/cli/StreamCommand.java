package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.examples.data.DataSources;
import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCAModel;
import io.github.sparkkpca.pca.StepSchedule;
import io.github.sparkkpca.persistence.SafeOutput;
import io.github.sparkkpca.streaming.StreamingKernelPCA;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.ml.Estimator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca stream}: kernel PCA of the CSV or Parquet files landing in a directory, one
 * model version per micro-batch ({@link StreamingKernelPCA}), with fit's model options. {@code
 * --available-now} processes the files there and stops; otherwise the query runs until the process
 * is stopped, and a restart with the same {@code --checkpoint} and {@code --model-out} continues
 * where it stopped, folding every row in once.
 */
@Command(
    name = "stream",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Kernel PCA of the files landing in a directory (Structured Streaming): a new model version per "
            + "micro-batch, exactly once across restarts.")
public final class StreamCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin InputOptions input;

  @Mixin EstimatorOptions estimatorOptions;

  @Option(
      names = "--model-out",
      required = true,
      paramLabel = "DIR",
      description =
          "Directory of the model versions (version-<batch id>, each a saved model; the newest is the "
              + "model). New, empty, or the --model-out of an earlier run with the same --checkpoint.")
  String modelOut;

  @Option(
      names = "--checkpoint",
      required = true,
      paramLabel = "DIR",
      description =
          "Checkpoint directory of the streaming query: keep it with --model-out to restart.")
  String checkpoint;

  @Option(
      names = "--algorithm",
      paramLabel = "NAME",
      defaultValue = "exact",
      description =
          "exact (statistics of every micro-batch merged: equals a fit on all rows) or oja (RF-Oja, "
              + "needs --feature-map rff). Default: ${DEFAULT-VALUE}.")
  String algorithm;

  @Option(names = "--available-now", description = "Process the files present now, then stop.")
  boolean availableNow;

  @Option(
      names = "--max-files-per-trigger",
      paramLabel = "N",
      description = "At most N new files per micro-batch (default: all new files).")
  Integer maxFilesPerTrigger;

  @Option(
      names = "--trigger-interval",
      paramLabel = "SECONDS",
      defaultValue = "0",
      description =
          "Without --available-now: start a micro-batch every SECONDS (0: as soon as the previous one "
              + "ends). Default: ${DEFAULT-VALUE}.")
  double triggerInterval;

  @Option(
      names = "--keep-versions",
      paramLabel = "N",
      defaultValue = "5",
      description = "Model versions kept (>= 2). Default: ${DEFAULT-VALUE}.")
  int keepVersions;

  @Option(
      names = "--step-schedule",
      paramLabel = "SCHEDULE",
      defaultValue = "inverse:1:10",
      description =
          "oja: step sizes, "
              + StepSchedule.SYNTAX
              + " (eta_t = ETA, C/(t+T0), or Allen-Zhu and Li's "
              + "three phases). Default: ${DEFAULT-VALUE}.")
  String stepSchedule;

  @Option(
      names = "--mini-batch",
      paramLabel = "B",
      defaultValue = "1",
      description = "oja: rows per Oja step. Default: ${DEFAULT-VALUE}.")
  int miniBatch;

  @Option(
      names = "--qr-every",
      paramLabel = "N",
      defaultValue = "16",
      description = "oja: re-orthonormalise every N steps. Default: ${DEFAULT-VALUE}.")
  int qrEvery;

  @Option(
      names = "--warm-start",
      paramLabel = "MODEL_DIR",
      description = "oja: start from this random feature model's features and components.")
  String warmStart;

  @Option(
      names = "--summary-out",
      paramLabel = "FILE.json",
      description =
          "At the end, write the newest model's summary as JSON (fit's keys; n counts every row folded "
              + "in so far).")
  Path summaryOut;

  @Mixin OverwriteOption output;

  @Mixin SparkOptions sparkOptions;

  @Override
  public Integer call() throws Exception {
    Estimator<? extends AbstractKernelPCAModel<?>> estimator =
        estimatorOptions.configuredEstimator();
    StepSchedule schedule = validate();
    sparkOptions.validate(spec);
    PrintWriter out = spec.commandLine().getOut();
    long start = System.nanoTime();
    try (ManagedSession spark = ManagedSession.open(sparkOptions.master);
        ConsoleProgress progress = sparkOptions.progress(spark, out)) {
      List<String> reads = input.reads(estimatorOptions.landmarksFrom, warmStart);
      OutputTargets targets = output.targets(spark, reads);
      SafeOutput summaryOutput =
          summaryOut == null
              ? null
              : targets.addLocal("--summary-out", summaryOut, FitSummary.EARLIER_SUMMARY);
      requireOutside(spark, reads, "--model-out", modelOut);
      requireOutside(spark, reads, "--checkpoint", checkpoint);
      if (estimatorOptions.landmarksFrom != null) {
        estimatorOptions.useLandmarksOf(spark, (NystromKernelPCA) estimator);
      }
      StreamingKernelPCA streaming =
          new StreamingKernelPCA()
              .setEstimator(estimator)
              .setAlgorithm(algorithm)
              .setModelDir(modelOut)
              .setKeepVersions(keepVersions)
              .setBatchListener(report -> print(out, report));
      if (algorithm.equals("oja")) {
        streaming.setStepSchedule(schedule).setMiniBatchSize(miniBatch).setQrEvery(qrEvery);
        if (warmStart != null) {
          TransformCommand.requireSavedModel(spark, warmStart);
          AbstractKernelPCAModel<?> model = AbstractKernelPCAModel.loadAny(warmStart);
          if (!(model instanceof RandomFeatureKernelPCAModel rf)) {
            throw SparkKpcaCli.usage(
                spec, "--warm-start " + warmStart + " is not a random feature model");
          }
          streaming.setWarmStart(rf);
        }
      }
      LoadedData data =
          DataSources.stream(spark.session(), input.toSourceOptions(), maxFilesPerTrigger);
      estimator.set(estimator.getParam("inputCol"), data.featuresCol());
      estimator.transformSchema(data.data().schema());
      VoidFunction2<Dataset<Row>, Long> sink = streaming.sink();
      SparkKpcaCli.progress(
          out,
          "streaming %s into %s (%s, checkpoint %s)%s...",
          data.description(),
          modelOut,
          algorithm,
          checkpoint,
          availableNow ? ", the files present now" : "; stop with Ctrl-C");
      StreamingQuery query =
          data.data()
              .writeStream()
              .option("checkpointLocation", checkpoint)
              .trigger(
                  availableNow
                      ? Trigger.AvailableNow()
                      : Trigger.ProcessingTime((long) (triggerInterval * 1000)))
              .foreachBatch(
                  (Dataset<Row> batch, Long batchId) -> {
                    data.validateMicroBatch(batch);
                    sink.call(batch, batchId);
                  })
              .start();
      query.awaitTermination();
      String latest =
          StreamingKernelPCA.latestVersion(
              modelOut, spark.session().sparkContext().hadoopConfiguration());
      if (latest == null) {
        SparkKpcaCli.progress(out, "no rows yet: no model version written");
        return 0;
      }
      AbstractKernelPCAModel<?> model = AbstractKernelPCAModel.loadAny(latest);
      FitSummary summary = FitSummary.of(model, (System.nanoTime() - start) / 1e9);
      if (summaryOutput != null) {
        JsonSummaries.write(summaryOutput, summary.toJsonMap());
        SparkKpcaCli.progress(out, "wrote the summary to %s", summaryOutput.target());
      }
      SparkKpcaCli.progress(out, "newest model: %s", latest);
      summary.print(out);
    }
    return 0;
  }

  /** Checks the stream options before Spark starts; returns the parsed step schedule. */
  private StepSchedule validate() {
    SparkKpcaCli.require(
        spec,
        algorithm.equals("exact") || algorithm.equals("oja"),
        "--algorithm must be exact or oja, got '" + algorithm + "'");
    SparkKpcaCli.require(
        spec,
        estimatorOptions.featureScale == null,
        "--feature-scale sets D from n, which a "
            + "stream does not know in advance; give --features D");
    SparkKpcaCli.require(
        spec,
        !estimatorOptions.autoLandmarks
            && estimatorOptions.landmarksFile == null
            && estimatorOptions.confidence == null,
        "--landmarks auto, --landmarks-file and --confidence apply to fit; "
            + "a stream draws its landmarks from the first micro-batch or takes them with --landmarks-from");
    SparkKpcaCli.require(
        spec,
        algorithm.equals("exact") || estimatorOptions.isRandomFeatures(),
        "--algorithm oja runs on random Fourier features: add --feature-map rff");
    boolean oja = algorithm.equals("oja");
    SparkKpcaCli.require(
        spec,
        oja
            || (warmStart == null
                && miniBatch == 1
                && qrEvery == 16
                && stepSchedule.equals("inverse:1:10")),
        "--step-schedule, --mini-batch, --qr-every and --warm-start apply " + "to --algorithm oja");
    SparkKpcaCli.require(spec, miniBatch >= 1, "--mini-batch must be >= 1, got " + miniBatch);
    SparkKpcaCli.require(spec, qrEvery >= 1, "--qr-every must be >= 1, got " + qrEvery);
    SparkKpcaCli.require(
        spec, keepVersions >= 2, "--keep-versions must be >= 2, got " + keepVersions);
    SparkKpcaCli.require(
        spec,
        maxFilesPerTrigger == null || maxFilesPerTrigger >= 1,
        "--max-files-per-trigger must be >= 1, got " + maxFilesPerTrigger);
    SparkKpcaCli.require(
        spec,
        triggerInterval >= 0 && Double.isFinite(triggerInterval),
        "--trigger-interval must be finite and >= 0, got " + triggerInterval);
    SparkKpcaCli.require(
        spec,
        !availableNow || triggerInterval == 0,
        "--trigger-interval does not apply with " + "--available-now");
    try {
      return StepSchedule.parse(stepSchedule);
    } catch (IllegalArgumentException e) {
      throw SparkKpcaCli.usage(spec, "--step-schedule: " + e.getMessage());
    }
  }

  /** The model directory and the checkpoint must not be, nor contain, an input. */
  private void requireOutside(
      ManagedSession spark, List<String> reads, String option, String path) {
    try {
      org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(path);
      var fs = target.getFileSystem(spark.session().sparkContext().hadoopConfiguration());
      org.apache.hadoop.fs.Path qualified = fs.makeQualified(target);
      for (String read : reads) {
        org.apache.hadoop.fs.Path in = fs.makeQualified(new org.apache.hadoop.fs.Path(read));
        for (org.apache.hadoop.fs.Path p = in; p != null; p = p.getParent()) {
          if (p.equals(qualified)) {
            throw SparkKpcaCli.usage(
                spec,
                option
                    + " "
                    + path
                    + ": it "
                    + (p == in ? "is" : "contains")
                    + " the input "
                    + read
                    + "; choose another path");
          }
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(option + " " + path + ": " + e.getMessage(), e);
    }
  }

  private static void print(PrintWriter out, StreamingKernelPCA.BatchReport report) {
    String top =
        Arrays.stream(report.eigenvalues())
            .limit(5)
            .mapToObj(v -> String.format(Locale.ROOT, "%.4g", v))
            .collect(Collectors.joining(", "));
    if (report.skipped()) {
      out.printf(
          Locale.ROOT,
          "batch %d: already in the model (replayed after a restart), %d rows so far%n",
          report.batchId(),
          report.rowsSoFar());
    } else {
      out.printf(
          Locale.ROOT,
          "batch %d: %d rows so far (+%d), top eigenvalues %s, %.2f s%n",
          report.batchId(),
          report.rowsSoFar(),
          report.batchRows(),
          top,
          report.seconds());
    }
    out.flush();
  }
}
