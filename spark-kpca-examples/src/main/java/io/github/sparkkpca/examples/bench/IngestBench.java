package io.github.sparkkpca.examples.bench;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.round;
import static org.apache.spark.sql.functions.sum;

import io.github.sparkkpca.examples.data.DataSources;
import io.github.sparkkpca.examples.data.InputFormat;
import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.examples.data.SourceOptions;
import io.github.sparkkpca.examples.data.SyntheticData;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToLongFunction;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.ml.functions;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca bench ingest}: the command line's load of CSV (and Parquet) files into the
 * feature vector against Spark's own reader of the same files with a numeric schema, measured
 * interleaved in one run.
 *
 * <p>Steps, each timed as one Spark job over every row:
 *
 * <ul>
 *   <li>{@code spark-csv}: Spark's CSV reader with every column {@code double}, each row's cells
 *       summed in a row map (so every cell is converted), then counted and summed;
 *   <li>{@code spark-csv-sum}: the same reader, every column summed by an aggregate (Spark's
 *       generated code, no row map);
 *   <li>{@code cli-csv}: {@link DataSources#load} then {@link LoadedData#persistAndValidate()},
 *       what every command does before its work (parse, check every cell, cache);
 *   <li>{@code cli-csv-nocache}: the same rows without the cache, each vector summed in a row map
 *       with its error column, then counted and summed;
 *   <li>{@code spark-parquet}, {@code spark-parquet-sum}, {@code cli-parquet}, {@code
 *       cli-parquet-nocache}: the same for a Parquet copy of the rows (numeric columns).
 * </ul>
 *
 * <p>The data: {@code mnist} (the first {@code --rows} rows of {@code mnist:train}, label and 784
 * pixels as integers, in {@code --files} files), {@code synthetic} ({@code --rows} × {@code --d}
 * Gaussian mixture rows rounded to 6 decimals, plus a label, in {@code --files} files), or a
 * directory of CSV files with a header and numeric cells. Generated files are written under {@code
 * --work} and reused by later runs.
 */
@Command(
    name = "ingest",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Time the command line's CSV and Parquet load against Spark's own readers with a numeric "
          + "schema on the same files, interleaved, and print rows, cells/s and the ratio.",
      "Example: spark-kpca bench ingest --data mnist --work /tmp/ingest --repeat 5"
    })
public final class IngestBench implements Callable<Integer> {

  private static final String LABEL = "label";

  @Spec CommandSpec spec;

  @Option(
      names = "--data",
      paramLabel = "DATA",
      defaultValue = "mnist",
      description =
          "mnist (rows of mnist:train), synthetic, or a directory of CSV files (header row, numeric "
              + "cells, a column named label). Default: ${DEFAULT-VALUE}.")
  String data;

  @Option(
      names = "--rows",
      paramLabel = "N",
      description = "Rows to generate (default: 20000 for mnist, 1000000 for synthetic).")
  Long rows;

  @Option(
      names = "--d",
      paramLabel = "D",
      defaultValue = "50",
      description = "Feature columns of synthetic data. Default: ${DEFAULT-VALUE}.")
  int d;

  @Option(
      names = "--files",
      paramLabel = "F",
      description =
          "Files to write the generated rows to (default: 10 for mnist, 1 for synthetic).")
  Integer files;

  @Option(
      names = "--work",
      paramLabel = "DIR",
      required = true,
      description = "Directory for the generated CSV and Parquet copies (kept and reused).")
  Path work;

  @Option(
      names = "--repeat",
      paramLabel = "R",
      defaultValue = "3",
      description =
          "Timed rounds after one warm-up round; each round runs every step, in alternating order. "
              + "Default: ${DEFAULT-VALUE}.")
  int repeat;

  @Option(
      names = "--steps",
      split = ",",
      paramLabel = "STEP",
      defaultValue =
          "spark-csv,spark-csv-sum,cli-csv,cli-csv-nocache,spark-parquet,spark-parquet-sum,"
              + "cli-parquet,cli-parquet-nocache",
      description = "The steps to time. Default: ${DEFAULT-VALUE}.")
  List<String> steps;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description = "A CSV file for every timing (data, step, round, rows, cells, seconds).")
  Path out;

  @Option(
      names = "--mnist-dir",
      paramLabel = "DIR",
      description = "The MNIST IDX files (default: as for --input mnist:train).")
  String mnistDir;

  @Option(
      names = "--master",
      paramLabel = "URL",
      description =
          "Spark master when no session is running (default: spark.master, else local[*]).")
  String master;

  private static final List<String> STEPS =
      List.of(
          "spark-csv",
          "spark-csv-sum",
          "cli-csv",
          "cli-csv-nocache",
          "spark-parquet",
          "spark-parquet-sum",
          "cli-parquet",
          "cli-parquet-nocache");

  @Override
  public Integer call() throws IOException {
    PrintWriter console = spec.commandLine().getOut();
    require(repeat >= 1, "--repeat must be >= 1, got " + repeat);
    require(d >= 1, "--d must be >= 1, got " + d);
    require(rows == null || rows >= 1, "--rows must be >= 1, got " + rows);
    require(files == null || files >= 1, "--files must be >= 1, got " + files);
    for (String step : steps) {
      require(
          STEPS.contains(step),
          "--steps: expected some of " + String.join(", ", STEPS) + ", got '" + step + "'");
    }
    try (BenchSession bench = BenchSession.open(master)) {
      SparkSession spark = bench.session();
      Inputs inputs = prepare(spark, console);
      long n = inputs.rows;
      long cells = n * inputs.columns;
      say(
          console,
          "%s: %d rows x %d columns (%d cells); CSV %s, Parquet %s; %d task slots",
          inputs.name,
          n,
          inputs.columns,
          cells,
          inputs.csv,
          inputs.parquet,
          spark.sparkContext().defaultParallelism());
      Map<String, ToLongFunction<SparkSession>> runs = new LinkedHashMap<>();
      for (String step : steps) {
        runs.put(step, s -> run(s, step, inputs));
      }
      Map<String, List<Double>> times = new LinkedHashMap<>();
      List<String> lines = new ArrayList<>();
      for (int round = 0; round <= repeat; round++) {
        List<String> order = new ArrayList<>(runs.keySet());
        if (round % 2 == 1) {
          java.util.Collections.reverse(order);
        }
        for (String step : order) {
          long start = System.nanoTime();
          long counted = runs.get(step).applyAsLong(spark);
          double seconds = (System.nanoTime() - start) / 1e9;
          if (counted != n) {
            throw new IllegalStateException(step + " counted " + counted + " rows, expected " + n);
          }
          String when = round == 0 ? "warm-up" : "round " + round;
          say(
              console,
              "%-20s %s: %.2f s (%.2f M cells/s)",
              step,
              when,
              seconds,
              cells / seconds / 1e6);
          if (round > 0) {
            times.computeIfAbsent(step, k -> new ArrayList<>()).add(seconds);
            lines.add(
                String.join(
                    ",",
                    inputs.name,
                    step,
                    String.valueOf(round),
                    String.valueOf(n),
                    String.valueOf(cells),
                    String.format(Locale.ROOT, "%.4f", seconds)));
          }
        }
      }
      console.println();
      console.printf(
          Locale.ROOT,
          "%-20s %10s %12s %10s %14s %s%n",
          "step",
          "rows",
          "cells",
          "median s",
          "M cells/s",
          "rate / Spark's: median of rounds (min-max)");
      for (String step : steps) {
        Map.Entry<String, List<Double>> entry = Map.entry(step, times.get(step));
        double median = BenchOutput.median(entry.getValue());
        String format = step.contains("-csv") ? "csv" : "parquet";
        StringBuilder ratio = new StringBuilder();
        for (String baseline : List.of("spark-" + format, "spark-" + format + "-sum")) {
          if (step.startsWith("cli-") && times.containsKey(baseline)) {
            List<Double> perRound = new ArrayList<>();
            for (int r = 0; r < repeat; r++) {
              perRound.add(times.get(baseline).get(r) / entry.getValue().get(r));
            }
            ratio.append(
                String.format(
                    Locale.ROOT,
                    "%s %.2f (%.2f-%.2f)  ",
                    baseline,
                    BenchOutput.median(perRound),
                    perRound.stream().mapToDouble(x -> x).min().orElse(0),
                    perRound.stream().mapToDouble(x -> x).max().orElse(0)));
          }
        }
        console.printf(
            Locale.ROOT,
            "%-20s %10d %12d %10.2f %14.2f %s%n",
            step,
            n,
            cells,
            median,
            cells / median / 1e6,
            ratio);
      }
      console.flush();
      if (out != null) {
        List<String> all = new ArrayList<>();
        all.add("data,step,round,rows,cells,seconds");
        all.addAll(lines);
        BenchOutput.writeLines(out, all);
        say(console, "wrote %s", out);
      }
    }
    return 0;
  }

  /** The generated (or given) files and their size. */
  private record Inputs(String name, String csv, String parquet, long rows, int columns) {}

  private Inputs prepare(SparkSession spark, PrintWriter console) throws IOException {
    String kind = data.toLowerCase(Locale.ROOT);
    if (!kind.equals("mnist") && !kind.equals("synthetic")) {
      Path dir = Path.of(data);
      require(Files.isDirectory(dir), "--data: expected mnist, synthetic or a directory: " + data);
      Dataset<Row> frame = spark.read().option("header", "true").csv(dir.toString());
      String parquet = work.resolve(dir.getFileName() + "-parquet").toString();
      if (!Files.exists(Path.of(parquet))) {
        spark
            .read()
            .option("header", "true")
            .schema(doubles(frame.schema()))
            .csv(dir.toString())
            .write()
            .parquet(parquet);
      }
      long n = spark.read().parquet(parquet).count();
      return new Inputs(
          dir.getFileName().toString(), dir.toString(), parquet, n, frame.columns().length);
    }
    boolean mnist = kind.equals("mnist");
    long n = rows != null ? rows : mnist ? 20_000 : 1_000_000;
    int f = files != null ? files : mnist ? 10 : 1;
    String name = mnist ? "mnist-" + n : "synthetic-" + n + "x" + d;
    Path csv = work.resolve(name + "-csv");
    Path parquet = work.resolve(name + "-parquet");
    if (!Files.exists(csv.resolve("_SUCCESS")) || !Files.exists(parquet.resolve("_SUCCESS"))) {
      say(console, "writing %s and %s...", csv, parquet);
      Dataset<Row> frame = mnist ? mnistFrame(spark, n) : syntheticFrame(spark, n);
      frame = frame.repartition(f).persist();
      frame.write().mode("overwrite").option("header", "true").csv(csv.toString());
      frame.write().mode("overwrite").parquet(parquet.toString());
      frame.unpersist();
    }
    int columns = spark.read().parquet(parquet.toString()).columns().length;
    return new Inputs(name, csv.toString(), parquet.toString(), n, columns);
  }

  private Dataset<Row> mnistFrame(SparkSession spark, long n) {
    SourceOptions options =
        new SourceOptions("mnist:train", null, "features", LABEL, null, mnistDir, null);
    Dataset<Row> rows = DataSources.load(spark, options).data().orderBy("id").limit((int) n);
    Dataset<Row> arrays =
        rows.select(col(LABEL), functions.vector_to_array(col("features"), "float64").as("a"));
    List<Column> columns = new ArrayList<>();
    columns.add(col(LABEL).cast(DataTypes.IntegerType).as(LABEL));
    for (int i = 0; i < 784; i++) {
      columns.add(col("a").getItem(i).cast(DataTypes.IntegerType).as("p" + i));
    }
    return arrays.select(columns.toArray(Column[]::new));
  }

  private Dataset<Row> syntheticFrame(SparkSession spark, long n) {
    SyntheticData.Spec spec =
        new SyntheticData.Spec(
            n, d, SyntheticData.Spec.DEFAULT_SEED, SyntheticData.Spec.DEFAULT_CLUSTERS, null);
    Dataset<Row> rows = SyntheticData.generate(spark, spec, "features", LABEL);
    Dataset<Row> arrays =
        rows.select(col(LABEL), functions.vector_to_array(col("features"), "float64").as("a"));
    List<Column> columns = new ArrayList<>();
    for (int i = 0; i < d; i++) {
      columns.add(round(col("a").getItem(i), 6).as("x" + i));
    }
    columns.add(col(LABEL));
    return arrays.select(columns.toArray(Column[]::new));
  }

  private static StructType doubles(StructType schema) {
    StructType out = new StructType();
    for (StructField field : schema.fields()) {
      out = out.add(field.name(), DataTypes.DoubleType, true);
    }
    return out;
  }

  /** Runs one step; returns the rows it counted. */
  private static long run(SparkSession spark, String step, Inputs inputs) {
    boolean csv = step.contains("-csv");
    String path = csv ? inputs.csv : inputs.parquet;
    if (step.startsWith("spark-")) {
      Dataset<Row> frame =
          csv
              ? spark
                  .read()
                  .option("header", "true")
                  .schema(doubles(spark.read().parquet(inputs.parquet).schema()))
                  .csv(path)
              : spark.read().parquet(path);
      if (step.endsWith("-sum")) {
        Column[] sums = Arrays.stream(frame.columns()).map(c -> sum(col(c))).toArray(Column[]::new);
        return frame.agg(count(lit(1)), sums).first().getLong(0);
      }
      Row result =
          frame
              .map((MapFunction<Row, Double>) IngestBench::sumCells, Encoders.DOUBLE())
              .agg(count(lit(1)), sum(col("value")))
              .first();
      return result.getLong(0);
    }
    SourceOptions options =
        new SourceOptions(
            path, csv ? InputFormat.CSV : InputFormat.PARQUET, "features", LABEL, null, null, null);
    LoadedData loaded = DataSources.load(spark, options);
    if (step.endsWith("-nocache")) {
      Row result =
          loaded
              .data()
              .select(col("features"), col(LoadedData.ERROR_COL))
              .map((MapFunction<Row, Double>) IngestBench::sumVector, Encoders.DOUBLE())
              .agg(count(lit(1)), sum(col("value")))
              .first();
      return result.getLong(0);
    }
    long counted = loaded.persistAndValidate();
    loaded.unpersist();
    return counted;
  }

  private static double sumCells(Row row) {
    double s = 0;
    for (int i = 0; i < row.length(); i++) {
      if (!row.isNullAt(i)) {
        s += ((Number) row.get(i)).doubleValue();
      }
    }
    return s;
  }

  private static double sumVector(Row row) {
    if (!row.isNullAt(1)) {
      throw new IllegalArgumentException(row.getString(1));
    }
    double[] values = ((Vector) row.get(0)).toArray();
    double s = 0;
    for (double v : values) {
      s += v;
    }
    return s;
  }

  private void require(boolean condition, String message) {
    BenchOutput.require(spec, condition, message);
  }

  private static void say(PrintWriter console, String format, Object... args) {
    BenchOutput.say(console, "bench ingest", format, args);
  }
}
