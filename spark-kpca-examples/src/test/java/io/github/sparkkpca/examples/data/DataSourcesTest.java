package io.github.sparkkpca.examples.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.examples.cli.TestSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CSV, Parquet and libsvm inputs become the expected vectors, labels and row order. */
class DataSourcesTest {

  @TempDir Path dir;

  static List<Row> ordered(LoadedData data) {
    data.persistAndValidate();
    try {
      return data.data().orderBy(data.orderBy()).collectAsList();
    } finally {
      data.unpersist();
    }
  }

  @Test
  void csvColumnsExceptTheLabelAreFeaturesInFileOrder() throws IOException {
    Path csv = dir.resolve("in.csv");
    Files.writeString(csv, "y,a,b\nfirst,1,2.5\nsecond,-3, 4e-1\nthird,5,6\n");
    LoadedData data =
        DataSources.load(
            TestSpark.session(), new SourceOptions(csv.toString(), null, "f", "y", 2, null, null));
    assertEquals(2, AttributeGroup.fromStructField(data.data().schema().apply("f")).size());
    List<Row> rows = ordered(data);
    assertEquals(3, data.rows());
    assertEquals(
        List.of("first", "second", "third"),
        rows.stream().map(r -> (String) r.getAs("y")).toList());
    assertArrayEquals(new double[] {-3, 0.4}, ((Vector) rows.get(1).getAs("f")).toArray(), 0.0);
    assertNull(rows.get(0).getAs(LoadedData.ERROR_COL));
  }

  @Test
  void parquetVectorColumnOrNumericColumns() {
    SparkSession spark = TestSpark.session();
    StructType vectors =
        new StructType().add("v", SQLDataTypes.VectorType()).add("tag", DataTypes.StringType);
    String vectorPath = dir.resolve("vectors.parquet").toString();
    spark
        .createDataFrame(
            List.of(
                RowFactory.create(new DenseVector(new double[] {1, 2}), "a"),
                RowFactory.create(new DenseVector(new double[] {3, 4}), "b")),
            vectors)
        .coalesce(1)
        .write()
        .parquet(vectorPath);
    List<Row> rows =
        ordered(
            DataSources.load(
                spark, new SourceOptions(vectorPath, null, "v", "tag", null, null, null)));
    assertEquals(2, rows.size());
    assertArrayEquals(new double[] {3, 4}, ((Vector) rows.get(1).getAs("v")).toArray(), 0.0);

    StructType numbers =
        new StructType()
            .add("i", DataTypes.IntegerType)
            .add("x", DataTypes.DoubleType)
            .add("name", DataTypes.StringType);
    String numericPath = dir.resolve("numbers.parquet").toString();
    Dataset<Row> df =
        spark
            .createDataFrame(
                List.of(
                    RowFactory.create(1, 0.5, "p"),
                    RowFactory.create(2, 1.5, "q"),
                    RowFactory.create(3, Double.NaN, "r")),
                numbers)
            .coalesce(1);
    df.write().parquet(numericPath);
    IllegalArgumentException nan =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ordered(
                    DataSources.load(
                        spark,
                        new SourceOptions(
                            numericPath, null, "features", "name", null, null, null))));
    assertTrue(
        nan.getMessage().startsWith("column 'x' has a non-finite value NaN in row 3 of "),
        nan.getMessage());
    IllegalArgumentException text =
        assertThrows(
            IllegalArgumentException.class,
            () -> DataSources.load(spark, SourceOptions.of(numericPath)));
    assertTrue(
        text.getMessage().contains("column 'name'") && text.getMessage().contains("not numeric"),
        text.getMessage());
  }

  @Test
  void libsvmWithTheModelsDimension() throws IOException {
    Path file = dir.resolve("in.libsvm");
    Files.writeString(file, "1 1:0.5 3:2\n0 2:1\n");
    LoadedData data =
        DataSources.load(
            TestSpark.session(), SourceOptions.of(file.toString()).withExpectedFeatures(5));
    List<Row> rows = ordered(data);
    assertEquals("label", data.labelCol());
    assertArrayEquals(
        new double[] {0.5, 0, 2, 0, 0}, ((Vector) rows.get(0).getAs("features")).toArray(), 0.0);
    assertEquals(0.0, (double) rows.get(1).getAs("label"));
  }
}
