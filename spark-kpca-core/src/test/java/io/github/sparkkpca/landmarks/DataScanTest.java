package io.github.sparkkpca.landmarks;

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
      List<Vector> slice = data.subList(Math.min(data.size(), p * size), Math.min(data.size(), (p + 1) * size));
      total.merge(new DataScan(m, 3, seed, "features").scanPartition(p, Math.min(data.size(), p * size),
          slice.iterator()));
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

    assertEquals(RowHash.hash(Vectors.dense(0, 2.5, 0, -1), 9),
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
    assertEquals("Column 'features': the vector in row 13 (partition 1, position 3) has a non-finite value (NaN)",
        total.errorMessage());
    DataScan sized = new DataScan(2, 3, 1, "v").scanPartition(0, 0, List.<Vector>of(Vectors.dense(1, 2)).iterator());
    assertTrue(sized.errorMessage().contains("has size 2, expected 3"), sized.errorMessage());
    assertNull(new DataScan(2, 3, 1, "v").scanPartition(0, 0, rows(4).iterator()).errorMessage());
  }
}
