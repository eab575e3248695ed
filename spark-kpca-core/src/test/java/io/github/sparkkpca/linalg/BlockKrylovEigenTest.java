package io.github.sparkkpca.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.linalg.BlockKrylovEigen.Method;
import io.github.sparkkpca.linalg.BlockKrylovEigen.Result;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The block Krylov eigensolver against the dense one: the k leading eigenvalues to 1e-10 relative,
 * the leading eigenspace to the Davis–Kahan bound (largest principal angle), on a kernel matrix
 * (decaying spectrum), on repeated and clustered eigenvalues, on a rank-deficient matrix, and the
 * dense fallbacks.
 */
class BlockKrylovEigenTest {

  /**
   * (1/n)·exp(−γ‖x_i − x_j‖²) of n Gaussian points in R^d: a kernel matrix with a decaying
   * spectrum.
   */
  static double[] rbfKernelMatrix(int n, int d, double gamma, long seed) {
    Random random = new Random(seed);
    double[][] x = new double[n][d];
    for (double[] row : x) {
      for (int t = 0; t < d; t++) {
        row[t] = random.nextGaussian();
      }
    }
    double[] a = new double[n * n];
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < n; i++) {
        double sq = 0;
        for (int t = 0; t < d; t++) {
          double diff = x[i][t] - x[j][t];
          sq += diff * diff;
        }
        a[i + j * n] = Math.exp(-gamma * sq) / n;
      }
    }
    return a;
  }

  /**
   * Q diag(λ) Qᵀ with Q a random orthogonal matrix (QR of a Gaussian matrix): a prescribed
   * spectrum.
   */
  static double[] withSpectrum(double[] lambda, long seed) {
    int n = lambda.length;
    Random random = new Random(seed);
    double[] q = new double[n * n];
    for (int i = 0; i < q.length; i++) {
      q[i] = random.nextGaussian();
    }
    double[] unused = new double[n * n];
    BlockKrylovEigen.orthonormalise(q, n, n, unused, 0, null, random, new double[n * n]);
    double[] scaled = new double[n * n];
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < n; i++) {
        scaled[i + j * n] = q[i + j * n] * lambda[j];
      }
    }
    double[] a = new double[n * n];
    Blas.blas().dgemm("N", "T", n, n, n, 1.0, scaled, n, q, n, 0.0, a, n);
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < j; i++) {
        double v = 0.5 * (a[i + j * n] + a[j + i * n]);
        a[i + j * n] = v;
        a[j + i * n] = v;
      }
    }
    return a;
  }

  /**
   * sin of the largest principal angle between the spans of two n×k matrices with orthonormal
   * columns: ‖(I − VVᵀ)U‖₂, the square root of the largest eigenvalue of WᵀW for W = U − V(VᵀU)
   * (computed from W, not as sqrt(1 − cos²), which loses small angles to cancellation).
   */
  static double largestAngleSine(double[] u, double[] v, int n, int k) {
    double[] overlap = new double[k * k];
    Blas.blas().dgemm("T", "N", k, k, n, 1.0, v, n, u, n, 0.0, overlap, k);
    double[] w = u.clone();
    Blas.blas().dgemm("N", "N", n, k, k, -1.0, v, n, overlap, k, 1.0, w, n);
    double[] gram = new double[k * k];
    Blas.blas().dgemm("T", "N", k, k, n, 1.0, w, n, w, n, 0.0, gram, k);
    return Math.sqrt(Math.max(0.0, SymmetricEigen.of(gram, k).values()[0]));
  }

  /** max_i ‖A u_i − λ_i u_i‖, computed directly. */
  static double maxResidual(double[] a, int n, SymmetricEigen eig, int k) {
    double[] au = new double[n * k];
    Blas.blas().dgemm("N", "N", n, k, n, 1.0, a, n, eig.vectors(), n, 0.0, au, n);
    double worst = 0;
    for (int c = 0; c < k; c++) {
      double sq = 0;
      for (int i = 0; i < n; i++) {
        double r = au[i + c * n] - eig.values()[c] * eig.vectors()[i + c * n];
        sq += r * r;
      }
      worst = Math.max(worst, Math.sqrt(sq));
    }
    return worst;
  }

  static void assertOrthonormal(double[] u, int n, int k) {
    double[] gram = new double[k * k];
    Blas.blas().dgemm("T", "N", k, k, n, 1.0, u, n, u, n, 0.0, gram, k);
    for (int j = 0; j < k; j++) {
      for (int i = 0; i < k; i++) {
        assertEquals(i == j ? 1.0 : 0.0, gram[i + j * k], 1e-12, "uᵢᵀuⱼ at " + i + "," + j);
      }
    }
  }

  /**
   * Asserts the Krylov answer against the dense decomposition: eigenvalues within 1e-10·λ_1 (and
   * within 1e-10 of each value when {@code eachRelative}), residuals within the tolerance,
   * orthonormal vectors and, when the spectrum has a gap after λ_k, the largest principal angle
   * within the Davis–Kahan bound.
   */
  static void assertMatchesDense(double[] a, int n, int k, Result result, boolean eachRelative) {
    SymmetricEigen dense = SymmetricEigen.of(a, n);
    double top = dense.values()[0];
    SymmetricEigen eig = result.eigen();
    assertEquals(k, eig.values().length);
    assertEquals((long) n * k, eig.vectors().length);
    for (int i = 0; i < k; i++) {
      double expected = dense.values()[i];
      double actual = eig.values()[i];
      assertEquals(expected, actual, 1e-10 * top, "eigenvalue " + i + " against λ_1");
      if (eachRelative) {
        assertEquals(
            expected,
            actual,
            1e-10 * Math.abs(expected),
            "eigenvalue " + i + " relative to itself");
      }
    }
    assertOrthonormal(eig.vectors(), n, k);
    double residual = maxResidual(a, n, eig, k);
    assertTrue(
        residual <= 2 * BlockKrylovEigen.DEFAULT_TOLERANCE * top,
        "max residual " + residual / top + " λ_1 exceeds the tolerance");
    double gap = eig.values()[k - 1] - dense.values()[k];
    if (gap > 1e-6 * top) {
      // Davis–Kahan sin θ theorem: ‖sin Θ‖ ≤ ‖A U − U Θ‖_F / gap, plus the dense solver's own
      // rounding.
      double bound = Math.sqrt(k) * residual / gap + 1e-12 * top / gap;
      double sine = largestAngleSine(eig.vectors(), dense.vectors(), n, k);
      assertTrue(
          sine <= bound, "largest principal angle sine " + sine + " exceeds the bound " + bound);
    }
  }

  @Test
  void kernelMatrixLeadingPairsMatchTheDenseSolver() {
    int n = 600;
    int k = 12;
    double[] a = rbfKernelMatrix(n, 5, 0.1, 1);
    double[] before = a.clone();
    Result result = BlockKrylovEigen.leading(a, n, k);
    assertArrayEquals(before, a, 0.0, "input unchanged");
    assertEquals(Method.BLOCK_KRYLOV, result.method());
    assertTrue(
        result.products() > 0 && result.products() <= n / 2, "products " + result.products());
    assertTrue(
        result.residual() <= BlockKrylovEigen.DEFAULT_TOLERANCE, "residual " + result.residual());
    assertMatchesDense(a, n, k, result, true);
  }

  @Test
  void repeatedAndClusteredEigenvalues() {
    int n = 500;
    double[] lambda = new double[n];
    // 10 (×3), 5 (×4), a cluster 2, 2(1 + 1e-9), 2(1 + 2e-9), then a decaying tail from 1.
    double[] head = {10, 10, 10, 5, 5, 5, 5, 2, 2 * (1 + 1e-9), 2 * (1 + 2e-9)};
    System.arraycopy(head, 0, lambda, 0, head.length);
    for (int i = head.length; i < n; i++) {
      lambda[i] = Math.pow(0.97, i - head.length);
    }
    double[] a = withSpectrum(lambda, 2);
    // k = 10 takes whole clusters (gap 2 → 1 after it); k = 5 cuts the repeated 5 (no gap: values
    // only).
    Result whole = BlockKrylovEigen.defaults().withDenseCrossover(1).solve(a, n, 10);
    assertEquals(Method.BLOCK_KRYLOV, whole.method());
    assertMatchesDense(a, n, 10, whole, true);
    Result cut = BlockKrylovEigen.defaults().withDenseCrossover(1).solve(a, n, 5);
    assertEquals(Method.BLOCK_KRYLOV, cut.method());
    assertMatchesDense(a, n, 5, cut, true);
    assertArrayEquals(new double[] {10, 10, 10, 5, 5}, cut.eigen().values(), 1e-10 * 10);
  }

  @Test
  void rankDeficientMatrixHasZeroEigenvaluesBeyondItsRank() {
    int n = 500;
    int rank = 4;
    int k = 8;
    Random random = new Random(3);
    double[] factor = new double[n * rank];
    for (int i = 0; i < factor.length; i++) {
      factor[i] = random.nextGaussian();
    }
    double[] a = new double[n * n];
    Blas.blas().dgemm("N", "T", n, n, rank, 1.0, factor, n, factor, n, 0.0, a, n);
    Result result = BlockKrylovEigen.leading(a, n, k);
    assertEquals(Method.BLOCK_KRYLOV, result.method());
    assertMatchesDense(a, n, k, result, false);
    double top = result.eigen().values()[0];
    for (int i = rank; i < k; i++) {
      assertEquals(
          0.0, result.eigen().values()[i], 1e-12 * top, "eigenvalue " + i + " beyond the rank");
    }
    assertTrue(result.eigen().values()[rank - 1] > 1e-3 * top);
    assertEquals(rank, result.eigen().rank(1e-10), "rank counted from the k leading eigenvalues");
    assertEquals(
        k,
        BlockKrylovEigen.leading(rbfKernelMatrix(n, 5, 0.1, 1), n, k).eigen().rank(0),
        "at most the number of eigenvalues known");
  }

  @Test
  void kCloseToTheOrderUsesTheDenseSolver() {
    int n = 300;
    int k = 280;
    double[] a = rbfKernelMatrix(n, 3, 0.5, 4);
    Result result = BlockKrylovEigen.leading(a, n, k);
    assertEquals(Method.DENSE, result.method());
    assertEquals(0, result.products());
    SymmetricEigen dense = SymmetricEigen.leading(a, n, k);
    assertArrayEquals(Arrays.copyOf(dense.values(), k), result.eigen().values(), 0.0);
    assertArrayEquals(dense.vectors(), result.eigen().vectors(), 0.0);
    // The crossover is on the block size: b = k + 10 = 22 > 0.04·500 for k = 12 at n = 500, but not
    // at 600.
    assertEquals(
        Method.DENSE, BlockKrylovEigen.leading(rbfKernelMatrix(500, 5, 0.1, 1), 500, 12).method());
  }

  @Test
  void noConvergenceWithinTheBudgetFallsBackToTheDenseSolver() {
    int n = 400;
    double[] lambda = new double[n];
    for (int i = 0; i < n; i++) {
      lambda[i] = 1.0 / (1 + 0.01 * i); // slow decay: many blocks needed
    }
    double[] a = withSpectrum(lambda, 5);
    BlockKrylovEigen solver =
        BlockKrylovEigen.defaults().withDenseCrossover(1).withMaxProductFraction(0.2);
    Result result = solver.solve(a, n, 10);
    assertEquals(Method.DENSE_AFTER_NO_CONVERGENCE, result.method());
    assertTrue(
        result.products() > 0 && result.products() <= 0.2 * n, "products " + result.products());
    assertTrue(result.residual() > BlockKrylovEigen.DEFAULT_TOLERANCE);
    assertMatchesDense(a, n, 10, result, true);
  }

  /**
   * The iteration's products split by columns over three driver threads (with thick restarts: k =
   * 50 of a slowly decaying spectrum) give the one-thread answer to rounding (a BLAS may pick its
   * kernels by the shape of each part), and both match the dense solver.
   */
  @Test
  void splitOverDriverThreadsGivesTheSameAnswer() {
    int n = 600;
    double[] lambda = new double[n];
    for (int i = 0; i < n; i++) {
      lambda[i] = Math.pow(0.98, i);
    }
    double[] a = withSpectrum(lambda, 4);
    Result[] results = new Result[2];
    String[] threads = {"1", "3"};
    for (int t = 0; t < 2; t++) {
      System.setProperty("sparkkpca.driverThreads", threads[t]);
      try {
        results[t] =
            BlockKrylovEigen.defaults()
                .withDenseCrossover(1)
                .withMaxProductFraction(2)
                .solve(a, n, 50);
      } finally {
        System.clearProperty("sparkkpca.driverThreads");
      }
      assertEquals(Method.BLOCK_KRYLOV, results[t].method(), threads[t] + " threads");
      assertTrue(
          results[t].products() > 5L * 60, "restarted: " + results[t].products() + " products");
      assertMatchesDense(a, n, 50, results[t], true);
    }
    assertArrayEquals(results[0].eigen().values(), results[1].eigen().values(), 1e-12);
  }

  @Test
  void deterministicForASeedAndIndependentOfIt() {
    int n = 600;
    int k = 10;
    double[] a = rbfKernelMatrix(n, 4, 0.2, 6);
    Result first = BlockKrylovEigen.defaults().withSeed(7).solve(a, n, k);
    Result again = BlockKrylovEigen.defaults().withSeed(7).solve(a, n, k);
    assertArrayEquals(first.eigen().values(), again.eigen().values(), 0.0);
    assertArrayEquals(first.eigen().vectors(), again.eigen().vectors(), 0.0);
    Result other = BlockKrylovEigen.defaults().withSeed(8).solve(a, n, k);
    assertEquals(Method.BLOCK_KRYLOV, other.method());
    assertFalse(Arrays.equals(first.eigen().vectors(), other.eigen().vectors()), "another start");
    assertArrayEquals(
        first.eigen().values(), other.eigen().values(), 1e-11 * first.eigen().values()[0]);
  }

  @Test
  void zeroMatrixAndEdgeCases() {
    int n = 300;
    Result zero = BlockKrylovEigen.leading(new double[n * n], n, 3);
    assertEquals(Method.DENSE, zero.method(), "a zero trace goes to the dense solver");
    assertArrayEquals(new double[3], zero.eigen().values(), 0.0);
    Result none = BlockKrylovEigen.leading(rbfKernelMatrix(n, 2, 1, 1), n, 0);
    assertEquals(0, none.eigen().values().length);
    assertEquals(0, none.eigen().vectors().length);
  }

  @Test
  void badInputIsRejectedWithItsName() {
    double[] a = rbfKernelMatrix(600, 3, 0.5, 1);
    IllegalArgumentException k =
        assertThrows(IllegalArgumentException.class, () -> BlockKrylovEigen.leading(a, 600, 601));
    assertEquals("k must be in [0, 600], got 601", k.getMessage());
    IllegalArgumentException size =
        assertThrows(
            IllegalArgumentException.class, () -> BlockKrylovEigen.leading(new double[10], 4, 1));
    assertEquals("matrix array has 10 entries, need 4×4", size.getMessage());
    double[] bad = a.clone();
    bad[5 + 7 * 600] = Double.NaN;
    ArithmeticException nan =
        assertThrows(ArithmeticException.class, () -> BlockKrylovEigen.leading(bad, 600, 5));
    assertEquals("matrix entry (5,7) is not finite: NaN", nan.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> BlockKrylovEigen.defaults().withOversampling(0));
    assertThrows(
        IllegalArgumentException.class, () -> BlockKrylovEigen.defaults().withTolerance(0));
  }

  @Test
  void traceIsTheSumOfTheEigenvalues() {
    int n = 50;
    double[] a = rbfKernelMatrix(n, 3, 0.3, 2);
    double sum = Arrays.stream(SymmetricEigen.of(a, n).values()).sum();
    assertEquals(sum, BlockKrylovEigen.trace(a, n), 1e-13 * sum);
  }
}
