package io.github.sparkkpca.kernel;

import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.linalg.RowSet;
import java.io.Serializable;

/**
 * Sparse landmarks transposed by feature (an inverted index): for each column t that some landmark
 * has non-zero, the landmarks j with z_jt ≠ 0 and their values, columns in increasing order. The
 * pair sums of a sparse row x against all m landmarks then cost Σ_{t∈nz(x)} nnz(Z[:,t]) ≤ m·nnz(x)
 * multiply-adds plus a binary search per non-zero of x, never m·d: inner products ⟨x, z_j⟩ for the
 * inner-product kernels, and for the laplacian kernel the overlap Σ_{t∈both}(|x_t| + |z_t| − |x_t −
 * z_t|) with which ‖x − z‖₁ = ‖x‖₁ + ‖z‖₁ − overlap. Memory: 12·nnz(Z) + 8·(number of columns used)
 * bytes.
 */
final class SparseLandmarks implements Serializable {

  private final int m;

  /** The columns some landmark has non-zero, increasing. */
  private final int[] columns;

  /** Column columns[c]'s entries are [starts[c], starts[c+1]). */
  private final int[] starts;

  private final int[] landmark;
  private final double[] value;

  SparseLandmarks(RowSet points) {
    RowSet z = points.toSparse();
    this.m = z.count();
    int[] offsets = z.offsets();
    int[] indices = z.indices();
    double[] values = z.values();
    int entries = offsets[m];
    // Counting sort of the entries by column; within a column, landmarks stay in increasing order.
    int[] keys = indices.clone();
    java.util.Arrays.sort(keys);
    int distinct = 0;
    for (int p = 0; p < entries; p++) {
      if (p == 0 || keys[p] != keys[p - 1]) {
        distinct++;
      }
    }
    columns = new int[distinct];
    starts = new int[distinct + 1];
    int c = -1;
    for (int p = 0; p < entries; p++) {
      if (p == 0 || keys[p] != keys[p - 1]) {
        columns[++c] = keys[p];
      }
      starts[c + 1]++;
    }
    for (int i = 0; i < distinct; i++) {
      starts[i + 1] += starts[i];
    }
    int[] next = java.util.Arrays.copyOf(starts, distinct);
    landmark = new int[entries];
    value = new double[entries];
    for (int j = 0; j < m; j++) {
      for (int p = offsets[j]; p < offsets[j + 1]; p++) {
        int q = next[java.util.Arrays.binarySearch(columns, indices[p])]++;
        landmark[q] = j;
        value[q] = values[p];
      }
    }
  }

  /**
   * For row i of the block, out[o + j] ← ⟨x_i, z_j⟩ ({@code l1} false) or the overlap
   * Σ_{t∈both}(|x_t| + |z_t| − |x_t − z_t|) ({@code l1} true), j &lt; m. Sums run over the shared
   * columns in increasing order.
   */
  void pairSums(RowBlock block, int i, double[] out, int o, boolean l1) {
    java.util.Arrays.fill(out, o, o + m, 0.0);
    if (block.isSparse()) {
      int[] idx = block.indices();
      double[] val = block.sparseValues();
      int from = 0;
      for (int p = block.offsets()[i], end = block.offsets()[i + 1]; p < end; p++) {
        int c = java.util.Arrays.binarySearch(columns, from, columns.length, idx[p]);
        if (c < 0) {
          from = -c - 1;
          continue;
        }
        from = c + 1;
        accumulate(val[p], c, out, o, l1);
      }
    } else {
      double[] rows = block.values();
      int base = i * block.dim();
      for (int c = 0; c < columns.length; c++) {
        double x = rows[base + columns[c]];
        if (x != 0) {
          accumulate(x, c, out, o, l1);
        }
      }
    }
  }

  private void accumulate(double x, int c, double[] out, int o, boolean l1) {
    if (l1) {
      double ax = Math.abs(x);
      for (int q = starts[c]; q < starts[c + 1]; q++) {
        double z = value[q];
        out[o + landmark[q]] += ax + Math.abs(z) - Math.abs(x - z);
      }
    } else {
      for (int q = starts[c]; q < starts[c + 1]; q++) {
        out[o + landmark[q]] += x * value[q];
      }
    }
  }

  /** Bytes held. */
  long bytes() {
    return 12L * value.length + 8L * columns.length;
  }
}
