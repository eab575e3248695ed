package io.github.sparkkpca.linalg;

import java.util.Arrays;

/**
 * The eigendecomposition of a centred kernel matrix K' = (I − 𝟙)K(I − 𝟙) (𝟙 the matrix of 1/m)
 * kept up to date while points are added or deleted: Hallgren, <i>Kernel PCA and the Nyström
 * method</i>, PhD thesis, UCL 2021, §3.1.2 and §3.2, Algorithms 2 and 4, with the errata fixed. K
 * itself is never stored: the state is the eigendecomposition of K', the row sums s = K1 and the
 * total Σ = 1ᵀK1.
 *
 * <p><b>Adding</b> a point with kernel column a (against the m points) and k(x,x) = c: first the
 * old block is re-centred from the m-point to the (m+1)-point mean, K'' = K' + 1uᵀ + u1ᵀ with
 *
 * <pre>
 *   u = s/(m(m+1)) − a/(m+1) + (C/2)1,  C = Σ_{m+1}/(m+1)² − Σ_m/m²,  Σ_{m+1} = Σ_m + 2·1ᵀa + c,
 * </pre>
 *
 * applied as two rank-one updates (balanced, see recentre; the thesis' Algorithm 2 line 5 squares
 * m(m+1); its derivation and the reference code do not: erratum). Then the new centred column v = k
 * − (1(1ᵀa + c) + s_{m+1} − (Σ_{m+1}/(m+1))1)/(m+1), k = [a; c], is bordered on with {@link
 * IncrementalEigen#expand} (Algorithm 1 applied to v; the prose of §3.1.2 swaps the labels k₀/k₁,
 * the algorithm and eq. 3.1 are right). Four rank-one updates per point.
 *
 * <p><b>Deleting</b> point i is the exact reverse (Algorithm 4 with its errata fixed: the same u as
 * the addition, not the sign-reversed C of its line 15, no spurious square, the eigenpair of e_i
 * found by {@link IncrementalEigen#remove} rather than assumed last).
 *
 * <p>K' always has the eigenvalue 0 (K'1 = 0), so the thesis' non-singularity assumption fails
 * here; the deflation of {@link RankOneEigenUpdate} handles the zero weights this creates.
 */
public final class IncrementalCenteredEigen {

  private final IncrementalEigen eigen;
  private double[] rowSums = new double[0];
  private double total;

  public IncrementalCenteredEigen(IncrementalEigen.Monitoring monitoring) {
    this.eigen = IncrementalEigen.empty(monitoring);
  }

  /** The number of points m. */
  public int size() {
    return eigen.size();
  }

  /** The decomposition of K' itself (descending, a copy). */
  public SymmetricEigen toSymmetricEigen() {
    return eigen.toSymmetricEigen();
  }

  /** The row sums s = K1 of the uncentred kernel matrix (a copy). */
  public double[] rowSums() {
    return rowSums.clone();
  }

  /** The sum of all entries of the uncentred kernel matrix, 1ᵀK1. */
  public double total() {
    return total;
  }

  /** Counters and orthogonality of the underlying updates. */
  public IncrementalEigen.Stats stats() {
    return eigen.stats();
  }

  /**
   * Adds a point (Algorithm 2).
   *
   * @param a its kernel values against the current m points
   * @param c its kernel value with itself
   */
  public void add(double[] a, double c) {
    int m = eigen.size();
    if (a.length != m) {
      throw new IllegalArgumentException(
          "add: kernel column of length " + a.length + " for m = " + m);
    }
    double sumA = 0;
    for (double v : a) {
      sumA += v;
    }
    double newTotal = total + 2 * sumA + c;
    if (m > 0) {
      double constant = newTotal / ((double) (m + 1) * (m + 1)) - total / ((double) m * m);
      recentre(a, m, constant, +1);
    }
    double[] sums = Arrays.copyOf(rowSums, m + 1);
    for (int j = 0; j < m; j++) {
      sums[j] += a[j];
    }
    sums[m] = sumA + c;
    rowSums = sums;
    total = newTotal;
    int size = m + 1;
    double[] v = new double[m];
    double shift = total / size;
    for (int j = 0; j < m; j++) {
      v[j] = a[j] - (sums[m] + sums[j] - shift) / size;
    }
    double v0 = c - (sums[m] + sums[m] - shift) / size;
    eigen.expandUnmonitored(v, v0);
    eigen.monitor();
  }

  /**
   * Deletes point i (Algorithm 4).
   *
   * @param i the point's index
   * @param column its <em>uncentred</em> kernel column against all m points (k(x_i,x_i) at i)
   */
  public void remove(int i, double[] column) {
    int m = eigen.size();
    if (i < 0 || i >= m || column.length != m) {
      throw new IllegalArgumentException(
          "remove: index " + i + " and a column of length " + column.length + " for m = " + m);
    }
    double c = column[i];
    double[] v = new double[m];
    double shift = total / ((double) m * m);
    for (int j = 0; j < m; j++) {
      v[j] = column[j] - rowSums[j] / m - rowSums[i] / m + shift;
    }
    eigen.removeUnmonitored(i, v);
    int size = m - 1;
    double[] a = new double[size];
    double[] sums = new double[size];
    double sumA = 0;
    for (int j = 0, t = 0; j < m; j++) {
      if (j != i) {
        a[t] = column[j];
        sums[t] = rowSums[j] - column[j];
        sumA += column[j];
        t++;
      }
    }
    double oldTotal = total - 2 * sumA - c;
    rowSums = sums;
    if (size > 0) {
      double constant = total / ((double) m * m) - oldTotal / ((double) size * size);
      recentre(a, size, constant, -1);
    }
    total = oldTotal;
    eigen.monitor();
  }

  /**
   * K' ← K' ± (1uᵀ + u1ᵀ), u = s/(m(m+1)) − a/(m+1) + (C/2)1 with the m-point row sums s
   * (this.rowSums). The thesis splits 1uᵀ + u1ᵀ = ½(1+u)(1+u)ᵀ − ½(1−u)(1−u)ᵀ; here the balanced
   * form ((t1+u)(t1+u)ᵀ − (t1−u)(t1−u)ᵀ)/(2t) with t = ‖u‖/√m is used, so that neither term dwarfs
   * their difference when the kernel's scale is far from 1 (t = 1 is the thesis' split).
   */
  private void recentre(double[] a, int m, double constant, int sign) {
    double[] u = new double[m];
    double norm = 0;
    for (int j = 0; j < m; j++) {
      u[j] = rowSums[j] / ((double) m * (m + 1)) - a[j] / (m + 1) + constant / 2;
      norm += u[j] * u[j];
    }
    if (norm == 0) {
      return;
    }
    double t = Math.sqrt(norm / m);
    double[] plus = new double[m];
    double[] minus = new double[m];
    for (int j = 0; j < m; j++) {
      plus[j] = t + u[j];
      minus[j] = t - u[j];
    }
    eigen.applyRankOne(sign / (2 * t), plus);
    eigen.applyRankOne(-sign / (2 * t), minus);
  }
}
