package io.github.sparkkpca.linalg;

import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;

/**
 * A reusable buffer of up to {@code capacity} rows of dimension d, with each row's squared norm.
 * Allocated once per partition; no allocation per row (a sparse block's arrays grow to the largest
 * block's non-zeros and stay). Two forms, fixed when the block is made:
 *
 * <ul>
 *   <li><b>dense</b> ({@link #RowBlock(int, int)}): rows row-major (equivalently a d×b column-major
 *       matrix for BLAS), 8·b·d bytes; sparse vectors are scattered into it;
 *   <li><b>sparse</b> ({@link #sparse(int, int)}): the rows' non-zeros in compressed rows ({@link
 *       #offsets()}, {@link #indices()}, {@link #sparseValues()}), 12 bytes per non-zero, never
 *       scattered into b×d: dense vectors are stored by their non-zeros too, so a column mixing
 *       sparse and dense vectors is one kind of block. {@link #values()} scatters such a block into
 *       a dense buffer on demand (allocated on first use), for code that needs the dense rows.
 * </ul>
 *
 * <p>{@link #shift} gives the rows minus a centre, with their squared norms, in a second buffer of
 * the same size (allocated on first use): shift-invariant kernels use it so that squared distances
 * expanded as ‖x‖² + ‖z‖² − 2⟨x,z⟩ do not cancel catastrophically for data far from the origin.
 * {@link #shiftSparse} does the same for a centre given by its non-zeros, into a sparse block (the
 * sparse kernel-block path), so the shifted rows stay sparse.
 */
public final class RowBlock {

  private final int capacity;
  private final int dim;
  private final boolean sparse;
  private double[] values;
  private final double[] sqNorms;
  private int size;

  /** Sparse form: row i's entries are [offsets[i], offsets[i+1]). */
  private int[] offsets;

  private int[] indices;
  private double[] sparseValues;

  /** Sparse form: ‖x_i‖₁. */
  private double[] l1Norms;

  /** Sparse form: the number of rows scattered into {@link #values} (−1: none yet). */
  private int scattered = -1;

  private double[] shiftedValues;
  private double[] shiftedSqNorms;

  /** The sparse block {@link #shiftSparse} fills (allocated on first use). */
  private RowBlock shiftedRows;

  /** A dense block. */
  public RowBlock(int capacity, int dim) {
    this(capacity, dim, false);
  }

  private RowBlock(int capacity, int dim, boolean sparse) {
    if (capacity < 1 || dim < 1) {
      throw new IllegalArgumentException(
          "capacity and dimension must be >= 1, got " + capacity + ", " + dim);
    }
    this.capacity = capacity;
    this.dim = dim;
    this.sparse = sparse;
    this.sqNorms = new double[capacity];
    if (sparse) {
      this.offsets = new int[capacity + 1];
      this.indices = new int[16];
      this.sparseValues = new double[16];
      this.l1Norms = new double[capacity];
    } else {
      this.values = new double[Math.multiplyExact(capacity, dim)];
    }
  }

  /** A sparse block: memory proportional to the rows' non-zeros, never b×d. */
  public static RowBlock sparse(int capacity, int dim) {
    return new RowBlock(capacity, dim, true);
  }

  /** A sparse block when {@code sparse}, else a dense one. */
  public static RowBlock of(int capacity, int dim, boolean sparse) {
    return new RowBlock(capacity, dim, sparse);
  }

  /**
   * The width, in doubles, that a row of a block takes, which block sizes are chosen by (rows per
   * block ≈ a fixed budget / (m + width + k)): d for a dense block, whose rows are d doubles; for a
   * sparse block, whose rows hold only their stored entries (12 bytes each: an index and a value),
   * the doubles those take, 1.5 × {@code maxStoredEntries} (the most entries a row holds), at most
   * d. The library's one rule: every stage sizes its blocks by it, from a scan of the rows when
   * there is one, else from what the fitted model knows (a Nyström model's landmarks). Sizing
   * sparse blocks by d (2^18 for hashed text) made them 16 rows, and the m×m BLAS calls per block
   * ran at memory speed; sized by the non-zeros, blocks of the same bytes hold hundreds of rows.
   *
   * @param d the dimension of the rows
   * @param sparse whether the block holds rows by their non-zeros ({@link #sparse(int, int)})
   * @param maxStoredEntries the most stored entries of a row (ignored for a dense block)
   */
  public static int width(int d, boolean sparse, long maxStoredEntries) {
    if (!sparse) {
      return d;
    }
    return (int) Math.max(1, Math.min(d, (3 * Math.max(1, maxStoredEntries) + 1) / 2));
  }

  /** Whether rows are held by their non-zeros ({@link #sparse}). */
  public boolean isSparse() {
    return sparse;
  }

  /**
   * Appends a row. The caller has checked its size; the values are validated here.
   *
   * @throws IllegalArgumentException naming {@code column} if the vector has a NaN or infinite
   *     value or a squared norm that overflows (rows are checked before they reach a block, by the
   *     library's one input check, which names the row)
   */
  public void add(Vector v, String column) {
    if (sparse) {
      addSparse(v, column);
      return;
    }
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
    requireFinite(sq, column);
    sqNorms[size] = sq;
    size++;
  }

  private static void requireFinite(double sq, String column) {
    if (!Double.isFinite(sq)) {
      throw new IllegalArgumentException(
          "Column '"
              + column
              + "' has a vector with a NaN or infinite value, or "
              + "values whose squared norm overflows a double");
    }
  }

  /** Appends v's non-zeros (a dense vector's too) to the compressed rows. */
  private void addSparse(Vector v, String column) {
    int start = offsets[size];
    int p = start;
    double sq = 0;
    double l1 = 0;
    if (v instanceof SparseVector sv) {
      int[] idx = sv.indices();
      double[] val = sv.values();
      reserve(start + idx.length);
      for (int i = 0; i < idx.length; i++) {
        double x = val[i];
        if (x != 0) {
          indices[p] = idx[i];
          sparseValues[p++] = x;
          sq += x * x;
          l1 += Math.abs(x);
        }
      }
    } else {
      double[] val = v instanceof DenseVector dv ? dv.values() : v.toArray();
      reserve(start + val.length);
      for (int t = 0; t < val.length; t++) {
        double x = val[t];
        if (x != 0) {
          indices[p] = t;
          sparseValues[p++] = x;
          sq += x * x;
          l1 += Math.abs(x);
        }
      }
    }
    requireFinite(sq, column);
    sqNorms[size] = sq;
    l1Norms[size] = l1;
    offsets[++size] = p;
    scattered = -1;
  }

  private void reserve(int entries) {
    if (entries > indices.length) {
      int grown = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(entries, 2L * indices.length));
      indices = java.util.Arrays.copyOf(indices, grown);
      sparseValues = java.util.Arrays.copyOf(sparseValues, grown);
    }
  }

  /**
   * Replaces the block's content by b rows given row-major (b ≤ capacity), computing their norms.
   */
  public void fill(double[] rowMajor, int b) {
    if (b > capacity) {
      throw new IllegalArgumentException("block capacity " + capacity + " < " + b + " rows");
    }
    if (sparse) {
      clear();
      for (int i = 0; i < b; i++) {
        addSparse(
            new DenseVector(java.util.Arrays.copyOfRange(rowMajor, i * dim, (i + 1) * dim)),
            "rows");
      }
      return;
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
    double[] values = values();
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

  /**
   * x_i − c for the rows [0, size) of the block, c given by its non-zero coordinates (the columns
   * {@code centreColumns}, increasing, and their values), as a sparse block this block owns
   * (overwritten by the next call) whose {@link #sqNorms()} are ‖x_i − c‖². Row i of the result
   * holds the non-zeros of x_i − c, within nz(x_i) ∪ supp(c) (a row lacking a column of supp(c)
   * gets the entry −c_t), in increasing columns: a merge of the two sorted lists, so nothing of
   * size d is allocated and a row costs O(nnz(x_i) + |supp c|) (O(d) for a row of a dense block,
   * read from its values); 3 flops per entry. Rows given sparse or dense give the same entries and
   * norms, summed in column order.
   */
  public RowBlock shiftSparse(int[] centreColumns, double[] centreValues) {
    if (shiftedRows == null) {
      shiftedRows = sparse(capacity, dim);
    }
    RowBlock out = shiftedRows;
    out.clear();
    int supp = centreColumns.length;
    double[] dense = sparse ? null : values;
    for (int i = 0; i < size; i++) {
      int start = out.offsets[i];
      int rowEntries = sparse ? offsets[i + 1] - offsets[i] : dim;
      out.reserve(start + Math.min(dim, rowEntries + supp));
      int p = start;
      double sq = 0;
      double l1 = 0;
      int a = sparse ? offsets[i] : 0;
      int aEnd = sparse ? offsets[i + 1] : dim;
      int k = 0;
      while (a < aEnd || k < supp) {
        int ta = a < aEnd ? (sparse ? indices[a] : a) : Integer.MAX_VALUE;
        int tc = k < supp ? centreColumns[k] : Integer.MAX_VALUE;
        int t;
        double v;
        if (ta < tc) {
          t = ta;
          v = sparse ? sparseValues[a] : dense[i * dim + a];
          a++;
        } else if (tc < ta) {
          t = tc;
          v = -centreValues[k++];
        } else {
          t = ta;
          v = (sparse ? sparseValues[a] : dense[i * dim + a]) - centreValues[k++];
          a++;
        }
        if (v != 0) {
          out.indices[p] = t;
          out.sparseValues[p++] = v;
          sq += v * v;
          l1 += Math.abs(v);
        }
      }
      out.sqNorms[i] = sq;
      out.l1Norms[i] = l1;
      out.offsets[++out.size] = p;
    }
    return out;
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

  /**
   * The row-major values; rows [0, size) are valid. A sparse block scatters its rows into a b×d
   * buffer here (allocated on first use, kept until the block's rows change): code on the sparse
   * path reads {@link #offsets()}, {@link #indices()} and {@link #sparseValues()} instead.
   */
  public double[] values() {
    if (sparse && scattered != size) {
      if (values == null) {
        values = new double[Math.multiplyExact(capacity, dim)];
      }
      java.util.Arrays.fill(values, 0, size * dim, 0.0);
      for (int i = 0; i < size; i++) {
        for (int p = offsets[i]; p < offsets[i + 1]; p++) {
          values[i * dim + indices[p]] = sparseValues[p];
        }
      }
      scattered = size;
    }
    return values;
  }

  /** Sparse form: row i's entries are [offsets[i], offsets[i+1]) of the two arrays below. */
  public int[] offsets() {
    return offsets;
  }

  /** Sparse form: the column of each entry (increasing within a row). */
  public int[] indices() {
    return indices;
  }

  /** Sparse form: the value of each entry (non-zero). */
  public double[] sparseValues() {
    return sparseValues;
  }

  /** Sparse form: ‖x_i‖₁ of each row. */
  public double[] l1Norms() {
    return l1Norms;
  }

  public double[] sqNorms() {
    return sqNorms;
  }

  public void clear() {
    size = 0;
    scattered = -1;
  }
}
