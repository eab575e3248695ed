package io.github.sparkkpca.examples.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Turns an {@code --input} into a {@link LoadedData}: a vector column (and label) from a file or a
 * built-in source.
 *
 * <ul>
 *   <li><b>csv</b>: a header row; every column except the label column is a feature and must hold
 *       finite numbers (checked cell by cell, errors name the column, value, row and file); every
 *       row must have as many cells as the header (errors give both counts, the row and the file).
 *   <li><b>parquet</b>: the vector column named by the features column when it exists; otherwise
 *       all columns except the label are assembled like CSV and must be numeric.
 *   <li><b>libsvm</b>: Spark's libsvm reader ({@code label}, sparse {@code features}), columns
 *       renamed to the requested names.
 *   <li><b>mnist:train</b>, <b>mnist:test</b>, optionally {@code :digit=D}: {@link MnistSource}.
 *   <li><b>synthetic[:n=..,d=..,seed=..,clusters=..,partitions=..]</b>: {@link SyntheticData}.
 *   <li><b>twonorm</b>, <b>ringnorm</b>, <b>waveform</b> {@code [:n=..,seed=..,partitions=..]}:
 *       Breiman's problems with −1/+1 labels ({@link BreimanData}).
 * </ul>
 *
 * <p>File sources get the row-order columns {@link LoadedData#FILE_COL}/{@link LoadedData#POS_COL}
 * right after the scan, before the optional repartitioning; built-in sources are ordered by {@code
 * id}.
 */
public final class DataSources {

  private static final String MNIST = "mnist";
  private static final String SYNTHETIC = "synthetic";

  private DataSources() {}

  /**
   * Loads the input lazily (only headers, schemas and file listings are read here).
   *
   * @throws IllegalArgumentException for a missing path, an unknown built-in source, a missing or
   *     non-numeric column, or missing/corrupt MNIST files
   */
  public static LoadedData load(SparkSession spark, SourceOptions options) {
    String input = options.input().trim();
    String lower = input.toLowerCase(Locale.ROOT);
    if (lower.equals(MNIST) || lower.startsWith(MNIST + ":")) {
      return mnist(spark, input, options);
    }
    if (lower.equals(SYNTHETIC) || lower.startsWith(SYNTHETIC + ":")) {
      return synthetic(spark, input, options);
    }
    if (BreimanData.Problem.of(input) != null) {
      BreimanData.Spec spec = BreimanData.Spec.parse(input);
      if (options.partitions() != null) {
        spec = spec.withPartitions(options.partitions());
      }
      String label = labelName(options);
      return new LoadedData(
          BreimanData.generate(spark, spec, options.featuresCol(), label),
          options.featuresCol(),
          label,
          List.of("id"),
          false,
          false,
          spec.toString());
    }
    InputFormat format = options.format() != null ? options.format() : InputFormat.fromPath(input);
    checkExists(spark, input);
    return switch (format) {
      case CSV -> FileSources.csv(spark, input, options, null);
      case PARQUET -> FileSources.parquet(spark, input, options, null);
      case LIBSVM -> FileSources.libsvm(spark, input, options);
    };
  }

  /**
   * A streaming source of the CSV or Parquet files landing under a directory (Structured Streaming
   * file source), assembled as {@link #load} assembles them. A stream needs its schema up front: it
   * is that of the files present at start (CSV: the header of the first file by name; later files
   * are matched to it by column name), so at least one file must be there.
   *
   * @param maxFilesPerTrigger files per micro-batch, or null for all new files
   * @throws IllegalArgumentException for a built-in source, libsvm, a missing path, no file yet, or
   *     a missing or non-numeric column
   */
  public static LoadedData stream(
      SparkSession spark, SourceOptions options, Integer maxFilesPerTrigger) {
    String input = options.input().trim();
    String lower = input.toLowerCase(Locale.ROOT);
    if (lower.startsWith(MNIST) || lower.startsWith(SYNTHETIC)) {
      throw new IllegalArgumentException(
          "--input "
              + input
              + ": a stream reads the files landing in a directory; "
              + "built-in sources are not streams (fit or update on them instead)");
    }
    if (options.partitions() != null) {
      throw new IllegalArgumentException(
          "--partitions does not apply to a stream (each micro-batch keeps the "
              + "partitions of its files)");
    }
    InputFormat format = options.format() != null ? options.format() : InputFormat.fromPath(input);
    checkExists(spark, input);
    if (format == InputFormat.LIBSVM) {
      throw new IllegalArgumentException("--format libsvm cannot be streamed; use csv or parquet");
    }
    requireFiles(spark, input);
    FileSources.Streaming stream = new FileSources.Streaming(maxFilesPerTrigger);
    return format == InputFormat.CSV
        ? FileSources.csv(spark, input, options, stream)
        : FileSources.parquet(spark, input, options, stream);
  }

  /**
   * The files or directories {@link #load} reads for {@code options}: the path or glob, the MNIST
   * directory, none for synthetic data. Outputs must not replace them.
   */
  public static List<String> inputPaths(SourceOptions options) {
    String input = options.input().trim();
    String lower = input.toLowerCase(Locale.ROOT);
    if (lower.equals(MNIST) || lower.startsWith(MNIST + ":")) {
      return List.of(options.mnistDir() != null ? options.mnistDir() : MnistSource.defaultDir());
    }
    if (lower.equals(SYNTHETIC)
        || lower.startsWith(SYNTHETIC + ":")
        || BreimanData.Problem.of(input) != null) {
      return List.of();
    }
    return List.of(input);
  }

  /** Whether {@code input} names files (not a built-in source such as mnist or synthetic). */
  public static boolean isFileInput(String input) {
    String lower = input.trim().toLowerCase(Locale.ROOT);
    return !(lower.equals(MNIST)
        || lower.startsWith(MNIST + ":")
        || lower.equals(SYNTHETIC)
        || lower.startsWith(SYNTHETIC + ":")
        || BreimanData.Problem.of(input.trim()) != null);
  }

  /** The label column's name: {@code --label-col}, else {@code label}. */
  static String labelName(SourceOptions options) {
    return options.labelCol() != null ? options.labelCol() : "label";
  }

  private static LoadedData synthetic(SparkSession spark, String input, SourceOptions options) {
    String params =
        input.length() > SYNTHETIC.length() ? input.substring(SYNTHETIC.length() + 1) : "";
    SyntheticData.Spec spec = SyntheticData.Spec.parse(params);
    if (options.partitions() != null) {
      spec = spec.withPartitions(options.partitions());
    }
    String label = labelName(options);
    Dataset<Row> data = SyntheticData.generate(spark, spec, options.featuresCol(), label);
    return new LoadedData(
        data, options.featuresCol(), label, List.of("id"), false, false, spec.toString());
  }

  private static LoadedData mnist(SparkSession spark, String input, SourceOptions options) {
    String[] parts = input.split(":", -1);
    String usage =
        "--input "
            + input
            + ": expected mnist:train or mnist:test, optionally followed by "
            + ":digit=D with D in 0..9 (e.g. mnist:train:digit=5)";
    if (parts.length < 2 || parts.length > 3) {
      throw new IllegalArgumentException(usage);
    }
    MnistSource.Split split =
        switch (parts[1].toLowerCase(Locale.ROOT)) {
          case "train" -> MnistSource.Split.TRAIN;
          case "test", "t10k" -> MnistSource.Split.TEST;
          default -> throw new IllegalArgumentException(usage);
        };
    Integer digit = null;
    if (parts.length == 3) {
      String filter = parts[2].toLowerCase(Locale.ROOT);
      if (!filter.matches("digit=[0-9]")) {
        throw new IllegalArgumentException(usage);
      }
      digit = filter.charAt(filter.length() - 1) - '0';
    }
    String dir = options.mnistDir() != null ? options.mnistDir() : MnistSource.defaultDir();
    String label = labelName(options);
    Dataset<Row> data =
        MnistSource.read(
            spark, dir, split, digit, options.partitions(), options.featuresCol(), label);
    return new LoadedData(
        data,
        options.featuresCol(),
        label,
        List.of("id"),
        false,
        false,
        "MNIST "
            + split.name().toLowerCase(Locale.ROOT)
            + (digit == null ? "" : " digit " + digit)
            + " from "
            + dir);
  }

  /** A stream takes its schema from the files present at start: there must be one (not hidden). */
  private static void requireFiles(SparkSession spark, String input) {
    Path path = new Path(input);
    try {
      FileSystem fs = path.getFileSystem(spark.sparkContext().hadoopConfiguration());
      for (FileStatus match : fs.globStatus(path)) {
        FileStatus[] files =
            match.isDirectory() ? fs.listStatus(match.getPath()) : new FileStatus[] {match};
        for (FileStatus file : files) {
          String name = file.getPath().getName();
          if (file.isFile() && !name.startsWith("_") && !name.startsWith(".")) {
            return;
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("--input " + input + ": " + e.getMessage(), e);
    }
    throw new IllegalArgumentException(
        "--input "
            + input
            + ": no file yet; a stream takes its schema from the "
            + "files present when it starts (CSV: their header), so put one there first");
  }

  /** Fails with a one-line message when nothing matches the path (or glob). */
  private static void checkExists(SparkSession spark, String input) {
    Path path = new Path(input);
    try {
      FileSystem fs = path.getFileSystem(spark.sparkContext().hadoopConfiguration());
      FileStatus[] matches = fs.globStatus(path);
      if (matches == null || matches.length == 0) {
        throw new IllegalArgumentException("--input: no such file or directory: " + input);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("--input " + input + ": " + e.getMessage(), e);
    }
  }
}
