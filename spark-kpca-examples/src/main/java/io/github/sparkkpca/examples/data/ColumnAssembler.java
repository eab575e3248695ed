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
 * Turns rows of numeric cells (Parquet columns) into one dense feature vector per row; CSV lines
 * are parsed by {@link CsvLines}.
 *
 * <p>This assembler never throws: the first empty or non-finite cell of a row is described in
 * {@link LoadedData#ERROR_COL} (which {@link LoadedData#persistAndValidate()} reports with its row
 * number) and the row gets a zero vector.
 *
 * <p>Output columns: the vector (with size metadata), the label (unchanged) if any, the
 * pass-through columns (the row-order columns), then the error column.
 */
final class ColumnAssembler implements MapFunction<Row, Row> {

  private static final long serialVersionUID = 1L;

  private final int[] featureIndex;
  private final String[] featureNames;
  private final int labelIndex;
  private final int[] passIndex;

  /**
   * @param input the schema of the rows to assemble
   * @param features the columns to assemble, in order
   * @param label the label column to keep, or null
   * @param pass further columns to keep (after the label)
   */
  ColumnAssembler(StructType input, List<String> features, String label, List<String> pass) {
    this.featureIndex = features.stream().mapToInt(input::fieldIndex).toArray();
    this.featureNames = features.toArray(new String[0]);
    this.labelIndex = label == null ? -1 : input.fieldIndex(label);
    this.passIndex = pass.stream().mapToInt(input::fieldIndex).toArray();
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
    for (int j = 0; error == null && j < featureIndex.length; j++) {
      Object cell = row.get(featureIndex[j]);
      error =
          cell instanceof Number number
              ? CellValues.acceptFeature(number.doubleValue(), featureNames[j], values, j)
              : CellValues.parseFeature(
                  cell == null ? null : cell.toString().trim(), featureNames[j], values, j);
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
}
