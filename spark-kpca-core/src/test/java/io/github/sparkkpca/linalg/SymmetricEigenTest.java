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
  void leadingMatchesTheFullDecompositionWithOnlyKVectors() {
    int n = 120;
    int k = 9;
    Random random = new Random(11);
    // A Gram matrix with a decaying spectrum and a repeated tail, like a feature covariance.
    double[] b = new double[n * n];
    for (int i = 0; i < n; i++) {
      for (int t = 0; t < n; t++) {
        b[i + t * n] = random.nextGaussian() * Math.pow(0.9, t);
      }
    }
    double[] a = new double[n * n];
    Blas.blas().dgemm("N", "T", n, n, n, 1.0, b, n, b, n, 0.0, a, n);
    double[] before = a.clone();
    SymmetricEigen full = SymmetricEigen.of(a, n);
    SymmetricEigen leading = SymmetricEigen.leading(a, n, k);
    assertArrayEquals(before, a, 0.0, "input unchanged");
    assertEquals(n, leading.values().length);
    assertEquals(n * k, leading.vectors().length);
    double scale = full.values()[0];
    for (int i = 0; i < n; i++) {
      assertEquals(full.values()[i], leading.values()[i], 1e-12 * scale, "eigenvalue " + i);
    }
    double[] v = leading.vectors();
    for (int c = 0; c < k; c++) {
      // A v = λ v, unit norm, and the same vector as the full decomposition up to sign.
      double norm = 0;
      double dot = 0;
      for (int i = 0; i < n; i++) {
        double av = 0;
        for (int j = 0; j < n; j++) {
          av += a[i + j * n] * v[j + c * n];
        }
        assertEquals(
            leading.values()[c] * v[i + c * n], av, 1e-10 * scale, "residual of vector " + c);
        norm += v[i + c * n] * v[i + c * n];
        dot += v[i + c * n] * full.vectors()[i + c * n];
      }
      assertEquals(1.0, norm, 1e-12);
      assertEquals(1.0, Math.abs(dot), 1e-9, "vector " + c + " vs the full decomposition");
    }
    assertEquals(0, SymmetricEigen.leading(a, n, 0).vectors().length);
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> SymmetricEigen.leading(a, n, n + 1));
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
