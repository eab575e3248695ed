package io.github.sparkkpca.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class SymmetricEigenTest {

  @Test
  void reconstructsTheMatrixWithOrthonormalVectorsInDescendingOrder() {
    int n = 7;
    Random random = new Random(3);
    double[] b = new double[n * n];
    for (int i = 0; i < b.length; i++) {
      b[i] = random.nextGaussian();
    }
    double[] a = new double[n * n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        for (int t = 0; t < n; t++) {
          a[i + j * n] += b[i + t * n] * b[j + t * n];
        }
      }
    }
    SymmetricEigen eig = SymmetricEigen.of(a, n);
    for (int i = 1; i < n; i++) {
      assertTrue(eig.values()[i - 1] >= eig.values()[i]);
    }
    double[] v = eig.vectors();
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        double rec = 0;
        double dot = 0;
        for (int t = 0; t < n; t++) {
          rec += v[i + t * n] * eig.values()[t] * v[j + t * n];
          dot += v[t + i * n] * v[t + j * n];
        }
        assertEquals(a[i + j * n], rec, 1e-10);
        assertEquals(i == j ? 1.0 : 0.0, dot, 1e-12);
      }
    }
  }

  @Test
  void knownSpectrumAndRank() {
    double[] diag = {0, 0, 0, 0, 5, 0, 0, 0, 1e-14};
    SymmetricEigen eig = SymmetricEigen.of(diag, 3);
    assertArrayEquals(new double[] {5, 1e-14, 0}, eig.values(), 1e-15);
    assertEquals(2, eig.rank(1e-16));
    assertEquals(1, eig.rank(1e-12));
  }

  @Test
  void signFixMakesLargestEntryPositive() {
    double[] m = {0.1, -0.9, 0.2, 0.5, 0.3, -0.1};
    double[] signs = SymmetricEigen.fixSigns(m, 3, 2);
    assertArrayEquals(new double[] {-1, 1}, signs);
    assertArrayEquals(new double[] {-0.1, 0.9, -0.2, 0.5, 0.3, -0.1}, m, 0);
  }
}
