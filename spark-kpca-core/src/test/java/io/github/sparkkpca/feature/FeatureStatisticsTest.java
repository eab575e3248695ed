package io.github.sparkkpca.feature;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.testing.Reference;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FeatureStatisticsTest {

  /**
   * Blocked, merged accumulation equals the two-pass covariance, even with a large common offset.
   */
  @Test
  void mergedBlocksEqualTwoPassCovariance() {
    int n = 103;
    int r = 4;
    Random random = new Random(11);
    double[][] x = new double[n][r];
    for (double[] row : x) {
      for (int c = 0; c < r; c++) {
        row[c] = 1e6 + random.nextGaussian() * (c + 1);
      }
    }
    FeatureStatistics total = new FeatureStatistics(r);
    int[] cuts = {0, 10, 11, 50, 103};
    for (int p = 0; p + 1 < cuts.length; p++) {
      FeatureStatistics part = new FeatureStatistics(r);
      for (int start = cuts[p]; start < cuts[p + 1]; start += 7) {
        int b = Math.min(7, cuts[p + 1] - start);
        double[] block = new double[r * b];
        for (int i = 0; i < b; i++) {
          System.arraycopy(x[start + i], 0, block, i * r, r);
        }
        part.addBlock(block, b, b * 2.0);
      }
      total.merge(part);
    }
    double[][] expected = Reference.covariance(x);
    double[] c = total.covariance(true);
    for (int a = 0; a < r; a++) {
      for (int b = 0; b < r; b++) {
        assertEquals(expected[a][b], c[a + b * r], 1e-9 * (a + 1) * (b + 1));
      }
    }
    double[] variances = total.variances();
    for (int a = 0; a < r; a++) {
      assertEquals(
          expected[a][a], variances[a], 1e-9 * (a + 1) * (a + 1), "variance of feature " + a);
    }
    assertArrayEquals(
        new double[r], new FeatureStatistics(r).variances(), 0.0, "an empty instance");
    double[] mean = Reference.mean(x);
    double[] second = total.covariance(false);
    assertEquals(expected[0][1] + mean[0] * mean[1], second[r], 1e-3);
    assertEquals(n, total.count());
    assertEquals(2.0 * n, total.diagonalSum(), 0);
  }

  /**
   * Java serialization (Spark's shuffle and result path) ships the upper triangle only and restores
   * statistics that are equal bit for bit and merge equally; an empty instance stays empty. r = 400
   * gives 80,200 packed entries, more than one of the 65,536-double chunks the bulk encoding
   * converts at a time.
   */
  @Test
  void serializationPacksTheUpperTriangle() throws Exception {
    int r = 400;
    double[] block = gaussianBlock(r, 300, 3, 5);
    FeatureStatistics stats = new FeatureStatistics(r);
    stats.addBlock(block.clone(), 300, 17.0);
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
      out.writeObject(stats);
      out.writeObject(new FeatureStatistics(r));
    }
    // The packed triangle, the mean, and Java serialization's block headers (a few bytes per KB).
    assertTrue(
        bytes.size() < 1.01 * 8.0 * r * (r + 1) / 2 + 8 * r + 1000,
        "about 4r² bytes, not 8r²: " + bytes.size());
    FeatureStatistics back;
    FeatureStatistics empty;
    try (java.io.ObjectInputStream in =
        new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
      back = (FeatureStatistics) in.readObject();
      empty = (FeatureStatistics) in.readObject();
    }
    assertEquals(stats.count(), back.count());
    assertEquals(stats.diagonalSum(), back.diagonalSum(), 0.0);
    assertArrayEquals(stats.mean(), back.mean(), 0.0);
    assertArrayEquals(stats.scatter(), back.scatter(), 0.0);
    assertArrayEquals(stats.covariance(true), back.covariance(true), 0.0);
    assertEquals(0, empty.count());
    assertEquals(r, empty.dim());
    FeatureStatistics more = new FeatureStatistics(r);
    more.addBlock(block.clone(), 300, 17.0);
    assertArrayEquals(
        stats.copy().merge(more).covariance(false), back.merge(more).covariance(false), 0.0);
    assertArrayEquals(stats.copy().merge(empty).covariance(true), stats.covariance(true), 0.0);
  }

  /**
   * Statistics kept without the scatter give the traces of the full ones from n, φ̄ and tr M,
   * survive a copy and Java serialization, and refuse every use that needs M.
   */
  @Test
  void withoutScatterKeepsTheTracesAndRefusesTheScatter() throws Exception {
    int r = 6;
    double[] block = gaussianBlock(r, 50, 2, 9);
    FeatureStatistics full = new FeatureStatistics(r);
    full.addBlock(block.clone(), 50, 11.0);
    double[] m = full.scatter();
    double traceM = 0;
    for (int i = 0; i < r; i++) {
      traceM += m[i + i * r];
    }
    FeatureStatistics compact =
        FeatureStatistics.withoutScatter(r, full.count(), full.mean(), traceM, full.diagonalSum());
    assertTrue(full.hasScatter());
    assertFalse(compact.hasScatter());
    assertEquals(traceM, full.scatterTrace(), 1e-12 * traceM);
    for (boolean centered : new boolean[] {true, false}) {
      assertEquals(
          full.trace(centered),
          compact.trace(centered),
          1e-12 * full.trace(centered),
          "trace " + centered);
    }
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
      out.writeObject(compact);
    }
    FeatureStatistics back;
    try (java.io.ObjectInputStream in =
        new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
      back = (FeatureStatistics) in.readObject();
    }
    for (FeatureStatistics s : new FeatureStatistics[] {compact.copy(), back}) {
      assertFalse(s.hasScatter());
      assertEquals(compact.trace(false), s.trace(false), 0.0);
      assertArrayEquals(compact.mean(), s.mean(), 0.0);
      assertEquals(compact.diagonalSum(), s.diagonalSum(), 0.0);
      assertEquals(compact.count(), s.count());
    }
    assertThrows(IllegalStateException.class, compact::scatter);
    assertThrows(IllegalStateException.class, () -> compact.covariance(true));
    assertThrows(IllegalStateException.class, () -> full.copy().merge(compact));
    assertThrows(IllegalStateException.class, () -> compact.copy().merge(full));
    assertThrows(IllegalStateException.class, () -> compact.addBlock(block.clone(), 50, 11.0));
    assertThrows(
        IllegalArgumentException.class,
        () -> FeatureStatistics.withoutScatter(r, 5, full.mean(), -1, 1));
  }

  /** r×rows column-major, entries shift + N(0, 1). */
  private static double[] gaussianBlock(int r, int rows, double shift, long seed) {
    Random random = new Random(seed);
    double[] block = new double[r * rows];
    for (int i = 0; i < block.length; i++) {
      block[i] = shift + random.nextGaussian();
    }
    return block;
  }
}
