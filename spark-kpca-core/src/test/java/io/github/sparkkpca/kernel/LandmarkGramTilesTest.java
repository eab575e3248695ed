package io.github.sparkkpca.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.linalg.PivotedCholesky;
import io.github.sparkkpca.linalg.RowSet;
import io.github.sparkkpca.linalg.TiledSymmetricMatrix;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * K_mm in tiles and by columns against the dense K_mm ({@link LandmarkKernel#gram}) on the dense
 * and sparse paths: the same bit for bit where both score the landmarks by the same code (sparse
 * path; laplacian, computed directly), within 4 ulp of the largest value (32 for the cubic
 * polynomial at d = 60, whose inner products' rounding is cubed: measured 14) where the dense
 * K_mm's inner products come from a SYRK and the tiles' from a GEMM (rbf with its centre,
 * polynomial, cosine; measured: 0 at d = 6, up to 2.5 ulp at d = 60); a column from the oracle
 * likewise; the same bit for bit on 1 and 3 threads. The oracle's diagonal is the kernel's closed
 * form k(z,z), within 8 ulp of K_mm's (whose rbf diagonal carries the expansion's rounding).
 */
class LandmarkGramTilesTest {

  @Test
  void tilesEqualTheDenseGramOnEveryPath() {
    int m = 37;
    int d = 6;
    double[] dense = points(m, d, 1, false);
    double[] wide = points(m, 60, 3, false);
    double[] sparse = points(m, d * 8, 2, true);
    Object[][] cases = {
      {Kernel.rbf(0.3), RowSet.dense(dense, m, d), 4},
      {Kernel.rbf(0.01), RowSet.dense(wide, m, 60), 4},
      {Kernel.of(KernelType.POLYNOMIAL, 0.02, 3, 1.0), RowSet.dense(wide, m, 60), 32},
      {Kernel.of(KernelType.POLYNOMIAL, 0.5, 2, 1.0), RowSet.dense(dense, m, d), 4},
      {Kernel.of(KernelType.COSINE, 1.0, 3, 1.0), RowSet.dense(dense, m, d), 4},
      {Kernel.of(KernelType.LAPLACIAN, 0.2, 3, 1.0), RowSet.dense(dense, m, d), 0},
      {Kernel.rbf(0.3), RowSet.compact(sparse, m, d * 8), 0},
      {Kernel.of(KernelType.LAPLACIAN, 0.2, 3, 1.0), RowSet.compact(sparse, m, d * 8), 0},
    };
    for (Object[] c : cases) {
      LandmarkKernel kernel = new LandmarkKernel((Kernel) c[0], (RowSet) c[1]);
      int ulps = (Integer) c[2];
      String name = ((Kernel) c[0]).type().paramName() + " " + kernel.path().reason();
      double[] gram = kernel.gram();
      double largest = 0;
      for (double v : gram) {
        largest = Math.max(largest, Math.abs(v));
      }
      for (int t : new int[] {8, 13, 64}) {
        TiledSymmetricMatrix tiles = LandmarkGramTiles.gram(kernel, t, 1);
        double worst = 0;
        for (int j = 0; j < m; j++) {
          for (int i = j; i < m; i++) {
            worst = Math.max(worst, Math.abs(tiles.get(i, j) - gram[i + j * m]));
          }
        }
        assertTrue(worst <= ulps * Math.ulp(largest), name + ", t = " + t + ": " + worst);
        assertArrayEquals(
            tiles.toDense(false),
            LandmarkGramTiles.gram(kernel, t, 3).toDense(false),
            name + " on 3 threads");
      }
      PivotedCholesky.Columns columns = LandmarkGramTiles.columns(kernel);
      double[] column = new double[m];
      TiledSymmetricMatrix tiles = LandmarkGramTiles.gram(kernel, 8, 1);
      for (int j : new int[] {0, 17, m - 1}) {
        columns.column(j, column);
        for (int i = j; i < m; i++) {
          assertEquals(
              gram[i + j * m],
              column[i],
              ulps * Math.ulp(largest),
              name + ": column " + j + " row " + i);
        }
      }
      double[] diagonal = columns.diagonal();
      for (int j = 0; j < m; j++) {
        assertEquals(gram[j + j * m], diagonal[j], 8 * Math.ulp(largest), name + ": diagonal " + j);
      }
    }
  }

  /** m points in R^d around an offset (dense), or with about one entry in sixteen (sparse). */
  private static double[] points(int m, int d, long seed, boolean sparse) {
    Random random = new Random(seed);
    double[] p = new double[m * d];
    for (int i = 0; i < p.length; i++) {
      if (!sparse || random.nextInt(16) == 0) {
        p[i] = (sparse ? 0 : 3.0) + random.nextGaussian();
      }
    }
    for (int j = 0; j < m; j++) {
      p[j * d + (j % d)] += 1.0; // no empty row
    }
    return p;
  }
}
