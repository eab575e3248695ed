package io.github.sparkkpca.linalg;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The Cholesky factor K = L Lᵀ of a kernel matrix that grows by one row and column at a time
 * (Hallgren, <i>Kernel PCA and the Nyström method</i>, UCL thesis 2021, §3.4: the residual of a new
 * point is a Schur complement).
 *
 * <p>Bordering K with a column u and a corner c,
 *
 * <pre>
 *   [K  u]   [L   0] [Lᵀ  w]
 *   [uᵀ c] = [wᵀ  s] [0   s],   w = L⁻¹u,   s² = c − uᵀK⁻¹u = c − wᵀw,
 * </pre>
 *
 * so appending costs one forward substitution, m² flops, and s² is the squared distance in feature
 * space of the new point from the span of the points already in (the residual of Lemma 1, thesis
 * ch. 4). Rows are kept as a jagged lower triangle; the object is serialisable so that a pass can
 * broadcast it.
 */
public final class BorderedCholesky implements Serializable {

  private double[][] rows = new double[0][];
  private int size;

  /** The order m of the factor. */
  public int size() {
    return size;
  }

  /**
   * w = L⁻¹u by forward substitution (m² flops); u has at least m entries, only the first m are
   * read.
   */
  public double[] forward(double[] u) {
    double[] w = new double[size];
    for (int j = 0; j < size; j++) {
      double[] row = rows[j];
      double sum = u[j];
      for (int i = 0; i < j; i++) {
        sum -= row[i] * w[i];
      }
      w[j] = sum / row[j];
    }
    return w;
  }

  /** c − wᵀw: the Schur complement of K in the bordered matrix, for w = L⁻¹u. */
  public static double schur(double c, double[] w) {
    double sum = c;
    for (double x : w) {
      sum -= x * x;
    }
    return sum;
  }

  /**
   * Appends the row [wᵀ √s] for w = L⁻¹u and s = c − wᵀw (from {@link #forward} and {@link
   * #schur}).
   *
   * @throws IllegalArgumentException when s is not positive (the bordered matrix would not be
   *     positive definite) or w has the wrong length
   */
  public void append(double[] w, double s) {
    if (w.length != size) {
      throw new IllegalArgumentException(
          "w has " + w.length + " entries, the factor has order " + size);
    }
    if (!(s > 0) || Double.isInfinite(s)) {
      throw new IllegalArgumentException(
          "the Schur complement must be positive and finite, got " + s);
    }
    double[] row = Arrays.copyOf(w, size + 1);
    row[size] = Math.sqrt(s);
    if (size == rows.length) {
      rows = Arrays.copyOf(rows, Math.max(16, 2 * rows.length));
    }
    rows[size++] = row;
  }

  /**
   * Borders K with column u (first m entries) and corner c; returns the Schur complement s = c −
   * uᵀK⁻¹u.
   *
   * @throws IllegalArgumentException as {@link #append} when s ≤ 0
   */
  public double appendRow(double[] u, double c) {
    double[] w = forward(u);
    double s = schur(c, w);
    append(w, s);
    return s;
  }

  /** L as an m×m column-major array (zeros above the diagonal). */
  public double[] lowerColumnMajor() {
    double[] out = new double[size * size];
    for (int j = 0; j < size; j++) {
      for (int i = 0; i <= j; i++) {
        out[i * size + j] = rows[j][i];
      }
    }
    return out;
  }
}
