package io.github.sparkkpca.linalg;

import java.io.Serializable;
import java.util.Arrays;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;

/**
 * m points of R^d (landmarks, a sample), held either dense (m×d row-major, 8·m·d bytes) or sparse
 * (compressed rows: offsets, column indices increasing within a row, values; 12·nnz + 4·(m+1)
 * bytes). Which form a set takes is a matter of storage only: every method gives the same points
 * either way, and {@link #nnz()} counts the non-zero values in both, so a decision taken from it
 * (the kernel-block path) does not depend on the form. Immutable: the arrays are shared, never
 * modified.
 */
public final class RowSet implements Serializable {

  /** Below this fraction of non-zero values {@link #compact} keeps a set sparse. */
  public static final double SPARSE_STORAGE_DENSITY = 0.5;

  private final int count;
  private final int dim;

  /** m×d row-major values when dense, else the non-zero values row after row. */
  private final double[] values;

  /** Row j's entries are [offsets[j], offsets[j+1]) when sparse; null when dense. */
  private final int[] offsets;

  /** The column of each sparse value; null when dense. */
  private final int[] indices;

  private final long nnz;

  private RowSet(int count, int dim, double[] values, int[] offsets, int[] indices, long nnz) {
    this.count = count;
    this.dim = dim;
    this.values = values;
    this.offsets = offsets;
    this.indices = indices;
    this.nnz = nnz;
  }

  /** m dense rows, m×d row-major (kept, not copied). */
  public static RowSet dense(double[] rowMajor, int m, int d) {
    if (rowMajor.length != (long) m * d) {
      throw new IllegalArgumentException(
          "row array has " + rowMajor.length + " entries, expected " + m + "×" + d);
    }
    long nnz = 0;
    for (double v : rowMajor) {
      if (v != 0) {
        nnz++;
      }
    }
    return new RowSet(m, d, rowMajor, null, null, nnz);
  }

  /**
   * m sparse rows (kept, not copied): row j's columns are indices[offsets[j] .. offsets[j+1]),
   * strictly increasing and in [0, d). Explicit zeros are allowed and not counted by {@link #nnz}.
   *
   * @throws IllegalArgumentException when the arrays do not describe such rows
   */
  public static RowSet sparse(int[] offsets, int[] indices, double[] values, int m, int d) {
    if (offsets.length != m + 1
        || offsets[0] != 0
        || offsets[m] != indices.length
        || indices.length != values.length) {
      throw new IllegalArgumentException(
          "compressed rows: "
              + offsets.length
              + " offsets, "
              + indices.length
              + " indices and "
              + values.length
              + " values do not describe "
              + m
              + " rows");
    }
    long nnz = 0;
    for (int j = 0; j < m; j++) {
      if (offsets[j + 1] < offsets[j]) {
        throw new IllegalArgumentException("compressed rows: offsets decrease at row " + j);
      }
      for (int p = offsets[j]; p < offsets[j + 1]; p++) {
        if (indices[p] < 0 || indices[p] >= d || (p > offsets[j] && indices[p] <= indices[p - 1])) {
          throw new IllegalArgumentException(
              "compressed rows: row " + j + " has column " + indices[p] + " out of order or range");
        }
        if (values[p] != 0) {
          nnz++;
        }
      }
    }
    return new RowSet(m, d, values, offsets, indices, nnz);
  }

  /** The vectors as rows, each kept in its own form's non-zeros (d = their common size). */
  public static RowSet of(Vector[] rows, int d) {
    int m = rows.length;
    long total = 0;
    for (Vector v : rows) {
      if (v.size() != d) {
        throw new IllegalArgumentException("a row has size " + v.size() + ", expected " + d);
      }
      total += v.numNonzeros();
    }
    if (total > SPARSE_STORAGE_DENSITY * m * (double) d || total > Integer.MAX_VALUE - 8) {
      double[] dense = new double[Math.multiplyExact(m, d)];
      for (int j = 0; j < m; j++) {
        scatter(rows[j], dense, j * d);
      }
      return dense(dense, m, d);
    }
    int[] offsets = new int[m + 1];
    int[] indices = new int[(int) total];
    double[] values = new double[(int) total];
    int p = 0;
    for (int j = 0; j < m; j++) {
      p = appendNonZeros(rows[j], indices, values, p);
      offsets[j + 1] = p;
    }
    return new RowSet(m, d, values, offsets, indices, total);
  }

  /**
   * The same points, sparse when at most {@link #SPARSE_STORAGE_DENSITY} of the values are not 0.
   */
  public static RowSet compact(double[] rowMajor, int m, int d) {
    RowSet dense = dense(rowMajor, m, d);
    return dense.nnz <= SPARSE_STORAGE_DENSITY * m * d ? dense.toSparse() : dense;
  }

  /** Writes v's values into {@code out} from {@code offset} (d entries, zeros included). */
  public static void scatter(Vector v, double[] out, int offset) {
    if (v instanceof SparseVector sv) {
      Arrays.fill(out, offset, offset + sv.size(), 0.0);
      int[] idx = sv.indices();
      double[] val = sv.values();
      for (int i = 0; i < idx.length; i++) {
        out[offset + idx[i]] = val[i];
      }
    } else {
      double[] val = v instanceof DenseVector dv ? dv.values() : v.toArray();
      System.arraycopy(val, 0, out, offset, val.length);
    }
  }

  /** Appends v's non-zero values (index order) at position p; returns the next position. */
  private static int appendNonZeros(Vector v, int[] indices, double[] values, int p) {
    if (v instanceof SparseVector sv) {
      int[] idx = sv.indices();
      double[] val = sv.values();
      for (int i = 0; i < idx.length; i++) {
        if (val[i] != 0) {
          indices[p] = idx[i];
          values[p++] = val[i];
        }
      }
    } else {
      double[] val = v.toArray();
      for (int t = 0; t < val.length; t++) {
        if (val[t] != 0) {
          indices[p] = t;
          values[p++] = val[t];
        }
      }
    }
    return p;
  }

  public int count() {
    return count;
  }

  public int dim() {
    return dim;
  }

  public boolean isSparse() {
    return offsets != null;
  }

  /** The number of non-zero values, in either form. */
  public long nnz() {
    return nnz;
  }

  /**
   * The most entries a row stores: in compressed rows its stored entries (explicit zeros included),
   * in the dense form its non-zero values; 0 for an empty set.
   */
  public int maxRowEntries() {
    int most = 0;
    for (int j = 0; j < count; j++) {
      int entries = 0;
      if (isSparse()) {
        entries = offsets[j + 1] - offsets[j];
      } else {
        for (int t = j * dim, end = t + dim; t < end; t++) {
          if (values[t] != 0) {
            entries++;
          }
        }
      }
      most = Math.max(most, entries);
    }
    return most;
  }

  /** nnz/(m·d), 0 for an empty set. */
  public double density() {
    return count == 0 || dim == 0 ? 0.0 : nnz / ((double) count * dim);
  }

  /** Bytes of the arrays held: 8·m·d dense, 12·(stored entries) + 4·(m+1) sparse. */
  public long bytes() {
    return isSparse() ? 12L * values.length + 4L * offsets.length : 8L * values.length;
  }

  /**
   * The m×d row-major values: the array itself when dense (do not modify), a new one when sparse.
   */
  public double[] toDense() {
    if (!isSparse()) {
      return values;
    }
    double[] out = new double[Math.multiplyExact(count, dim)];
    for (int j = 0; j < count; j++) {
      for (int p = offsets[j]; p < offsets[j + 1]; p++) {
        out[j * dim + indices[p]] = values[p];
      }
    }
    return out;
  }

  /** The same points in compressed rows (this set when already sparse; explicit zeros dropped). */
  public RowSet toSparse() {
    if (isSparse()) {
      return this;
    }
    if (nnz > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(nnz + " non-zero values are too many for compressed rows");
    }
    int[] off = new int[count + 1];
    int[] idx = new int[(int) nnz];
    double[] val = new double[(int) nnz];
    int p = 0;
    for (int j = 0; j < count; j++) {
      for (int t = 0; t < dim; t++) {
        double v = values[j * dim + t];
        if (v != 0) {
          idx[p] = t;
          val[p++] = v;
        }
      }
      off[j + 1] = p;
    }
    return new RowSet(count, dim, val, off, idx, nnz);
  }

  /** Row j as a vector: a {@link SparseVector} of its non-zeros when sparse, else dense. */
  public Vector row(int j) {
    if (isSparse()) {
      return Vectors.sparse(
          dim,
          Arrays.copyOfRange(indices, offsets[j], offsets[j + 1]),
          Arrays.copyOfRange(values, offsets[j], offsets[j + 1]));
    }
    return new DenseVector(Arrays.copyOfRange(values, j * dim, (j + 1) * dim));
  }

  /** The first {@code rows} rows (a new set of the same form). */
  public RowSet head(int rows) {
    if (rows == count) {
      return this;
    }
    if (!isSparse()) {
      return dense(Arrays.copyOf(values, rows * dim), rows, dim);
    }
    int end = offsets[rows];
    return sparse(
        Arrays.copyOf(offsets, rows + 1),
        Arrays.copyOf(indices, end),
        Arrays.copyOf(values, end),
        rows,
        dim);
  }

  /**
   * ‖z_j‖² for each row, summed over the stored values in column order (zeros add nothing, so the
   * sums are the same in both forms).
   */
  public double[] sqNorms() {
    return rowSums(v -> v * v);
  }

  /** ‖z_j‖₁ for each row. */
  public double[] l1Norms() {
    return rowSums(Math::abs);
  }

  /** Σ_t term(z_jt) for each row, over the stored values in column order. */
  private double[] rowSums(java.util.function.DoubleUnaryOperator term) {
    double[] out = new double[count];
    for (int j = 0; j < count; j++) {
      int start = isSparse() ? offsets[j] : j * dim;
      int end = isSparse() ? offsets[j + 1] : start + dim;
      double s = 0;
      for (int p = start; p < end; p++) {
        s += term.applyAsDouble(values[p]);
      }
      out[j] = s;
    }
    return out;
  }

  /** Row offsets of the compressed form (shared; null when dense). */
  public int[] offsets() {
    return offsets;
  }

  /** Column indices of the compressed form (shared; null when dense). */
  public int[] indices() {
    return indices;
  }

  /** The stored values: m×d row-major when dense, the compressed values when sparse (shared). */
  public double[] values() {
    return values;
  }
}
