package io.github.sparkkpca.examples.data;

import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Re-attaches a vector column's size metadata. A typed {@code map} with {@code
 * Encoders.row(schema)} drops field metadata, but the size lets the estimator and model check
 * dimensions from the schema alone (without reading a first row) and lets the output's consumers
 * see d.
 */
final class VectorColumns {

  private VectorColumns() {}

  static Dataset<Row> withSize(Dataset<Row> data, String column, int size) {
    return data.withColumn(
        column,
        LoadedData.column(column)
            .as(column, new AttributeGroup(column, size).toStructField().metadata()));
  }
}
