package io.github.sparkkpca.feature;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.sparkkpca.testing.Reference;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FeatureStatisticsTest {

  /** Blocked, merged accumulation equals the two-pass covariance, even with a large common offset. */
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
    double[] mean = Reference.mean(x);
    double[] second = total.covariance(false);
    assertEquals(expected[0][1] + mean[0] * mean[1], second[r], 1e-3);
    assertEquals(n, total.count());
    assertEquals(2.0 * n, total.diagonalSum(), 0);
  }
}
