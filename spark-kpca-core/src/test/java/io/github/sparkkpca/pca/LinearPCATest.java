package io.github.sparkkpca.pca;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.SymmetricEigen;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The spectrum LinearPCA reports: all of it by default, its leading part when asked, and the trace.
 */
class LinearPCATest {

  /**
   * n feature vectors of dimension r with a decaying spectrum (scale 0.9^c on coordinate c, then
   * mixed).
   */
  static FeatureStatistics statistics(int n, int r, long seed) {
    Random random = new Random(seed);
    double[] mix = new double[r * r];
    for (int i = 0; i < mix.length; i++) {
      mix[i] = random.nextGaussian() / Math.sqrt(r);
    }
    double[] latent = new double[r * n];
    for (int i = 0; i < n; i++) {
      for (int c = 0; c < r; c++) {
        latent[c + i * r] = 3.0 + random.nextGaussian() * Math.pow(0.9, c);
      }
    }
    double[] features = new double[r * n];
    Blas.blas().dgemm("N", "N", r, n, r, 1.0, mix, r, latent, r, 0.0, features, r);
    FeatureStatistics stats = new FeatureStatistics(r);
    stats.addBlock(features, n, 2.0 * n);
    return stats;
  }

  /** sin of the largest principal angle between the spans of two orthonormal n×k matrices. */
  static double largestAngleSine(double[] u, double[] v, int n, int k) {
    double[] overlap = new double[k * k];
    Blas.blas().dgemm("T", "N", k, k, n, 1.0, v, n, u, n, 0.0, overlap, k);
    double[] w = u.clone();
    Blas.blas().dgemm("N", "N", n, k, k, -1.0, v, n, overlap, k, 1.0, w, n);
    double[] gram = new double[k * k];
    Blas.blas().dgemm("T", "N", k, k, n, 1.0, w, n, w, n, 0.0, gram, k);
    return Math.sqrt(Math.max(0.0, SymmetricEigen.of(gram, k).values()[0]));
  }

  @Test
  void leadingSpectrumWhenAskedAndTheTraceIsTheTotal() {
    int r = 150;
    int k = 5;
    FeatureStatistics stats = statistics(600, r, 1);
    for (boolean centered : new boolean[] {true, false}) {
      double[] all = SymmetricEigen.of(stats.covariance(centered), r).values();
      double sum = Arrays.stream(all).sum();
      LinearPCA pca = LinearPCA.fit(stats, k, centered, LinearPCA.leadingNumEigenvalues(r, k));
      assertEquals(50, LinearPCA.leadingNumEigenvalues(r, k));
      assertEquals(50, pca.variances().length, "min(r, max(k, 50)) leading eigenvalues when asked");
      assertArrayEquals(Arrays.copyOf(all, 50), pca.variances(), 1e-12 * all[0]);
      assertEquals(sum, pca.trace(), 1e-12 * sum, "the trace is the sum of all r eigenvalues");
      assertEquals(r * k, pca.components().length);

      LinearPCA full = LinearPCA.fit(stats, k, centered);
      assertEquals(r, full.variances().length, "all r eigenvalues by default");
      assertArrayEquals(all, full.variances(), 1e-12 * all[0]);
      assertEquals(pca.trace(), full.trace(), 0.0);
    }
    assertEquals(80, LinearPCA.leadingNumEigenvalues(1000, 80));
    assertEquals(40, LinearPCA.leadingNumEigenvalues(40, 3));
  }

  @Test
  void aFewEigenvaluesMatchTheDenseSpectrumAndComponents() {
    int r = 400;
    int k = 3;
    int p = 6;
    FeatureStatistics stats = statistics(1000, r, 2);
    double[] covariance = stats.covariance(true);
    SymmetricEigen dense = SymmetricEigen.of(covariance, r);
    LinearPCA pca = LinearPCA.fit(stats, k, true, p);
    assertEquals(p, pca.variances().length);
    for (int i = 0; i < p; i++) {
      assertEquals(
          dense.values()[i], pca.variances()[i], 1e-10 * dense.values()[i], "eigenvalue " + i);
    }
    double sine = largestAngleSine(pca.components(), Arrays.copyOf(dense.vectors(), r * k), r, k);
    assertTrue(sine < 1e-9, "largest principal angle sine " + sine);
    assertEquals(Arrays.stream(dense.values()).sum(), pca.trace(), 1e-12 * pca.trace());
  }

  @Test
  void numEigenvaluesOutsideKToRIsRejected() {
    FeatureStatistics stats = statistics(50, 10, 3);
    IllegalArgumentException low =
        assertThrows(IllegalArgumentException.class, () -> LinearPCA.fit(stats, 4, true, 3));
    assertEquals("numEigenvalues must be in [k, r] = [4, 10], got 3", low.getMessage());
    assertThrows(IllegalArgumentException.class, () -> LinearPCA.fit(stats, 4, true, 11));
  }
}
