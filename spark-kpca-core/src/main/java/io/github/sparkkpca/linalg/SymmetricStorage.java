package io.github.sparkkpca.linalg;

/** Copies between the triangles of a symmetric column-major matrix. */
public final class SymmetricStorage {

  /** Side of the tiles of a transposed copy: both the read and the written tile stay in cache. */
  private static final int TILE = 64;

  private SymmetricStorage() {}

  /** One entry (i, j), i ≤ j, of the upper triangle. */
  @FunctionalInterface
  interface UpperEntry {
    void visit(int i, int j);
  }

  /**
   * Visits the entries (i, j) of the upper triangle of an n×n matrix, i &lt; j (or i ≤ j with
   * {@code diagonal}), tile by tile: a body that also touches (j, i) reads along a row, a cache
   * miss per entry at n = 8000 in a plain column loop (about 1 s per matrix), but stays in cache
   * within a tile.
   */
  static void forEachUpper(int n, boolean diagonal, UpperEntry entry) {
    int past = diagonal ? 1 : 0;
    for (int jb = 0; jb < n; jb += TILE) {
      int jEnd = Math.min(n, jb + TILE);
      for (int ib = 0; ib < jEnd; ib += TILE) {
        for (int j = jb; j < jEnd; j++) {
          for (int i = ib, iEnd = Math.min(j + past, ib + TILE); i < iEnd; i++) {
            entry.visit(i, j);
          }
        }
      }
    }
  }

  /**
   * Fills the strictly lower triangle of the n×n column-major {@code a} from its upper triangle.
   */
  public static void mirrorUpper(double[] a, int n) {
    forEachUpper(n, false, (i, j) -> a[j + i * n] = a[i + j * n]);
  }

  /** Transposes the n×n column-major {@code a} in place. */
  public static void transpose(double[] a, int n) {
    forEachUpper(
        n,
        false,
        (i, j) -> {
          double upper = a[i + j * n];
          a[i + j * n] = a[j + i * n];
          a[j + i * n] = upper;
        });
  }
}
