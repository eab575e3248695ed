import io.github.sparkkpca.examples.bench.DgemmRate;
import io.github.sparkkpca.examples.data.DataSources;
import io.github.sparkkpca.examples.data.InputFormat;
import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.examples.data.SourceOptions;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCA;
import io.github.sparkkpca.streaming.ModelDirectory;
import io.github.sparkkpca.streaming.StreamingKernelPCA;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.ml.Estimator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.storage.StorageLevel;

/**
 * Streaming micro-batches against the batch time of reading plus fitting the same rows, in one JVM,
 * interleaved (batch fits, a stream, batch fits, ...), and the cost of writing a version.
 *
 * <pre>
 * java -cp EXAMPLES_JAR:CLASSPATH StreamBench.java stream DIR FORMATS MODELS SIZE REPS VERSION_EVERY
 * java -cp EXAMPLES_JAR:CLASSPATH StreamBench.java write DIR SIZE
 * </pre>
 *
 * DIR holds csv/ and parquet/, each 10 files of 2000 MNIST rows (784 pixels and label); FORMATS is
 * e.g. parquet,csv; MODELS rff,nystrom; SIZE is D or m.
 */
public class StreamBench {

  public static void main(String[] args) throws Exception {
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .getOrCreate();
    spark.sparkContext().setLogLevel("ERROR");
    if (args[0].equals("write")) {
      write(spark, args[1], Integer.parseInt(args[2]));
      return;
    }
    String dir = args[1];
    int size = Integer.parseInt(args[4]);
    int reps = Integer.parseInt(args[5]);
    int every = Integer.parseInt(args[6]);
    DgemmRate rate = DgemmRate.measure(1000, 3, 2);
    System.out.printf(Locale.ROOT, "dgemm %.1f GFLOP/s (%s)%n", rate.gflops(), rate.implementation());
    for (String format : args[2].split(",")) {
      for (String model : args[3].split(",")) {
        List<Double> batch = new ArrayList<>();
        List<Double> steady = new ArrayList<>();
        List<double[]> phases = new ArrayList<>();
        for (int rep = 0; rep < reps; rep++) {
          for (int f = 0; f < 2; f++) {
            batch.add(readAndFit(spark, dir + "/" + format + "/part-" + (rep * 2 + f) + "." + format, model, size));
          }
          stream(spark, dir + "/" + format, model, size, every, steady, phases);
        }
        for (int f = 0; f < 2; f++) {
          batch.add(readAndFit(spark, dir + "/" + format + "/part-" + (9 - f) + "." + format, model, size));
        }
        double b = median(batch);
        double s = median(steady);
        double[] p = new double[5];
        for (int i = 0; i < 5; i++) {
          final int c = i;
          p[i] = median(phases.stream().map(r -> r[c]).toList());
        }
        int d = 784;
        // The statistics' flops per row: the scatter (D² for the packed symmetric rank-k update, as
        // 2·D²/2) plus the map (2·D·d for random features; 2·m·d for K_nm and 2·m·r for the
        // whitening, r = m, for Nyström).
        double flopsPerRow =
            model.equals("rff")
                ? (double) size * size + 2.0 * size * d
                : (double) size * size + 2.0 * size * d + 2.0 * size * size;
        double bound = rate.gflops() * 1e9 / flopsPerRow;
        System.out.printf(
            Locale.ROOT,
            "| %s | %s %d | %.2f s | %.2f s | %.2f | %.2f s | read %.2f, statistics %.2f, solve %.2f, write %.2f, Spark %.2f | %.0f rows/s (statistics %.0f rows/s, bound %.0f rows/s) |%n",
            format,
            model,
            size,
            b,
            s,
            s / b,
            1.5 * b + 0.5,
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            2000 / s,
            2000 / p[1],
            bound);
        System.out.println("  batch times " + batch + ", steady micro-batches " + steady);
      }
    }
  }

  private static Estimator<? extends AbstractKernelPCAModel<?>> estimator(String model, int size) {
    return model.equals("rff")
        ? new RandomFeatureKernelPCA().setK(10).setNumRandomFeatures(size).setGamma(1e-7).setSeed(1)
        : new NystromKernelPCA().setK(10).setNumLandmarks(size).setGamma(1e-7).setSeed(1);
  }

  private static SourceOptions source(String input) {
    InputFormat format = input.contains("parquet") ? InputFormat.PARQUET : InputFormat.CSV;
    return new SourceOptions(input, format, "features", "label", null, null, null);
  }

  /** Seconds to read one 2000-row file as the CLI does (validated, cached) and fit it. */
  private static double readAndFit(SparkSession spark, String file, String model, int size) {
    long t0 = System.nanoTime();
    LoadedData data = DataSources.load(spark, source(file));
    data.persistAndValidate();
    Estimator<? extends AbstractKernelPCAModel<?>> est = estimator(model, size);
    est.set(est.getParam("inputCol"), data.featuresCol());
    est.fit(data.data());
    data.unpersist();
    return (System.nanoTime() - t0) / 1e9;
  }

  /** Streams the 10 files, one per micro-batch, as the CLI does; adds the steady-state times. */
  private static void stream(
      SparkSession spark,
      String dir,
      String model,
      int size,
      int every,
      List<Double> steady,
      List<double[]> phases)
      throws Exception {
    Path tmp = Files.createTempDirectory("stream-bench");
    LoadedData data = DataSources.stream(spark, source(dir), 1);
    Estimator<? extends AbstractKernelPCAModel<?>> est = estimator(model, size);
    est.set(est.getParam("inputCol"), data.featuresCol());
    List<StreamingKernelPCA.BatchReport> reports = new CopyOnWriteArrayList<>();
    List<StreamingKernelPCA.TriggerReport> triggers = new CopyOnWriteArrayList<>();
    double[] read = new double[20];
    StreamingKernelPCA sink =
        new StreamingKernelPCA()
            .setEstimator(est)
            .setModelDir(tmp.resolve("model").toString())
            .setVersionEveryBatches(every)
            .setBatchListener(reports::add)
            .setTriggerListener(triggers::add);
    String checkpoint = tmp.resolve("ckpt").toString();
    sink.bind(checkpoint, spark.sparkContext().hadoopConfiguration());
    spark.streams().addListener(sink.progressListener());
    var function = sink.sink();
    data.data()
        .writeStream()
        .option("checkpointLocation", checkpoint)
        .trigger(Trigger.AvailableNow())
        .foreachBatch(
            (Dataset<Row> batch, Long id) -> {
              long t0 = System.nanoTime();
              Dataset<Row> cached = batch.persist(StorageLevel.MEMORY_AND_DISK());
              data.validateMicroBatch(cached);
              read[id.intValue()] = (System.nanoTime() - t0) / 1e9;
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
            read[(int) t.batchId()] + p.read(), p.statistics(), p.solve(), p.write(), t.overheadSeconds()
          });
    }
  }

  /** The cost of writing a version (a whole model) and of a pending micro-batch, at D = size. */
  private static void write(SparkSession spark, String dir, int size) throws Exception {
    LoadedData data = DataSources.load(spark, source(dir + "/parquet/part-0.parquet"));
    data.persistAndValidate();
    for (String model : size > 2000 ? List.of("rff") : List.of("rff", "nystrom")) {
      Estimator<? extends AbstractKernelPCAModel<?>> est = estimator(model, size);
      est.set(est.getParam("inputCol"), data.featuresCol());
      long t0 = System.nanoTime();
      AbstractKernelPCAModel<?> fitted = est.fit(data.data());
      double fit = (System.nanoTime() - t0) / 1e9;
      Path tmp = Files.createTempDirectory("write-bench");
      ModelDirectory directory = new ModelDirectory(tmp.toString(), "exact");
      directory.open(spark.sparkContext().hadoopConfiguration());
      List<Double> versions = new ArrayList<>();
      List<Double> pending = new ArrayList<>();
      Dataset<Row> rows = data.data().select(data.featuresCol());
      for (int i = 0; i < 3; i++) {
        t0 = System.nanoTime();
        directory.commit(fitted, 2 * i, 0, null, spark.sparkContext().hadoopConfiguration(), p -> {});
        versions.add((System.nanoTime() - t0) / 1e9);
        t0 = System.nanoTime();
        directory.commitPending(rows, 2 * i + 1, null, spark.sparkContext().hadoopConfiguration());
        pending.add((System.nanoTime() - t0) / 1e9);
      }
      System.out.printf(
          Locale.ROOT,
          "| %s %d | fit of 2000 rows %.1f s | version %.2f s (%.1f MB) | pending rows %.2f s (%.1f MB) |%n",
          model,
          size,
          fit,
          median(versions),
          bytes(Path.of(directory.versionPath(0).toString())) / 1e6,
          median(pending),
          bytes(Path.of(directory.pendingPath(1).toString())) / 1e6);
    }
  }

  private static long bytes(Path path) throws Exception {
    try (var walk = Files.walk(path)) {
      return walk.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  private static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n == 0 ? Double.NaN : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
