package io.github.sparkkpca.examples.data;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Parses libsvm lines ({@code label index:value ...}, indices one-based and ascending) into sparse
 * vectors of a size N stated up front ({@code --num-features N}, or the d of the model the rows are
 * read for), or else found by a light first pass ({@link #largestIndex(Dataset)}), as Spark's
 * libsvm reader finds it; unlike that reader's, every refusal names its file and line.
 *
 * <p>Lines are read as Spark's reader reads them: trimmed, blank lines and lines starting with
 * {@code #} skipped, label and pairs separated by spaces. Nothing is thrown: an index above N (or
 * below 1), indices out of order, or a label, index or value that is not a finite number is
 * described in {@link LoadedData#ERROR_COL} (which {@link LoadedData#persistAndValidate()} reports
 * with the file and line) and the row gets a zero vector.
 *
 * <p>Input columns: the line, {@link LoadedData#FILE_COL}, {@link LoadedData#POS_COL} (the line's
 * position among all lines of its file, blank ones included). Output columns: the label (a double),
 * the vector, then the file, the position and the error.
 */
final class LibsvmLines implements MapPartitionsFunction<Row, Row> {

  private static final long serialVersionUID = 1L;

  private final int numFeatures;
  private final String sizeName;

  /**
   * @param numFeatures N
   * @param sizeName N as messages name it: "--num-features N", "the model's N features"
   */
  LibsvmLines(int numFeatures, String sizeName) {
    this.numFeatures = numFeatures;
    this.sizeName = sizeName;
  }

  /**
   * The largest index of the lines' well-formed {@code index:value} pairs (at least 1): the size of
   * the vectors when no size is stated, found by one light pass (no values parsed), as Spark's
   * libsvm reader finds it. A malformed pair is skipped here; the parse then refuses it naming its
   * file and line.
   */
  static int largestIndex(Dataset<Row> lines) {
    // fold, not reduce: files without lines have no partitions, and then size 1.
    return lines
        .select("value")
        .javaRDD()
        .mapPartitions(
            (FlatMapFunction<Iterator<Row>, Integer>)
                rows -> {
                  int max = 1;
                  while (rows.hasNext()) {
                    max = Math.max(max, largestIndex(rows.next().getString(0)));
                  }
                  return List.of(max).iterator();
                })
        .fold(1, Math::max);
  }

  /** The largest index of one line's well-formed pairs, 0 when it has none. */
  static int largestIndex(String line) {
    int max = 0;
    String trimmed = line.trim();
    if (trimmed.isEmpty() || trimmed.startsWith("#")) {
      return 0;
    }
    String[] items = trimmed.split(" ");
    for (int p = 1; p < items.length; p++) {
      int colon = items[p].indexOf(':');
      if (colon > 0) {
        try {
          max = Math.max(max, Integer.parseInt(items[p].substring(0, colon)));
        } catch (NumberFormatException e) {
          // Refused with its file and line by the parse.
        }
      }
    }
    return max;
  }

  /** The schema of the parsed rows. */
  static StructType outputSchema(String label, String featuresCol, int numFeatures) {
    return new StructType()
        .add(label, DataTypes.DoubleType, false)
        .add(new AttributeGroup(featuresCol, numFeatures).toStructField())
        .add(LoadedData.FILE_COL, DataTypes.StringType, true)
        .add(LoadedData.POS_COL, DataTypes.LongType, false)
        .add(LoadedData.ERROR_COL, DataTypes.StringType, true);
  }

  @Override
  public Iterator<Row> call(Iterator<Row> lines) {
    return new ParsedRows() {
      @Override
      Row parseNext() {
        while (lines.hasNext()) {
          Row row = lines.next();
          String line = row.getString(0).trim();
          if (line.isEmpty() || line.startsWith("#")) {
            continue;
          }
          return parse(line, row.getString(1), row.getLong(2));
        }
        return null;
      }
    };
  }

  /** One line; a row with a zero vector and the reason when it is not valid libsvm. */
  Row parse(String line, String file, long position) {
    String[] items = line.split(" ");
    int[] indices = new int[items.length - 1];
    double[] values = new double[items.length - 1];
    int count = 0;
    String error = null;
    double label = 0;
    try {
      label = CellValues.parseNumber(items[0]);
      if (!Double.isFinite(label)) {
        error = "libsvm label " + items[0] + " is not finite";
      }
    } catch (NumberFormatException e) {
      error = "libsvm label '" + CellValues.abbreviate(items[0]) + "' is not a number";
    }
    int previous = 0;
    for (int p = 1; error == null && p < items.length; p++) {
      String item = items[p];
      if (item.isEmpty()) {
        continue;
      }
      int colon = item.indexOf(':');
      if (colon < 0) {
        error = "libsvm pair '" + CellValues.abbreviate(item) + "' is not index:value";
        break;
      }
      int index;
      try {
        index = Integer.parseInt(item.substring(0, colon));
      } catch (NumberFormatException e) {
        String text = item.substring(0, colon);
        error =
            text.matches("\\d{1,40}")
                ? "libsvm index "
                    + CellValues.abbreviate(text)
                    + " is beyond "
                    + Integer.MAX_VALUE
                    + ", the most features a Spark vector holds"
                : "libsvm index '" + CellValues.abbreviate(text) + "' is not an integer";
        break;
      }
      if (index < 1) {
        error = "libsvm index " + index + " is below 1 (indices are one-based)";
        break;
      }
      if (index > numFeatures) {
        error =
            "libsvm index "
                + index
                + " is beyond "
                + sizeName
                + " (indices are one-based: 1.."
                + numFeatures
                + ")";
        break;
      }
      if (index <= previous) {
        error = "libsvm indices must be ascending: index " + index + " follows index " + previous;
        break;
      }
      double value;
      try {
        value = CellValues.parseNumber(item.substring(colon + 1));
      } catch (NumberFormatException e) {
        error =
            "libsvm value '"
                + CellValues.abbreviate(item.substring(colon + 1))
                + "' is not a number";
        break;
      }
      if (!Double.isFinite(value)) {
        error = "libsvm value " + value + " of index " + index + " is not finite";
        break;
      }
      previous = index;
      indices[count] = index - 1;
      values[count++] = value;
    }
    SparseVector vector =
        error == null
            ? new SparseVector(
                numFeatures, Arrays.copyOf(indices, count), Arrays.copyOf(values, count))
            : new SparseVector(numFeatures, new int[0], new double[0]);
    return RowFactory.create(error == null ? label : 0.0, vector, file, position, error);
  }
}
