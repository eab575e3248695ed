package io.github.sparkkpca.evaluation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.testing.LocalSpark;
import java.util.OptionalLong;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.EigenDecomposition;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.SingularValueDecomposition;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/** MPRESS (Hallgren 2021, ch. 5) against brute-force leave-one-out kernel PCA. */
class MpressTest {

  private static double[] flat(double[][] x) {
    int d = x[0].length;
    double[] out = new double[x.length * d];
    for (int i = 0; i < x.length; i++) {
      System.arraycopy(x[i], 0, out, i * d, d);
    }
    return out;
  }

  /** The explicit feature map of (⟨x,y⟩ + 1)²: [1, √2 x_a, x_a x_b for all a, b]. */
  private static double[] features(double[] x) {
    int d = x.length;
    double[] phi = new double[1 + d + d * d];
    phi[0] = 1;
    for (int a = 0; a < d; a++) {
      phi[1 + a] = Math.sqrt(2) * x[a];
      for (int b = 0; b < d; b++) {
        phi[1 + d + a * d + b] = x[a] * x[b];
      }
    }
    return phi;
  }

  /**
   * MPRESS(k), k = 1..maxK, of the polynomial kernel (⟨x,y⟩ + 1)² by the thesis' definition taken
   * literally (see {@link #equalsBruteForceLeaveOneOutWithExplicitFeatures}).
   */
  static double[] bruteForceMpress(double[][] x, int maxK) {
    int n = x.length;
    double[][] phi = new double[n][];
    for (int i = 0; i < n; i++) {
      phi[i] = features(x[i]);
    }
    double[] expected = new double[maxK];
    for (int i = 0; i < n; i++) {
      double[][] others = new double[n - 1][];
      for (int r = 0, rr = 0; r < n; r++) {
        if (r != i) {
          others[rr++] = phi[r];
        }
      }
      RealMatrix v = new SingularValueDecomposition(new Array2DRowRealMatrix(others)).getV();
      for (int k = 1; k <= maxK; k++) {
        double[] residual = phi[i].clone();
        for (int j = 0; j < k; j++) {
          double[] axis = v.getColumn(j);
          double dot = 0;
          for (int t = 0; t < axis.length; t++) {
            dot += axis[t] * phi[i][t];
          }
          for (int t = 0; t < axis.length; t++) {
            residual[t] -= dot * axis[t];
          }
        }
        double e2 = 0;
        for (double r : residual) {
          e2 += r * r;
        }
        expected[k - 1] += e2 / ((double) n * (n - k));
      }
    }
    return expected;
  }

  /**
   * The thesis' definition taken literally, without the kernel trick: for each i, uncentred linear
   * PCA of the explicit feature vectors of the other rows (top-k right singular vectors V_k of
   * Φ₍₋ᵢ₎, by commons-math's SVD), then e_i² = ‖φ(x_i) − V_kV_kᵀφ(x_i)‖² and MPRESS(k) = Σ e_i² /
   * (n(n − k)).
   */
  @Test
  void equalsBruteForceLeaveOneOutWithExplicitFeatures() {
    double[][] x = LocalSpark.clusters(30, 3, 4);
    int n = x.length;
    int maxK = 8;
    double[] expected = bruteForceMpress(x, maxK);
    Mpress.Curve curve =
        Mpress.compute(new Kernel(KernelType.POLYNOMIAL, 1.0, 2, 1.0), flat(x), n, 3, maxK);
    assertEquals(n, curve.n());
    for (int k = 1; k <= maxK; k++) {
      assertEquals(expected[k - 1], curve.mpress()[k - 1], 1e-9 * expected[0], "MPRESS(" + k + ")");
    }
    for (Mpress.Method method :
        new Mpress.Method[] {Mpress.Method.RANK_ONE, Mpress.Method.DELETION}) {
      Mpress.Run run =
          Mpress.run(new Kernel(KernelType.POLYNOMIAL, 1.0, 2, 1.0), flat(x), n, 3, maxK, method);
      assertTrue(run.decremental() && run.fallbackRows() == 0, method + ": " + run.fallbackRows());
      assertArrayEquals(expected, run.curve().mpress(), 1e-9 * expected[0], method.toString());
    }
    int argmin = 0;
    for (int j = 1; j < maxK; j++) {
      if (expected[j] < expected[argmin]) {
        argmin = j;
      }
    }
    assertEquals(argmin + 1, curve.k());
  }

  /**
   * The rbf kernel (infinite-dimensional features) against the thesis' three-term form of e_i²,
   * with commons-math's eigendecomposition of each K₍₋ᵢ₎: k_ii − 2 k₋ᵢᵀU_kΛ_k⁻¹U_kᵀk₋ᵢ +
   * k₋ᵢᵀU_kΛ_k⁻¹U_kᵀK₍₋ᵢ₎U_kΛ_k⁻¹U_kᵀk₋ᵢ.
   */
  @Test
  void rbfEqualsTheThreeTermFormula() {
    double[][] x = LocalSpark.clusters(25, 2, 8);
    int n = x.length;
    int maxK = 6;
    Kernel kernel = Kernel.rbf(0.3);
    double[][] gram = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        gram[i][j] = kernel.apply(x[i], x[j]);
      }
    }
    double[] expected = new double[maxK];
    for (int i = 0; i < n; i++) {
      double[][] reduced = new double[n - 1][n - 1];
      double[] ki = new double[n - 1];
      for (int r = 0, rr = 0; r < n; r++) {
        if (r == i) {
          continue;
        }
        ki[rr] = gram[r][i];
        for (int c = 0, cc = 0; c < n; c++) {
          if (c != i) {
            reduced[rr][cc++] = gram[r][c];
          }
        }
        rr++;
      }
      RealMatrix kr = new Array2DRowRealMatrix(reduced);
      EigenDecomposition eig = new EigenDecomposition(kr);
      double[] values = eig.getRealEigenvalues();
      Integer[] order = new Integer[n - 1];
      for (int j = 0; j < n - 1; j++) {
        order[j] = j;
      }
      java.util.Arrays.sort(order, (a, b) -> Double.compare(values[b], values[a]));
      for (int k = 1; k <= maxK; k++) {
        // w = U_k Λ_k⁻¹ U_kᵀ k₋ᵢ
        double[] w = new double[n - 1];
        for (int j = 0; j < k; j++) {
          double[] u = eig.getEigenvector(order[j]).toArray();
          double dot = 0;
          for (int t = 0; t < n - 1; t++) {
            dot += u[t] * ki[t];
          }
          for (int t = 0; t < n - 1; t++) {
            w[t] += u[t] * dot / values[order[j]];
          }
        }
        double middle = 0;
        double[] kw = kr.operate(w);
        double last = 0;
        for (int t = 0; t < n - 1; t++) {
          middle += ki[t] * w[t];
          last += w[t] * kw[t];
        }
        expected[k - 1] += (gram[i][i] - 2 * middle + last) / ((double) n * (n - k));
      }
    }
    Mpress.Curve curve = Mpress.compute(kernel, flat(x), n, 2, maxK);
    assertArrayEquals(expected, curve.mpress(), 1e-9 * expected[0]);
    assertArrayEquals(
        expected,
        Mpress.compute(kernel, flat(x), n, 2, maxK, Mpress.Method.RANK_ONE).mpress(),
        1e-9 * expected[0]);
    assertArrayEquals(
        expected,
        Mpress.compute(kernel, flat(x), n, 2, maxK, Mpress.Method.DELETION).mpress(),
        1e-9 * expected[0]);
  }

  /**
   * The decremental route equals fresh decompositions, also with repeated rows (repeated
   * eigenvalues).
   */
  @Test
  void decrementalEqualsBatchWithRepeatedRows() {
    double[][] x = LocalSpark.clusters(90, 3, 12);
    for (int i = 10; i < x.length; i += 10) {
      x[i] = x[i - 7].clone();
    }
    int n = x.length;
    Kernel kernel = Kernel.rbf(0.4);
    Mpress.Curve batch = Mpress.compute(kernel, flat(x), n, 3, 12, Mpress.Method.BATCH);
    Mpress.Curve decremental = null;
    for (Mpress.Method method :
        new Mpress.Method[] {Mpress.Method.RANK_ONE, Mpress.Method.DELETION}) {
      Mpress.Run run = Mpress.run(kernel, flat(x), n, 3, 12, method);
      assertTrue(run.decremental());
      assertTrue(
          run.fallbackRows() <= 2, method + ": rows decomposed afresh: " + run.fallbackRows());
      assertArrayEquals(
          batch.mpress(), run.curve().mpress(), 1e-9 * batch.mpress()[0], method.toString());
      decremental = run.curve();
    }
    Mpress.Curve auto = Mpress.compute(kernel, flat(x), n, 3, 12);
    assertArrayEquals(decremental.mpress(), auto.mpress(), 0.0, "n = 90 takes the deletion route");
    assertEquals(batch.k(), decremental.k());
  }

  @Test
  void refusesTooManyRowsNamingTheLimitAndSubsamplesWhenAsked() {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(40, 3, 2), 2);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Mpress.compute(df, "features", Kernel.rbf(0.5), 3, 30, OptionalLong.empty()));
    assertTrue(
        e.getMessage().contains("maxRows = 30") && e.getMessage().contains("n = 40"),
        e.getMessage());
    Mpress.Curve sub = Mpress.compute(df, "features", Kernel.rbf(0.5), 3, 30, OptionalLong.of(11));
    assertEquals(30, sub.n());
    Mpress.Curve again =
        Mpress.compute(df, "features", Kernel.rbf(0.5), 3, 30, OptionalLong.of(11));
    assertArrayEquals(sub.mpress(), again.mpress(), 0.0);
    Mpress.Curve all = Mpress.compute(df, "features", Kernel.rbf(0.5), 3, 40, OptionalLong.empty());
    assertEquals(40, all.n());
    assertArrayEquals(
        Mpress.compute(Kernel.rbf(0.5), flat(LocalSpark.clusters(40, 3, 2)), 40, 3, 3).mpress(),
        all.mpress(),
        1e-12);
  }

  @Test
  void refusesKBeyondTheNumericalRank() {
    // The linear kernel on 3-dimensional data has rank 3: k = 3 would need a zero eigenvalue of
    // some K₍₋ᵢ₎.
    double[] points = flat(LocalSpark.clusters(20, 3, 3));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Mpress.compute(Kernel.linear(), points, 20, 3, 3));
    assertTrue(
        e.getMessage().contains("numerical rank is 3") && e.getMessage().contains("at most 2"),
        e.getMessage());
    assertEquals(2, Mpress.compute(Kernel.linear(), points, 20, 3, 2).mpress().length);
    IllegalArgumentException range =
        assertThrows(
            IllegalArgumentException.class,
            () -> Mpress.compute(Kernel.linear(), points, 20, 3, 0));
    assertTrue(
        range.getMessage().contains("maxK must be in [1, n - 1] = [1, 19], got 0"),
        range.getMessage());
  }
}
