package io.github.sparkkpca.landmarks;

import io.github.sparkkpca.execution.RowHash;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.BorderedCholesky;
import io.github.sparkkpca.linalg.RowBlock;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;

/**
 * The next {@code capacity} distinct rows of a seeded random order of the data after a cursor, each
 * with its residual against the current landmarks: one summary of a residual-growth pass ({@link
 * ResidualGrowth}).
 *
 * <p><b>Order.</b> A row's place is its key, {@link RowHash#hash} of its values and the seed (an
 * unsigned 64-bit number), ties broken by the values themselves (lexicographically): a random
 * permutation of the distinct rows that depends only on the seed and the values (not on whether a
 * row is stored sparse or dense: rows are read by their non-zeros), so every partitioning and row
 * order gives the same batches. Identical rows are one candidate (a repeated landmark adds nothing
 * to the span).
 *
 * <p><b>Merging.</b> Each partition keeps its {@code capacity} first rows after the cursor; the
 * first {@code capacity} of the union are among them, so merging two sorted batches and keeping the
 * first {@code capacity} distinct entries is exact.
 */
final class CandidateBatch implements Serializable {

  /**
   * A candidate: its key, the row as given (a sparse row stays its non-zeros) and its residual
   * k(x,x) − uᵀK_mm⁻¹u against the landmarks of the pass.
   */
  record Candidate(long key, Vector row, double residual)
      implements Serializable, Comparable<Candidate> {
    @Override
    public int compareTo(Candidate other) {
      int byKey = Long.compareUnsigned(key, other.key);
      return byKey != 0 ? byKey : compareValues(row, other.row);
    }
  }

  /**
   * The lexicographic order of the two rows' values (as {@link Arrays#compare(double[], double[])}
   * on their dense forms, −0.0 taken as 0 as {@link RowHash} does), read from their non-zeros: a
   * sparse row and its dense copy compare equal.
   */
  static int compareValues(Vector a, Vector b) {
    int[] ai = a instanceof SparseVector sa ? sa.indices() : null;
    int[] bi = b instanceof SparseVector sb ? sb.indices() : null;
    double[] av = a instanceof SparseVector sa ? sa.values() : a.toArray();
    double[] bv = b instanceof SparseVector sb ? sb.values() : b.toArray();
    int na = av.length;
    int nb = bv.length;
    int p = 0;
    int q = 0;
    while (p < na || q < nb) {
      int ta = p < na ? (ai == null ? p : ai[p]) : Integer.MAX_VALUE;
      int tb = q < nb ? (bi == null ? q : bi[q]) : Integer.MAX_VALUE;
      int t = Math.min(ta, tb);
      double x = ta == t ? av[p++] : 0.0;
      double y = tb == t ? bv[q++] : 0.0;
      int c = Double.compare(x == 0 ? 0.0 : x, y == 0 ? 0.0 : y);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  /**
   * What a pass broadcasts: the order's seed and cursor, the batch size, the kernel and the
   * landmarks (bound to the kernel on the block path their non-zeros call for; null while there are
   * none) with their factor.
   */
  record Scan(
      long seed,
      Candidate cursor,
      int capacity,
      Kernel kernel,
      LandmarkKernel landmarks,
      BorderedCholesky factor)
      implements Serializable {}

  private final List<Candidate> sorted;

  CandidateBatch(List<Candidate> sorted) {
    this.sorted = sorted;
  }

  /** The candidates in order. */
  List<Candidate> candidates() {
    return sorted;
  }

  /** One partition's summary: its first rows after the cursor, scored against the landmarks. */
  static CandidateBatch of(Scan scan, Iterator<Vector> rows) {
    TreeSet<Candidate> first = new TreeSet<>();
    while (rows.hasNext()) {
      Vector row = rows.next();
      Candidate c = new Candidate(RowHash.hash(row, scan.seed()), row, Double.NaN);
      if (scan.cursor() != null && c.compareTo(scan.cursor()) <= 0) {
        continue;
      }
      if (first.size() == scan.capacity()) {
        if (c.compareTo(first.last()) >= 0) {
          continue;
        }
        first.add(c);
        if (first.size() > scan.capacity()) {
          first.pollLast();
        }
      } else {
        first.add(c);
      }
    }
    List<Candidate> scored = new ArrayList<>(first.size());
    RowBlock block = scan.landmarks() == null ? null : scan.landmarks().newBlock(1);
    for (Candidate c : first) {
      scored.add(new Candidate(c.key(), c.row(), residual(scan, c.row(), block)));
    }
    return new CandidateBatch(scored);
  }

  /** k(x,x) − ‖L⁻¹u‖² for u = (k(x, z_j))_j over the landmarks of {@code scan}. */
  static double residual(Scan scan, Vector x, RowBlock block) {
    return BorderedCholesky.schur(
        diagonal(scan.kernel(), x),
        scan.factor().forward(kernelColumn(scan.landmarks(), x, block)));
  }

  /** k(x, x), from ‖x‖² summed over x's stored values. */
  static double diagonal(Kernel kernel, Vector x) {
    double[] values = x instanceof SparseVector sv ? sv.values() : x.toArray();
    double sq = 0;
    for (double v : values) {
      sq += v * v;
    }
    return kernel.diagonal(sq);
  }

  /**
   * (k(z_j, x))_{j < m} for the landmarks bound in {@code landmarks} (none when null), through its
   * kernel block ({@link LandmarkKernel#compute}): O(m·nnz(x)) on the sparse path. {@code block} is
   * a one-row block of {@code landmarks.newBlock(1)} (reused; null makes one).
   */
  static double[] kernelColumn(LandmarkKernel landmarks, Vector x, RowBlock block) {
    if (landmarks == null || landmarks.numLandmarks() == 0) {
      return new double[0];
    }
    RowBlock b = block != null ? block : landmarks.newBlock(1);
    b.clear();
    b.add(x, "candidates");
    double[] u = new double[landmarks.numLandmarks()];
    landmarks.compute(b, u);
    return u;
  }

  /** The first {@code capacity} distinct candidates of both batches (returns a new batch). */
  static CandidateBatch merge(CandidateBatch a, CandidateBatch b, int capacity) {
    List<Candidate> out = new ArrayList<>(Math.min(capacity, a.sorted.size() + b.sorted.size()));
    int i = 0;
    int j = 0;
    while (out.size() < capacity && (i < a.sorted.size() || j < b.sorted.size())) {
      Candidate next;
      if (j >= b.sorted.size()
          || (i < a.sorted.size() && a.sorted.get(i).compareTo(b.sorted.get(j)) <= 0)) {
        next = a.sorted.get(i++);
      } else {
        next = b.sorted.get(j++);
      }
      if (out.isEmpty() || out.get(out.size() - 1).compareTo(next) != 0) {
        out.add(next);
      }
    }
    return new CandidateBatch(out);
  }
}
