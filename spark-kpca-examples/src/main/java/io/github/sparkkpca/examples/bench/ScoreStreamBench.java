package io.github.sparkkpca.examples.bench;

import io.github.sparkkpca.examples.data.DataSources;
import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.examples.data.SourceOptions;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamReader;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.StructType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca bench score-stream}: scored rows per second of {@code model.transform} on a
 * file stream written by Spark's Parquet file sink with a checkpoint (as {@code score-stream}
 * writes), against the batch transform of the same rows into the same kind of sink, measured in one
 * run, interleaved, median of {@code --repeat}.
 *
 * <p>The first {@code --rows} rows of the input are written once as {@code --files} Parquet files
 * (a vector column) under {@code --out}; a Nyström model is fitted on them. Then, per repetition:
 * the batch transform (read the files, score, write Parquet), the stream with one file per
 * micro-batch ({@code maxFilesPerTrigger = 1}, available-now), two files per micro-batch, and the
 * stream of all files in one micro-batch (Spark's file source makes one task of a small file, so a
 * one-file micro-batch keeps one core busy). Times are wall times from the start of the job or
 * query to its end; every output is counted to check that it holds every row once.
 */
@Command(
    name = "score-stream",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Rows/s of scoring a file stream into a checkpointed Parquet sink against the batch transform "
          + "of the same rows (interleaved, median of --repeat).",
      "Example: spark-kpca bench score-stream --input mnist:train --rows 20000 --files 10 --out "
          + "bench-results/score-stream"
    })
public final class ScoreStreamBench implements Callable<Integer> {

  /** The columns of {@code score-stream.csv}. */
  static final String COLUMNS =
      "mode,repetition,rows,micro_batches,seconds,rows_per_second,job_seconds,trigger_overhead_seconds";

  @Spec CommandSpec spec;

  @Option(
      names = "--input",
      paramLabel = "SOURCE",
      defaultValue = "mnist:train",
      description = "A source as for fit. Default: ${DEFAULT-VALUE}.")
  String input;

  @Option(
      names = "--rows",
      paramLabel = "N",
      defaultValue = "20000",
      description = "Rows scored (the first N). Default: ${DEFAULT-VALUE}.")
  int rows;

  @Option(
      names = "--files",
      paramLabel = "F",
      defaultValue = "10",
      description = "Parquet files the rows are written as. Default: ${DEFAULT-VALUE}.")
  int files;

  @Option(
      names = "--m",
      paramLabel = "M",
      defaultValue = "1000",
      description = "Landmarks of the model. Default: ${DEFAULT-VALUE}.")
  int m;

  @Option(
      names = "--k",
      paramLabel = "K",
      defaultValue = "10",
      description = "Components. Default: ${DEFAULT-VALUE}.")
  int k;

  @Option(
      names = "--seed",
      paramLabel = "S",
      defaultValue = "1",
      description = "Seed of the landmarks. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(
      names = "--repeat",
      paramLabel = "R",
      defaultValue = "3",
      description = "Repetitions of each mode, interleaved. Default: ${DEFAULT-VALUE}.")
  int repeat;

  @Option(
      names = "--master",
      paramLabel = "URL",
      description = "Spark master (default: spark.master, else local[*]).")
  String master;

  @Option(
      names = "--out",
      required = true,
      paramLabel = "DIR",
      description = "Directory of score-stream.csv and the scratch data (new or empty).")
  Path out;

  @Override
  public Integer call() throws Exception {
    if (rows < 1 || files < 1 || files > rows || m < 1 || k < 1 || repeat < 1) {
      throw new IllegalArgumentException(
          "bench score-stream: --rows, --files, --m, --k and --repeat must be >= 1, --files <= --rows");
    }
    createEmptyOut(out);
    PrintWriter console = spec.commandLine().getOut();
    try (BenchSession bench = BenchSession.open(master)) {
      SparkSession spark = bench.session();
      String data = out.resolve("input").toAbsolutePath().toString();
      LoadedData loaded = DataSources.load(spark, SourceOptions.of(input));
      loaded
          .data()
          .select(loaded.featuresCol())
          .limit(rows)
          .repartition(files)
          .write()
          .parquet(data);
      Dataset<Row> batchInput = spark.read().parquet(data);
      long written = batchInput.count();
      if (written != rows) {
        throw new IllegalArgumentException(
            "--input " + input + " has " + written + " rows, fewer than --rows " + rows);
      }
      StructType schema = batchInput.schema();
      NystromKernelPCAModel model =
          new NystromKernelPCA()
              .setInputCol(loaded.featuresCol())
              .setK(k)
              .setNumLandmarks(m)
              .setSeed(seed)
              .fit(batchInput)
              .setOutputCol("kpca");
      console.printf(
          Locale.ROOT,
          "%d rows of %s (d = %d) in %d Parquet files; Nyström model m = %d, k = %d; %s%n",
          rows,
          input,
          model.numFeatures(),
          files,
          m,
          k,
          spark.sparkContext().master());
      // Warm-up: one batch transform and one stream, not counted.
      batch(spark, model, data, out.resolve("warm-batch").toString());
      stream(spark, model, schema, data, out.resolve("warm-stream"), null);
      Map<String, List<double[]>> times = new LinkedHashMap<>();
      List<String> lines = new ArrayList<>();
      lines.add(COLUMNS);
      for (int r = 0; r < repeat; r++) {
        double seconds = batch(spark, model, data, out.resolve("batch-" + r).toString());
        record(times, lines, "batch", r, new double[] {seconds, 1, seconds, 0});
        for (Integer perTrigger : new Integer[] {1, 2, null}) {
          String mode =
              perTrigger == null
                  ? "stream, all files in one micro-batch"
                  : "stream, "
                      + perTrigger
                      + " file"
                      + (perTrigger == 1 ? "" : "s")
                      + " per micro-batch";
          double[] run =
              stream(
                  spark,
                  model,
                  schema,
                  data,
                  out.resolve("stream-" + (perTrigger == null ? "all" : perTrigger) + "-" + r),
                  perTrigger);
          record(times, lines, mode, r, run);
        }
      }
      double batchMedian = median(times.get("batch"));
      console.printf(
          Locale.ROOT,
          "%-40s %10s %10s %10s %10s %10s%n",
          "mode",
          "median s",
          "rows/s",
          "÷ batch",
          "jobs s",
          "trigger s");
      for (Map.Entry<String, List<double[]>> e : times.entrySet()) {
        double s = median(e.getValue());
        console.printf(
            Locale.ROOT,
            "%-40s %10.2f %10.0f %10.2f %10.2f %10.2f%n",
            e.getKey(),
            s,
            rows / s,
            batchMedian / s,
            median(e.getValue(), 2),
            median(e.getValue(), 3));
      }
      Files.write(out.resolve("score-stream.csv"), lines, StandardCharsets.UTF_8);
      console.printf(Locale.ROOT, "wrote %s%n", out.resolve("score-stream.csv"));
    }
    return 0;
  }

  /**
   * @param run wall seconds, micro-batches, seconds in the micro-batches' jobs (addBatch), seconds
   *     of the rest of their triggers (offsets, planning, commit logs)
   */
  private void record(
      Map<String, List<double[]>> times,
      List<String> lines,
      String mode,
      int repetition,
      double[] run) {
    times.computeIfAbsent(mode, x -> new ArrayList<>()).add(run);
    lines.add(
        String.format(
            Locale.ROOT,
            "\"%s\",%d,%d,%d,%.3f,%.0f,%.3f,%.3f",
            mode,
            repetition,
            rows,
            (int) run[1],
            run[0],
            rows / run[0],
            run[2],
            run[3]));
  }

  private static double median(List<double[]> values) {
    return median(values, 0);
  }

  private static double median(List<double[]> values, int column) {
    return BenchOutput.median(values.stream().mapToDouble(a -> a[column]).toArray());
  }

  /** The batch transform into Parquet; its wall seconds. */
  private double batch(SparkSession spark, NystromKernelPCAModel model, String data, String to) {
    long start = System.nanoTime();
    model.transform(spark.read().parquet(data)).select("kpca").write().parquet(to);
    double seconds = (System.nanoTime() - start) / 1e9;
    requireRows(spark.read().parquet(to).count(), to);
    return seconds;
  }

  /**
   * The stream into a checkpointed Parquet sink, available-now: its wall seconds, micro-batches,
   * seconds in their jobs and in the rest of their triggers.
   */
  private double[] stream(
      SparkSession spark,
      NystromKernelPCAModel model,
      StructType schema,
      String data,
      Path dir,
      Integer filesPerTrigger)
      throws Exception {
    DataStreamReader reader = spark.readStream().schema(schema);
    if (filesPerTrigger != null) {
      reader = reader.option("maxFilesPerTrigger", filesPerTrigger.toString());
    }
    String to = dir.resolve("output").toString();
    long start = System.nanoTime();
    StreamingQuery query =
        model
            .transform(reader.parquet(data))
            .select("kpca")
            .writeStream()
            .format("parquet")
            .option("path", to)
            .option("checkpointLocation", dir.resolve("checkpoint").toString())
            .trigger(Trigger.AvailableNow())
            .start();
    query.awaitTermination();
    double seconds = (System.nanoTime() - start) / 1e9;
    long batches = Arrays.stream(query.recentProgress()).filter(p -> p.numInputRows() > 0).count();
    long scored =
        Arrays.stream(query.recentProgress()).mapToLong(StreamingQueryProgress::numInputRows).sum();
    requireRows(scored, to + " (the query's progress)");
    requireRows(spark.read().parquet(to).count(), to);
    double jobs = 0;
    double triggers = 0;
    for (StreamingQueryProgress p : query.recentProgress()) {
      if (p.numInputRows() > 0) {
        Long add = p.durationMs().get("addBatch");
        Long trigger = p.durationMs().get("triggerExecution");
        jobs += add == null ? 0 : add / 1000.0;
        triggers += trigger == null ? 0 : trigger / 1000.0;
      }
    }
    return new double[] {seconds, batches, jobs, triggers - jobs};
  }

  private void requireRows(long count, String where) {
    if (count != rows) {
      throw new IllegalStateException(where + " holds " + count + " rows, expected " + rows);
    }
  }

  /**
   * Creates {@code --out}, which must not exist or be empty (a benchmark never mixes its results
   * with an earlier run's); shared by the streaming benchmarks.
   *
   * @throws IllegalArgumentException when it exists and holds anything
   */
  static void createEmptyOut(Path out) throws IOException {
    if (Files.exists(out)) {
      try (var entries = Files.list(out)) {
        if (entries.findAny().isPresent()) {
          throw new IllegalArgumentException(
              "--out " + out + ": it exists and is not empty; give a new directory");
        }
      }
    }
    Files.createDirectories(out);
  }
}
