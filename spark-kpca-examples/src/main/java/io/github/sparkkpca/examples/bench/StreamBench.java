package io.github.sparkkpca.examples.bench;

import io.github.sparkkpca.examples.data.DataSources;
import io.github.sparkkpca.examples.data.InputFormat;
import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.examples.data.SourceOptions;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCA;
import io.github.sparkkpca.streaming.ModelDirectory;
import io.github.sparkkpca.streaming.StreamingKernelPCA;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.ml.Estimator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.storage.StorageLevel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca bench stream}: micro-batches folded in by {@link StreamingKernelPCA} exactly as
 * the CLI {@code stream} does it (the micro-batch cached, validated, then the sink), one file per
 * micro-batch ({@code availableNow}), against the batch time of reading plus fitting one file as
 * {@code fit} does ({@code DataSources.load}, {@code persistAndValidate}, {@code fit}), in one JVM.
 * Batch fits and streams are interleaved (two fits, a stream, two fits, ...); each number is a
 * median: of the fits, and of the micro-batches after the first ("steady state": the first one fits
 * the model and draws the landmarks or ω). The micro-batch time is Spark's {@code triggerExecution}
 * (everything, Spark's own overhead included).
 *
 * <p>With {@code --write-cost}: fits the first file, then times writing a whole version ({@code
 * ModelDirectory.commit}) and a micro-batch's pending rows ({@code commitPending}), three times
 * each.
 *
 * <p>{@code --data DIR} holds {@code csv/part-0.csv ... part-(F-1).csv} (columns x0.., label, a
 * header) and/or {@code parquet/part-0.parquet ...} (the same rows as double columns), with
 * increasing modification times.
 */
@Command(
    name = "stream",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Steady micro-batches of a StreamingKernelPCA stream (one file each) against reading and "
          + "fitting the same rows (interleaved, medians), or the cost of writing a version.",
      "Example: spark-kpca bench stream --data DIR --formats csv --models rff,nystrom --size 1401 "
          + "--out bench-results/stream"
    })
public final class StreamBench implements Callable<Integer> {

  /** The columns of {@code stream.csv}. */
  static final String COLUMNS =
      "format,model,size,version_every,rows_per_batch,batch_seconds,steady_seconds,ratio,"
          + "target_seconds,read_seconds,statistics_seconds,solve_seconds,write_seconds,"
          + "spark_seconds,rows_per_second,statistics_rows_per_second,bound_rows_per_second,"
          + "dgemm_gflops,fits,steady_micro_batches";

  /** The columns of {@code write-cost.csv}. */
  static final String WRITE_COLUMNS =
      "model,size,rows,fit_seconds,version_seconds,version_mb,pending_seconds,pending_mb";

  @Spec CommandSpec spec;

  @Option(
      names = "--data",
      required = true,
      paramLabel = "DIR",
      description = "Directory of csv/part-I.csv and/or parquet/part-I.parquet, one file a batch.")
  Path data;

  @Option(
      names = "--formats",
      paramLabel = "F",
      split = ",",
      defaultValue = "parquet,csv",
      description = "Input formats, comma-separated (csv, parquet). Default: ${DEFAULT-VALUE}.")
  List<String> formats;

  @Option(
      names = "--models",
      paramLabel = "M",
      split = ",",
      defaultValue = "rff,nystrom",
      description =
          "rff (RandomFeatureKernelPCA, D = --size) and/or nystrom (exact streaming Nyström, "
              + "m = --size landmarks from the first micro-batch). Default: ${DEFAULT-VALUE}.")
  List<String> models;

  @Option(
      names = "--size",
      paramLabel = "N",
      defaultValue = "1401",
      description = "D or m. Default: ${DEFAULT-VALUE}.")
  int size;

  @Option(
      names = "--k",
      paramLabel = "K",
      defaultValue = "10",
      description = "Components. Default: ${DEFAULT-VALUE}.")
  int k;

  @Option(
      names = "--gamma",
      paramLabel = "G",
      defaultValue = "1e-7",
      description = "RBF γ. Default: ${DEFAULT-VALUE}.")
  double gamma;

  @Option(
      names = "--seed",
      paramLabel = "S",
      defaultValue = "1",
      description = "Seed. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(
      names = "--repeat",
      paramLabel = "R",
      defaultValue = "1",
      description = "Streams per case, each between two pairs of fits. Default: ${DEFAULT-VALUE}.")
  int repeat;

  @Option(
      names = "--version-every-batches",
      paramLabel = "N",
      defaultValue = "1",
      description =
          "A version every N micro-batches (pending rows between). Default: ${DEFAULT-VALUE}.")
  int every;

  @Option(
      names = "--write-cost",
      description =
          "Time writing a version and a pending micro-batch instead (first format's part-0).")
  boolean writeCost;

  @Option(
      names = "--master",
      paramLabel = "URL",
      description = "Spark master (default: spark.master, else local[*]).")
  String master;

  @Option(
      names = "--out",
      required = true,
      paramLabel = "DIR",
      description =
          "Directory of stream.csv or write-cost.csv and the scratch models (new or empty).")
  Path out;

  @Override
  public Integer call() throws Exception {
    if (size < 1 || k < 1 || repeat < 1 || every < 1 || !(gamma > 0)) {
      throw new IllegalArgumentException(
          "bench stream: --size, --k, --repeat and --version-every-batches must be >= 1, --gamma > 0");
    }
    for (String m : models) {
      if (!m.equals("rff") && !m.equals("nystrom")) {
        throw new IllegalArgumentException("--models: unknown model '" + m + "' (rff, nystrom)");
      }
    }
    List<Integer> fileCounts = new ArrayList<>();
    for (String f : formats) {
      if (!f.equals("csv") && !f.equals("parquet")) {
        throw new IllegalArgumentException("--formats: unknown format '" + f + "' (csv, parquet)");
      }
      int n = 0;
      while (Files.exists(data.resolve(f).resolve("part-" + n + "." + f))) {
        n++;
      }
      int min = writeCost ? 1 : 2;
      if (n < min) {
        throw new IllegalArgumentException(
            "--data "
                + data
                + ": needs "
                + f
                + "/part-0."
                + f
                + (min > 1 ? " to part-1." + f : ""));
      }
      fileCounts.add(n);
    }
    ScoreStreamBench.createEmptyOut(out);
    PrintWriter console = spec.commandLine().getOut();
    try (BenchSession bench = BenchSession.open(master)) {
      SparkSession spark = bench.session();
      if (writeCost) {
        write(spark, console);
        return 0;
      }
      DgemmRate rate = DgemmRate.measure(1000, 3, 2);
      console.printf(
          Locale.ROOT,
          "dgemm %.1f GFLOP/s (%s); %s%n",
          rate.gflops(),
          rate.implementation(),
          spark.sparkContext().master());
      List<String> lines = new ArrayList<>();
      lines.add(COLUMNS);
      int run = 0;
      for (int fi = 0; fi < formats.size(); fi++) {
        String format = formats.get(fi);
        int files = fileCounts.get(fi);
        String dir = data.resolve(format).toAbsolutePath().toString();
        long rows = DataSources.load(spark, source(file(dir, format, 0))).data().count();
        for (String model : models) {
          List<Double> batch = new ArrayList<>();
          List<Double> steady = new ArrayList<>();
          List<double[]> phases = new ArrayList<>();
          for (int rep = 0; rep < repeat; rep++) {
            for (int f = 0; f < 2; f++) {
              batch.add(readAndFit(spark, file(dir, format, (rep * 2 + f) % files), model));
            }
            stream(spark, dir, model, out.resolve("run-" + run++), steady, phases);
          }
          for (int f = 0; f < 2; f++) {
            batch.add(readAndFit(spark, file(dir, format, files - 1 - f), model));
          }
          double b = BenchOutput.median(batch);
          double s = BenchOutput.median(steady);
          double[] p = new double[5];
          for (int i = 0; i < 5; i++) {
            final int c = i;
            p[i] = BenchOutput.median(phases.stream().map(r -> r[c]).toList());
          }
          double bound = rate.gflops() * 1e9 / flopsPerRow(model, spark, dir, format);
          // One list of measurements for both the CSV line and the console line.
          Object[] measured = {
            b, s, s / b, 1.5 * b + 0.5, p[0], p[1], p[2], p[3], p[4], rows / s, rows / p[1], bound
          };
          lines.add(
              String.format(Locale.ROOT, "%s,%s,%d,%d,%d,", format, model, size, every, rows)
                  + String.format(
                      Locale.ROOT,
                      "%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.1f,%.1f,%.1f",
                      measured)
                  + String.format(
                      Locale.ROOT,
                      ",%.2f,\"%s\",\"%s\"",
                      rate.gflops(),
                      seconds(batch),
                      seconds(steady)));
          console.printf(Locale.ROOT, "%s %s %d, a version every %d: ", format, model, size, every);
          console.printf(
              Locale.ROOT,
              "read+fit %.2f s, steady micro-batch %.2f s, ratio %.2f (target %.2f s); read %.2f, "
                  + "statistics %.2f, solve %.2f, write %.2f, Spark %.2f; %.0f rows/s (statistics "
                  + "%.0f, bound %.0f)%n",
              measured);
          console.printf(Locale.ROOT, "  fits %s; steady micro-batches %s%n", batch, steady);
        }
      }
      Files.write(out.resolve("stream.csv"), lines, StandardCharsets.UTF_8);
      console.printf(Locale.ROOT, "wrote %s%n", out.resolve("stream.csv"));
    }
    return 0;
  }

  private static String file(String dir, String format, int i) {
    return dir + "/part-" + i + "." + format;
  }

  /**
   * The statistics' flops per row: the scatter (D² for the packed symmetric rank-k update) plus the
   * map (2·D·d for random features; 2·m·d for K_nm and 2·m² for the whitening, for Nyström).
   */
  private double flopsPerRow(String model, SparkSession spark, String dir, String format) {
    String first = file(dir, format, 0);
    int d =
        (format.equals("csv")
                    ? spark.read().option("header", "true").csv(first)
                    : spark.read().parquet(first))
                .schema()
                .size()
            - 1; // the label
    return model.equals("rff")
        ? (double) size * size + 2.0 * size * d
        : 3.0 * size * size + 2.0 * size * d;
  }

  private Estimator<? extends AbstractKernelPCAModel<?>> estimator(String model) {
    return model.equals("rff")
        ? new RandomFeatureKernelPCA()
            .setK(k)
            .setNumRandomFeatures(size)
            .setGamma(gamma)
            .setSeed(seed)
        : new NystromKernelPCA().setK(k).setNumLandmarks(size).setGamma(gamma).setSeed(seed);
  }

  private static SourceOptions source(String input) {
    InputFormat format = input.contains("parquet") ? InputFormat.PARQUET : InputFormat.CSV;
    return new SourceOptions(input, format, "features", "label", null, null, null);
  }

  /** Seconds to read one file as the CLI does (validated, cached) and fit it. */
  private double readAndFit(SparkSession spark, String file, String model) {
    long t0 = System.nanoTime();
    LoadedData loaded = DataSources.load(spark, source(file));
    loaded.persistAndValidate();
    Estimator<? extends AbstractKernelPCAModel<?>> est = estimator(model);
    est.set(est.getParam("inputCol"), loaded.featuresCol());
    est.fit(loaded.data());
    loaded.unpersist();
    return (System.nanoTime() - t0) / 1e9;
  }

  /** Streams the files, one per micro-batch, as the CLI does; adds the steady-state times. */
  private void stream(
      SparkSession spark,
      String dir,
      String model,
      Path scratch,
      List<Double> steady,
      List<double[]> phases)
      throws Exception {
    LoadedData loaded = DataSources.stream(spark, source(dir), 1);
    Estimator<? extends AbstractKernelPCAModel<?>> est = estimator(model);
    est.set(est.getParam("inputCol"), loaded.featuresCol());
    List<StreamingKernelPCA.BatchReport> reports = new CopyOnWriteArrayList<>();
    List<StreamingKernelPCA.TriggerReport> triggers = new CopyOnWriteArrayList<>();
    java.util.Map<Long, Double> read = new java.util.concurrent.ConcurrentHashMap<>();
    StreamingKernelPCA sink =
        new StreamingKernelPCA()
            .setEstimator(est)
            .setModelDir(scratch.resolve("model").toAbsolutePath().toString())
            .setVersionEveryBatches(every)
            .setBatchListener(reports::add)
            .setTriggerListener(triggers::add);
    String checkpoint = scratch.resolve("checkpoint").toAbsolutePath().toString();
    sink.bind(checkpoint, spark.sparkContext().hadoopConfiguration());
    var listener = sink.progressListener();
    spark.streams().addListener(listener);
    try {
      var function = sink.sink();
      loaded
          .data()
          .writeStream()
          .option("checkpointLocation", checkpoint)
          .trigger(Trigger.AvailableNow())
          .foreachBatch(
              (Dataset<Row> batch, Long id) -> {
                long t0 = System.nanoTime();
                Dataset<Row> cached = batch.persist(StorageLevel.MEMORY_AND_DISK());
                loaded.validateMicroBatch(cached);
                read.put(id, (System.nanoTime() - t0) / 1e9);
                function.call(cached, id);
                cached.unpersist(false);
              })
          .start()
          .awaitTermination();
      sink.flush();
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (triggers.size() < reports.size() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
    } finally {
      spark.streams().removeListener(listener);
    }
    for (StreamingKernelPCA.TriggerReport t : triggers) {
      if (t.batchId() == 0) {
        continue;
      }
      steady.add(t.triggerSeconds());
      StreamingKernelPCA.BatchReport r =
          reports.stream().filter(x -> x.batchId() == t.batchId()).findFirst().orElseThrow();
      StreamingKernelPCA.Phases p = r.phases();
      phases.add(
          new double[] {
            read.getOrDefault(t.batchId(), 0.0) + p.read(),
            p.statistics(),
            p.solve(),
            p.write(),
            t.overheadSeconds()
          });
    }
  }

  /** The cost of writing a version (a whole model) and of a pending micro-batch, at D = size. */
  private void write(SparkSession spark, PrintWriter console) throws Exception {
    String format = formats.get(0);
    LoadedData loaded =
        DataSources.load(
            spark, source(file(data.resolve(format).toAbsolutePath().toString(), format, 0)));
    loaded.persistAndValidate();
    long rows = loaded.data().count();
    List<String> lines = new ArrayList<>();
    lines.add(WRITE_COLUMNS);
    for (String model : models) {
      Estimator<? extends AbstractKernelPCAModel<?>> est = estimator(model);
      est.set(est.getParam("inputCol"), loaded.featuresCol());
      long t0 = System.nanoTime();
      AbstractKernelPCAModel<?> fitted = est.fit(loaded.data());
      double fit = (System.nanoTime() - t0) / 1e9;
      Path dir = out.resolve("write-" + model).toAbsolutePath();
      ModelDirectory directory = new ModelDirectory(dir.toString(), "exact");
      directory.open(spark.sparkContext().hadoopConfiguration());
      List<Double> versions = new ArrayList<>();
      List<Double> pending = new ArrayList<>();
      Dataset<Row> features = loaded.data().select(loaded.featuresCol());
      long featureRows = features.count(); // the pending record's count, outside the timing
      for (int i = 0; i < 3; i++) {
        t0 = System.nanoTime();
        directory.commit(
            fitted, 2 * i, 0, null, spark.sparkContext().hadoopConfiguration(), p -> {});
        versions.add((System.nanoTime() - t0) / 1e9);
        t0 = System.nanoTime();
        directory.commitPending(
            features, 2 * i + 1, featureRows, null, spark.sparkContext().hadoopConfiguration());
        pending.add((System.nanoTime() - t0) / 1e9);
      }
      double versionMb = bytes(Path.of(directory.versionPath(0).toUri().getPath())) / 1e6;
      double pendingMb = bytes(Path.of(directory.pendingPath(1).toUri().getPath())) / 1e6;
      lines.add(
          String.format(
              Locale.ROOT,
              "%s,%d,%d,%.3f,%.3f,%.2f,%.3f,%.2f",
              model,
              size,
              rows,
              fit,
              BenchOutput.median(versions),
              versionMb,
              BenchOutput.median(pending),
              pendingMb));
      console.printf(
          Locale.ROOT,
          "%s %d: fit of %d rows %.1f s; a version %.2f s (%.1f MB); pending rows %.2f s (%.1f MB)%n",
          model,
          size,
          rows,
          fit,
          BenchOutput.median(versions),
          versionMb,
          BenchOutput.median(pending),
          pendingMb);
    }
    loaded.unpersist();
    Files.write(out.resolve("write-cost.csv"), lines, StandardCharsets.UTF_8);
    console.printf(Locale.ROOT, "wrote %s%n", out.resolve("write-cost.csv"));
  }

  private static String seconds(List<Double> values) {
    return String.join(
        " ", values.stream().map(v -> String.format(Locale.ROOT, "%.2f", v)).toList());
  }

  private static long bytes(Path path) throws Exception {
    try (var walk = Files.walk(path)) {
      return walk.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }
}
