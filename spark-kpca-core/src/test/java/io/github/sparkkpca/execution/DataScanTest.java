package io.github.sparkkpca.execution;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.junit.jupiter.api.Test;

class DataScanTest {

  private static List<Vector> rows(int n) {
    List<Vector> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(Vectors.dense(i, i % 7, Math.sin(i)));
    }
    return out;
  }

  private static DataScan scanInParts(List<Vector> data, int parts, int m, long seed) {
    DataScan total = new DataScan(m, 3, seed, "features");
    int size = (data.size() + parts - 1) / parts;
    for (int p = 0; p < parts; p++) {
      List<Vector> slice =
          data.subList(Math.min(data.size(), p * size), Math.min(data.size(), (p + 1) * size));
      total.merge(
          new DataScan(m, 3, seed, "features")
              .scanPartition(p, Math.min(data.size(), p * size), slice.iterator()));
    }
    return total;
  }

  @Test
  void samplesExactlyMDistinctRowsIndependentOfPartitioning() {
    List<Vector> data = rows(500);
    double[] one = scanInParts(data, 1, 40, 5).sampleRowMajor();
    double[] five = scanInParts(data, 5, 40, 5).sampleRowMajor();
    assertEquals(40 * 3, one.length);
    assertArrayEquals(one, five, 0);
    Set<Double> first = new HashSet<>();
    for (int j = 0; j < 40; j++) {
      first.add(one[j * 3]);
    }
    assertEquals(40, first.size(), "landmarks must be distinct rows");
    double[] otherSeed = scanInParts(data, 1, 40, 6).sampleRowMajor();
    assertTrue(!java.util.Arrays.equals(one, otherSeed), "another seed gives another sample");
  }

  @Test
  void sampleIsUniform() {
    // Each of 20 rows should be chosen with probability m/n = 5/20 over many seeds.
    List<Vector> data = rows(20);
    int[] hits = new int[20];
    int trials = 4000;
    for (int s = 0; s < trials; s++) {
      double[] sample = scanInParts(data, 2, 5, s).sampleRowMajor();
      for (int j = 0; j < 5; j++) {
        hits[(int) sample[j * 3]]++;
      }
    }
    for (int i = 0; i < 20; i++) {
      // mean 1000, sd ≈ sqrt(4000·0.25·0.75) ≈ 27; 5 sd bound
      assertEquals(1000, hits[i], 140, "row " + i);
    }
  }

  @Test
  void denseAndSparseEncodingsHashAlike() {

    assertEquals(
        RowHash.hash(Vectors.dense(0, 2.5, 0, -1), 9),
        RowHash.hash(Vectors.sparse(4, new int[] {1, 3}, new double[] {2.5, -1}), 9));
  }

  @Test
  void reportsTheFirstBadRowWithItsGlobalIndex() {
    List<Vector> first = rows(10);
    List<Vector> second = rows(10);
    second.set(3, Vectors.dense(1, Double.NaN, 2));
    second.set(6, null);
    DataScan total = new DataScan(2, 3, 1, "features");
    total.merge(new DataScan(2, 3, 1, "features").scanPartition(1, 10, second.iterator()));
    total.merge(new DataScan(2, 3, 1, "features").scanPartition(0, 0, first.iterator()));
    assertEquals(20, total.count());
    assertEquals(
        "Column 'features': the vector in row 13 (partition 1, position 3) has a non-finite value (NaN)",
        total.errorMessage());
    DataScan sized =
        new DataScan(2, 3, 1, "v")
            .scanPartition(0, 0, List.<Vector>of(Vectors.dense(1, 2)).iterator());
    assertTrue(sized.errorMessage().contains("has size 2, expected 3"), sized.errorMessage());
    assertNull(new DataScan(2, 3, 1, "v").scanPartition(0, 0, rows(4).iterator()).errorMessage());
  }

  /**
   * 1000 rows: 900 copies of (5, 5, 5) at every position i % 10 != 3, and 100 distinct other rows.
   */
  private static List<Vector> mostlyOneValue() {
    List<Vector> out = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      out.add(i % 10 == 3 ? Vectors.dense(i, Math.sin(i), i % 7) : Vectors.dense(5, 5, 5));
    }
    return out;
  }

  private static boolean holds(double[] sample, double[] row) {
    for (int j = 0; j < sample.length / 3; j++) {
      if (sample[j * 3] == row[0] && sample[j * 3 + 1] == row[1] && sample[j * 3 + 2] == row[2]) {
        return true;
      }
    }
    return false;
  }

  /**
   * Rows, not distinct values, are sampled: a value in 90 % of the rows is a landmark whenever one
   * of its 900 rows comes before the tenth distinct row in the random order, i.e. with probability
   * 1 − (about 0.1^10). Sampling distinct values uniformly (the old scan) took it with probability
   * 10/101.
   */
  @Test
  void aValueInMostRowsIsSampledAsOftenAsItsRowsAre() {
    List<Vector> data = mostlyOneValue();
    int taken = 0;
    for (long seed = 0; seed < 20; seed++) {
      DataScan scan = scanInParts(data, 3, 10, seed);
      assertEquals(10, scan.sampleSize(), "10 distinct rows, repeated rows merged");
      Set<List<Double>> distinct = new HashSet<>();
      double[] sample = scan.sampleRowMajor();
      for (int j = 0; j < 10; j++) {
        distinct.add(List.of(sample[j * 3], sample[j * 3 + 1], sample[j * 3 + 2]));
      }
      assertEquals(10, distinct.size(), "seed " + seed);
      if (holds(sample, new double[] {5, 5, 5})) {
        taken++;
      }
    }
    assertTrue(taken >= 19, "the 90 % value was a landmark for " + taken + " of 20 seeds");
  }

  /**
   * With m = 1, the landmark is the first row of a uniformly random row order: a value in 5 of 20
   * rows is chosen with probability 5/20 (distinct-value sampling gave 1/16).
   */
  @Test
  void theProbabilityOfAValueIsItsShareOfTheRows() {
    List<Vector> data = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      data.add(i % 4 == 0 ? Vectors.dense(-1, -1, -1) : Vectors.dense(i, i % 7, Math.sin(i)));
    }
    int trials = 4000;
    int hits = 0;
    for (int s = 0; s < trials; s++) {
      if (scanInParts(data, 2, 1, s).sampleRowMajor()[0] == -1) {
        hits++;
      }
    }
    // mean 1000, sd = sqrt(4000·0.25·0.75) ≈ 27; 5 sd bound (1/16 would give 250)
    assertEquals(1000, hits, 140);
  }

  @Test
  void repeatedRowsGiveTheSameSampleForAnyNumberOfPartitions() {
    List<Vector> data = mostlyOneValue();
    for (long seed = 0; seed < 5; seed++) {
      double[] one = scanInParts(data, 1, 12, seed).sampleRowMajor();
      for (int parts : new int[] {3, 8, 13}) {
        assertArrayEquals(
            one, scanInParts(data, parts, 12, seed).sampleRowMajor(), 0, parts + " partitions");
      }
      // merged in another order
      DataScan reversed = new DataScan(12, 3, seed, "features");
      for (int p = 4; p >= 0; p--) {
        reversed.merge(
            new DataScan(12, 3, seed, "features")
                .scanPartition(p, p * 200L, data.subList(p * 200, (p + 1) * 200).iterator()));
      }
      assertArrayEquals(one, reversed.sampleRowMajor(), 0, "merge order");
    }
  }

  @Test
  void fewerDistinctRowsThanRequestedGiveEveryDistinctRow() {
    List<Vector> data = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      data.add(Vectors.dense(i % 7, 0, i % 7 == 3 ? -0.0 : 0.0));
    }
    data.set(10, Vectors.dense(3, 0, 0.0)); // 0.0 and −0.0 are the same point
    DataScan scan = scanInParts(data, 4, 10, 3);
    assertEquals(7, scan.sampleSize());
  }

  @Test
  void valuesWhoseSquaredNormOverflowsNameTheRowAndIndex() {
    List<Vector> data = rows(10);
    data.set(6, Vectors.dense(1, 2e154, -3e154));
    DataScan scan = new DataScan(2, 3, 1, "features").scanPartition(0, 0, data.iterator());
    assertEquals(
        "Column 'features': the vector in row 6 (partition 0, position 6) has values too large for kernel "
            + "arithmetic: its squared norm overflows a double (the norm must stay below 1.3e154; largest |value| "
            + "3.0E154 at index 2); rescale the data",
        scan.errorMessage());
    List<Vector> sparse = rows(3);
    sparse.set(1, Vectors.sparse(3, new int[] {2}, new double[] {1e155}));
    String message =
        new DataScan(0, 3, 1, "v").scanPartition(0, 0, sparse.iterator()).errorMessage();
    assertTrue(message.contains("row 1") && message.contains("at index 2"), message);
  }
}
