package io.github.sparkkpca.examples.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.examples.cli.TestSpark;
import java.util.List;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/** The synthetic source: same seed, same data for any partitioning; requested shape; structure. */
class SyntheticDataTest {

  static List<Row> collect(String input, Integer partitions) {
    SparkSession spark = TestSpark.session();
    LoadedData data = DataSources.load(spark, SourceOptions.of(input).withPartitions(partitions));
    assertEquals(List.of("id"), data.orderCols());
    if (partitions != null) {
      assertEquals(partitions, data.data().rdd().getNumPartitions());
    }
    return data.data().orderBy("id").collectAsList();
  }

  @Test
  void identicalForAnyPartitionCount() {
    List<Row> one = collect("synthetic:n=1000,d=7,seed=42", 1);
    List<Row> four = collect("synthetic:n=1000,d=7,seed=42", 4);
    List<Row> viaSpec = collect("synthetic:n=1000,d=7,seed=42,partitions=3", null);
    assertEquals(1000, one.size());
    assertEquals(1000, four.size());
    for (int i = 0; i < one.size(); i++) {
      assertEquals(i, one.get(i).getLong(0));
      assertEquals(i, four.get(i).getLong(0));
      double[] a = ((Vector) one.get(i).get(1)).toArray();
      assertEquals(7, a.length);
      assertArrayEquals(a, ((Vector) four.get(i).get(1)).toArray(), 0.0, "row " + i);
      assertArrayEquals(a, ((Vector) viaSpec.get(i).get(1)).toArray(), 0.0, "row " + i);
      assertEquals(one.get(i).getInt(2), four.get(i).getInt(2));
    }
    List<Row> otherSeed = collect("synthetic:n=1000,d=7,seed=43", 4);
    assertNotEquals(
        ((Vector) one.get(0).get(1)).apply(0), ((Vector) otherSeed.get(0).get(1)).apply(0));
  }

  @Test
  void shapeMetadataAndClusterStructure() {
    SparkSession spark = TestSpark.session();
    Dataset<Row> df =
        SyntheticData.generate(
            spark, SyntheticData.Spec.parse("n=4000,d=10,seed=5,clusters=3"), "features", "label");
    assertEquals(10, AttributeGroup.fromStructField(df.schema().apply("features")).size());
    List<Row> rows = df.collectAsList();
    assertEquals(4000, rows.size());
    int[] counts = new int[3];
    double[][] sums = new double[3][10];
    double[] total = new double[10];
    for (Row r : rows) {
      int label = r.getInt(2);
      counts[label]++;
      double[] x = ((Vector) r.get(1)).toArray();
      for (int j = 0; j < 10; j++) {
        sums[label][j] += x[j];
        total[j] += x[j];
      }
    }
    for (int c = 0; c < 3; c++) {
      assertTrue(
          counts[c] > 1100 && counts[c] < 1570, "cluster sizes roughly uniform: " + counts[c]);
    }
    // Between-cluster spread (centres ~ N(0, 16)) dwarfs the within-cluster spread (1 + noise).
    double between = 0;
    for (int c = 0; c < 3; c++) {
      for (int j = 0; j < 10; j++) {
        double diff = sums[c][j] / counts[c] - total[j] / rows.size();
        between += diff * diff * counts[c];
      }
    }
    assertTrue(between / rows.size() > 3.0, "clusters separated: " + between / rows.size());
  }

  @Test
  void specParsing() {
    SyntheticData.Spec defaults = SyntheticData.Spec.parse("");
    assertEquals(10_000, defaults.n());
    assertEquals(20, defaults.d());
    SyntheticData.Spec spec = SyntheticData.Spec.parse("n=5,d=2,seed=-3,clusters=2,partitions=2");
    assertEquals(new SyntheticData.Spec(5, 2, -3, 2, 2), spec);
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> SyntheticData.Spec.parse("n=x"))
            .getMessage()
            .contains("n must be an integer"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> SyntheticData.Spec.parse("d=0"))
            .getMessage()
            .contains("d must be >= 1"));
  }
}
