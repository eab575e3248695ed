package io.github.sparkkpca.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.netlib.util.intW;

/**
 * The tiled Cholesky factor and its solves at small m with small tiles, so that every tile boundary
 * is crossed and the last tile row is partial: the factor equals LAPACK's one-call {@code dpotrf}
 * on the full matrix to 1e-13 relative, is the same bit for bit on 1, 2 and 3 threads, the solves
 * equal dense triangular solves, W = L⁻ᵀ meets the whitening contract, and a non-positive pivot is
 * reported with its row.
 */
class TiledCholeskyTest {

  private static final int[][] SIZES = {{37, 8}, {64, 16}, {130, 13}, {130, 130}, {5, 8}};

  @Test
  void factorEqualsDpotrfAndDoesNotDependOnTheThreads() {
    for (int[] size : SIZES) {
      int m = size[0];
      int t = size[1];
      double[] a = spd(m, m);
      double[] expected = a.clone();
      intW info = new intW(0);
      Blas.lapack().dpotrf("L", m, expected, m, info);
      assertEquals(0, info.val);
      double[] one =
          TiledCholesky.factor(TiledSymmetricMatrix.of(a, m, t), 1).factor().toDense(true);
      double scale = maxAbs(expected);
      for (int j = 0; j < m; j++) {
        for (int i = j; i < m; i++) {
          assertEquals(
              expected[i + j * m],
              one[i + j * m],
              1e-13 * scale,
              m + "/" + t + " L at " + i + "," + j);
        }
      }
      for (int threads : new int[] {2, 3}) {
        double[] split =
            TiledCholesky.factor(TiledSymmetricMatrix.of(a, m, t), threads).factor().toDense(true);
        assertArrayEquals(one, split, m + "/" + t + " on " + threads + " threads");
      }
    }
  }

  @Test
  void solvesEqualDenseTriangularSolvesAndWhiten() {
    for (int[] size : SIZES) {
      int m = size[0];
      int t = size[1];
      int l = 7;
      double[] a = spd(m, m + 1);
      double[] dense = a.clone();
      intW info = new intW(0);
      Blas.lapack().dpotrf("L", m, dense, m, info);
      double[] y = gaussian(m * l, 3);
      double[] forward = y.clone();
      Blas.blas().dtrsm("L", "L", "N", "N", m, l, 1.0, dense, m, forward, m); // L⁻¹Y
      double[] backward = y.clone();
      Blas.blas().dtrsm("L", "L", "T", "N", m, l, 1.0, dense, m, backward, m); // L⁻ᵀY
      TiledCholesky one = TiledCholesky.factor(TiledSymmetricMatrix.of(a, m, t), 1);
      double[] z = one.transposeTimes(y, l);
      double[] x = one.times(y, l);
      for (int i = 0; i < m * l; i++) {
        assertEquals(forward[i], z[i], 1e-12 * (1 + Math.abs(forward[i])), "L⁻¹Y at " + i);
        assertEquals(backward[i], x[i], 1e-12 * (1 + Math.abs(backward[i])), "L⁻ᵀY at " + i);
      }
      TiledCholesky three = TiledCholesky.factor(TiledSymmetricMatrix.of(a, m, t), 3);
      assertArrayEquals(z, three.transposeTimes(y, l), "forward solve on 3 threads");
      assertArrayEquals(x, three.times(y, l), "backward solve on 3 threads");
      WhiteningContract.check(one, a, m, 1e-11);
    }
  }

  @Test
  void aNonPositivePivotIsReportedWithItsRow() {
    int m = 64;
    double[] a = spd(m, 5);
    a[40 + 40 * m] -= 4.0 * m; // a negative eigenvalue; pivots 0…39 are unaffected
    TiledCholesky.NotPositiveDefinite failure =
        assertThrows(
            TiledCholesky.NotPositiveDefinite.class,
            () -> TiledCholesky.factor(TiledSymmetricMatrix.of(a, m, 16), 2));
    assertEquals(40, failure.pivot());
    // A semi-definite matrix of rank 3 fails as well (its fourth pivot is rounding, or negative).
    double[] b = gaussian(m * 3, 9);
    double[] low = new double[m * m];
    Blas.blas().dgemm("N", "T", m, m, 3, 1.0, b, m, b, m, 0.0, low, m);
    for (int i = 0; i < m; i++) {
      low[i + i * m] -= 1e-9;
    }
    assertThrows(
        TiledCholesky.NotPositiveDefinite.class,
        () -> TiledCholesky.factor(TiledSymmetricMatrix.of(low, m, 13), 1));
  }

  @Test
  void tilesHoldTheLowerTriangleAndTheirBytesAreCounted() {
    int m = 130;
    double[] a = spd(m, 11);
    TiledSymmetricMatrix tiled = TiledSymmetricMatrix.of(a, m, 13);
    assertArrayEquals(a, tiled.toDense(false));
    long doubles = 0;
    for (int i = 0; i < tiled.tiles(); i++) {
      for (int j = 0; j <= i; j++) {
        doubles += tiled.tile(i, j).length;
      }
    }
    assertEquals(8 * doubles, TiledSymmetricMatrix.bytes(m, 13));
    assertEquals(8 * doubles(37, 8), TiledSymmetricMatrix.bytes(37, 8));
    // m = 50,000 in tiles of 512: within 1.1 % of 8·m²/2 bytes (the diagonal tiles are whole
    // squares).
    double half = 8.0 * 50_000 * 50_000 / 2;
    assertEquals(1.0, TiledSymmetricMatrix.bytes(50_000, 512) / half, 0.011);
    // y = A x and λ_max against the dense matrix.
    double[] x = gaussian(m, 2);
    double[] y = new double[m];
    Blas.blas().dgemv("N", m, m, 1.0, a, m, x, 1, 0.0, y, 1);
    double[] tiledY = tiled.times(x);
    for (int i = 0; i < m; i++) {
      assertEquals(y[i], tiledY[i], 1e-12 * (1 + Math.abs(y[i])));
    }
    assertEquals(
        SymmetricEigen.of(a, m).values()[0],
        tiled.largestEigenvalue(1000),
        1e-9 * SymmetricEigen.of(a, m).values()[0]);
  }

  private static long doubles(int m, int t) {
    TiledSymmetricMatrix tiled = new TiledSymmetricMatrix(m, t);
    long n = 0;
    for (int i = 0; i < tiled.tiles(); i++) {
      for (int j = 0; j <= i; j++) {
        n += tiled.tile(i, j).length;
      }
    }
    return n;
  }

  /** B Bᵀ/n + I for a Gaussian n×n B: symmetric positive definite, condition about 5. */
  static double[] spd(int n, long seed) {
    double[] b = gaussian(n * n, seed);
    double[] a = new double[n * n];
    Blas.blas().dgemm("N", "T", n, n, n, 1.0 / n, b, n, b, n, 0.0, a, n);
    SymmetricStorage.mirrorUpper(a, n);
    for (int i = 0; i < n; i++) {
      a[i + i * n] += 1.0;
    }
    return a;
  }

  static double[] gaussian(int count, long seed) {
    Random random = new Random(seed);
    double[] v = new double[count];
    for (int i = 0; i < count; i++) {
      v[i] = random.nextGaussian();
    }
    return v;
  }

  private static double maxAbs(double[] v) {
    double s = 0;
    for (double x : v) {
      s = Math.max(s, Math.abs(x));
    }
    return s;
  }
}
