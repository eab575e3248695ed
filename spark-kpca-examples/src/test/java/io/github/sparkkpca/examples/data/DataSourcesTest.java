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

  /** Rows of {@code x1,x2,x3,y} in the order given by {@code header} (a permutation of them). */
  private static String rows(String header, int from, int count) {
    List<String> names = List.of(header.split(","));
    StringBuilder text = new StringBuilder(header).append('\n');
    for (int i = from; i < from + count; i++) {
      String[] cells = new String[4];
      cells[names.indexOf("x1")] = String.valueOf(i);
      cells[names.indexOf("x2")] = String.valueOf(0.5 * i);
      cells[names.indexOf("x3")] = String.valueOf(-i);
      cells[names.indexOf("y")] = "c" + i;
      text.append(String.join(",", cells)).append('\n');
    }
    return text.toString();
  }

  /**
   * Files whose headers list the same names in other orders are matched by name (they used to be
   * read by position: labels became features), also when a file is split into several partitions
   * (the splits after the first read the header from the file).
   */
  @Test
  void csvFilesAreMatchedByHeaderNames() throws IOException {
    Path in = Files.createDirectories(dir.resolve("orders"));
    Files.writeString(in.resolve("a.csv"), rows("x1,x2,x3,y", 0, 3));
    Files.writeString(in.resolve("b.csv"), rows("y,x3,x1,x2", 3, 40));
    Files.writeString(in.resolve("c.csv"), "\n" + rows("x2,y,x1,x3", 43, 2));
    forEachPartitioning(
        in,
        (data, split) -> {
          if (split) {
            assertTrue(data.data().rdd().getNumPartitions() > 3, "b.csv is split");
          }
          List<Row> loaded = ordered(data);
          assertEquals(45, loaded.size());
          for (int i = 0; i < 45; i++) {
            Row row = loaded.get(i);
            assertEquals("c" + i, row.getAs("y"), "label of row " + i);
            assertArrayEquals(
                new double[] {i, 0.5 * i, -i},
                ((Vector) row.getAs("f")).toArray(),
                0.0,
                "row " + i);
          }
        });
  }

  /**
   * Loads the CSV files of {@code in} (features "f", label "y") with Spark's default file
   * partitions, then with 64-byte ones (every file split), and gives each load to {@code check}
   * with whether the files were split.
   */
  private static void forEachPartitioning(
      Path in, java.util.function.BiConsumer<LoadedData, Boolean> check) {
    SparkSession spark = TestSpark.session();
    for (boolean split : new boolean[] {false, true}) {
      if (split) {
        spark.conf().set("spark.sql.files.maxPartitionBytes", "64");
        spark.conf().set("spark.sql.files.openCostInBytes", "0");
      }
      try {
        check.accept(
            DataSources.load(
                spark, new SourceOptions(in.toString(), null, "f", "y", null, null, null)),
            split);
      } finally {
        spark.conf().unset("spark.sql.files.maxPartitionBytes");
        spark.conf().unset("spark.sql.files.openCostInBytes");
      }
    }
  }

  @Test
  void csvFilesWithOtherNamesAreRefusedNamingBothFilesAndHeaders() throws IOException {
    Path in = Files.createDirectories(dir.resolve("names"));
    Files.writeString(in.resolve("a.csv"), rows("x1,x2,x3,y", 0, 3));
    Files.writeString(in.resolve("b.csv"), "x1,x2,x4,y\n1,2,3,c\n");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> DataSources.load(TestSpark.session(), SourceOptions.of(in.toString())));
    assertEquals(
        "--input "
            + in
            + ": the header of "
            + in.resolve("b.csv")
            + " (x1,x2,x4,y) and the header of "
            + in.resolve("a.csv")
            + " (x1,x2,x3,y) hold different column names; every file must hold the same columns, "
            + "in any order (they are matched by name)",
        e.getMessage());
  }

  /** The label-column message lists the file's columns, not the reader's internal ones. */
  @Test
  void unknownLabelColumnListsOnlyTheHeader() throws IOException {
    Path csv = Files.writeString(dir.resolve("label.csv"), rows("x1,x2,x3,y", 0, 2));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                DataSources.load(
                    TestSpark.session(),
                    new SourceOptions(csv.toString(), null, "f", "z", null, null, null)));
    assertEquals(
        "--label-col: 'z' is not a column of " + csv + " (columns: x1, x2, x3, y)", e.getMessage());
  }

  /** A text label is refused with its file and line where numbers are needed. */
  @Test
  void textLabelIsRefusedWithFileAndLine() throws IOException {
    Path csv =
        Files.writeString(dir.resolve("labels.csv"), "a,b,y\n1,2,1\n3,4,-1\n5,6,spam\n7,8,1\n");
    LoadedData data =
        DataSources.load(
            TestSpark.session(), new SourceOptions(csv.toString(), null, "f", "y", 2, null, null));
    data.persistAndValidate();
    try {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, data::withNumericLabel);
      assertEquals(
          "label column 'y' has the value 'spam', not a number (null as a number), in row 3 (line 4)"
              + " of "
              + csv
              + "; this command needs numeric labels",
          e.getMessage());
      Files.writeString(csv, "a,b,y\n1,2,1\n3,4,-1\n5,6,0.5\n7,8,1\n");
    } finally {
      data.unpersist();
    }
    LoadedData good =
        DataSources.load(
            TestSpark.session(),
            new SourceOptions(csv.toString(), null, "f", "y", null, null, null));
    good.persistAndValidate();
    try {
      List<Double> labels =
          good.withNumericLabel()
              .orderBy(good.orderBy())
              .select("y")
              .as(org.apache.spark.sql.Encoders.DOUBLE())
              .collectAsList();
      assertEquals(List.of(1.0, -1.0, 0.5, 1.0), labels);
    } finally {
      good.unpersist();
    }
  }

  /**
   * Of several bad cells in several files and partitions, the one first in input order (files by
   * name, then rows) is reported, whichever partition holds it: the later rows of a.csv and every
   * bad row of b.csv are ignored.
   */
  @Test
  void theFirstBadCellInInputOrderIsReported() throws IOException {
    Path in = Files.createDirectories(dir.resolve("bad"));
    String a = rows("x1,x2,x3,y", 0, 30).replace("\n7,", "\noops,").replace("\n20,", "\n,");
    String b = rows("x1,x2,x3,y", 30, 30).replace("\n30,", "\nbad,");
    Files.writeString(in.resolve("a.csv"), a);
    Files.writeString(in.resolve("b.csv"), b);
    forEachPartitioning(
        in,
        (data, split) -> {
          if (split) {
            assertTrue(data.data().rdd().getNumPartitions() > 2, "the files are split");
          }
          IllegalArgumentException e =
              assertThrows(IllegalArgumentException.class, data::persistAndValidate);
          assertEquals(
              "column 'x1' has a non-numeric value 'oops' in row 8 (line 9) of "
                  + in.resolve("a.csv")
                  + "; every column except --label-col is a numeric feature",
              e.getMessage());
        });
  }
}
