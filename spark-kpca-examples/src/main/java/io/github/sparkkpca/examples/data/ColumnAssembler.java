package io.github.sparkkpca.examples.data;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Turns rows of scalar cells (CSV strings or Parquet numbers) into one dense feature vector per
 * row.
 *
 * <p>Spark's {@code VectorAssembler} would need numeric columns first, and a cast turns bad cells
 * into nulls (or, under ANSI mode, fails without saying which column). This assembler parses each
 * cell itself and never throws: a CSV row with more or fewer cells than the header, or else the
 * first bad cell of a row, is described in {@link LoadedData#ERROR_COL} (which {@link
 * LoadedData#persistAndValidate()} reports with its row number) and the row gets a zero vector.
 *
 * <p>Output columns: the vector (with size metadata), the label (unchanged) if any, the
 * pass-through columns (the row-order columns), then the error column.
 */
final class ColumnAssembler implements MapFunction<Row, Row> {

  private static final long serialVersionUID = 1L;
  private static final int MAX_VALUE_CHARS = 40;

  private final int[] featureIndex;
  private final String[] featureNames;
  private final int labelIndex;
  private final int[] passIndex;
  private final int malformedIndex;
  private final int headerColumns;

  /**
   * @param input the schema of the rows to assemble
   * @param features the columns to assemble, in order
   * @param label the label column to keep, or null
   * @param pass further columns to keep (after the label)
   * @param malformed the column holding the text of a CSV row whose cell count differs from the
   *     header's (null for other rows), or null when the source has none
   * @param headerColumns the number of columns of the header (features and label)
   */
  ColumnAssembler(
      StructType input,
      List<String> features,
      String label,
      List<String> pass,
      String malformed,
      int headerColumns) {
    this.featureIndex = features.stream().mapToInt(input::fieldIndex).toArray();
    this.featureNames = features.toArray(new String[0]);
    this.labelIndex = label == null ? -1 : input.fieldIndex(label);
    this.passIndex = pass.stream().mapToInt(input::fieldIndex).toArray();
    this.malformedIndex = malformed == null ? -1 : input.fieldIndex(malformed);
    this.headerColumns = headerColumns;
  }

  /** The schema of the assembled rows. */
  static StructType outputSchema(
      StructType input, String featuresCol, int d, String label, List<String> pass) {
    StructType out = new StructType().add(new AttributeGroup(featuresCol, d).toStructField());
    if (label != null) {
      out = out.add(input.apply(label));
    }
    for (String p : pass) {
      out = out.add(input.apply(p));
    }
    return out.add(LoadedData.ERROR_COL, DataTypes.StringType, true);
  }

  @Override
  public Row call(Row row) {
    double[] values = new double[featureIndex.length];
    String error = null;
    if (malformedIndex >= 0 && !row.isNullAt(malformedIndex)) {
      // Its cells were cut to the header's width or padded with nulls, so they may sit under the
      // wrong
      // column: refuse the row instead of reading them.
      int cells = CsvCells.count(row.getString(malformedIndex));
      error =
          (cells >= 0 ? cells + " cells" : "a different number of cells")
              + " instead of the header's "
              + headerColumns;
    }
    for (int j = 0; error == null && j < featureIndex.length; j++) {
      Object cell = row.get(featureIndex[j]);
      double v;
      if (cell == null) {
        error = "column '" + featureNames[j] + "' is empty";
        break;
      } else if (cell instanceof Number number) {
        v = number.doubleValue();
      } else {
        String text = cell.toString().trim();
        try {
          v = Double.parseDouble(text);
        } catch (NumberFormatException e) {
          error =
              "column '" + featureNames[j] + "' has a non-numeric value '" + abbreviate(text) + "'";
          break;
        }
      }
      if (!Double.isFinite(v)) {
        error = "column '" + featureNames[j] + "' has a non-finite value " + v;
        break;
      }
      values[j] = v;
    }
    if (error != null) {
      java.util.Arrays.fill(values, 0.0);
    }
    List<Object> out = new ArrayList<>(2 + passIndex.length + 1);
    out.add(new DenseVector(values));
    if (labelIndex >= 0) {
      out.add(row.get(labelIndex));
    }
    for (int p : passIndex) {
      out.add(row.get(p));
    }
    out.add(error);
    return RowFactory.create(out.toArray());
  }

  private static String abbreviate(String s) {
    return s.length() <= MAX_VALUE_CHARS ? s : s.substring(0, MAX_VALUE_CHARS) + "...";
  }
}
