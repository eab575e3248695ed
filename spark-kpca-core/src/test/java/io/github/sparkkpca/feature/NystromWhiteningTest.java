package io.github.sparkkpca.feature;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.DenseWhitening;
import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.linalg.TiledCholesky;
import io.github.sparkkpca.linalg.WhiteningFactor;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The whitening above the dense threshold (forced low here, so that small m take the large-m path):
 * a full-rank K_mm gets the tiled W = L⁻ᵀ, today's W to rounding; a K_mm of low rank gets the
 * pivoted W, with today's features φ(x)ᵀφ(y); below the threshold today's W bit for bit; a K_mm
 * neither of low rank nor full rank is refused in one line.
 */
class NystromWhiteningTest {

  private static final double RCOND = 1e-12;

  @Test
  void fullRankTakesTheTiledFactorWithTodaysW() {
    int m = 300;
    int d = 20;
    double[] z = points(m, d, 1);
    LandmarkKernel kernel = new LandmarkKernel(Kernel.rbf(0.02), z, m, d);
    NystromFeatureMap today = NystromFeatureMap.fit(kernel, RCOND);
    assertTrue(today.isTriangular());
    WhiteningFactor tiled = NystromWhitening.of(kernel, RCOND, 100, 64, 2);
    assertInstanceOf(TiledCholesky.class, tiled);
    assertEquals(m, tiled.rank());
    double[] w = tiled.times(identity(m), m);
    double scale = 0;
    for (double v : today.weights()) {
      scale = Math.max(scale, Math.abs(v));
    }
    for (int i = 0; i < m * m; i++) {
      assertEquals(today.weights()[i], w[i], 1e-10 * scale, "W at " + i);
    }
    WhiteningFactor dense = NystromWhitening.of(kernel, RCOND, m, 64, 2);
    assertArrayEquals(today.weights(), ((DenseWhitening) dense).w(), "below the threshold");
  }

  @Test
  void lowRankTakesThePivotedFactorWithTodaysFeatures() {
    int m = 200;
    int d = 3;
    double[] z = points(m, d, 2);
    LandmarkKernel kernel =
        new LandmarkKernel(Kernel.of(KernelType.POLYNOMIAL, 1.0, 2, 1.0), z, m, d);
    NystromFeatureMap today = NystromFeatureMap.fit(kernel, RCOND);
    assertEquals(10, today.rank());
    WhiteningFactor pivoted = NystromWhitening.of(kernel, RCOND, 100, 64, 2);
    assertInstanceOf(DenseWhitening.class, pivoted);
    assertEquals(10, pivoted.rank());
    int n = 20;
    double[] x = points(n, d, 3);
    double[] kx = new double[m * n];
    RowBlock block = kernel.newBlock(n);
    block.fill(x, n);
    kernel.compute(block, kx);
    double[] expected = featureGram(new DenseWhitening(today.weights(), m, 10, false), kx, n);
    double[] actual = featureGram(pivoted, kx, n);
    double scale = 0;
    for (double v : expected) {
      scale = Math.max(scale, Math.abs(v));
    }
    for (int i = 0; i < n * n; i++) {
      assertEquals(expected[i], actual[i], 1e-9 * scale, "φᵀφ at " + i);
    }
  }

  @Test
  void aKernelMatrixNeitherOfLowRankNorFullRankIsRefused() {
    int m = 200;
    int d = 10;
    double[] z = points(m, d, 4);
    System.arraycopy(z, 0, z, 100 * d, 100 * d); // landmarks 100…199 repeat 0…99
    LandmarkKernel kernel = new LandmarkKernel(Kernel.rbf(0.05), z, m, d);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> NystromWhitening.of(kernel, RCOND, 100, 64, 2));
    assertTrue(e.getMessage().contains("m = 200"), e.getMessage());
    assertTrue(e.getMessage().contains("rcond"), e.getMessage());
  }

  private static double[] featureGram(WhiteningFactor w, double[] kx, int n) {
    int r = w.rank();
    double[] phi = w.transposeTimes(kx, n);
    double[] g = new double[n * n];
    Blas.blas().dgemm("T", "N", n, n, r, 1.0, phi, r, phi, r, 0.0, g, n);
    return g;
  }

  private static double[] identity(int m) {
    double[] a = new double[m * m];
    for (int i = 0; i < m; i++) {
      a[i + i * m] = 1.0;
    }
    return a;
  }

  private static double[] points(int n, int d, long seed) {
    Random random = new Random(seed);
    double[] p = new double[n * d];
    for (int i = 0; i < p.length; i++) {
      p[i] = random.nextGaussian();
    }
    return p;
  }
}
