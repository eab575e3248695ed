package io.github.sparkkpca.linalg;

import dev.ludovic.netlib.blas.BLAS;
import org.netlib.util.intW;

/**
 * The Cholesky factor A = L·Lᵀ of a symmetric positive definite matrix kept in tiles ({@link
 * TiledSymmetricMatrix}), and the whitening W = L⁻ᵀ it gives: W·Wᵀ = L⁻ᵀL⁻¹ = A⁻¹, rank r = m. This
 * is the same W as the dense route's R⁻¹ (A = RᵀR, R = Lᵀ; {@link Cholesky}), so the Nyström
 * features φ = Wᵀk = L⁻¹k are the same to rounding.
 *
 * <p><b>Factorisation</b> (in place, LAPACK's right-looking blocked {@code dpotrf} with tiles for
 * blocks): for each tile column K, {@code dpotrf} of the diagonal tile, {@code dtrsm} of the tiles
 * below it (L_IK = A_IK·L_KK⁻ᵀ), then the trailing update A_IJ −= L_IK·L_JKᵀ of every tile I ≥ J
 * &gt; K ({@code dsyrk} on the diagonal, {@code dgemm} below). m³/3 flops, no memory beyond the
 * tiles. The trsm's and the updates of one step are independent tile by tile and run over the
 * driver's threads ({@link DriverThreads}); each tile receives the same BLAS calls in the same
 * order whatever the number of threads, so the factor is the same bit for bit on any thread count.
 *
 * <p><b>Solves</b> with an m×l panel (one column-major array, m·l &lt; 2³¹): {@link
 * #transposeTimes} = L⁻¹Y (forward substitution by tiles), {@link #times} = L⁻ᵀQ (backward): m²·l
 * flops each, tile-level updates over the threads as above (deterministic), 8·m·l bytes beside the
 * tiles.
 */
public final class TiledCholesky implements WhiteningFactor {

  /** A non-positive pivot: the matrix is not numerically positive definite. */
  public static final class NotPositiveDefinite extends ArithmeticException {
    private final int pivot;

    NotPositiveDefinite(int pivot, int m) {
      super(
          "the "
              + m
              + "×"
              + m
              + " matrix is not numerically positive definite: Cholesky pivot "
              + pivot
              + " is not positive (rank-deficient; use a rank-revealing factor)");
      this.pivot = pivot;
    }

    /** The 0-based row whose pivot failed. */
    public int pivot() {
      return pivot;
    }
  }

  private final TiledSymmetricMatrix l;
  private final int threads;

  private TiledCholesky(TiledSymmetricMatrix l, int threads) {
    this.l = l;
    this.threads = threads;
  }

  /** {@link #factor(TiledSymmetricMatrix, int)} on {@link DriverThreads#count()} threads. */
  public static TiledCholesky factor(TiledSymmetricMatrix a) {
    return factor(a, DriverThreads.count());
  }

  /**
   * Factorises {@code a} in place (its tiles become L's; the upper triangle of the diagonal tiles
   * is left as it was and never read).
   *
   * @throws NotPositiveDefinite at the first non-positive pivot ({@code a} is then partly
   *     overwritten)
   */
  public static TiledCholesky factor(TiledSymmetricMatrix a, int threads) {
    BLAS blas = Blas.blas();
    int tiles = a.tiles();
    intW info = new intW(0);
    try (DriverThreads.Team team = DriverThreads.team(threads)) {
      for (int k = 0; k < tiles; k++) {
        int kb = a.size(k);
        double[] diagonal = a.tile(k, k);
        Blas.lapack().dpotrf("L", kb, diagonal, kb, info);
        if (info.val > 0) {
          throw new NotPositiveDefinite(k * a.tileSize() + info.val - 1, a.order());
        }
        SymmetricEigen.check("dpotrf", info, "factorisation");
        int below = tiles - k - 1;
        int step = k;
        team.forEach(
            below,
            task -> {
              int i = step + 1 + task;
              blas.dtrsm(
                  "R", "L", "T", "N", a.size(i), kb, 1.0, diagonal, kb, a.tile(i, step), a.size(i));
            });
        // Trailing tiles (I, J), K < J ≤ I, numbered row by row; the diagonal ones are dsyrk.
        int trailing = below * (below + 1) / 2;
        team.forEach(
            trailing,
            task -> {
              int row = (int) ((Math.sqrt(8.0 * task + 1) - 1) / 2);
              while (row * (row + 1) / 2 > task) {
                row--;
              }
              while ((row + 1) * (row + 2) / 2 <= task) {
                row++;
              }
              int i = step + 1 + row;
              int j = step + 1 + (task - row * (row + 1) / 2);
              int rows = a.size(i);
              int cols = a.size(j);
              if (i == j) {
                blas.dsyrk(
                    "L", "N", rows, kb, -1.0, a.tile(i, step), rows, 1.0, a.tile(i, i), rows);
              } else {
                blas.dgemm(
                    "N",
                    "T",
                    rows,
                    cols,
                    kb,
                    -1.0,
                    a.tile(i, step),
                    rows,
                    a.tile(j, step),
                    cols,
                    1.0,
                    a.tile(i, j),
                    rows);
              }
            });
      }
    }
    return new TiledCholesky(a, threads);
  }

  /** The factor L (lower triangle of the tiles; shared). */
  public TiledSymmetricMatrix factor() {
    return l;
  }

  @Override
  public int landmarks() {
    return l.order();
  }

  @Override
  public int rank() {
    return l.order();
  }

  /** W·Q = L⁻ᵀQ: solves Lᵀ·X = Q (backward substitution by tiles), m²·l flops. */
  @Override
  public double[] times(double[] q, int columns) {
    double[][] x = split(q, columns);
    BLAS blas = Blas.blas();
    try (DriverThreads.Team team = DriverThreads.team(threads)) {
      for (int j = l.tiles() - 1; j >= 0; j--) {
        int jb = l.size(j);
        blas.dtrsm("L", "L", "T", "N", jb, columns, 1.0, l.tile(j, j), jb, x[j], jb);
        int step = j;
        team.forEach(
            j,
            i ->
                // X_I −= L_JIᵀ X_J, L_JI the tile (J, I) below the diagonal.
                blas.dgemm(
                    "T",
                    "N",
                    l.size(i),
                    columns,
                    jb,
                    -1.0,
                    l.tile(step, i),
                    jb,
                    x[step],
                    jb,
                    1.0,
                    x[i],
                    l.size(i)));
      }
    }
    return join(x, columns);
  }

  /** Wᵀ·Y = L⁻¹Y: solves L·Z = Y (forward substitution by tiles), m²·l flops. */
  @Override
  public double[] transposeTimes(double[] y, int columns) {
    double[][] z = split(y, columns);
    BLAS blas = Blas.blas();
    try (DriverThreads.Team team = DriverThreads.team(threads)) {
      for (int j = 0; j < l.tiles(); j++) {
        int jb = l.size(j);
        blas.dtrsm("L", "L", "N", "N", jb, columns, 1.0, l.tile(j, j), jb, z[j], jb);
        int step = j;
        team.forEach(
            l.tiles() - j - 1,
            task -> {
              int i = step + 1 + task;
              // Z_I −= L_IJ Z_J.
              blas.dgemm(
                  "N",
                  "N",
                  l.size(i),
                  columns,
                  jb,
                  -1.0,
                  l.tile(i, step),
                  l.size(i),
                  z[step],
                  jb,
                  1.0,
                  z[i],
                  l.size(i));
            });
      }
    }
    return join(z, columns);
  }

  /** The rows of an m×l column-major panel by tile rows, each its own column-major array. */
  private double[][] split(double[] panel, int columns) {
    int m = l.order();
    if (columns < 0 || panel.length < (long) m * columns) {
      throw new IllegalArgumentException(
          "a panel of " + panel.length + " values for " + m + "×" + columns);
    }
    double[][] parts = new double[l.tiles()][];
    for (int i = 0; i < l.tiles(); i++) {
      int rows = l.size(i);
      int i0 = i * l.tileSize();
      double[] part = new double[rows * columns];
      for (int c = 0; c < columns; c++) {
        System.arraycopy(panel, i0 + c * m, part, c * rows, rows);
      }
      parts[i] = part;
    }
    return parts;
  }

  private double[] join(double[][] parts, int columns) {
    int m = l.order();
    double[] panel = new double[Math.multiplyExact(m, columns)];
    for (int i = 0; i < l.tiles(); i++) {
      int rows = l.size(i);
      int i0 = i * l.tileSize();
      for (int c = 0; c < columns; c++) {
        System.arraycopy(parts[i], c * rows, panel, i0 + c * m, rows);
      }
    }
    return panel;
  }
}
