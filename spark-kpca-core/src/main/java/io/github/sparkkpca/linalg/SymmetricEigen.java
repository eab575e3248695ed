package io.github.sparkkpca.linalg;

import org.netlib.util.intW;

/**
 * Eigendecomposition A = V Λ Vᵀ of a real symmetric n×n matrix by LAPACK {@code dsyevr} (MRRR: O(n²)
 * workspace, O(n³) time), eigenvalues in <em>descending</em> order.
 *
 * @param values  the eigenvalues λ_1 ≥ … ≥ λ_n
 * @param vectors the matching unit eigenvectors, n×n column-major (column i belongs to values[i])
 * @param n       the order of the matrix
 */
public record SymmetricEigen(double[] values, double[] vectors, int n) {

  /**
   * Decomposes a symmetric matrix given column-major in {@code a} (n×n). The matrix is symmetrised first
   * ((A + Aᵀ)/2) so that rounding in an accumulated triangle cannot make the result depend on which
   * triangle LAPACK reads. {@code a} is not modified.
   */
  public static SymmetricEigen of(double[] a, int n) {
    if (a.length < (long) n * n) {
      throw new IllegalArgumentException("matrix array has " + a.length + " entries, need " + n + "×" + n);
    }
    if (n == 0) {
      return new SymmetricEigen(new double[0], new double[0], 0);
    }
    double[] work = new double[n * n];
    for (int j = 0; j < n; j++) {
      for (int i = 0; i <= j; i++) {
        double v = 0.5 * (a[i + j * n] + a[j + i * n]);
        if (!Double.isFinite(v)) {
          throw new ArithmeticException("matrix entry (" + i + "," + j + ") is not finite: " + v);
        }
        work[i + j * n] = v;
        work[j + i * n] = v;
      }
    }
    double[] w = new double[n];
    double[] z = new double[n * n];
    int[] isuppz = new int[2 * n];
    intW found = new intW(0);
    intW info = new intW(0);
    // Workspace query, then the decomposition (upper triangle, all eigenpairs).
    double[] lworkQuery = new double[1];
    int[] liworkQuery = new int[1];
    Blas.lapack().dsyevr("V", "A", "U", n, work, n, 0, 0, 0, 0, 0.0, found, w, z, n, isuppz,
        lworkQuery, -1, liworkQuery, -1, info);
    check(info, "workspace query");
    double[] lwork = new double[(int) lworkQuery[0]];
    int[] liwork = new int[liworkQuery[0]];
    Blas.lapack().dsyevr("V", "A", "U", n, work, n, 0, 0, 0, 0, 0.0, found, w, z, n, isuppz,
        lwork, lwork.length, liwork, liwork.length, info);
    check(info, "decomposition");
    // LAPACK returns ascending eigenvalues; reverse to descending.
    double[] values = new double[n];
    double[] vectors = new double[n * n];
    for (int c = 0; c < n; c++) {
      int src = n - 1 - c;
      values[c] = w[src];
      System.arraycopy(z, src * n, vectors, c * n, n);
    }
    return new SymmetricEigen(values, vectors, n);
  }

  private static void check(intW info, String step) {
    if (info.val != 0) {
      throw new ArithmeticException("LAPACK dsyevr " + step + " failed with info = " + info.val);
    }
  }

  /**
   * The number of eigenvalues above {@code rcond·λ_max} (and above 0): the numerical rank used when
   * inverting. With λ_max ≤ 0 the rank is 0.
   */
  public int rank(double rcond) {
    if (n == 0 || values[0] <= 0) {
      return 0;
    }
    double threshold = rcond * values[0];
    int r = 0;
    while (r < n && values[r] > threshold && values[r] > 0) {
      r++;
    }
    return r;
  }

  /**
   * Flips each of the first {@code k} columns of a column-major rows×k matrix so that its entry of largest
   * magnitude is positive (the first such entry on ties). Makes eigenvector signs deterministic.
   *
   * @return the sign (±1) applied to each column
   */
  public static double[] fixSigns(double[] matrix, int rows, int k) {
    double[] signs = new double[k];
    for (int c = 0; c < k; c++) {
      signs[c] = 1.0;
      int offset = c * rows;
      int best = 0;
      double bestAbs = -1;
      for (int i = 0; i < rows; i++) {
        double v = Math.abs(matrix[offset + i]);
        if (v > bestAbs) {
          bestAbs = v;
          best = i;
        }
      }
      if (matrix[offset + best] < 0) {
        signs[c] = -1.0;
        for (int i = 0; i < rows; i++) {
          matrix[offset + i] = -matrix[offset + i];
        }
      }
    }
    return signs;
  }
}
