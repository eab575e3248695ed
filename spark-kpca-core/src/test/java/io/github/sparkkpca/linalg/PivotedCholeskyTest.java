package io.github.sparkkpca.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The pivoted Cholesky whitening on kernel matrices of known low rank: the polynomial kernel (⟨x,y⟩
 * + 1)² on R³ has a feature space of dimension 10, so K_mm has rank 10 and the Nyström
 * approximation is exact (φ(x)ᵀφ(y) = k(x,y) for every x, y: a closed form); an rbf kernel on
 * tightly clustered landmarks is of numerical rank far below m. In both, the features equal those
 * of today's eigenbasis whitening W = V_r Λ_r^{-1/2} (same r) to the stated tolerance, the factor
 * meets the whitening contract, and it is the same bit for bit on 1 and 3 threads.
 */
class PivotedCholeskyTest {

  private static final double RCOND = 1e-12;

  @Test
  void polynomialKernelOfRankTenIsReproducedExactly() {
    int m = 60;
    double[] z = points(m, 3, 1, 1.0);
    double[] k = gram(z, m, 3, PivotedCholeskyTest::polynomial);
    PivotedCholesky.Factor factor = PivotedCholesky.factor(dense(k, m), RCOND, m, 1);
    assertEquals(10, factor.rank());
    assertTrue(factor.residualTrace() < 1e-10 * trace(k, m), "tr(S) = " + factor.residualTrace());
    DenseWhitening w = factor.whitening(RCOND).w();
    assertEquals(10, w.rank());
    DenseWhitening eigen = eigenWhitening(k, m);
    assertEquals(10, eigen.rank());
    WhiteningContract.check(w, k, m, 1e-9);
    WhiteningContract.check(eigen, k, m, 1e-9);
    // Rows off the landmarks: φ(x)ᵀφ(y) = k(x,y) (closed form), and equals the eigenbasis features.
    int n = 25;
    double[] x = points(n, 3, 2, 1.5);
    double[] kx = cross(z, m, x, n, 3, PivotedCholeskyTest::polynomial);
    double[] pivoted = featureGram(w, kx, n);
    double[] reference = featureGram(eigen, kx, n);
    double scale = 0;
    for (int i = 0; i < n; i++) {
      scale = Math.max(scale, polynomial(x, i, x, i, 3));
    }
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < n; i++) {
        double exact = polynomial(x, i, x, j, 3);
        assertEquals(exact, pivoted[i + j * n], 1e-9 * scale, "pivoted φᵀφ at " + i + "," + j);
        assertEquals(exact, reference[i + j * n], 1e-9 * scale, "eigen φᵀφ at " + i + "," + j);
      }
    }
  }

  @Test
  void rbfOnClusteredLandmarksGivesTodaysFeatures() {
    // 6 clusters of 40 points in R², spread 0.005, γ = 1: numerical rank well below m.
    int m = 240;
    int d = 2;
    double[] z = new double[m * d];
    Random random = new Random(4);
    for (int c = 0; c < 6; c++) {
      double cx = 3 * Math.cos(c);
      double cy = 3 * Math.sin(c);
      for (int p = 0; p < 40; p++) {
        int j = c * 40 + p;
        z[j * d] = cx + 0.005 * random.nextGaussian();
        z[j * d + 1] = cy + 0.005 * random.nextGaussian();
      }
    }
    double[] k = gram(z, m, d, PivotedCholeskyTest::rbf);
    PivotedCholesky.Factor factor = PivotedCholesky.factor(dense(k, m), RCOND, m, 1);
    DenseWhitening w = factor.whitening(RCOND).w();
    DenseWhitening eigen = eigenWhitening(k, m);
    assertTrue(factor.rank() < m / 4, "pivoted rank " + factor.rank());
    assertEquals(eigen.rank(), w.rank(), "retained rank");
    // Features on the landmarks and off them: φᵀφ agree with the eigenbasis to 1e-6 (the kernel
    // values are ≤ 1; the agreement is limited by ‖S‖₂/σ_r, both near rounding·cond).
    int n = 30;
    double[] x = new double[n * d];
    for (int i = 0; i < n; i++) {
      int j = (i * 8) % m;
      x[i * d] = z[j * d] + 0.01 * random.nextGaussian();
      x[i * d + 1] = z[j * d + 1] + 0.01 * random.nextGaussian();
    }
    double[] kx = cross(z, m, x, n, d, PivotedCholeskyTest::rbf);
    double[] pivoted = featureGram(w, kx, n);
    double[] reference = featureGram(eigen, kx, n);
    double worst = 0;
    for (int i = 0; i < n * n; i++) {
      worst = Math.max(worst, Math.abs(pivoted[i] - reference[i]));
    }
    assertTrue(worst < 1e-6, "max |Δ φᵀφ| = " + worst);
    double[] onLandmarks = featureGram(w, k, m);
    for (int i = 0; i < m * m; i++) {
      assertEquals(k[i], onLandmarks[i], 1e-6, "φᵀφ on the landmarks at " + i);
    }
  }

  @Test
  void theFactorDoesNotDependOnTheThreadsAndStopsAtMaxRank() {
    // m = 9000 > two row chunks; columns computed on demand (the polynomial kernel, rank 10).
    int m = 9000;
    double[] z = points(m, 3, 5, 1.0);
    PivotedCholesky.Columns columns = columns(m, (i, j) -> polynomial(z, i, z, j, 3));
    PivotedCholesky.Factor one = PivotedCholesky.factor(columns, RCOND, 50, 1);
    PivotedCholesky.Factor three = PivotedCholesky.factor(columns, RCOND, 50, 3);
    assertEquals(10, one.rank());
    assertArrayEquals(one.pivots(), three.pivots());
    assertArrayEquals(one.l(), three.l());
    assertNull(PivotedCholesky.factor(columns, RCOND, 9, 2), "rank 10 > maxRank 9");
  }

  /** Today's rank-deficient whitening: V_r Λ_r^{-1/2}, r eigenvalues above rcond·λ_max. */
  static DenseWhitening eigenWhitening(double[] k, int m) {
    SymmetricEigen eig = SymmetricEigen.of(k, m);
    double[] values = eig.values();
    int r = 0;
    while (r < m && values[r] > RCOND * values[0]) {
      r++;
    }
    double[] w = new double[m * r];
    for (int c = 0; c < r; c++) {
      for (int i = 0; i < m; i++) {
        w[i + c * m] = eig.vectors()[i + c * m] / Math.sqrt(values[c]);
      }
    }
    return new DenseWhitening(w, m, r, false);
  }

  /** φᵀφ for the n kernel columns kx (m×n): (Wᵀkx)ᵀ(Wᵀkx). */
  private static double[] featureGram(WhiteningFactor w, double[] kx, int n) {
    int r = w.rank();
    double[] phi = w.transposeTimes(kx, n);
    double[] g = new double[n * n];
    Blas.blas().dgemm("T", "N", n, n, r, 1.0, phi, r, phi, r, 0.0, g, n);
    return g;
  }

  static PivotedCholesky.Columns dense(double[] k, int m) {
    return columns(m, (i, j) -> k[i + j * m]);
  }

  /** The m×m matrix of entries a(i, j), column by column. */
  static PivotedCholesky.Columns columns(int m, Entry entry) {
    return new PivotedCholesky.Columns() {
      @Override
      public int order() {
        return m;
      }

      @Override
      public double[] diagonal() {
        double[] out = new double[m];
        for (int i = 0; i < m; i++) {
          out[i] = entry.at(i, i);
        }
        return out;
      }

      @Override
      public void column(int j, double[] out) {
        for (int i = 0; i < m; i++) {
          out[i] = entry.at(i, j);
        }
      }
    };
  }

  @FunctionalInterface
  interface Entry {
    double at(int i, int j);
  }

  @FunctionalInterface
  interface PairKernel {
    double of(double[] a, int i, double[] b, int j, int d);
  }

  static double polynomial(double[] a, int i, double[] b, int j, int d) {
    double s = 1;
    for (int t = 0; t < d; t++) {
      s += a[i * d + t] * b[j * d + t];
    }
    return s * s;
  }

  static double rbf(double[] a, int i, double[] b, int j, int d) {
    double s = 0;
    for (int t = 0; t < d; t++) {
      double diff = a[i * d + t] - b[j * d + t];
      s += diff * diff;
    }
    return Math.exp(-s);
  }

  private static double[] gram(double[] z, int m, int d, PairKernel kernel) {
    return cross(z, m, z, m, d, kernel);
  }

  /** The m×n column-major matrix k(z_i, x_j). */
  private static double[] cross(double[] z, int m, double[] x, int n, int d, PairKernel kernel) {
    double[] k = new double[m * n];
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < m; i++) {
        k[i + j * m] = kernel.of(z, i, x, j, d);
      }
    }
    return k;
  }

  private static double[] points(int n, int d, long seed, double scale) {
    Random random = new Random(seed);
    double[] p = new double[n * d];
    for (int i = 0; i < p.length; i++) {
      p[i] = scale * random.nextGaussian();
    }
    return p;
  }

  private static double trace(double[] k, int m) {
    double s = 0;
    for (int i = 0; i < m; i++) {
      s += k[i + i * m];
    }
    return s;
  }
}
