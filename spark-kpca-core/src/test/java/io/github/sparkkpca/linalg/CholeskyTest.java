package io.github.sparkkpca.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The inverse Cholesky factor W = R⁻¹ (A = RᵀR): the blocked, split factorisation and inverse on 2
 * and 3 threads give LAPACK's one-call result to rounding, W is upper triangular, and Wᵀ A W = I; a
 * matrix that is not positive definite is refused the same way on every path.
 */
class CholeskyTest {

  /** n = 1100 ≥ SPLIT_FROM: five blocks of 256 columns, the last one partial. */
  private static final int N = 1100;

  @Test
  void blockedSplitFactorAndInverseEqualTheOneCallResult() {
    double[] a = spd(N, 3);
    double[] single = Cholesky.inverseUpperFactor(a, N, 1);
    assertNotNull(single);
    for (int threads : new int[] {2, 3}) {
      double[] split = Cholesky.inverseUpperFactor(a, N, threads);
      assertNotNull(split);
      double scale = maxAbs(single);
      for (int i = 0; i < split.length; i++) {
        assertEquals(single[i], split[i], 1e-11 * scale, threads + " threads, entry " + i);
      }
      for (int j = 0; j < N; j++) {
        for (int i = j + 1; i < N; i++) {
          assertEquals(0.0, split[i + j * N], 0.0, "below the diagonal at " + i + "," + j);
        }
      }
    }
    // Wᵀ A W = I: W whitens A.
    double[] w = Cholesky.inverseUpperFactor(a, N, 2);
    double[] aw = new double[N * N];
    Blas.blas().dgemm("N", "N", N, N, N, 1.0, a, N, w, N, 0.0, aw, N);
    double[] waw = new double[N * N];
    Blas.blas().dgemm("T", "N", N, N, N, 1.0, w, N, aw, N, 0.0, waw, N);
    for (int j = 0; j < N; j++) {
      for (int i = 0; i < N; i++) {
        assertEquals(i == j ? 1.0 : 0.0, waw[i + j * N], 1e-9, "WᵀAW at " + i + "," + j);
      }
    }
  }

  @Test
  void aMatrixThatIsNotPositiveDefiniteIsRefusedOnEveryPath() {
    double[] a = spd(N, 5);
    // A negative eigenvalue whose pivot falls in the third block: subtract 2·‖A‖ e eᵀ at index 700.
    a[700 + 700 * N] -= 2 * (N + 10.0);
    assertNull(Cholesky.inverseUpperFactor(a, N, 1));
    assertNull(Cholesky.inverseUpperFactor(a, N, 2));
  }

  @Test
  void partsOfEqualWorkCoverTheColumnsOnce() {
    assertArrayEquals(new int[] {10, 35, 60, 85, 110}, DriverThreads.split(10, 110, 4, false));
    // Triangular work: boundaries at 10 + 100·√(i/4) = 60, 80.7 → 81, 96.6 → 97, 110.
    assertArrayEquals(new int[] {10, 60, 81, 97, 110}, DriverThreads.split(10, 110, 4, true));
    // More parts than columns: empty parts are dropped.
    int[] narrow = DriverThreads.split(0, 3, 8, false);
    assertEquals(0, narrow[0]);
    assertEquals(3, narrow[narrow.length - 1]);
    for (int i = 1; i < narrow.length; i++) {
      assertTrue(narrow[i] > narrow[i - 1]);
    }
  }

  /** A = GᵀG/n + I, symmetric positive definite with eigenvalues in [1, about 5]. */
  private static double[] spd(int n, long seed) {
    Random random = new Random(seed);
    double[] g = new double[n * n];
    for (int i = 0; i < g.length; i++) {
      g[i] = random.nextGaussian();
    }
    double[] a = new double[n * n];
    Blas.blas().dgemm("T", "N", n, n, n, 1.0 / n, g, n, g, n, 0.0, a, n);
    for (int i = 0; i < n; i++) {
      a[i + i * n] += 1.0;
    }
    return a;
  }

  private static double maxAbs(double[] values) {
    double max = 0;
    for (double v : values) {
      max = Math.max(max, Math.abs(v));
    }
    return max;
  }
}
