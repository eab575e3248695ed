package io.github.sparkkpca.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.sparkkpca.kernel.Kernel;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.netlib.util.intW;

/**
 * A factor grown row by row equals LAPACK's factor of the whole matrix; the Schur complement is a
 * residual.
 */
class BorderedCholeskyTest {

  @Test
  void borderedFactorEqualsAFreshCholesky() {
    Random random = new Random(4);
    int m = 40;
    double[][] x = new double[m][3];
    for (double[] row : x) {
      for (int t = 0; t < 3; t++) {
        row[t] = random.nextGaussian();
      }
    }
    Kernel kernel = Kernel.rbf(0.4);
    BorderedCholesky grown = new BorderedCholesky();
    for (int j = 0; j < m; j++) {
      double[] u = new double[j];
      for (int i = 0; i < j; i++) {
        u[i] = kernel.apply(x[i], x[j]);
      }
      double s = grown.appendRow(u, kernel.apply(x[j], x[j]));
      // The Schur complement is the squared distance of φ(x_j) from span{φ(x_i)}_{i<j}: positive, ≤
      // k(x,x).
      assertEquals(true, s > 0 && s <= 1.0 + 1e-15, "s = " + s);
    }
    double[] a = new double[m * m];
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < m; j++) {
        a[j * m + i] = kernel.apply(x[i], x[j]);
      }
    }
    intW info = new intW(0);
    Blas.lapack().dpotrf("L", m, a, m, info);
    assertEquals(0, info.val);
    double[] lower = grown.lowerColumnMajor();
    for (int col = 0; col < m; col++) {
      for (int row = 0; row < m; row++) {
        double expected = row >= col ? a[col * m + row] : 0.0;
        assertEquals(expected, lower[col * m + row], 1e-10, "L(" + row + "," + col + ")");
      }
    }
    // Forward substitution solves L w = u.
    double[] u = new double[m];
    for (int i = 0; i < m; i++) {
      u[i] = random.nextGaussian();
    }
    double[] w = grown.forward(u);
    for (int row = 0; row < m; row++) {
      double sum = 0;
      for (int col = 0; col <= row; col++) {
        sum += lower[col * m + row] * w[col];
      }
      assertEquals(u[row], sum, 1e-9);
    }
  }

  @Test
  void aPointAlreadyInTheSpanIsRefused() {
    BorderedCholesky grown = new BorderedCholesky();
    grown.appendRow(new double[0], 4.0);
    // [[4, 4], [4, 4]] is singular: the Schur complement is 0 (exactly, with L = [2]).
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> grown.appendRow(new double[] {4.0}, 4.0));
    assertEquals(true, e.getMessage().contains("Schur complement"), e.getMessage());
    assertEquals(1, grown.size());
    assertEquals(0.0, BorderedCholesky.schur(4.0, grown.forward(new double[] {4.0})), 0.0);
    assertEquals(1, Arrays.stream(grown.lowerColumnMajor()).filter(v -> v != 0).count());
  }
}
