package io.github.sparkkpca.landmarks;

import io.github.sparkkpca.execution.RowHash;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.linalg.BorderedCholesky;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import org.apache.spark.ml.linalg.Vector;

/**
 * The next {@code capacity} distinct rows of a seeded random order of the data after a cursor, each
 * with its residual against the current landmarks: one summary of a residual-growth pass ({@link
 * ResidualGrowth}).
 *
 * <p><b>Order.</b> A row's place is its key, {@link RowHash#hash} of its values and the seed (an
 * unsigned 64-bit number), ties broken by the values themselves (lexicographically): a random
 * permutation of the distinct rows that depends only on the seed and the values, so every
 * partitioning and row order gives the same batches. Identical rows are one candidate (a repeated
 * landmark adds nothing to the span).
 *
 * <p><b>Merging.</b> Each partition keeps its {@code capacity} first rows after the cursor; the
 * first {@code capacity} of the union are among them, so merging two sorted batches and keeping the
 * first {@code capacity} distinct entries is exact.
 */
final class CandidateBatch implements Serializable {

  /**
   * A candidate: its key, values and residual k(x,x) − uᵀK_mm⁻¹u against the landmarks of the pass.
   */
  record Candidate(long key, double[] row, double residual)
      implements Serializable, Comparable<Candidate> {
    @Override
    public int compareTo(Candidate other) {
      int byKey = Long.compareUnsigned(key, other.key);
      return byKey != 0 ? byKey : Arrays.compare(row, other.row);
    }
  }

  /**
   * What a pass broadcasts: the order's seed and cursor, the batch size and the landmarks with
   * their factor.
   */
  record Scan(
      long seed,
      Candidate cursor,
      int capacity,
      Kernel kernel,
      double[] landmarks,
      int d,
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
      double[] values = rows.next().toArray();
      Candidate c =
          new Candidate(
              RowHash.hash(new org.apache.spark.ml.linalg.DenseVector(values), scan.seed()),
              values,
              Double.NaN);
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
    for (Candidate c : first) {
      scored.add(new Candidate(c.key(), c.row(), residual(scan, c.row())));
    }
    return new CandidateBatch(scored);
  }

  /** k(x,x) − ‖L⁻¹u‖² for u = (k(x, z_j))_j over the landmarks of {@code scan}. */
  static double residual(Scan scan, double[] x) {
    return BorderedCholesky.schur(
        scan.kernel().apply(x, x),
        scan.factor()
            .forward(
                kernelColumn(scan.kernel(), scan.landmarks(), scan.factor().size(), scan.d(), x)));
  }

  /** (k(z_j, x))_{j < m} for the m×d row-major landmarks z. */
  static double[] kernelColumn(Kernel kernel, double[] landmarks, int m, int d, double[] x) {
    double[] u = new double[m];
    double[] z = new double[d];
    for (int j = 0; j < m; j++) {
      System.arraycopy(landmarks, j * d, z, 0, d);
      u[j] = kernel.apply(z, x);
    }
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
