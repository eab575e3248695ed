package io.github.sparkkpca.examples.data;

import static org.apache.spark.sql.functions.abs;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.isnan;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.when;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.storage.StorageLevel;

/**
 * A loaded input: a DataFrame with a vector column, an optional label column and the columns that
 * give the input's row order, plus (for sources assembled from columns) a per-row error column.
 *
 * <p><b>Why an error column.</b> Cells that are not finite numbers are found while the vectors are
 * assembled on the executors, but throwing there would fail a task, make Spark log stack traces and
 * lose the cell's position. Instead the assembler records a description in {@link #ERROR_COL} (null
 * for good rows) and {@link #persistAndValidate()} counts such rows in the same pass that
 * materializes the cache; when there are any, it finds the first on the driver and turns its
 * position into a row number of its file.
 *
 * <p><b>Row order.</b> {@link #orderCols()} sort the rows in input order: files by name, then rows
 * within a file ({@link #FILE_COL}, {@link #POS_COL}), or the source's row index ({@code id}) for
 * the built-in sources. They are computed when the source is read, before any repartitioning.
 */
public final class LoadedData {

  /** The file each row was read from (file sources). */
  public static final String FILE_COL = "__spark_kpca_file";

  /** A position increasing with the row's place in its file (file sources). */
  public static final String POS_COL = "__spark_kpca_pos";

  /** Why the row could not be assembled into a vector, or null (assembled sources only). */
  public static final String ERROR_COL = "__spark_kpca_error";

  private final Dataset<Row> data;
  private final String featuresCol;
  private final String labelCol;
  private final List<String> orderCols;
  private final boolean hasErrorCol;
  private final boolean headerLine;
  private final String description;
  private final Dataset<Row> lines;
  private long rows = -1;

  /** The cached rows' partitions, counted by {@link #persistAndValidate()}; -1 before. */
  private int partitions = -1;

  LoadedData(
      Dataset<Row> data,
      String featuresCol,
      String labelCol,
      List<String> orderCols,
      boolean hasErrorCol,
      boolean headerLine,
      String description) {
    this(data, featuresCol, labelCol, orderCols, hasErrorCol, headerLine, description, null);
  }

  /**
   * @param lines every line of the input files (blank ones too) with {@link #FILE_COL} and {@link
   *     #POS_COL} as the rows have them, so that an error names the line of its file; or null to
   *     count rows ({@link #rowOf})
   */
  LoadedData(
      Dataset<Row> data,
      String featuresCol,
      String labelCol,
      List<String> orderCols,
      boolean hasErrorCol,
      boolean headerLine,
      String description,
      Dataset<Row> lines) {
    this.lines = lines;
    // Inert unless the test configuration InjectedTaskFailure.CONF is set.
    this.data = InjectedTaskFailure.apply(data);
    this.featuresCol = featuresCol;
    this.labelCol = labelCol;
    this.orderCols = List.copyOf(orderCols);
    this.hasErrorCol = hasErrorCol;
    this.headerLine = headerLine;
    this.description = description;
  }

  /**
   * The rows; it holds {@link #featuresCol()}, the label column if any, the order columns and maybe
   * more.
   */
  public Dataset<Row> data() {
    return data;
  }

  /** The vector column. */
  public String featuresCol() {
    return featuresCol;
  }

  /** The label column, or null when there is none. */
  public String labelCol() {
    return labelCol;
  }

  /** Columns that, sorted ascending, give the input's row order. */
  public List<String> orderCols() {
    return orderCols;
  }

  /**
   * The column named {@code name} taken literally: user-chosen names may contain dots, which {@code
   * functions.col} would read as a struct field access.
   */
  public static Column column(String name) {
    return col("`" + name.replace("`", "``") + "`");
  }

  /**
   * The columns a scoring command keeps: the features, the label when there is one, and the order
   * columns (only these, so the output columns cannot clash with other input columns).
   */
  public Column[] scoringColumns() {
    java.util.List<Column> keep = new java.util.ArrayList<>();
    keep.add(column(featuresCol));
    if (labelCol != null) {
      keep.add(column(labelCol));
    }
    orderCols.forEach(c -> keep.add(column(c)));
    return keep.toArray(new Column[0]);
  }

  /** The order columns as sort expressions. */
  public Column[] orderBy() {
    return orderCols.stream().map(c -> column(c).asc()).toArray(Column[]::new);
  }

  /**
   * {@code rows}, derived row by row from these data (their partitions and order columns kept),
   * sorted into the input's order: by a global sort, which range-partitions them so that part file
   * i precedes part file i + 1; or in place when the validated data are one partition, without the
   * global sort's sampling and shuffle jobs (most of a small command's writing).
   */
  public Dataset<Row> inInputOrder(Dataset<Row> rows) {
    return partitions == 1 ? rows.sortWithinPartitions(orderBy()) : rows.orderBy(orderBy());
  }

  /** A short human description of the source, for progress lines. */
  public String description() {
    return description;
  }

  /**
   * Persists the rows (memory, spilling to disk) and scans them once: counts them and, for
   * assembled sources, finds the first cell that is empty, not a number or not finite.
   *
   * @return the number of rows
   * @throws IllegalArgumentException naming the column, the value, the row and the file of the
   *     first bad cell (the data are then unpersisted)
   */
  public long persistAndValidate() {
    data.persist(StorageLevel.MEMORY_AND_DISK());
    try {
      // One job with no shuffle (a SQL aggregate's exchange costs a job per stage, most of a small
      // input's validation): each partition's count and whether it holds a bad cell, merged here.
      // It reads the error column alone back from the cache being filled (null in every good row),
      // not the file and position strings of every row: those are read for the bad rows only.
      Dataset<Row> errors =
          hasErrorCol
              ? data.select(col(ERROR_COL))
              : data.select(lit(null).cast(DataTypes.StringType));
      // Spark's internal rows: no Row built per input row.
      List<long[]> perPartition =
          errors
              .queryExecution()
              .toRdd()
              .toJavaRDD()
              .mapPartitions(LoadedData::countAndErrors)
              .collect();
      long total = 0;
      long bad = 0;
      for (long[] p : perPartition) {
        total += p[0];
        bad += p[1];
      }
      if (bad > 0) {
        Row error = firstError();
        String what = error.getString(2);
        throw new IllegalArgumentException(
            what
                + " in "
                + rowOf(error.getString(0), error.getLong(1))
                + (what.contains("non-numeric")
                    ? "; every column except --label-col is a numeric feature"
                    : ""));
      }
      rows = total;
      partitions = perPartition.size();
      return rows;
    } catch (RuntimeException e) {
      data.unpersist(false);
      throw e;
    }
  }

  /** A partition's row count and its number of rows with an error. */
  private static java.util.Iterator<long[]> countAndErrors(
      java.util.Iterator<org.apache.spark.sql.catalyst.InternalRow> errors) {
    long count = 0;
    long bad = 0;
    while (errors.hasNext()) {
      count++;
      if (!errors.next().isNullAt(0)) {
        bad++;
      }
    }
    return List.<long[]>of(new long[] {count, bad}).iterator();
  }

  /**
   * The (file, position, error) of the first row with an error, in input order (the order {@link
   * #orderBy()} sorts by), from the cached rows: a SQL minimum, as {@link #withNumericLabel} finds
   * its first bad label; it runs only when the validating pass counted a bad row.
   */
  private Row firstError() {
    return data.agg(
            min(
                when(
                    col(ERROR_COL).isNotNull(),
                    struct(col(FILE_COL), col(POS_COL), col(ERROR_COL)))))
        .first()
        .getStruct(0);
  }

  /**
   * Where the input's largest value in magnitude lies, e.g. "column 2 = 1.0e+153 in row 3 (line 4)
   * of data.csv", for a message about values too large for a kernel (after {@link
   * #persistAndValidate()}).
   */
  public String largestValue() {
    boolean files = orderCols.contains(FILE_COL) && orderCols.contains(POS_COL);
    Dataset<Row> rows =
        files
            ? data.select(column(featuresCol), col(FILE_COL), col(POS_COL))
            : data.select(column(featuresCol));
    Row top =
        rows.toJavaRDD()
            .map(
                r -> {
                  double[] v = ((org.apache.spark.ml.linalg.Vector) r.get(0)).toArray();
                  int at = 0;
                  for (int j = 1; j < v.length; j++) {
                    if (Math.abs(v[j]) > Math.abs(v[at])) {
                      at = j;
                    }
                  }
                  double value = v.length == 0 ? 0 : v[at];
                  return files
                      ? org.apache.spark.sql.RowFactory.create(
                          Math.abs(value), at, value, r.getString(1), r.getLong(2))
                      : org.apache.spark.sql.RowFactory.create(
                          Math.abs(value), at, value, null, 0L);
                })
            .reduce((a, b) -> a.getDouble(0) >= b.getDouble(0) ? a : b);
    String where =
        "column "
            + (top.getInt(1) + 1)
            + " = "
            + String.format(java.util.Locale.ROOT, "%.4g", top.getDouble(2));
    return files ? where + " in " + rowOf(top.getString(3), top.getLong(4)) : where;
  }

  /**
   * "row R (line L) of FILE" for the row at {@code position} of {@code file} (its data rows
   * counted; the line assumes one header line and no blank lines).
   */
  private String rowOf(String file, long position) {
    if (lines != null) {
      long line =
          1 + lines.filter(col(FILE_COL).equalTo(file).and(col(POS_COL).lt(position))).count();
      return "line " + line + " of " + displayPath(file);
    }
    long row = 1 + data.filter(col(FILE_COL).equalTo(file).and(col(POS_COL).lt(position))).count();
    return "row "
        + row
        + (headerLine ? " (line " + (row + 1) + ")" : "")
        + " of "
        + displayPath(file);
  }

  /**
   * The rows with the label column as doubles, for commands that need numeric labels (after {@link
   * #persistAndValidate()}). A label that is already numeric is cast; a text label (CSV) must read
   * as a finite number.
   *
   * @throws IllegalArgumentException when there is no label column, or naming the value, the row
   *     and the file of the first label that is empty, not a number or not finite
   */
  public Dataset<Row> withNumericLabel() {
    if (labelCol == null) {
      throw new IllegalArgumentException("no label column (--label-col)");
    }
    Column label = column(labelCol);
    // try_cast as SQL (Column.try_cast is Spark 4 only): null, not an error, for text under ANSI
    // mode.
    Column number = expr("try_cast(`" + labelCol.replace("`", "``") + "` AS DOUBLE)");
    Dataset<Row> cast = data.withColumn(labelCol, number);
    if (!orderCols.equals(List.of(FILE_COL, POS_COL))
        || data.schema().apply(labelCol).dataType() instanceof NumericType) {
      // Numeric labels (and built-in sources): the fit names a missing or non-finite label itself.
      return cast;
    }
    Column bad =
        number.isNull().or(isnan(number)).or(abs(number).equalTo(Double.POSITIVE_INFINITY));
    Row first =
        data.agg(min(when(bad, struct(col(FILE_COL), col(POS_COL), label, number)))).first();
    if (!first.isNullAt(0)) {
      Row error = first.getStruct(0);
      String value = error.isNullAt(2) ? null : error.getString(2);
      throw new IllegalArgumentException(
          "label column '"
              + labelCol
              + "' "
              + (value == null
                  ? "is empty (null)"
                  : "has the value '"
                      + (value.length() <= 40 ? value : value.substring(0, 40) + "...")
                      + (error.isNullAt(3)
                          ? "', not a number (null as a number),"
                          : "', not a finite number,"))
              + " in "
              + rowOf(error.getString(0), error.getLong(1))
              + "; this command needs numeric labels");
    }
    return cast;
  }

  /**
   * For a stream: checks one micro-batch of these rows as {@link #persistAndValidate()} checks a
   * batch input (with the line of a CSV file in place of the row number, which a stream does not
   * keep).
   *
   * @throws IllegalArgumentException naming the problem of the first bad cell found and its file
   */
  public void validateMicroBatch(Dataset<Row> batch) {
    if (!hasErrorCol) {
      return;
    }
    java.util.List<Row> bad =
        batch
            .filter(col(ERROR_COL).isNotNull())
            .select(col(FILE_COL), col(ERROR_COL))
            .limit(1)
            .collectAsList();
    if (!bad.isEmpty()) {
      throw new IllegalArgumentException(located(bad.get(0).getString(1), bad.get(0).getString(0)));
    }
  }

  /**
   * Where a stream's error column ends with its line ({@code CsvLines} with line numbers): the
   * mark, then the line number.
   */
  static final String LINE_MARK = "\u0000line ";

  /**
   * A stream's bad-cell message: the error, its file (as the user wrote it) and its line when the
   * parser recorded one, e.g. "column 'x2' has a non-numeric value 'oops' in data/b.csv, line 3;
   * every column except --label-col is a numeric feature".
   */
  public static String located(String error, String fileUri) {
    int mark = error.indexOf(LINE_MARK);
    String what = mark < 0 ? error : error.substring(0, mark);
    String file = displayPath(fileUri);
    return what
        + (what.contains(file) ? "" : " in " + file)
        + (mark < 0 ? "" : ", line " + error.substring(mark + LINE_MARK.length()))
        + (what.contains("non-numeric")
            ? "; every column except --label-col is a numeric feature"
            : "");
  }

  /** The number of rows, known after {@link #persistAndValidate()} (else -1). */
  public long rows() {
    return rows;
  }

  /** The cached rows' partitions (after {@link #persistAndValidate()}). */
  public int partitions() {
    return partitions;
  }

  /** Drops the cached rows. */
  public void unpersist() {
    data.unpersist(false);
  }

  /** A file URI as the user would write it: local files as plain paths. */
  static String displayPath(String uri) {
    if (uri == null || uri.isEmpty()) {
      return "the input";
    }
    if (uri.startsWith("file:")) {
      try {
        return new URI(uri).getPath();
      } catch (URISyntaxException e) {
        return uri;
      }
    }
    return uri;
  }
}
