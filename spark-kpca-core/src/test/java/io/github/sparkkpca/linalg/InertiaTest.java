package io.github.sparkkpca.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Eigenvalue counts by inertia against counts of eigenvalues from a full decomposition. */
class InertiaTest {

  /** Q diag(λ) Qᵀ with a random orthogonal Q (from the eigenvectors of a random Gram matrix). */
  static double[] withSpectrum(double[] lambda, long seed) {
    int n = lambda.length;
    Random random = new Random(seed);
    double[] b = new double[n * n];
    for (int i = 0; i < b.length; i++) {
      b[i] = random.nextGaussian();
    }
    double[] g = new double[n * n];
    Blas.blas().dgemm("N", "T", n, n, n, 1.0, b, n, b, n, 0.0, g, n);
    double[] q = SymmetricEigen.of(g, n).vectors();
    double[] scaled = new double[n * n];
    for (int c = 0; c < n; c++) {
      for (int i = 0; i < n; i++) {
        scaled[i + c * n] = q[i + c * n] * lambda[c];
      }
    }
    double[] a = new double[n * n];
    Blas.blas().dgemm("N", "T", n, n, n, 1.0, scaled, n, q, n, 0.0, a, n);
    return a;
  }

  @Test
  void countsMatchTheSpectrumOnBothSidesOfTheThreshold() {
    int n = 60;
    double[] lambda = new double[n];
    for (int i = 0; i < n; i++) {
      // 1 … 1e-15 geometrically, and some negative ones (rounding of an indefinite kernel).
      lambda[i] = i < 55 ? Math.pow(10, -15.0 * i / 54) : -0.01 * (i - 54);
    }
    double[] a = withSpectrum(lambda, 4);
    double[] computed = SymmetricEigen.of(a, n).values();
    // Thresholds halfway (geometrically) between eigenvalues, where the count is not a matter of
    // rounding.
    for (double tau :
        new double[] {0.5, between(5), between(20), between(35), between(50), -0.025, -1}) {
      int expected = 0;
      for (double v : computed) {
        expected += v > tau ? 1 : 0;
      }
      assertEquals(expected, Inertia.countAbove(a, n, tau), "tau = " + tau);
    }
    assertEquals(n, Inertia.countAbove(a, n, -10));
    assertEquals(0, Inertia.countAbove(a, n, 2));
  }

  /** 10^(−15(i + ½)/54): between the i-th and (i + 1)-th eigenvalue of the geometric part above. */
  private static double between(int i) {
    return Math.pow(10, -15.0 * (i + 0.5) / 54);
  }

  @Test
  void largestEigenvalueOfKernelLikeMatrices() {
    double[] spread = {5, 1, 0.5, 0.1, 0.01, 0.001, 1e-9, 0};
    assertEquals(
        5.0, Inertia.largestEigenvalue(withSpectrum(spread, 7), spread.length, 100), 1e-10);
    // A nearly repeated top eigenvalue: the quotient still lands within the gap.
    double[] close = {1.0, 0.999999, 0.5, 0.2, 0.1};
    assertEquals(1.0, Inertia.largestEigenvalue(withSpectrum(close, 8), close.length, 100), 2e-6);
    assertEquals(0.0, Inertia.largestEigenvalue(new double[0], 0, 10), 0.0);
  }
}
