package io.github.sparkkpca.examples.data;

import java.util.List;
import org.apache.spark.ml.attribute.Attribute;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.attribute.NumericAttribute;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructField;

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

  /**
   * Attaches the features' names as ML attributes (as {@code VectorAssembler} does), which a fit
   * records and a model checks; {@code names} null attaches the size {@code size} only.
   */
  static Dataset<Row> withNames(Dataset<Row> data, String column, int size, List<String> names) {
    if (names == null) {
      return withSize(data, column, size);
    }
    Attribute[] attributes = new Attribute[names.size()];
    for (int i = 0; i < attributes.length; i++) {
      attributes[i] = NumericAttribute.defaultAttr().withName(names.get(i));
    }
    return data.withColumn(
        column,
        LoadedData.column(column)
            .as(column, new AttributeGroup(column, attributes).toStructField().metadata()));
  }

  /** A vector column's feature names dropped (its size kept, when known). */
  static Dataset<Row> withoutNames(Dataset<Row> data, String column, StructField field) {
    AttributeGroup group = AttributeGroup.fromStructField(field);
    if (group.attributes().isEmpty()) {
      return data;
    }
    return withSize(data, column, group.size());
  }
}
