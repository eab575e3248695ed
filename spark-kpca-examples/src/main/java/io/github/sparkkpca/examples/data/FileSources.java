package io.github.sparkkpca.examples.data;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.input_file_block_start;
import static org.apache.spark.sql.functions.input_file_name;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.monotonically_increasing_id;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamReader;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;

/**
 * The file sources of {@link DataSources}: CSV (parsed by {@link CsvLines}, each file by its own
 * header), Parquet (a vector column, or numeric columns assembled by {@link ColumnAssembler}) and
 * libsvm (Spark's reader, or {@link LibsvmLines} at a stated size), each read as a batch or as a
 * stream, with the row-order columns {@link LoadedData#FILE_COL}/{@link LoadedData#POS_COL} and the
 * optional ordered repartitioning.
 */
final class FileSources {

  private FileSources() {}

  /** How a file source is read as a stream (null: as a batch). */
  record Streaming(Integer maxFilesPerTrigger) {
    DataStreamReader reader(SparkSession spark) {
      DataStreamReader reader = spark.readStream();
      return maxFilesPerTrigger == null
          ? reader
          : reader.option("maxFilesPerTrigger", maxFilesPerTrigger.toString());
    }
  }

  /**
   * Reads CSV files as lines (Spark's text source) and parses them with {@link CsvLines}: each
   * file's cells are matched to the columns by the names of its own header, so files whose headers
   * list the same names in another order are read correctly. The first file by name gives the
   * columns; in a batch every file must hold the same names (else a one-line refusal naming both
   * files and headers); in a stream each file is checked as it is read ({@link
   * LoadedData#validateMicroBatch}), so the micro-batch holding it fails and can be replayed once
   * the file is fixed.
   */
  static LoadedData csv(SparkSession spark, String input, SourceOptions options, Streaming stream) {
    Configuration conf = spark.sparkContext().hadoopConfiguration();
    List<CsvHeader.Located> files = new ArrayList<>();
    for (CsvHeader.Located file : CsvHeader.readAll(conf, input)) {
      if (file.header() != null) {
        files.add(file);
      }
    }
    if (files.isEmpty()) {
      throw new IllegalArgumentException(
          "--input "
              + input
              + " has no feature columns (is the file empty? CSV input needs a header row)");
    }
    CsvHeader.Located first = files.get(0);
    String firstFile = LoadedData.displayPath(first.file().toString());
    String label = options.labelCol();
    if (label != null) {
      requireColumn(Arrays.asList(first.header().names()), label, input);
    }
    // The columns every file must hold: a model's features (read by name) and the label, or else
    // the first file's columns. Each file is read by its own header, so the first file (which may
    // hold a header only) never decides the order of another file's cells.
    List<String> wanted = options.namesToRead();
    CsvHeader reference = first.header();
    String referenceFile = firstFile;
    if (wanted != null) {
      if (label != null && wanted.contains(label)) {
        throw new IllegalArgumentException(
            "--label-col '" + label + "' is one of the model's features (" + wanted + ")");
      }
      List<String> columns = new ArrayList<>(wanted);
      if (label != null) {
        columns.add(label);
      }
      reference = CsvHeader.of(columns);
      referenceFile = null;
    }
    // A batch checks every file here; a stream checks each file as it reads it (those present at
    // start too), so its refusal comes from the micro-batch that holds the file.
    for (CsvHeader.Located file : stream == null ? files : List.of(first)) {
      String shown = LoadedData.displayPath(file.file().toString());
      if (file.header().duplicate() != null) {
        throw new IllegalArgumentException(
            "--input " + input + ": " + CsvHeader.duplicated(shown, file.header()));
      }
      if (!file.header().sameNames(reference)) {
        throw new IllegalArgumentException(
            "--input "
                + input
                + ": "
                + CsvHeader.mismatch(shown, file.header(), referenceFile, reference));
      }
    }
    List<String> features = new ArrayList<>();
    if (wanted != null) {
      features.addAll(wanted);
    } else {
      for (String name : first.header().names()) {
        if (!name.equals(label)) {
          features.add(name);
        }
      }
    }
    if (features.isEmpty()) {
      throw new IllegalArgumentException(
          "--input " + input + " has no feature columns besides the label '" + label + "'");
    }
    Dataset<Row> lines =
        lines(
            stream == null ? spark.read().text(input) : stream.reader(spark).text(input),
            input_file_block_start().as("start"));
    Broadcast<SerializableConfiguration> hadoop =
        JavaSparkContext.fromSparkContext(spark.sparkContext())
            .broadcast(new SerializableConfiguration(conf));
    CsvLines parser =
        new CsvLines(reference, referenceFile, features, label, hadoop, stream != null);
    Dataset<Row> parsed =
        lines.mapPartitions(
            parser,
            Encoders.row(CsvLines.outputSchema(options.featuresCol(), features.size(), label)));
    parsed =
        parsed.withColumn(
            LoadedData.POS_COL, parsed.isStreaming() ? lit(0L) : monotonically_increasing_id());
    return finishColumns(parsed, options, features, label, true, "csv " + input);
  }

  static LoadedData parquet(
      SparkSession spark, String input, SourceOptions options, Streaming stream) {
    Dataset<Row> raw = spark.read().parquet(input);
    StructType schema = raw.schema();
    if (stream != null) {
      raw = stream.reader(spark).schema(schema).parquet(input);
    }
    String features = options.featuresCol();
    if (Arrays.asList(schema.fieldNames()).contains(features)) {
      StructField field = schema.apply(features);
      if (!field.dataType().equals(SQLDataTypes.VectorType())) {
        throw new IllegalArgumentException(
            "--features-col: column '"
                + features
                + "' of "
                + input
                + " is "
                + field.dataType().simpleString()
                + ", expected a vector (omit the column, or name another with "
                + "--features-col, to assemble the numeric columns instead)");
      }
      String label = options.labelCol();
      if (label != null) {
        requireColumn(Arrays.asList(schema.fieldNames()), label, input);
      }
      Dataset<Row> data = withOrder(raw);
      if (options.ignoreFeatureNames()) {
        data = VectorColumns.withoutNames(data, features, field);
      }
      return finish(data, options, label, false, false, "parquet " + input);
    }
    for (StructField field : schema.fields()) {
      if (!field.name().equals(options.labelCol()) && !(field.dataType() instanceof NumericType)) {
        throw new IllegalArgumentException(
            "column '"
                + field.name()
                + "' of "
                + input
                + " is "
                + field.dataType().simpleString()
                + ", not numeric; every column except --label-col is a feature "
                + "(or give a vector column with --features-col)");
      }
    }
    return assemble(raw, input, options);
  }

  /**
   * libsvm files, parsed by {@link LibsvmLines} into sparse vectors of size N, each refusal naming
   * its file and line: N as {@link SourceOptions#expectedFeatures()} states it ({@code
   * --num-features}, or a model's d; an index above N is refused), else the largest index, found by
   * a first light pass over the files (as Spark's own libsvm reader does, whose errors name no file
   * or line: {@code For input string: "qid"}).
   */
  static LoadedData libsvm(SparkSession spark, String input, SourceOptions options) {
    String label = DataSources.labelName(options);
    Dataset<Row> lines =
        lines(spark.read().text(input), monotonically_increasing_id().as(LoadedData.POS_COL));
    int numFeatures;
    String sizeName;
    String description;
    if (options.expectedFeatures() != null) {
      numFeatures = options.expectedFeatures();
      sizeName = options.expectedFeaturesName();
      description = "libsvm " + input + " (" + numFeatures + " features, stated)";
    } else {
      spark.sparkContext().setJobDescription("libsvm " + input + ": find the largest index");
      try {
        numFeatures = LibsvmLines.largestIndex(lines);
      } finally {
        spark.sparkContext().setJobDescription(null);
      }
      sizeName = "the largest index " + numFeatures;
      description = "libsvm " + input + " (" + numFeatures + " features, the largest index)";
    }
    Dataset<Row> parsed =
        lines.mapPartitions(
            new LibsvmLines(numFeatures, sizeName),
            Encoders.row(LibsvmLines.outputSchema(label, options.featuresCol(), numFeatures)));
    Dataset<Row> data = VectorColumns.withSize(parsed, options.featuresCol(), numFeatures);
    return finish(data, options, label, true, false, description, lines.drop("value"));
  }

  /** Assembles every numeric Parquet column except the label into the vector. */
  private static LoadedData assemble(Dataset<Row> raw, String input, SourceOptions options) {
    StructType schema = raw.schema();
    String label = options.labelCol();
    if (label != null) {
      requireColumn(Arrays.asList(schema.fieldNames()), label, input);
    }
    List<String> features = new ArrayList<>();
    for (String name : schema.fieldNames()) {
      if (!name.equals(label)) {
        features.add(name);
      }
    }
    if (features.isEmpty()) {
      throw new IllegalArgumentException(
          "--input "
              + input
              + " has no feature columns"
              + (schema.isEmpty() ? "" : " besides the label '" + label + "'"));
    }
    List<String> wanted = options.namesToRead();
    if (wanted != null) {
      // A model's features, read by name: the same columns, in the model's order.
      if (!new java.util.HashSet<>(features).equals(new java.util.HashSet<>(wanted))
          || features.size() != wanted.size()) {
        List<String> missing = new ArrayList<>(wanted);
        missing.removeAll(features);
        List<String> extra = new ArrayList<>(features);
        extra.removeAll(wanted);
        throw new IllegalArgumentException(
            "--input "
                + input
                + ": its columns ("
                + String.join(",", features)
                + ") are not the features the model reads by name ("
                + String.join(",", wanted)
                + ")"
                + CsvHeader.difference(missing, extra)
                + "; give --ignore-feature-names to read the columns by position instead");
      }
      features = new ArrayList<>(wanted);
    }
    Dataset<Row> ordered = withOrder(raw);
    List<String> pass = List.of(LoadedData.FILE_COL, LoadedData.POS_COL);
    StructType out =
        ColumnAssembler.outputSchema(
            ordered.schema(), options.featuresCol(), features.size(), label, pass);
    ColumnAssembler assembler = new ColumnAssembler(ordered.schema(), features, label, pass);
    return finishColumns(
        ordered.map(assembler, Encoders.row(out)),
        options,
        features,
        label,
        false,
        "parquet " + input);
  }

  /**
   * Named feature columns read from a file (CSV or Parquet): the vector column gets the feature
   * names (unless --ignore-feature-names) and {@code finish} describes the source as {@code what (n
   * feature columns, label 'y')}.
   */
  private static LoadedData finishColumns(
      Dataset<Row> rows,
      SourceOptions options,
      List<String> features,
      String label,
      boolean headerLine,
      String what) {
    Dataset<Row> data =
        VectorColumns.withNames(
            rows,
            options.featuresCol(),
            features.size(),
            options.ignoreFeatureNames() ? null : features);
    return finish(
        data,
        options,
        label,
        true,
        headerLine,
        what
            + " ("
            + features.size()
            + " feature columns"
            + (label == null ? "" : ", label '" + label + "'")
            + ")");
  }

  private static Dataset<Row> withOrder(Dataset<Row> raw) {
    // A stream has no row positions (monotonically_increasing_id is a batch-only expression): 0 for
    // every row.
    return raw.withColumn(LoadedData.FILE_COL, input_file_name())
        .withColumn(
            LoadedData.POS_COL, raw.isStreaming() ? lit(0L) : monotonically_increasing_id());
  }

  private static LoadedData finish(
      Dataset<Row> data,
      SourceOptions options,
      String label,
      boolean hasErrorCol,
      boolean headerLine,
      String description) {
    return finish(data, options, label, hasErrorCol, headerLine, description, null);
  }

  /**
   * The rows in one order whatever the partition count, with {@code lines} (or null) for errors
   * that name a file's line ({@link LoadedData}).
   */
  private static LoadedData finish(
      Dataset<Row> data,
      SourceOptions options,
      String label,
      boolean hasErrorCol,
      boolean headerLine,
      String description,
      Dataset<Row> lines) {
    if (options.partitions() != null) {
      // By range of (file, position), sorted within: the rows keep one order whatever the partition
      // count, and
      // the landmark sample, which follows the rows' positions, stays the same (round-robin would
      // reshuffle).
      data =
          data.repartitionByRange(
                  options.partitions(), col(LoadedData.FILE_COL), col(LoadedData.POS_COL))
              .sortWithinPartitions(LoadedData.FILE_COL, LoadedData.POS_COL);
    }
    return new LoadedData(
        data,
        options.featuresCol(),
        label,
        List.of(LoadedData.FILE_COL, LoadedData.POS_COL),
        hasErrorCol,
        headerLine,
        description,
        lines);
  }

  /**
   * A text source's lines as the line parsers ({@link CsvLines}, {@link LibsvmLines}) read them:
   * the line, its file ({@link LoadedData#FILE_COL}) and {@code position}, where the line stands in
   * its file.
   */
  private static Dataset<Row> lines(Dataset<Row> text, Column position) {
    return text.select(col("value"), input_file_name().as(LoadedData.FILE_COL), position);
  }

  private static void requireColumn(List<String> columns, String column, String input) {
    if (!columns.contains(column)) {
      throw new IllegalArgumentException(
          "--label-col: '"
              + column
              + "' is not a column of "
              + input
              + " (columns: "
              + String.join(", ", columns)
              + ")");
    }
  }
}
