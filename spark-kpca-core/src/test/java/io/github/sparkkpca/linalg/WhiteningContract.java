package io.github.sparkkpca.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The contract of every {@link WhiteningFactor} W (m×r) of a symmetric positive semi-definite K: Wᵀ
 * K W = I_r (W whitens K on its range), K W Wᵀ K = K (W Wᵀ = K⁺ on the range), and {@code times}
 * and {@code transposeTimes} are each other's transposes ((WQ)ᵀY = Qᵀ(WᵀY)).
 */
final class WhiteningContract {

  private WhiteningContract() {}

  static void check(WhiteningFactor w, double[] k, int m, double tolerance) {
    int r = w.rank();
    assertEquals(m, w.landmarks());
    double[] identity = new double[r * r];
    for (int i = 0; i < r; i++) {
      identity[i + i * r] = 1.0;
    }
    double[] full = w.times(identity, r); // W, m×r
    double[] kw = multiply(k, m, m, full, r); // K W
    double[] wkw = w.transposeTimes(kw, r); // Wᵀ K W
    for (int j = 0; j < r; j++) {
      for (int i = 0; i < r; i++) {
        assertEquals(i == j ? 1.0 : 0.0, wkw[i + j * r], tolerance, "WᵀKW at " + i + "," + j);
      }
    }
    // K W Wᵀ K = (KW)(KW)ᵀ.
    double[] kwwk = new double[m * m];
    Blas.blas().dgemm("N", "T", m, m, r, 1.0, kw, m, kw, m, 0.0, kwwk, m);
    double scale = 0;
    for (double v : k) {
      scale = Math.max(scale, Math.abs(v));
    }
    for (int i = 0; i < m * m; i++) {
      assertEquals(k[i], kwwk[i], tolerance * scale, "KWWᵀK at " + i);
    }
    // (WQ)ᵀY = Qᵀ(WᵀY) for pseudo-random Q (r×3), Y (m×3).
    java.util.Random random = new java.util.Random(7);
    double[] q = new double[r * 3];
    double[] y = new double[m * 3];
    for (int i = 0; i < q.length; i++) {
      q[i] = random.nextGaussian();
    }
    for (int i = 0; i < y.length; i++) {
      y[i] = random.nextGaussian();
    }
    double[] left = new double[9];
    Blas.blas().dgemm("T", "N", 3, 3, m, 1.0, w.times(q, 3), m, y, m, 0.0, left, 3);
    double[] right = new double[9];
    Blas.blas().dgemm("T", "N", 3, 3, r, 1.0, q, r, w.transposeTimes(y, 3), r, 0.0, right, 3);
    for (int i = 0; i < 9; i++) {
      assertEquals(left[i], right[i], 1e-10 * (1 + Math.abs(left[i])), "(WQ)ᵀY at " + i);
    }
  }

  /** A (rows×inner) · B (inner×cols), column-major. */
  static double[] multiply(double[] a, int rows, int inner, double[] b, int cols) {
    double[] c = new double[rows * cols];
    Blas.blas().dgemm("N", "N", rows, cols, inner, 1.0, a, rows, b, inner, 0.0, c, rows);
    return c;
  }
}
