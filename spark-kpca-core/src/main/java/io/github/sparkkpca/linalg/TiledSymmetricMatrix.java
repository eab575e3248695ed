package io.github.sparkkpca.linalg;

/**
 * A symmetric m×m matrix kept as its lower triangle in square tiles of side t, each tile one
 * column-major {@code double[]}: m is then bounded by the heap, not by one Java array (2³¹ − 1
 * doubles, m ≤ 46,340).
 *
 * <p>Tile (I, J), I ≥ J, holds rows [I·t, min(m, (I+1)·t)) and columns [J·t, min(m, (J+1)·t)),
 * leading dimension its row count; the last tile row and column are partial. A diagonal tile is
 * stored whole (both triangles are allocated; readers use its lower triangle). With T = ⌈m/t⌉ tiles
 * per side the matrix takes T(T+1)/2 tiles, at most 8·(m²/2 + m·t/2 + t²) bytes: 10.0 GB at m =
 * 50,000 (t = 512: 10.1 GB), against 20 GB for the full square. Each tile is a BLAS operand of its
 * own ({@link TiledCholesky}); t = 256 … 512 keeps every call level-3 and cache-sized.
 */
public final class TiledSymmetricMatrix {

  /**
   * The tile side under collectors other than G1: each dgemm update of the factorisation is 2t³ =
   * 268 MFlop.
   */
  public static final int DEFAULT_TILE = 512;

  /**
   * The tile side for this JVM. Under the G1 collector (the JVM's default): the largest t with 8t²
   * + 16 bytes within one heap region (1023 at the 8 MiB regions of a 14 GiB heap, 511 at 2 MiB),
   * so that every tile is a humongous object of exactly one region: G1 places those directly in the
   * old generation and never copies them. Smaller tiles are young objects that every collection
   * copies while the fill runs, and ten gigabytes of them left the free space so scattered that a
   * fit at m = 50,000 in a 14 GiB heap ran out of memory with 3.5 GB free; tiles between half a
   * region and a region would take whole regions for less. Under other collectors {@link
   * #DEFAULT_TILE}.
   */
  public static int defaultTile() {
    long region = g1RegionBytes();
    if (region <= 0) {
      return DEFAULT_TILE;
    }
    int t = (int) Math.sqrt(region / 8.0);
    while (t > 16 && 8L * t * t + 16 > region) {
      t--;
    }
    return t;
  }

  /** G1's region size in bytes, or 0 when G1 is not the collector (or it cannot be read). */
  private static long g1RegionBytes() {
    try {
      com.sun.management.HotSpotDiagnosticMXBean vm =
          java.lang.management.ManagementFactory.getPlatformMXBean(
              com.sun.management.HotSpotDiagnosticMXBean.class);
      if (vm == null || !Boolean.parseBoolean(vm.getVMOption("UseG1GC").getValue())) {
        return 0;
      }
      return Long.parseLong(vm.getVMOption("G1HeapRegionSize").getValue());
    } catch (RuntimeException e) {
      return 0;
    }
  }

  private final int m;
  private final int tile;
  private final int tiles;
  private final double[][] data;

  /** An m×m zero matrix in tiles of side {@code tile}. */
  public TiledSymmetricMatrix(int m, int tile) {
    if (m < 0 || tile < 1) {
      throw new IllegalArgumentException(
          "a tiled matrix needs m >= 0 and a tile side >= 1, got m = " + m + ", tile = " + tile);
    }
    if ((long) tile * tile > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("tile side " + tile + " too large for one array");
    }
    this.m = m;
    this.tile = tile;
    this.tiles = (m + tile - 1) / tile;
    long count = (long) tiles * (tiles + 1) / 2;
    if (count > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "m = " + m + " in tiles of " + tile + " needs " + count + " tiles; use larger tiles");
    }
    this.data = new double[(int) count][];
    for (int i = 0; i < tiles; i++) {
      for (int j = 0; j <= i; j++) {
        data[index(i, j)] = new double[size(i) * size(j)];
      }
    }
  }

  /** Bytes of an m×m matrix in tiles of side t: 8 times the doubles of its T(T+1)/2 tiles. */
  public static long bytes(long m, int tile) {
    long t = (m + tile - 1) / tile;
    long full = m / tile;
    long last = m - full * tile;
    // full×full tiles among the first `full` tile rows, plus the partial last row of tiles.
    long doubles = full * (full + 1) / 2 * tile * tile;
    if (t > full) {
      doubles += full * last * tile + last * last;
    }
    return 8 * doubles;
  }

  /**
   * The same matrix in tiles from a dense symmetric m×m column-major array (lower triangle read).
   */
  public static TiledSymmetricMatrix of(double[] a, int m, int tile) {
    TiledSymmetricMatrix out = new TiledSymmetricMatrix(m, tile);
    for (int bj = 0; bj < out.tiles; bj++) {
      for (int bi = bj; bi < out.tiles; bi++) {
        double[] t = out.tile(bi, bj);
        int rows = out.size(bi);
        for (int c = 0; c < out.size(bj); c++) {
          int j = bj * tile + c;
          System.arraycopy(a, bi * tile + j * m, t, c * rows, rows);
        }
      }
    }
    return out;
  }

  /**
   * The dense m×m column-major matrix (both triangles, the upper mirrored from the lower; the upper
   * triangle of a factor's diagonal tiles is ignored and left zero with {@code lowerOnly}). For
   * tests and small m.
   */
  public double[] toDense(boolean lowerOnly) {
    double[] a = new double[Math.multiplyExact(m, m)];
    for (int j = 0; j < m; j++) {
      for (int i = j; i < m; i++) {
        double v = get(i, j);
        a[i + j * m] = v;
        if (!lowerOnly) {
          a[j + i * m] = v;
        }
      }
    }
    return a;
  }

  /** Entry (i, j) of the lower triangle, i ≥ j. */
  public double get(int i, int j) {
    int bi = i / tile;
    int bj = j / tile;
    return data[index(bi, bj)][(i - bi * tile) + (j - bj * tile) * size(bi)];
  }

  /** Tile (I, J), I ≥ J: column-major, {@link #size}(I) rows, {@link #size}(J) columns (shared). */
  public double[] tile(int bi, int bj) {
    if (bj > bi) {
      throw new IllegalArgumentException("tile (" + bi + ", " + bj + ") is above the diagonal");
    }
    return data[index(bi, bj)];
  }

  /** Rows (or columns) of tile row I: t, or what is left of m in the last one. */
  public int size(int bi) {
    return Math.min(tile, m - bi * tile);
  }

  private static int index(int bi, int bj) {
    return bi * (bi + 1) / 2 + bj;
  }

  /** m, the order. */
  public int order() {
    return m;
  }

  /** t, the tile side. */
  public int tileSize() {
    return tile;
  }

  /** T = ⌈m/t⌉, the tiles per side. */
  public int tiles() {
    return tiles;
  }

  /**
   * y = A·x for an m-vector (both triangles used), tile by tile: m² flops, for power iteration on
   * λ_max. Sequential; the order of the sums is fixed.
   */
  public double[] times(double[] x) {
    double[] y = new double[m];
    for (int bj = 0; bj < tiles; bj++) {
      int cols = size(bj);
      int j0 = bj * tile;
      double[] d = tile(bj, bj);
      Blas.blas().dsymv("L", cols, 1.0, d, 0, cols, x, j0, 1, 1.0, y, j0, 1);
      for (int bi = bj + 1; bi < tiles; bi++) {
        int rows = size(bi);
        int i0 = bi * tile;
        double[] t = tile(bi, bj);
        Blas.blas().dgemv("N", rows, cols, 1.0, t, 0, rows, x, j0, 1, 1.0, y, i0, 1);
        Blas.blas().dgemv("T", rows, cols, 1.0, t, 0, rows, x, i0, 1, 1.0, y, j0, 1);
      }
    }
    return y;
  }

  /**
   * λ_max of a positive semi-definite matrix by power iteration from the all-ones vector (as {@link
   * Inertia#largestEigenvalue}): the Rayleigh quotient, from below, at a relative change of 1e-13
   * or after {@code maxIterations} (m² flops each).
   */
  public double largestEigenvalue(int maxIterations) {
    return Inertia.largestEigenvalue(m, this::times, maxIterations);
  }
}
