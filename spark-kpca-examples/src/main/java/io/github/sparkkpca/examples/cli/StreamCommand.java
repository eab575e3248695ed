package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.examples.data.DataSources;
import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCAModel;
import io.github.sparkkpca.pca.StepSchedule;
import io.github.sparkkpca.persistence.SafeOutput;
import io.github.sparkkpca.streaming.CheckpointLock;
import io.github.sparkkpca.streaming.ModelDirectory;
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
import org.apache.spark.storage.StorageLevel;
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

  @Mixin TriggerOptions trigger;

  @Option(
      names = "--keep-versions",
      paramLabel = "N",
      defaultValue = "5",
      description = "Model versions kept (>= 2). Default: ${DEFAULT-VALUE}.")
  int keepVersions;

  @Option(
      names = "--version-every-batches",
      paramLabel = "N",
      defaultValue = "1",
      description =
          "Write a model version every N micro-batches (the first always); in between, each "
              + "micro-batch's rows are kept in the model directory as pending-<batch id> (Parquet, the "
              + "size of the input), so a restart counts them once, and the eigenproblem waits for the "
              + "version. The end of the query writes one. Default: ${DEFAULT-VALUE}.")
  int versionEveryBatches;

  @Option(
      names = "--version-every-seconds",
      paramLabel = "SECONDS",
      description =
          "Also write a version once SECONDS have passed since the last one (checked after each "
              + "micro-batch). Default: only --version-every-batches.")
  Double versionEverySeconds;

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
      description =
          "oja: start from this random feature model's features and components (a saved model, or a "
              + "stream directory's newest version).")
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
      // What the stream reads, named by option; no output may be, contain or lie inside one.
      List<OutputRules.Named> reads =
          input.reading(
              OutputRules.named("--landmarks-from", estimatorOptions.landmarksFrom),
              OutputRules.named("--warm-start", warmStart));
      OutputTargets targets = output.targetsReading(spark, reads);
      SafeOutput summaryOutput =
          summaryOut == null
              ? null
              : targets.addLocal("--summary-out", summaryOut, FitSummary.EARLIER_SUMMARY);
      requireSeparate(spark);
      OutputRules.check(
          spark.session().sparkContext().hadoopConfiguration(),
          reads,
          Arrays.asList(
              OutputRules.named("--model-out", modelOut),
              OutputRules.named("--checkpoint", checkpoint),
              summaryOut == null
                  ? null
                  : OutputRules.named("--summary-out", OutputTargets.hadoopPath(summaryOut))));
      if (estimatorOptions.landmarksFrom != null) {
        estimatorOptions.useLandmarksOf(spark, (NystromKernelPCA) estimator, out);
        // Recorded in the model directory as the stream's m (the param's default otherwise): a
        // restart compares the landmark count the model implies.
        ((NystromKernelPCA) estimator).setNumLandmarks(estimatorOptions.landmarks);
      }
      StreamingKernelPCA streaming =
          new StreamingKernelPCA()
              .setEstimator(estimator)
              .setAlgorithm(algorithm)
              .setModelDir(modelOut)
              .setKeepVersions(keepVersions)
              .setVersionEveryBatches(versionEveryBatches)
              .setBatchListener(report -> print(out, report, phases))
              .setTriggerListener(report -> printTrigger(out, report, phases));
      if (versionEverySeconds != null) {
        streaming.setVersionEverySeconds(versionEverySeconds);
      }
      if (algorithm.equals("oja")) {
        streaming.setStepSchedule(schedule).setMiniBatchSize(miniBatch).setQrEvery(qrEvery);
        if (warmStart != null) {
          // A saved model, or a stream directory's newest version.
          AbstractKernelPCAModel<?> model = SavedModels.load(spark, "--warm-start", warmStart, out);
          if (!(model instanceof RandomFeatureKernelPCAModel rf)) {
            throw SparkKpcaCli.usage(
                spec, "--warm-start " + warmStart + " is not a random feature model");
          }
          streaming.setWarmStart(rf);
        }
      }
      // A restart reads the files by the feature names of the version it resumes from.
      LoadedData data =
          DataSources.stream(
              spark.session(),
              input.toSourceOptions().withFeatureNames(namesToRead(spark, estimator)),
              trigger.maxFilesPerTrigger);
      estimator.set(estimator.getParam("inputCol"), data.featuresCol());
      estimator.transformSchema(data.data().schema());
      // One running command per checkpoint, until the query ends (before the model directory is
      // bound: a second command is refused before it writes anything).
      try (CheckpointLock lock = lockCheckpoint(spec, spark, checkpoint)) {
        bind(streaming, spark);
        VoidFunction2<Dataset<Row>, Long> sink = streaming.sink();
        spark.session().streams().addListener(streaming.progressListener());
        SparkKpcaCli.progress(
            out,
            "streaming %s into %s (%s, checkpoint %s)%s...",
            data.description(),
            modelOut,
            algorithm,
            checkpoint,
            trigger.until());
        StreamingQuery query =
            data.data()
                .writeStream()
                .option("checkpointLocation", checkpoint)
                .trigger(trigger.trigger())
                .foreachBatch(
                    (Dataset<Row> batch, Long batchId) -> {
                      // Read once into memory: the validation and the sink's passes share the rows.
                      long t0 = System.nanoTime();
                      Dataset<Row> cached = batch.persist(StorageLevel.MEMORY_AND_DISK());
                      try {
                        data.validateMicroBatch(cached);
                        phases.read = (System.nanoTime() - t0) / 1e9;
                        sink.call(cached, batchId);
                      } finally {
                        cached.unpersist(false);
                      }
                    })
                .start();
        query.awaitTermination();
        String latest = streaming.flush();
        phases.printSummary(out);
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
        spec,
        versionEveryBatches >= 1,
        "--version-every-batches must be >= 1, got " + versionEveryBatches);
    SparkKpcaCli.require(
        spec,
        versionEverySeconds == null
            || (versionEverySeconds > 0 && Double.isFinite(versionEverySeconds)),
        "--version-every-seconds must be finite and > 0, got " + versionEverySeconds);
    SparkKpcaCli.require(
        spec, keepVersions >= 2, "--keep-versions must be >= 2, got " + keepVersions);
    trigger.validate(spec);
    try {
      return StepSchedule.parse(stepSchedule);
    } catch (IllegalArgumentException e) {
      throw SparkKpcaCli.usage(spec, "--step-schedule: " + e.getMessage());
    }
  }

  /**
   * Locks the checkpoint for this command ({@link CheckpointLock}): a usage error naming the
   * command that holds it when another one runs on it, or saying that the checkpoint is not
   * writable.
   */
  static CheckpointLock lockCheckpoint(CommandSpec spec, ManagedSession spark, String checkpoint)
      throws java.io.IOException {
    try {
      return CheckpointLock.acquire(
          checkpoint, spark.session().sparkContext().hadoopConfiguration());
    } catch (CheckpointLock.Held e) {
      throw SparkKpcaCli.usage(
          spec,
          "--checkpoint "
              + checkpoint
              + ": another query is running on it ("
              + e.holder()
              + "); wait for it to end or stop it (then this command continues where it stopped),"
              + " or give another --checkpoint");
    } catch (java.nio.file.FileSystemException e) {
      // The lock is the command's first write into the checkpoint: a read-only one stops here.
      throw SparkKpcaCli.usage(
          spec,
          "--checkpoint "
              + checkpoint
              + ": it is not writable ("
              + (e.getReason() != null ? e.getReason() : e.getClass().getSimpleName())
              + ": "
              + e.getFile()
              + "); give a checkpoint directory this user can write");
    }
  }

  /** --checkpoint and --model-out: separate directories, checked before anything is written. */
  private void requireSeparate(ManagedSession spark) {
    try {
      ModelDirectory.requireSeparate(
          modelOut, checkpoint, spark.session().sparkContext().hadoopConfiguration());
    } catch (IllegalArgumentException e) {
      throw SparkKpcaCli.usage(spec, "--checkpoint and --model-out: " + e.getMessage());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The CLI option of each model parameter the model directory records. */
  private static final java.util.Map<String, String> OPTION_NAMES =
      java.util.Map.ofEntries(
          java.util.Map.entry("estimator", "--feature-map"),
          java.util.Map.entry("k", "--k"),
          java.util.Map.entry("kernel", "--kernel"),
          java.util.Map.entry("gamma", "--gamma"),
          java.util.Map.entry("degree", "--degree"),
          java.util.Map.entry("coef0", "--coef0"),
          java.util.Map.entry("centered", "--no-center"),
          java.util.Map.entry("seed", "--seed"),
          java.util.Map.entry("numLandmarks", "--landmarks"),
          java.util.Map.entry("landmarkSampling", "--landmark-sampling"),
          java.util.Map.entry("leverageRegularization", "--leverage-regularization"),
          java.util.Map.entry("kmeansMaxIter", "--kmeans-max-iter"),
          java.util.Map.entry("numRandomFeatures", "--features"),
          java.util.Map.entry("algorithm", "--algorithm"),
          java.util.Map.entry("stepSchedule", "--step-schedule"),
          java.util.Map.entry("miniBatchSize", "--mini-batch"),
          java.util.Map.entry("qrEvery", "--qr-every"));

  /**
   * Ties --model-out to --checkpoint and the model options before the query starts; a mismatch is a
   * usage error naming the option, the stored value and the given one.
   */
  /**
   * The names the stream's files are read by: those of the version a restart resumes from, else
   * those of the {@code --landmarks-from} model (none when neither records names).
   */
  private String[] namesToRead(
      ManagedSession spark, Estimator<? extends AbstractKernelPCAModel<?>> estimator)
      throws java.io.IOException {
    String[] resumed = resumedFeatureNames(spark);
    if ((resumed == null || resumed.length == 0) && estimator instanceof NystromKernelPCA n) {
      return n.landmarkFeatureNames();
    }
    return resumed;
  }

  /**
   * The feature names of the newest version in {@code --model-out} (none when there is none yet, or
   * it records none); the directory itself is checked when the query is bound to it.
   */
  private String[] resumedFeatureNames(ManagedSession spark) throws java.io.IOException {
    String version;
    try {
      version =
          StreamingKernelPCA.latestVersion(
              modelOut, spark.session().sparkContext().hadoopConfiguration());
    } catch (IllegalArgumentException e) {
      return null;
    }
    return version == null ? null : AbstractKernelPCAModel.loadAny(version).featureNames();
  }

  private void bind(StreamingKernelPCA streaming, ManagedSession spark) throws java.io.IOException {
    try {
      streaming.bind(checkpoint, spark.session().sparkContext().hadoopConfiguration());
    } catch (ModelDirectory.OptionMismatch e) {
      String option = OPTION_NAMES.getOrDefault(e.option(), e.option());
      String special = RestartRefusals.message(modelOut, e, estimatorOptions.landmarksFrom);
      if (special != null) {
        throw SparkKpcaCli.usage(spec, special);
      }
      throw SparkKpcaCli.usage(
          spec,
          "--model-out "
              + modelOut
              + " was streamed with "
              + option
              + " "
              + display(e.option(), e.stored())
              + ", not "
              + display(e.option(), e.given())
              + ": a restart keeps the model's options; give "
              + option
              + " "
              + display(e.option(), e.stored())
              + ", or a new --model-out and --checkpoint");
    } catch (IllegalArgumentException e) {
      throw SparkKpcaCli.usage(spec, e.getMessage());
    }
  }

  private static String display(String option, String value) {
    return switch (option) {
      case "estimator" -> value.startsWith("RandomFeature") ? "rff" : "nystrom";
      default -> value.equals("unset") ? "(not given)" : value;
    };
  }

  /** The phases of the micro-batches so far, for the progress lines and the summary. */
  static final class PhaseLog {
    volatile double read;
    final List<double[]> batches = new java.util.ArrayList<>();
    final java.util.Map<Long, Double> overhead = new java.util.concurrent.ConcurrentHashMap<>();

    synchronized void add(StreamingKernelPCA.Phases p) {
      batches.add(new double[] {read + p.read(), p.statistics(), p.solve(), p.write()});
    }

    /** Medians of the micro-batches after the first (the first fits, and warms the JVM). */
    synchronized void printSummary(PrintWriter out) {
      if (batches.size() < 2) {
        return;
      }
      List<double[]> steady = batches.subList(1, batches.size());
      double[] overheads =
          overhead.entrySet().stream()
              .filter(e -> e.getKey() > 0)
              .mapToDouble(java.util.Map.Entry::getValue)
              .toArray();
      out.printf(
          Locale.ROOT,
          "micro-batch phases, median of %d after the first: read %.2f s, statistics %.2f s, "
              + "merge and solve %.2f s, version %.2f s, Spark's trigger overhead %s%n",
          steady.size(),
          median(steady, 0),
          median(steady, 1),
          median(steady, 2),
          median(steady, 3),
          overheads.length == 0
              ? "not reported"
              : String.format(Locale.ROOT, "%.2f s", median(overheads)));
      out.flush();
    }

    private static double median(List<double[]> rows, int column) {
      return median(rows.stream().mapToDouble(r -> r[column]).toArray());
    }

    private static double median(double[] values) {
      double[] sorted = values.clone();
      Arrays.sort(sorted);
      int n = sorted.length;
      return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
  }

  private final PhaseLog phases = new PhaseLog();

  private static void printTrigger(
      PrintWriter out, StreamingKernelPCA.TriggerReport report, PhaseLog phases) {
    phases.overhead.put(report.batchId(), report.overheadSeconds());
    out.printf(
        Locale.ROOT,
        "batch %d: trigger %.2f s, of which Spark's own overhead %.2f s%n",
        report.batchId(),
        report.triggerSeconds(),
        report.overheadSeconds());
    out.flush();
  }

  private static void print(
      PrintWriter out, StreamingKernelPCA.BatchReport report, PhaseLog phases) {
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
      phases.add(report.phases());
      StreamingKernelPCA.Phases p = report.phases();
      out.printf(
          Locale.ROOT,
          "batch %d: %d rows so far (+%d), %s, %.2f s (read %.2f, statistics %.2f, "
              + "merge and solve %.2f, %s %.2f)%n",
          report.batchId(),
          report.rowsSoFar(),
          report.batchRows(),
          report.versioned()
              ? "top eigenvalues " + top
              : "version pending (rows kept, eigenvalues at the next version)",
          report.seconds() + phases.read,
          phases.read + p.read(),
          p.statistics(),
          p.solve(),
          report.versioned() ? "version" : "pending rows",
          p.write());
    }
    out.flush();
  }
}
