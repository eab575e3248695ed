package io.github.sparkkpca.kernel;

import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.linalg.RowSet;
import io.github.sparkkpca.linalg.SymmetricStorage;
import java.io.Serializable;

/**
 * A kernel bound to m landmarks z_1..z_m: computes k_x = (k(x,z_1), …, k(x,z_m)) for a block of
 * rows. The landmark norms are computed once here, so workers never recompute them.
 *
 * <p><b>Centre.</b> For the rbf kernel, whose blocks expand ‖x−z‖² = ‖x‖² + ‖z‖² − 2⟨x,z⟩ around a
 * GEMM, rows and landmarks are shifted by a centre c near the landmark mean before the GEMM: the
 * kernel is shift-invariant, and the cancellation error of the expansion, about ε·(‖x−c‖² +
 * ‖z−c‖²), is then of the order of ε times the squared spread of the data instead of ε·‖x‖² (for
 * rows 1e8 + N(0,1), the unshifted error is larger than the distances). Each coordinate of c is the
 * landmark mean rounded to a multiple of the largest power of two not above the landmarks'
 * half-range in that coordinate: the shifted values stay within 1.5 half-ranges, and data on a
 * coarse grid stay on it (integers near the origin are shifted by an integer, usually 0, so their
 * distances remain exact). Shifting a row costs O(d), against the O(m·d) of its kernel vector. The
 * centre is a function of the landmarks only, computed here in a fixed order, so a model rebuilt
 * from its saved landmarks computes bit-identical kernel values without storing it. Other kernels
 * use the raw values (the laplacian kernel sums coordinate differences directly and needs no
 * shift).
 *
 * <p><b>Sparse path.</b> When {@link KernelBlockPath#choose} says so (sparse landmarks, a kernel
 * with a sparse form), the landmarks are kept as their non-zeros, transposed by feature ({@link
 * SparseLandmarks}), and a row's kernel vector comes from its non-zeros: the inner products ⟨x,z_j⟩
 * (or, for the laplacian kernel, the L1 overlaps) at Σ_{t∈nz(x)} nnz(Z[:,t]) ≤ m·nnz(x)
 * multiply-adds, then the family's map with ‖x‖², ‖z‖² (rbf: ‖x−z‖² = ‖x‖² + ‖z‖² − 2⟨x,z⟩, clamped
 * at 0) or ‖x‖₁, ‖z‖₁. Nothing of size d is allocated per row or per landmark: rows come in a
 * sparse {@link RowBlock} ({@link #newBlock}); a dense block is read by the landmarks' columns.
 *
 * <p><b>Centre on the sparse path.</b> The rbf kernel is shifted here too, by the same centre: the
 * rule above applied to each column of the landmarks, absent entries counting as 0 ({@link
 * SparseLandmarks#centre}, bit-identical to {@link #centreOf} on the dense landmarks). Its non-zero
 * coordinates are columns stored in more than a fifth of the landmarks (a column mostly absent has
 * a mean within a quarter of its half-range of 0, which rounds to 0), so |supp c| &lt; 5·nnz(Z)/m,
 * and for most sparse data c = 0 and nothing is shifted (the blocks are bit for bit those of the
 * unshifted expansion). When c ≠ 0, landmarks and rows are shifted on supp(c) only ({@link
 * RowBlock#shiftSparse}: a row lacking such a column gets the entry −c_t), so x − c keeps nnz(x) +
 * |supp c| entries at most; pair sums and squared norms are those of the shifted values, the same
 * values the dense path computes. The expansion's error in ‖x−z‖² is then at most about
 * 2(n+2)ε·(‖x−c‖² + ‖z−c‖²), n the entries summed, as on the dense path, instead of ε·(‖x‖² +
 * ‖z‖²): for rows sharing a column of value 1e7 (a bias, a year, an id-like feature) the unshifted
 * error exceeded the distances (1e7² · 2ε ≈ 0.04 against distances of 0.1). Per row the shift costs
 * a merge of nnz(x) + |supp c| entries (4 flops and 12 bytes written per entry) and the pair sums
 * over supp(c), whose shifted landmark columns hold up to m entries: at most 2·m·|supp c| more
 * flops. The shifted landmarks take at most 12·(nnz(Z) + m·|supp c|) &lt; 72·nnz(Z) bytes. K_mm
 * ({@link #gram}) shifts the landmarks as rows, so a landmark scored as a row gets its K_mm column.
 * The centre is a function of the landmarks only: a model rebuilt from its saved landmarks shifts
 * by the same c and scores bit-identically, and nothing new is stored.
 *
 * <p><b>What the centre cannot remove.</b> A large column stored in some rows only, or with two
 * clusters of values, still cancels in the expansion, on both paths. Every value whose expanded
 * distance cannot be vouched for to {@link #CANCELLATION_TOLERANCE} is recomputed from coordinate
 * differences ({@link Cancellation}: a bound on the expansion's rounding error from the norms and
 * the computed distance, never from the computed kernel value, which may have underflowed to 0;
 * about 10 flops per pair, nnz(x) + nnz(z) operations per recomputed pair, d on the dense path).
 */
public final class LandmarkKernel implements Serializable {

  private final Kernel kernel;
  private final RowSet points;
  private final KernelBlockPath path;

  /** The dense path's m×d row-major landmarks; null on the sparse path. */
  private final double[] landmarks;

  private final int m;
  private final int d;

  /** The sparse path's landmarks transposed by feature; null on the dense path. */
  private final SparseLandmarks sparse;

  /** ‖z_j‖₁ on the sparse path of a kernel with an L1 form, else null. */
  private final double[] landmarkL1Norms;

  /**
   * The dense path's c (length d) for a shift-invariant kernel with an inner-product form (rbf),
   * else null.
   */
  private final double[] centre;

  /** The sparse path's c by its non-zeros, null when c = 0 or the kernel is not shifted. */
  private final SparseLandmarks.Centre sparseCentre;

  /**
   * The landmarks as the kernel block sees them: z_j − c with a centre, else the landmarks
   * themselves.
   */
  private final double[] blockLandmarks;

  /** ‖z_j − c‖² with a centre, else ‖z_j‖². */
  private final double[] landmarkSqNorms;

  /**
   * @param kernel the kernel
   * @param landmarks m×d row-major landmarks
   * @param m number of landmarks
   * @param d dimension
   */
  public LandmarkKernel(Kernel kernel, double[] landmarks, int m, int d) {
    this(kernel, RowSet.dense(landmarks, m, d));
  }

  /** The kernel bound to these landmarks, on the path {@link KernelBlockPath#choose} gives. */
  public LandmarkKernel(Kernel kernel, RowSet points) {
    this(kernel, points, KernelBlockPath.choose(kernel.type(), points));
  }

  /** On a given path (the measurement of the crossover compares both on the same landmarks). */
  LandmarkKernel(Kernel kernel, RowSet points, KernelBlockPath path) {
    this.kernel = kernel;
    this.points = points;
    this.m = points.count();
    this.d = points.dim();
    this.path = path;
    if (path.sparse()) {
      this.landmarks = null;
      this.centre = null;
      this.blockLandmarks = null;
      SparseLandmarks unshifted = new SparseLandmarks(points);
      SparseLandmarks.Centre c =
          shiftsBeforeTheProducts(kernel) && m > 0 ? unshifted.centre() : null;
      if (c == null || c.isZero()) {
        this.sparseCentre = null;
        this.sparse = unshifted;
        this.landmarkSqNorms = points.sqNorms();
      } else {
        // The landmarks go through the rows' shift, so a landmark scored as a row gets the same
        // entries, norm and pair sums as in K_mm.
        this.sparseCentre = c;
        RowBlock shifted = landmarkBlock().shiftSparse(c.columns(), c.values());
        int entries = shifted.offsets()[m];
        this.sparse =
            new SparseLandmarks(
                RowSet.sparse(
                    java.util.Arrays.copyOf(shifted.offsets(), m + 1),
                    java.util.Arrays.copyOf(shifted.indices(), entries),
                    java.util.Arrays.copyOf(shifted.sparseValues(), entries),
                    m,
                    d));
        this.landmarkSqNorms = java.util.Arrays.copyOf(shifted.sqNorms(), m);
      }
      this.landmarkL1Norms = kernel.type().hasInnerProductForm() ? null : points.l1Norms();
      return;
    }
    this.sparse = null;
    this.sparseCentre = null;
    this.landmarkL1Norms = null;
    this.landmarks = points.toDense();
    this.centre = shiftsBeforeTheProducts(kernel) && m > 0 ? centreOf(landmarks, m, d) : null;
    if (centre == null) {
      this.blockLandmarks = landmarks;
    } else {
      this.blockLandmarks = new double[landmarks.length];
      for (int j = 0; j < m; j++) {
        for (int t = 0; t < d; t++) {
          blockLandmarks[j * d + t] = landmarks[j * d + t] - centre[t];
        }
      }
    }
    this.landmarkSqNorms = new double[m];
    for (int j = 0; j < m; j++) {
      double s = 0;
      for (int t = 0; t < d; t++) {
        double v = blockLandmarks[j * d + t];
        s += v * v;
      }
      landmarkSqNorms[j] = s;
    }
  }

  /**
   * The coordinate-wise mean μ of m row-major points (summed in row order), each coordinate rounded
   * to a multiple of g = 2^⌊log₂ h⌋, h = max_j |z_jt − μ_t| its half-range (a landmark's value when
   * h = 0).
   */
  static double[] centreOf(double[] points, int m, int d) {
    double[] c = new double[d];
    for (int j = 0; j < m; j++) {
      for (int t = 0; t < d; t++) {
        c[t] += points[j * d + t];
      }
    }
    for (int t = 0; t < d; t++) {
      double mean = c[t] / m;
      double halfRange = 0;
      for (int j = 0; j < m; j++) {
        halfRange = Math.max(halfRange, Math.abs(points[j * d + t] - mean));
      }
      c[t] = centreCoordinate(mean, halfRange, points[t]);
    }
    return c;
  }

  /**
   * The rule for one coordinate of the centre: the mean μ rounded to a multiple of g = 2^⌊log₂ h⌋,
   * h the half-range max_j |z_j − μ|; {@code first} (landmark 0's value) when h = 0.
   */
  static double centreCoordinate(double mean, double halfRange, double first) {
    if (halfRange == 0) {
      return first;
    }
    double grid = Math.scalb(1.0, Math.getExponent(halfRange));
    return Math.rint(mean / grid) * grid;
  }

  /** Whether rows and landmarks are shifted by a centre before their inner products (rbf). */
  private static boolean shiftsBeforeTheProducts(Kernel kernel) {
    return kernel.type().isShiftInvariant() && kernel.type().hasInnerProductForm();
  }

  /** The landmarks as a sparse block (each row's non-zeros). */
  private RowBlock landmarkBlock() {
    RowBlock block = RowBlock.sparse(m, d);
    for (int j = 0; j < m; j++) {
      block.add(points.row(j), "landmarks");
    }
    return block;
  }

  /** K_bm for the rows in {@code block}, as m×b column-major in {@code out} (length ≥ m·b). */
  public void compute(RowBlock block, double[] out) {
    if (sparse != null) {
      computeSparse(block, out);
    } else if (centre == null) {
      kernel.block(
          block.values(), block.sqNorms(), block.size(), landmarks, landmarkSqNorms, m, d, out);
    } else {
      int b = block.size();
      Kernel.innerProducts(block.shift(centre), b, blockLandmarks, m, d, out);
      double[] rowNorms = block.shiftedSqNorms();
      int[] marked = Cancellation.mark(out, b, m, rowNorms, landmarkSqNorms, kernel.gamma(), false);
      kernel.type().mapInnerProducts(kernel, out, rowNorms, b, landmarkSqNorms, m);
      double[] rows = block.values();
      Cancellation.recompute(kernel, out, m, marked, (i, j) -> denseDistance(rows, i, j));
    }
  }

  /** The sparse path's block: pair sums from the non-zeros, then the family's map. */
  private void computeSparse(RowBlock block, double[] out) {
    int b = block.size();
    if (b == 0) {
      return;
    }
    KernelFamily family = kernel.type();
    boolean l1 = landmarkL1Norms != null;
    RowBlock rows =
        sparseCentre == null
            ? block
            : block.shiftSparse(sparseCentre.columns(), sparseCentre.values());
    for (int i = 0; i < b; i++) {
      sparse.pairSums(rows, i, out, i * m, l1);
    }
    if (!l1) {
      int[] marked =
          family.isShiftInvariant()
              ? Cancellation.mark(out, b, m, rows.sqNorms(), landmarkSqNorms, kernel.gamma(), false)
              : null;
      family.mapInnerProducts(kernel, out, rows.sqNorms(), b, landmarkSqNorms, m);
      Cancellation.recompute(kernel, out, m, marked, (i, j) -> sparseDistance(block, i, j, false));
      return;
    }
    double[] rowL1 = new double[b];
    for (int i = 0; i < b; i++) {
      rowL1[i] = block.isSparse() ? block.l1Norms()[i] : denseL1(block, i);
      for (int j = 0, o = i * m; j < m; j++) {
        out[o + j] = Math.max(rowL1[i] + landmarkL1Norms[j] - out[o + j], 0.0);
      }
    }
    int[] marked = Cancellation.mark(out, b, m, rowL1, landmarkL1Norms, kernel.gamma(), true);
    family.mapL1Distances(kernel, out, b * m);
    Cancellation.recompute(kernel, out, m, marked, (i, j) -> sparseDistance(block, i, j, true));
  }

  /**
   * The absolute error in a kernel value above which a value the expansion computed is recomputed
   * from exact coordinate differences ({@link Cancellation}); k(x,x) = 1 for the kernels concerned,
   * so this is relative to the largest kernel value.
   */
  static final double CANCELLATION_TOLERANCE = Cancellation.TOLERANCE;

  /**
   * ‖x_i − z_j‖² for the block's rows into out (m×b column-major, length ≥ m·b), each to a relative
   * 1e-12 at any offset ({@link Cancellation#distances}): the rbf blocks' inner products of the
   * shifted values (on either path, at their cost), with the pairs the expansion cannot vouch for
   * recomputed from coordinate differences. For a kernel bound with rbf (which is shifted).
   */
  public void squaredDistances(RowBlock block, double[] out) {
    if (!shiftsBeforeTheProducts(kernel)) {
      throw new IllegalStateException("squared distances need the rbf kernel's centre");
    }
    int b = block.size();
    if (b == 0 || m == 0) {
      return;
    }
    if (sparse != null) {
      RowBlock rows =
          sparseCentre == null
              ? block
              : block.shiftSparse(sparseCentre.columns(), sparseCentre.values());
      for (int i = 0; i < b; i++) {
        sparse.pairSums(rows, i, out, i * m, false);
      }
      Cancellation.distances(
          out, b, m, rows.sqNorms(), landmarkSqNorms, (i, j) -> sparseDistance(block, i, j, false));
      return;
    }
    Kernel.innerProducts(block.shift(centre), b, blockLandmarks, m, d, out);
    double[] rows = block.values();
    Cancellation.distances(
        out, b, m, block.shiftedSqNorms(), landmarkSqNorms, (i, j) -> denseDistance(rows, i, j));
  }

  /** ‖z_i − z_j‖² of the landmarks (m×m, symmetric), as {@link #squaredDistances} computes them. */
  public double[] landmarkSquaredDistances() {
    double[] out = new double[m * m];
    if (m > 0) {
      squaredDistances(landmarkBlock(), out);
      SymmetricStorage.mirrorUpper(out, m);
    }
    return out;
  }

  /**
   * ‖x_i − z_j‖² ({@code l1} false) or ‖x_i − z_j‖₁ from coordinate differences over the union of
   * the supports (unshifted values: the differences are the same), in increasing column order.
   */
  private double sparseDistance(RowBlock block, int i, int j, boolean l1) {
    RowSet z = points.toSparse();
    int[] zi = z.indices();
    double[] zv = z.values();
    int q = z.offsets()[j];
    int qEnd = z.offsets()[j + 1];
    double s = 0;
    if (block.isSparse()) {
      int[] xi = block.indices();
      double[] xv = block.sparseValues();
      int p = block.offsets()[i];
      int pEnd = block.offsets()[i + 1];
      while (p < pEnd || q < qEnd) {
        double diff;
        if (q == qEnd || (p < pEnd && xi[p] < zi[q])) {
          diff = xv[p++];
        } else if (p == pEnd || zi[q] < xi[p]) {
          diff = -zv[q++];
        } else {
          diff = xv[p++] - zv[q++];
        }
        s += l1 ? Math.abs(diff) : diff * diff;
      }
      return s;
    }
    double[] x = block.values();
    for (int t = 0, base = i * d; t < d; t++) {
      double diff = x[base + t] - (q < qEnd && zi[q] == t ? zv[q++] : 0.0);
      s += l1 ? Math.abs(diff) : diff * diff;
    }
    return s;
  }

  /** ‖x_i − z_j‖² from the dense coordinates (unshifted; the differences are the same). */
  private double denseDistance(double[] rows, int i, int j) {
    double s = 0;
    for (int t = 0; t < d; t++) {
      double diff = rows[i * d + t] - landmarks[j * d + t];
      s += diff * diff;
    }
    return s;
  }

  private static double denseL1(RowBlock block, int i) {
    double[] values = block.values();
    double s = 0;
    for (int t = i * block.dim(), end = t + block.dim(); t < end; t++) {
      s += Math.abs(values[t]);
    }
    return s;
  }

  /** The m×m landmark kernel matrix K_mm, column-major. */
  public double[] gram() {
    double[] out = new double[m * m];
    if (sparse != null) {
      if (m > 0) {
        computeSparse(landmarkBlock(), out);
        SymmetricStorage.mirrorUpper(out, m);
      }
      return out;
    }
    if (centre == null) {
      kernel.gram(blockLandmarks, landmarkSqNorms, m, d, out);
      return out;
    }
    Kernel.gramInnerProducts(blockLandmarks, m, d, out);
    int[] marked =
        Cancellation.mark(out, m, m, landmarkSqNorms, landmarkSqNorms, kernel.gamma(), false);
    kernel.type().mapInnerProducts(kernel, out, landmarkSqNorms, m, landmarkSqNorms, m);
    Cancellation.recompute(kernel, out, m, marked, (i, j) -> denseDistance(landmarks, i, j));
    return out;
  }

  /**
   * A block of {@code capacity} rows in the form this kernel's path reads: sparse on the sparse
   * path (memory ∝ the rows' non-zeros), dense otherwise.
   */
  public RowBlock newBlock(int capacity) {
    return RowBlock.of(capacity, d, sparse != null);
  }

  /**
   * Landmark j as a vector, as a model stores it: sparse (its non-zeros) on the sparse path, dense
   * on the dense path.
   */
  public org.apache.spark.ml.linalg.Vector landmark(int j) {
    return sparse != null
        ? points.toSparse().row(j)
        : new org.apache.spark.ml.linalg.DenseVector(
            java.util.Arrays.copyOfRange(landmarks, j * d, (j + 1) * d));
  }

  /**
   * The width, in doubles, of a row of this kernel's blocks ({@link #newBlock}) for rows of at most
   * {@code maxStoredEntries} stored entries: {@link RowBlock#width}, d on the dense path.
   */
  public int blockWidth(long maxStoredEntries) {
    return RowBlock.width(d, sparse != null, maxStoredEntries);
  }

  /**
   * {@link #blockWidth(long)} when the rows are not scanned (scoring): on the sparse path the
   * landmarks' largest row stands for the rows', the landmarks being rows of the same data (or
   * their combinations, which hold more entries, not fewer).
   */
  public int blockWidth() {
    return sparse != null ? blockWidth(points.maxRowEntries()) : d;
  }

  /** Which path computes the blocks, and why. */
  public KernelBlockPath path() {
    return path;
  }

  /** Whether blocks are computed from the rows' non-zeros ({@link KernelBlockPath}). */
  public boolean isSparse() {
    return sparse != null;
  }

  /** The landmarks as given (dense or sparse; shared, do not modify). */
  public RowSet points() {
    return points;
  }

  /** Bytes the landmarks take in this kernel: 8·m·d (dense path) or about 12·nnz(Z) (sparse). */
  public long landmarkBytes() {
    return sparse != null ? points.bytes() + sparse.bytes() : 8L * landmarks.length;
  }

  /** k(x_i, x_i) for row i of the block. */
  public double diagonal(RowBlock block, int i) {
    return kernel.diagonal(block.sqNorms()[i]);
  }

  public Kernel kernel() {
    return kernel;
  }

  /**
   * The landmarks, m×d row-major (shared, do not modify). On the sparse path this builds the dense
   * array (8·m·d bytes): code that can read sparse landmarks reads {@link #points()}.
   */
  public double[] landmarks() {
    return landmarks != null ? landmarks : points.toDense();
  }

  /**
   * The centre c rows and landmarks are shifted by before their inner products (a copy, length d),
   * or null if none. On the sparse path this builds it from its non-zeros (null when c = 0).
   */
  public double[] centre() {
    if (sparseCentre != null) {
      double[] c = new double[d];
      for (int i = 0; i < sparseCentre.columns().length; i++) {
        c[sparseCentre.columns()[i]] = sparseCentre.values()[i];
      }
      return c;
    }
    return centre == null ? null : centre.clone();
  }

  public int numLandmarks() {
    return m;
  }

  public int dim() {
    return d;
  }
}
