package io.github.sparkkpca.linalg;

/** Copies between the triangles of a symmetric column-major matrix. */
public final class SymmetricStorage {

  /** Side of the tiles of a transposed copy: both the read and the written tile stay in cache. */
  private static final int TILE = 64;

  private SymmetricStorage() {
  }

  /**
   * Fills the strictly lower triangle of the n×n column-major {@code a} from its upper triangle, in tiles
   * (a plain loop reads the upper triangle along rows, a cache miss per entry at n = 8000: about 1 s).
   */
  public static void mirrorUpper(double[] a, int n) {
    for (int jb = 0; jb < n; jb += TILE) {
      int jEnd = Math.min(n, jb + TILE);
      for (int ib = 0; ib < jEnd; ib += TILE) {
        for (int j = jb; j < jEnd; j++) {
          for (int i = ib, iEnd = Math.min(j, ib + TILE); i < iEnd; i++) {
            a[j + i * n] = a[i + j * n];
          }
        }
      }
    }
  }

  /** Transposes the n×n column-major {@code a} in place, in tiles (see {@link #mirrorUpper}). */
  public static void transpose(double[] a, int n) {
    for (int jb = 0; jb < n; jb += TILE) {
      int jEnd = Math.min(n, jb + TILE);
      for (int ib = 0; ib < jEnd; ib += TILE) {
        for (int j = jb; j < jEnd; j++) {
          for (int i = ib, iEnd = Math.min(j, ib + TILE); i < iEnd; i++) {
            double upper = a[i + j * n];
            a[i + j * n] = a[j + i * n];
            a[j + i * n] = upper;
          }
        }
      }
    }
  }
}
