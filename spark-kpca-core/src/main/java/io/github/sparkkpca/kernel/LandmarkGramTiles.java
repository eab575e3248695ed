package io.github.sparkkpca.kernel;

import io.github.sparkkpca.linalg.DriverThreads;
import io.github.sparkkpca.linalg.PivotedCholesky;
import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.linalg.TiledSymmetricMatrix;

/**
 * K_mm without one m×m array: in tiles ({@link #gram}, for a tiled Cholesky factorisation) or a
 * column at a time ({@link #columns}, for a pivoted one), both from the landmarks by the kernel's
 * own block code ({@link LandmarkKernel#compute}: a landmark is scored as a row, with the same
 * shift, norms and cancellation check as a row of the data).
 *
 * <p>The values are those of {@link LandmarkKernel#gram} to rounding: the inner products come from
 * a GEMM where {@code gram} uses a SYRK on the same operands (on the sparse path, and for kernels
 * computed directly such as laplacian, {@code gram} scores the landmarks as rows too and the values
 * are the same bit for bit). {@code LandmarkGramTilesTest} measures the difference.
 */
public final class LandmarkGramTiles {

  private LandmarkGramTiles() {}

  /** {@link #gram(LandmarkKernel, int, int)} on {@link DriverThreads#count()} threads. */
  public static TiledSymmetricMatrix gram(LandmarkKernel kernel, int tile) {
    return gram(kernel, tile, DriverThreads.count());
  }

  /**
   * K_mm in tiles of side {@code tile}, lower triangle: each tile column J is one block of its t
   * landmarks scored against all m (m·t kernel values, 2m·t·d flops on the dense path; m²·d in all,
   * twice the lower triangle's, which the m³/3 flops of the factorisation dwarf), copied into the
   * tiles at and below the diagonal. Tile columns are independent tasks over {@code threads}
   * threads, so the result does not depend on their number. Memory: the tiles ({@link
   * TiledSymmetricMatrix#bytes}) and 8·m·t bytes per running task.
   */
  public static TiledSymmetricMatrix gram(LandmarkKernel kernel, int tile, int threads) {
    int m = kernel.numLandmarks();
    TiledSymmetricMatrix out = new TiledSymmetricMatrix(m, tile);
    try (DriverThreads.Team team = DriverThreads.team(threads)) {
      team.forEach(
          out.tiles(),
          bj -> {
            int j0 = bj * tile;
            int cols = out.size(bj);
            RowBlock block = kernel.newBlock(cols);
            for (int c = 0; c < cols; c++) {
              block.add(kernel.points().row(j0 + c), "landmarks");
            }
            // Per task, not per thread: a thread-local buffer would outlive the fill on the caller.
            double[] values = new double[Math.multiplyExact(m, cols)];
            kernel.compute(block, values);
            for (int bi = bj; bi < out.tiles(); bi++) {
              int rows = out.size(bi);
              double[] t = out.tile(bi, bj);
              for (int c = 0; c < cols; c++) {
                System.arraycopy(values, c * m + bi * tile, t, c * rows, rows);
              }
            }
          });
    }
    return out;
  }

  /**
   * K_mm's diagonal and columns on demand, for {@link PivotedCholesky}: the diagonal k(z_j, z_j)
   * from each landmark's norm (the kernel's closed form, m operations), a column by scoring one
   * landmark against all m (m·d flops on the dense path). Not thread-safe (one block reused).
   */
  public static PivotedCholesky.Columns columns(LandmarkKernel kernel) {
    int m = kernel.numLandmarks();
    RowBlock block = kernel.newBlock(1);
    return new PivotedCholesky.Columns() {
      @Override
      public int order() {
        return m;
      }

      @Override
      public double[] diagonal() {
        double[] sqNorms = kernel.points().sqNorms();
        double[] out = new double[m];
        for (int j = 0; j < m; j++) {
          out[j] = kernel.kernel().diagonal(sqNorms[j]);
        }
        return out;
      }

      @Override
      public void column(int j, double[] out) {
        block.clear();
        block.add(kernel.points().row(j), "landmarks");
        kernel.compute(block, out);
      }
    };
  }
}
