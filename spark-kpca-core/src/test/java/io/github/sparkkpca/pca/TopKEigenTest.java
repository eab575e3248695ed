package io.github.sparkkpca.pca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.HouseholderQr;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link TopKEigen} on A = Q diag(λ) Qᵀ with known λ and Q: what the tolerance guarantees when the
 * k-th eigenvalue sits inside a cluster of equal ones, and the stop at the cap.
 */
class TopKEigenTest {

  private static final int R = 120;

  /** λ = 10, 5, 3, then five times 2 (a cluster that the k = 5 cut splits), then 1 ≥ … ≥ 0.01. */
  private static double[] spectrum() {
    double[] lambda = new double[R];
    double[] head = {10, 5, 3, 2, 2, 2, 2, 2};
    System.arraycopy(head, 0, lambda, 0, head.length);
    for (int i = head.length; i < R; i++) {
      lambda[i] = Math.pow(0.95, i - head.length);
    }
    return lambda;
  }

  private static double[] orthogonal(long seed) {
    Random random = new Random(seed);
    double[] q = new double[R * R];
    for (int i = 0; i < q.length; i++) {
      q[i] = random.nextGaussian();
    }
    HouseholderQr.orthonormalize(q, R, R, new double[R], new double[R * R]);
    return q;
  }

  private static TopKEigen.Operator operator(double[] q, double[] lambda) {
    return (x, columns) -> {
      double[] y = new double[R * columns];
      Blas.blas().dgemm("T", "N", R, columns, R, 1.0, q, R, x, R, 0.0, y, R);
      for (int c = 0; c < columns; c++) {
        for (int i = 0; i < R; i++) {
          y[i + c * R] *= lambda[i];
        }
      }
      double[] out = new double[R * columns];
      Blas.blas().dgemm("N", "N", R, columns, R, 1.0, q, R, y, R, 0.0, out, R);
      return out;
    };
  }

  /**
   * Eigenvalues within the residuals (and so within tol·λ_1); the three separated vectors equal the
   * eigenvectors up to sign; the two from the cluster lie in the cluster's span (with the three
   * above) to ρ/(2 − 1), the gap to the rest of the spectrum (Davis–Kahan), but which vectors of
   * the cluster they are is not determined.
   */
  @Test
  void clusterAtTheKthEigenvalueIsResolvedAsASpace() {
    double[] lambda = spectrum();
    double[] q = orthogonal(7);
    int k = 5;
    double tol = 1e-9;
    TopKEigen.Result result = TopKEigen.solve(operator(q, lambda), R, k, 10, tol, 40, 3);
    assertTrue(result.converged(), "passes " + result.passes());
    for (int i = 0; i < k; i++) {
      assertTrue(result.residuals()[i] <= tol * result.values()[0]);
      assertEquals(lambda[i], result.values()[i], Math.max(result.residuals()[i], 1e-13) * 2);
    }
    double[] u = result.vectors();
    for (int i = 0; i < k; i++) {
      double[] c = new double[R];
      Blas.blas().dgemv("T", R, R, 1.0, q, 0, R, u, i * R, 1, 0.0, c, 0, 1);
      if (i < 3) {
        assertEquals(1.0, Math.abs(c[i]), 1e-9, "vector " + i);
      } else {
        double outside = 0;
        for (int j = 8; j < R; j++) {
          outside += c[j] * c[j];
        }
        assertTrue(
            Math.sqrt(outside) <= 2 * result.residuals()[i] / (2 - 1) + 1e-12, "vector " + i);
      }
    }
  }

  @Test
  void stopsAtTheCapUnconverged() {
    TopKEigen.Result result =
        TopKEigen.solve(operator(orthogonal(5), spectrum()), R, 5, 2, 1e-14, 1, 3);
    assertEquals(1, result.passes());
    assertFalse(result.converged());
  }
}
