package io.github.sparkkpca.persistence;

import io.github.sparkkpca.persistence.ModelChecks.Finite;
import io.github.sparkkpca.persistence.ModelChecks.Sizes;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * How a model's tables are written and read: a one-row table, a matrix one row (or column) per
 * table row ({@link #INDEXED}), and their reads, on the driver ({@link ParquetRows}). A table that
 * is missing or unreadable is refused naming its directory; what the rows must hold is checked by
 * the caller ({@link ModelChecks}).
 */
public final class ModelTables {

  /** A matrix stored one row (or column) per table row. */
  static final StructType INDEXED =
      new StructType()
          .add("index", DataTypes.IntegerType, false)
          .add("values", SQLDataTypes.VectorType(), false);

  private ModelTables() {}

  /**
   * The most a slice of a written table carries, in bytes: a task built from a local collection
   * carries its slice, and Spark warns of a task above 1000 KiB ("task of very large size").
   */
  static final long SLICE_BYTES = 512 * 1024;

  /**
   * Writes rows held on the driver as the Parquet table {@code dir}: in one slice when they are
   * small, else in slices of about {@link #SLICE_BYTES} each (consecutive rows, in order), so that
   * no task carries more than a slice: a model's landmarks, scatter or frequencies of several MB
   * are no longer one multi-MB task. Every table has an index column that places its rows, so the
   * slices' part files read back to the same values, bit for bit. A single row above the warning
   * size (a dense landmark of more than 128,000 values) is still one task.
   */
  public static void write(List<Row> rows, StructType schema, String dir, SparkSession spark) {
    long bytes = 0;
    for (Row row : rows) {
      bytes += sizeOf(row);
    }
    int slices = (int) Math.min(rows.size(), (bytes + SLICE_BYTES - 1) / SLICE_BYTES);
    if (slices <= 1) {
      spark.createDataFrame(rows, schema).write().parquet(dir);
      return;
    }
    JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
    spark.createDataFrame(context.parallelize(rows, slices), schema).write().parquet(dir);
  }

  /** About the bytes a row takes serialized: 8 per number, 12 per sparse entry. */
  private static long sizeOf(Row row) {
    long bytes = 16;
    for (int i = 0; i < row.size(); i++) {
      Object value = row.get(i);
      if (value instanceof SparseVector sv) {
        bytes += 16 + 12L * sv.values().length;
      } else if (value instanceof Vector v) {
        bytes += 16 + 8L * v.size();
      } else {
        bytes += 8;
      }
    }
    return bytes;
  }

  /** Writes an r×c column-major matrix one column per row (index = column). */
  static void writeColumns(
      double[] matrix, int rows, int columns, String what, String dir, SparkSession spark) {
    Finite.require(matrix, what);
    List<Row> out = new ArrayList<>(columns);
    for (int c = 0; c < columns; c++) {
      out.add(
          RowFactory.create(
              c, new DenseVector(java.util.Arrays.copyOfRange(matrix, c * rows, (c + 1) * rows))));
    }
    write(out, INDEXED, dir, spark);
  }

  /** Writes an r×c column-major matrix one row per table row (index = row). */
  static void writeRows(
      double[] matrix, int rows, int columns, String what, String dir, SparkSession spark) {
    Finite.require(matrix, what);
    List<Row> out = new ArrayList<>(rows);
    for (int i = 0; i < rows; i++) {
      double[] row = new double[columns];
      for (int c = 0; c < columns; c++) {
        row[c] = matrix[i + c * rows];
      }
      out.add(RowFactory.create(i, new DenseVector(row)));
    }
    write(out, INDEXED, dir, spark);
  }

  /**
   * Reads a table written by {@link #writeColumns} or {@link #writeRows} as count × width entries,
   * table row i at offset i·width (for {@code writeColumns} that is the column-major matrix).
   */
  static double[] readIndexed(
      SparkSession spark,
      String dir,
      int count,
      int width,
      String table,
      String widthField,
      String what) {
    List<Row> rows = read(spark, dir, INDEXED, what);
    if (rows.size() != count) {
      throw new IllegalArgumentException(
          what + table + " has " + rows.size() + " rows, expected " + count);
    }
    Sizes.sized(rows, 1, width, widthField, table, "values");
    double[] out = new double[Math.multiplyExact(count, width)];
    boolean[] seen = new boolean[count];
    for (Row row : rows) {
      int i = row.getInt(0);
      Vector v = (Vector) row.get(1);
      if (i < 0 || i >= count || seen[i] || v.size() != width) {
        throw new IllegalArgumentException(
            what
                + table
                + " row "
                + i
                + " is inconsistent with "
                + count
                + " rows of "
                + width
                + " values");
      }
      seen[i] = true;
      System.arraycopy(Finite.require(v.toArray(), table + " row " + i), 0, out, i * width, width);
    }
    return out;
  }

  /**
   * The rows of the table {@code dir}, read on the driver without a Spark job ({@link
   * ParquetRows}).
   *
   * @throws IllegalArgumentException prefixed by {@code what} and naming {@code dir} when the table
   *     is missing or unreadable
   */
  public static List<Row> read(SparkSession spark, String dir, StructType schema, String what) {
    try {
      return ParquetRows.read(dir, schema, spark.sparkContext().hadoopConfiguration());
    } catch (Exception e) {
      String replacing = Persistence.beingReplaced(dir, spark.sparkContext().hadoopConfiguration());
      throw new IllegalArgumentException(
          what
              + (replacing != null
                  ? replacing
                  : "missing or unreadable model data "
                      + dir
                      + " ("
                      + Persistence.firstLine(e)
                      + ")"),
          e);
    }
  }

  /** Writes a one-row table (a summary, the statistics) as one file. */
  public static void writeRow(Row row, StructType schema, String dir, SparkSession spark) {
    spark.createDataFrame(List.of(row), schema).coalesce(1).write().parquet(dir);
  }

  /** The one row of a table that must hold exactly one, else a refusal naming the table. */
  public static Row single(List<Row> rows, String table, String what) {
    if (rows.size() != 1) {
      throw new IllegalArgumentException(
          what + "expected one " + table + " row, found " + rows.size());
    }
    return rows.get(0);
  }
}
