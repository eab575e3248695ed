package io.github.sparkkpca.examples.cli;

import static io.github.sparkkpca.examples.data.LoadedData.column;

import io.github.sparkkpca.examples.data.LoadedData;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.ml.functions;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Writes transform output in input row order.
 *
 * <p><b>Order.</b> The scored rows are sorted by the input's order columns (file name and position
 * within the file, or the built-in source's row index; see {@link LoadedData#orderCols()}), which
 * were attached when the input was read, before any repartitioning. A global sort range-partitions
 * the rows, so part file i holds only rows that precede those of part file i+1: concatenating the
 * part files in name order gives the input order, while the writing stays parallel (no {@code
 * coalesce(1)}). The sort shuffles only the k scores, the residual, the reconstruction and the
 * label; input in one partition is sorted in place, without a shuffle.
 *
 * <p><b>CSV</b> gets columns {@code pc_1..pc_k}, then {@code residual} (with {@code --residual}),
 * then {@code rec_1..rec_d} (with {@code --reconstruction}), then the label column when the input
 * has one. Spark writes a header into every part file, so each part is a valid CSV file and the
 * directory reads back with {@code spark.read().option("header", true).csv(dir)}; to concatenate
 * the parts into one file, drop the first line of all but the first part. <b>Parquet</b> gets the
 * label, the score vector column, the residual and the reconstruction vector.
 */
final class ScoreWriter {

  /** Output formats of {@code transform}. */
  enum Format {
    CSV,
    PARQUET;

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private ScoreWriter() {}

  /**
   * @param scored the transform output (input columns plus {@code scoresCol} and the {@code
   *     scalarCols})
   * @param input the loaded input (order and label columns)
   * @param k number of components
   * @param scalarCols the per-row number columns after the scores (the residual, the pre-image
   *     error), in their order; empty for none
   * @param reconstructionCol the reconstruction (pre-image) vector column, or null
   * @param d the input dimension, the size of the reconstruction
   * @param output a directory that does not exist yet (the caller swaps it in; see {@code
   *     SafeOutput})
   */
  static void write(
      Dataset<Row> scored,
      LoadedData input,
      String scoresCol,
      int k,
      List<String> scalarCols,
      String reconstructionCol,
      int d,
      Format format,
      String output) {
    Dataset<Row> ordered = input.inInputOrder(scored);
    Column[] columns =
        columns(input.labelCol(), scoresCol, k, scalarCols, reconstructionCol, d, format);
    if (format == Format.CSV) {
      ordered.select(columns).write().option("header", "true").csv(output);
    } else {
      ordered.select(columns).write().parquet(output);
    }
  }

  /**
   * The output columns of {@code format} (see the class comment), also those of {@code
   * score-stream}.
   *
   * @param labelCol the label column, or null
   */
  static Column[] columns(
      String labelCol,
      String scoresCol,
      int k,
      List<String> scalarCols,
      String reconstructionCol,
      int d,
      Format format) {
    List<Column> columns = new ArrayList<>();
    if (format == Format.CSV) {
      Column array = functions.vector_to_array(column(scoresCol), "float64");
      for (int i = 0; i < k; i++) {
        columns.add(array.getItem(i).as("pc_" + (i + 1)));
      }
      scalarCols.forEach(c -> columns.add(column(c)));
      if (reconstructionCol != null) {
        Column reconstruction = functions.vector_to_array(column(reconstructionCol), "float64");
        for (int j = 0; j < d; j++) {
          columns.add(reconstruction.getItem(j).as("rec_" + (j + 1)));
        }
      }
      if (labelCol != null) {
        columns.add(column(labelCol));
      }
    } else {
      if (labelCol != null) {
        columns.add(column(labelCol));
      }
      columns.add(column(scoresCol));
      scalarCols.forEach(c -> columns.add(column(c)));
      if (reconstructionCol != null) {
        columns.add(column(reconstructionCol));
      }
    }
    return columns.toArray(new Column[0]);
  }

  /**
   * The mean of one number column of a written output, read back from it (scoring the rows again to
   * average them would repeat the transform).
   */
  static double mean(
      org.apache.spark.sql.SparkSession spark, String output, Format format, String name) {
    Dataset<Row> written =
        format == Format.CSV
            ? spark.read().option("header", "true").csv(output)
            : spark.read().parquet(output);
    return written
        .agg(org.apache.spark.sql.functions.avg(column(name).cast("double")))
        .first()
        .getDouble(0);
  }
}
