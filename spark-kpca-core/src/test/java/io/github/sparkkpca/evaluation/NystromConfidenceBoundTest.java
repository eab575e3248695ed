package io.github.sparkkpca.evaluation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.ml.KernelPCA;
import io.github.sparkkpca.ml.KernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * Theorem 4 of Hallgren (2021, ch. 6): its constants, the bound against the measured excess error,
 * refusals.
 */
class NystromConfidenceBoundTest {

  /** n = 1000, m = 100, B = 1, confidence 0.9: δ = ln 20 and D = 0.233324. */
  @Test
  void constantsOfTheThesisSetting() {
    assertEquals(1.776574, NystromConfidenceBound.SUBSET_CONSTANT, 1e-6);
    assertEquals(Math.log(20), NystromConfidenceBound.delta(0.9), 1e-15);
    assertEquals(0.233324, NystromConfidenceBound.deviation(1000, 100, 1.0, 0.9), 1e-6);
    assertEquals(
        0.0, NystromConfidenceBound.deviation(100, 100, 1.0, 0.9), 0.0, "m = n: no approximation");
  }

  /**
   * The per-d bound by hand for eigenvalues {0.5, 0.3, 0.25, 0.1} and D = 0.01: the two-sided gaps
   * are 0.2, 0.05, 0.05, so the angle bounds are 0.1, 0.4, 0.4 (the misprinted one-sided gap would
   * give ∞, 0.2, 0.05, i.e. 0, 0.1, 0.4), and bound(d) = Σ_{j≤d} λ_j D_j² + D max_{i≤d} D_i².
   */
  @Test
  void twoSidedGapAndCumulativeBound() {
    double[] eig = {0.5, 0.3, 0.25, 0.1};
    NystromConfidenceBound.Bound b = NystromConfidenceBound.fromDeviation(0.01, eig, 3);
    assertArrayEquals(new double[] {0.1, 0.4, 0.4}, b.angleBounds(), 1e-15);
    double[] bound = {
      0.5 * 0.01 + 0.01 * 0.01,
      0.5 * 0.01 + 0.3 * 0.16 + 0.01 * 0.16,
      0.5 * 0.01 + 0.3 * 0.16 + 0.25 * 0.16 + 0.01 * 0.16
    };
    assertArrayEquals(bound, b.reconstructionErrorBound(), 1e-15);
    assertArrayEquals(
        new double[] {1.0},
        NystromConfidenceBound.fromDeviation(0.01, new double[] {0.4, 0.4, 0.1}, 1).angleBounds(),
        0.0,
        "a repeated eigenvalue (zero gap) gives D_1 = 1");
    assertArrayEquals(
        new double[] {1.0},
        NystromConfidenceBound.fromDeviation(0.5, new double[] {0.9, 0.5, 0.1}, 1).angleBounds(),
        0.0,
        "2D/gap = 2.5 saturates at 1");
  }

  /**
   * On an rbf data set (n = 600, k = 6) the excess training reconstruction error of uncentred
   * Nyström KPCA over exact uncentred KPCA, Σ_{j≤d} λ̂ⁿ_j − Σ_{j≤d} λ̃_j, equals the difference of
   * the models' own reconstruction errors (eq. 6.5) and lies in [0, bound(d)] for d = 1..k. With γ
   * = 0.1 and m = 60 the excess is about 1e-4 but every D_j saturates at 1 (the bound is
   * conservative at this n, m); with γ = 0.005 and m = 120 the leading eigengap of K_mm/m exceeds
   * 2D, so D_1 &lt; 1 and bound(1) is below the total variance 1 (a non-trivial statement).
   */
  @Test
  void boundHoldsAgainstTheMeasuredExcessError() {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(600, 3, 11), 2);
    NystromConfidenceBound.Bound saturated = checkAgainstExact(df, 600, 0.1, 60);
    assertEquals(1.0, saturated.angleBounds()[0], 0.0);
    NystromConfidenceBound.Bound informative = checkAgainstExact(df, 600, 0.005, 120);
    assertTrue(informative.angleBounds()[0] < 0.7, "D_1 = " + informative.angleBounds()[0]);
    assertTrue(
        informative.reconstructionErrorBound()[0] < 0.4,
        "bound(1) = " + informative.reconstructionErrorBound()[0]);
  }

  private static NystromConfidenceBound.Bound checkAgainstExact(
      Dataset<Row> df, int n, double gamma, int m) {
    int k = 6;
    KernelPCAModel exact =
        new KernelPCA().setKernel("rbf").setGamma(gamma).setK(k).setCentered(false).fit(df);
    NystromKernelPCAModel nystrom =
        new NystromKernelPCA()
            .setKernel("rbf")
            .setGamma(gamma)
            .setK(k)
            .setNumLandmarks(m)
            .setSeed(3)
            .setCentered(false)
            .fit(df);
    assertEquals(m, nystrom.numSupportPoints());
    NystromConfidenceBound.Bound bound = NystromConfidenceBound.compute(nystrom, 0.9);
    assertEquals(NystromConfidenceBound.deviation(n, m, 1.0, 0.9), bound.deviation(), 0.0);
    double[] exactValues = exact.explainedVariance().toArray();
    double[] nystromValues = nystrom.explainedVariance().toArray();
    double[] exactError = exact.reconstructionError().toArray();
    double[] nystromError = nystrom.reconstructionError().toArray();
    double excess = 0;
    for (int d = 0; d < k; d++) {
      excess += exactValues[d] - nystromValues[d];
      assertEquals(excess, nystromError[d] - exactError[d], 1e-9, "eq. 6.5 at d = " + (d + 1));
      assertTrue(
          excess >= -1e-10, "Nyström cannot beat exact in-sample: d = " + (d + 1) + ", " + excess);
      assertTrue(
          excess <= bound.reconstructionErrorBound()[d],
          "d = "
              + (d + 1)
              + ": excess "
              + excess
              + " > bound "
              + bound.reconstructionErrorBound()[d]);
    }
    // The subset spectrum is that of K_mm/m: it sums to Tr(K_mm)/m = 1 for rbf.
    double trace = 0;
    for (double v : bound.subsetEigenvalues()) {
      trace += v;
    }
    assertEquals(1.0, trace, 1e-9);
    return bound;
  }

  @Test
  void refusals() {
    IllegalArgumentException poly =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                NystromConfidenceBound.kernelBound(new Kernel(KernelType.POLYNOMIAL, 1.0, 2, 1.0)));
    assertTrue(poly.getMessage().contains("polynomial is unbounded"), poly.getMessage());
    IllegalArgumentException linear =
        assertThrows(
            IllegalArgumentException.class,
            () -> NystromConfidenceBound.kernelBound(Kernel.linear()));
    assertTrue(linear.getMessage().contains("linear is unbounded"), linear.getMessage());
    assertEquals(1.0, NystromConfidenceBound.kernelBound(Kernel.rbf(0.5)), 0.0);
    assertEquals(
        1.0, NystromConfidenceBound.kernelBound(new Kernel(KernelType.LAPLACIAN, 0.5, 0, 0)), 0.0);
    assertEquals(
        1.0, NystromConfidenceBound.kernelBound(new Kernel(KernelType.COSINE, 0, 0, 0)), 0.0);
    IllegalArgumentException conf =
        assertThrows(
            IllegalArgumentException.class,
            () -> NystromConfidenceBound.deviation(1000, 100, 1.0, 1.0));
    assertTrue(conf.getMessage().contains("confidence"), conf.getMessage());
    IllegalArgumentException kTooLarge =
        assertThrows(
            IllegalArgumentException.class,
            () -> NystromConfidenceBound.compute(1000, 1.0, 0.9, new double[] {0.5, 0.3}, 2));
    assertTrue(kTooLarge.getMessage().contains("k must be in [1, 1]"), kTooLarge.getMessage());

    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(60, 3, 5), 2);
    NystromKernelPCAModel centred =
        new NystromKernelPCA()
            .setKernel("rbf")
            .setGamma(0.1)
            .setK(2)
            .setNumLandmarks(10)
            .setSeed(1)
            .fit(df);
    IllegalArgumentException open =
        assertThrows(
            IllegalArgumentException.class, () -> NystromConfidenceBound.compute(centred, 0.9));
    assertTrue(
        open.getMessage().contains("the thesis leaves the centred case open"), open.getMessage());
    NystromKernelPCAModel polyModel =
        new NystromKernelPCA()
            .setKernel("polynomial")
            .setDegree(2)
            .setK(2)
            .setNumLandmarks(10)
            .setSeed(1)
            .setCentered(false)
            .fit(df);
    IllegalArgumentException unbounded =
        assertThrows(
            IllegalArgumentException.class, () -> NystromConfidenceBound.compute(polyModel, 0.9));
    assertTrue(unbounded.getMessage().contains("polynomial is unbounded"), unbounded.getMessage());
  }
}
