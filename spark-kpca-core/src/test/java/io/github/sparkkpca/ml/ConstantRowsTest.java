package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.testing.LocalSpark;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Rows that are all equal have no variance: with the linear kernel the centred eigenvalues the fit
 * finds are rounding noise (1e-28 and the like), which the model reports as exactly 0, with
 * explained-variance ratios 0 (README: 0 for constant data), not 1.
 */
class ConstantRowsTest {

  private static double[][] constant(int n, double... row) {
    double[][] rows = new double[n][];
    Arrays.fill(rows, row);
    return rows;
  }

  @Test
  void constantRowsWithTheLinearKernelReportZeroVariance() {
    for (double[] row :
        new double[][] {{3.7, -1.3, 0.1}, {1e3, 2.5e2, -7.77}, {0.1, 0.2, 0.30000000000000004}}) {
      NystromKernelPCAModel model =
          new NystromKernelPCA()
              .setKernel("linear")
              .setK(1)
              .setNumLandmarks(3)
              .setSeed(1)
              .fit(LocalSpark.frame(constant(300, row), 3));
      String what = Arrays.toString(row);
      for (double value : model.eigenvalues().toArray()) {
        assertEquals(0.0, value, 0.0, what + ": " + model.eigenvalues().toString());
      }
      for (double ratio : model.explainedVarianceRatio().toArray()) {
        assertEquals(0.0, ratio, 0.0, what + ": " + model.explainedVarianceRatio().toString());
      }
      assertEquals(0.0, model.totalVariance(), 0.0, what);
    }
  }

  /** The exact kernel PCA of constant rows reports no variance either. */
  @Test
  void exactKernelPcaOfConstantRowsReportsZeroVariance() {
    KernelPCAModel model =
        new KernelPCA()
            .setKernel("linear")
            .setK(1)
            .fit(LocalSpark.frame(constant(50, 3.7, -1.3, 0.1), 2));
    assertEquals(0.0, model.explainedVarianceRatio().apply(0), 0.0, model.eigenvalues().toString());
    assertEquals(0.0, model.eigenvalues().apply(0), 0.0, model.eigenvalues().toString());
  }

  /** Rows with a small but real spread keep their eigenvalues (the floor is rounding only). */
  @Test
  void aSmallRealSpreadIsKept() {
    double[][] rows = constant(300, 1, 2, 3);
    for (int i = 0; i < rows.length; i++) {
      rows[i] = rows[i].clone();
      rows[i][0] += 1e-3 * ((i % 2) * 2 - 1);
    }
    NystromKernelPCAModel model =
        new NystromKernelPCA()
            .setKernel("linear")
            .setK(1)
            .setNumLandmarks(3)
            .setSeed(1)
            .fit(LocalSpark.frame(rows, 3));
    // Variance 1e-6 along x0 (±1e-3 about 1), the data's squared norm about 14.
    assertEquals(1e-6, model.eigenvalues().apply(0), 1e-12);
    assertTrue(
        model.explainedVarianceRatio().apply(0) > 0.99, model.explainedVarianceRatio().toString());
  }
}
