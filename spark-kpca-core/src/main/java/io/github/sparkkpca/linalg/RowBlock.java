package io.github.sparkkpca.linalg;

import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;

/**
 * A reusable buffer of up to {@code capacity} rows of dimension d, stored row-major (equivalently:
 * a d×b column-major matrix for BLAS), with each row's squared norm. Sparse vectors are scattered
 * into the block, so at most one block is ever dense. Allocated once per partition; no allocation
 * per row.
 *
 * <p>{@link #shift} gives the rows minus a centre, with their squared norms, in a second buffer of
 * the same size (allocated on first use): shift-invariant kernels use it so that squared distances
 * expanded as ‖x‖² + ‖z‖² − 2⟨x,z⟩ do not cancel catastrophically for data far from the origin.
 */
public final class RowBlock {

  private final int capacity;
  private final int dim;
  private final double[] values;
  private final double[] sqNorms;
  private int size;
  private double[] shiftedValues;
  private double[] shiftedSqNorms;

  public RowBlock(int capacity, int dim) {
    if (capacity < 1 || dim < 1) {
      throw new IllegalArgumentException(
          "capacity and dimension must be >= 1, got " + capacity + ", " + dim);
    }
    this.capacity = capacity;
    this.dim = dim;
    this.values = new double[Math.multiplyExact(capacity, dim)];
    this.sqNorms = new double[capacity];
  }

  /**
   * Appends a row. The caller has checked its size; the values are validated here.
   *
   * @throws IllegalArgumentException naming {@code column} if the vector has a NaN or infinite
   *     value or a squared norm that overflows (rows are checked before they reach a block, by the
   *     library's one input check, which names the row)
   */
  public void add(Vector v, String column) {
    int offset = size * dim;
    double sq = 0;
    if (v instanceof SparseVector sv) {
      java.util.Arrays.fill(values, offset, offset + dim, 0.0);
      int[] idx = sv.indices();
      double[] val = sv.values();
      for (int i = 0; i < idx.length; i++) {
        double x = val[i];
        values[offset + idx[i]] = x;
        sq += x * x;
      }
    } else {
      double[] val = v instanceof DenseVector dv ? dv.values() : v.toArray();
      System.arraycopy(val, 0, values, offset, dim);
      for (int i = 0; i < dim; i++) {
        sq += val[i] * val[i];
      }
    }
    if (!Double.isFinite(sq)) {
      throw new IllegalArgumentException(
          "Column '"
              + column
              + "' has a vector with a NaN or infinite value, or "
              + "values whose squared norm overflows a double");
    }
    sqNorms[size] = sq;
    size++;
  }

  /**
   * Replaces the block's content by b rows given row-major (b ≤ capacity), computing their norms.
   */
  public void fill(double[] rowMajor, int b) {
    if (b > capacity) {
      throw new IllegalArgumentException("block capacity " + capacity + " < " + b + " rows");
    }
    System.arraycopy(rowMajor, 0, values, 0, b * dim);
    for (int i = 0; i < b; i++) {
      double sq = 0;
      for (int t = i * dim, end = t + dim; t < end; t++) {
        sq += values[t] * values[t];
      }
      sqNorms[i] = sq;
    }
    size = b;
  }

  /**
   * x_i − c for the rows [0, size) of the block, row-major, into a buffer the block owns
   * (overwritten by the next call); {@link #shiftedSqNorms()} then holds ‖x_i − c‖². O(b·d),
   * against the b·m·d of the kernel GEMM that uses it.
   *
   * @param centre c, length d
   * @return the shifted rows (rows [0, size) are valid)
   */
  public double[] shift(double[] centre) {
    if (shiftedValues == null) {
      shiftedValues = new double[values.length];
      shiftedSqNorms = new double[capacity];
    }
    for (int i = 0; i < size; i++) {
      int offset = i * dim;
      double sq = 0;
      for (int t = 0; t < dim; t++) {
        double x = values[offset + t] - centre[t];
        shiftedValues[offset + t] = x;
        sq += x * x;
      }
      shiftedSqNorms[i] = sq;
    }
    return shiftedValues;
  }

  /** ‖x_i − c‖² as of the last {@link #shift}. */
  public double[] shiftedSqNorms() {
    return shiftedSqNorms;
  }

  public boolean isFull() {
    return size == capacity;
  }

  public int size() {
    return size;
  }

  public int dim() {
    return dim;
  }

  public int capacity() {
    return capacity;
  }

  /** The row-major values; rows [0, size) are valid. */
  public double[] values() {
    return values;
  }

  public double[] sqNorms() {
    return sqNorms;
  }

  public void clear() {
    size = 0;
  }
}
