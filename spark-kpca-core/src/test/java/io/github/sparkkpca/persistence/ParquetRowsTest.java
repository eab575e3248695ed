package io.github.sparkkpca.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.testing.LocalSpark;
import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The driver-side reader of model tables returns what Spark's own Parquet reader returns, bit for
 * bit: every column type a model table holds, dense and sparse vectors (empty ones too), tables in
 * several part files, every compression codec Spark writes and its legacy list layout. Tables it
 * cannot read as asked are refused naming the file and the column.
 */
class ParquetRowsTest {

  @TempDir Path dir;

  private static final StructType SCHEMA =
      new StructType()
          .add("index", DataTypes.IntegerType, false)
          .add("count", DataTypes.LongType, false)
          .add("weight", DataTypes.DoubleType, false)
          .add("centred", DataTypes.BooleanType, false)
          .add("name", DataTypes.StringType, false)
          .add("point", SQLDataTypes.VectorType(), false);

  /** Rows of every column type; vectors dense, sparse, empty, with extreme and signed values. */
  private static List<Row> rows(int n, long seed) {
    Random random = new Random(seed);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int d = 1 + random.nextInt(40);
      double[] values = new double[d];
      for (int j = 0; j < d; j++) {
        values[j] = random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20);
      }
      values[0] = i % 7 == 0 ? -0.0 : i % 11 == 0 ? Double.MIN_VALUE : values[0];
      Vector point =
          switch (i % 4) {
            case 0 -> Vectors.dense(values);
            case 1 -> Vectors.dense(values).toSparse();
            case 2 -> Vectors.sparse(d + 5, new int[0], new double[0]);
            default -> Vectors.dense(new double[0]);
          };
      rows.add(
          RowFactory.create(
              i, (long) i << 33, random.nextDouble(), i % 2 == 0, "row " + i + " é", point));
    }
    return rows;
  }

  /** Spark's rows of the table, ordered by index. */
  private static List<Row> sparkRead(SparkSession spark, String table) {
    List<Row> rows = new ArrayList<>(spark.read().schema(SCHEMA).parquet(table).collectAsList());
    rows.sort(Comparator.comparingInt(r -> r.getInt(0)));
    return rows;
  }

  private static List<Row> localRead(SparkSession spark, String table) throws Exception {
    List<Row> rows = ParquetRows.read(table, SCHEMA, spark.sparkContext().hadoopConfiguration());
    List<Row> sorted = new ArrayList<>(rows);
    sorted.sort(Comparator.comparingInt(r -> r.getInt(0)));
    return sorted;
  }

  private static void assertSameRows(List<Row> expected, List<Row> actual) {
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      Row e = expected.get(i);
      Row a = actual.get(i);
      assertEquals(e.getInt(0), a.getInt(0));
      assertEquals(e.getLong(1), a.getLong(1));
      assertEquals(
          Double.doubleToRawLongBits(e.getDouble(2)), Double.doubleToRawLongBits(a.getDouble(2)));
      assertEquals(e.getBoolean(3), a.getBoolean(3));
      assertEquals(e.getString(4), a.getString(4));
      Vector ev = (Vector) e.get(5);
      Vector av = (Vector) a.get(5);
      // Same kind (dense or sparse), size, indices and bits of every value.
      assertEquals(ev.getClass(), av.getClass(), "row " + i);
      assertEquals(ev, av, "row " + i);
      double[] eb = ev.toArray();
      double[] ab = av.toArray();
      for (int j = 0; j < eb.length; j++) {
        assertEquals(Double.doubleToRawLongBits(eb[j]), Double.doubleToRawLongBits(ab[j]));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"snappy", "zstd", "gzip", "lz4", "uncompressed"})
  void readsWhatSparkReads(String codec) throws Exception {
    SparkSession spark = LocalSpark.spark();
    String table = dir.resolve(codec).toString();
    List<Row> rows = rows(200, codec.hashCode());
    spark
        .createDataFrame(rows, SCHEMA)
        .repartition(3)
        .write()
        .option("compression", codec)
        .parquet(table);
    List<Row> spark3 = sparkRead(spark, table);
    assertEquals(200, spark3.size());
    assertSameRows(spark3, localRead(spark, table));
  }

  @Test
  void readsSparksLegacyListLayout() throws Exception {
    SparkSession spark = LocalSpark.spark();
    String table = dir.resolve("legacy").toString();
    String key = "spark.sql.parquet.writeLegacyFormat";
    String before = spark.conf().get(key);
    spark.conf().set(key, "true");
    try {
      spark.createDataFrame(rows(50, 3), SCHEMA).write().parquet(table);
    } finally {
      spark.conf().set(key, before);
    }
    assertSameRows(sparkRead(spark, table), localRead(spark, table));
  }

  @Test
  void emptyTableHasNoRowsAndMissingTableIsRefused() throws Exception {
    SparkSession spark = LocalSpark.spark();
    String table = dir.resolve("empty").toString();
    spark.createDataFrame(List.of(), SCHEMA).write().parquet(table);
    assertTrue(localRead(spark, table).isEmpty());
    assertThrows(
        FileNotFoundException.class, () -> localRead(spark, dir.resolve("absent").toString()));
  }

  @Test
  void refusesMissingColumnAndOtherTypeNamingTheColumn() throws Exception {
    SparkSession spark = LocalSpark.spark();
    String table = dir.resolve("other").toString();
    StructType other =
        new StructType()
            .add("index", DataTypes.LongType, false)
            .add("point", SQLDataTypes.VectorType(), false);
    spark
        .createDataFrame(List.of(RowFactory.create(1L, Vectors.dense(1, 2))), other)
        .write()
        .parquet(table);
    var conf = spark.sparkContext().hadoopConfiguration();
    java.io.IOException wrongType =
        assertThrows(
            java.io.IOException.class,
            () ->
                ParquetRows.read(
                    table,
                    new StructType()
                        .add("index", DataTypes.IntegerType)
                        .add("point", SQLDataTypes.VectorType()),
                    conf));
    assertTrue(wrongType.getMessage().contains("column 'index'"), wrongType.getMessage());
    assertTrue(wrongType.getMessage().contains("part-"), wrongType.getMessage());
    java.io.IOException missing =
        assertThrows(java.io.IOException.class, () -> ParquetRows.read(table, SCHEMA, conf));
    assertTrue(missing.getMessage().contains("no column 'count'"), missing.getMessage());
  }

  @Test
  void hiddenFilesAreSkippedAsSparkSkipsThem() throws Exception {
    SparkSession spark = LocalSpark.spark();
    String table = dir.resolve("hidden").toString();
    spark.createDataFrame(rows(10, 5), SCHEMA).coalesce(1).write().parquet(table);
    // Spark's own bookkeeping (_SUCCESS, .crc) and a copy in progress are not tables' rows.
    Files.writeString(dir.resolve("hidden").resolve("part-9._COPYING_"), "partial");
    Files.writeString(dir.resolve("hidden").resolve("_temporary"), "x");
    assertSameRows(sparkRead(spark, table), localRead(spark, table));
  }
}
