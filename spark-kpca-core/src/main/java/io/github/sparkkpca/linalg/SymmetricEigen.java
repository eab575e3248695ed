package io.github.sparkkpca.linalg;

import org.netlib.util.booleanW;
import org.netlib.util.intW;

/**
 * Eigendecomposition A = V Λ Vᵀ of a real symmetric n×n matrix by LAPACK {@code dsyevr} (MRRR:
 * O(n²) workspace, O(n³) time), eigenvalues in <em>descending</em> order.
 *
 * <p>{@link #leading} computes every eigenvalue but only the leading k eigenvectors, which is what
 * linear PCA needs: the back-transformation of the eigenvectors (2n²k flops instead of 2n³)
 * dominates a full decomposition; what remains is the tridiagonalisation (4n³/3 flops).
 *
 * @param values the eigenvalues λ_1 ≥ … ≥ λ_n (only the leading k from {@link BlockKrylovEigen})
 * @param vectors the leading unit eigenvectors, n×c column-major (column i belongs to values[i]); c
 *     = n from {@link #of}, c = k from {@link #leading}
 * @param n the order of the matrix
 */
public record SymmetricEigen(double[] values, double[] vectors, int n) {

  /**
   * Decomposes a symmetric matrix given column-major in {@code a} (n×n). The matrix is symmetrised
   * first ((A + Aᵀ)/2) so that rounding in an accumulated triangle cannot make the result depend on
   * which triangle LAPACK reads. {@code a} is not modified.
   */
  public static SymmetricEigen of(double[] a, int n) {
    if (n == 0) {
      return new SymmetricEigen(new double[0], new double[0], 0);
    }
    double[] work = upperTriangle(a, n);
    double[] w = new double[n];
    double[] z = new double[n * n];
    int[] isuppz = new int[2 * n];
    intW found = new intW(0);
    intW info = new intW(0);
    // Workspace query, then the decomposition (upper triangle, all eigenpairs).
    double[] lworkQuery = new double[1];
    int[] liworkQuery = new int[1];
    Blas.lapack()
        .dsyevr(
            "V",
            "A",
            "U",
            n,
            work,
            n,
            0,
            0,
            0,
            0,
            0.0,
            found,
            w,
            z,
            n,
            isuppz,
            lworkQuery,
            -1,
            liworkQuery,
            -1,
            info);
    check(info, "workspace query");
    double[] lwork = new double[(int) lworkQuery[0]];
    int[] liwork = new int[liworkQuery[0]];
    Blas.lapack()
        .dsyevr(
            "V",
            "A",
            "U",
            n,
            work,
            n,
            0,
            0,
            0,
            0,
            0.0,
            found,
            w,
            z,
            n,
            isuppz,
            lwork,
            lwork.length,
            liwork,
            liwork.length,
            info);
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

  /**
   * Every eigenvalue of a symmetric matrix (column-major n×n in {@code a}, symmetrised first as in
   * {@link #of}) and the eigenvectors of the {@code k} largest: Householder tridiagonalisation A =
   * Q T Qᵀ ({@code dsytrd}), all eigenvalues of T by the root-free QR algorithm ({@code dsterf}),
   * the k leading eigenvectors of T by MRRR ({@code dstemr}, as {@code dsyevr} does) and their
   * back-transformation by Q ({@code dormtr}). {@code a} is not modified.
   *
   * @param k number of leading eigenvectors, 0 ≤ k ≤ n
   */
  public static SymmetricEigen leading(double[] a, int n, int k) {
    if (k < 0 || k > n) {
      throw new IllegalArgumentException("k must be in [0, " + n + "], got " + k);
    }
    if (n == 0) {
      return new SymmetricEigen(new double[0], new double[0], 0);
    }
    double[] work = upperTriangle(a, n);
    double[] diagonal = new double[n];
    double[] offDiagonal = new double[Math.max(1, n - 1)];
    double[] tau = new double[Math.max(1, n - 1)];
    intW info = new intW(0);
    double[] query = new double[1];
    Blas.lapack().dsytrd("U", n, work, n, diagonal, offDiagonal, tau, query, -1, info);
    check("dsytrd", info, "workspace query");
    double[] lwork = new double[Math.max(1, (int) query[0])];
    Blas.lapack().dsytrd("U", n, work, n, diagonal, offDiagonal, tau, lwork, lwork.length, info);
    check("dsytrd", info, "tridiagonalisation");

    double[] ascending = diagonal.clone();
    Blas.lapack().dsterf(n, ascending, offDiagonal.clone(), info);
    check("dsterf", info, "eigenvalues");
    double[] values = new double[n];
    for (int i = 0; i < n; i++) {
      values[i] = ascending[n - 1 - i];
    }
    if (k == 0) {
      return new SymmetricEigen(values, new double[0], n);
    }

    // dstemr wants an off-diagonal of length n (the last entry is workspace).
    double[] e = java.util.Arrays.copyOf(offDiagonal, n);
    double[] w = new double[n];
    double[] z = new double[n * k];
    int[] isuppz = new int[2 * k];
    intW found = new intW(0);
    booleanW tryRelativeAccuracy = new booleanW(false);
    int[] iquery = new int[1];
    Blas.lapack()
        .dstemr(
            "V",
            "I",
            n,
            diagonal.clone(),
            e.clone(),
            0,
            0,
            n - k + 1,
            n,
            found,
            w,
            z,
            n,
            k,
            isuppz,
            tryRelativeAccuracy,
            query,
            -1,
            iquery,
            -1,
            info);
    check("dstemr", info, "workspace query");
    double[] stemrWork = new double[Math.max(1, (int) query[0])];
    int[] stemrIwork = new int[Math.max(1, iquery[0])];
    Blas.lapack()
        .dstemr(
            "V",
            "I",
            n,
            diagonal,
            e,
            0,
            0,
            n - k + 1,
            n,
            found,
            w,
            z,
            n,
            k,
            isuppz,
            tryRelativeAccuracy,
            stemrWork,
            stemrWork.length,
            stemrIwork,
            stemrIwork.length,
            info);
    check("dstemr", info, "eigenvectors");
    if (found.val != k) {
      throw new ArithmeticException(
          "LAPACK dstemr found " + found.val + " eigenvectors, expected " + k);
    }
    Blas.lapack().dormtr("L", "U", "N", n, k, work, n, tau, z, n, query, -1, info);
    check("dormtr", info, "workspace query");
    double[] ormWork = new double[Math.max(1, (int) query[0])];
    Blas.lapack().dormtr("L", "U", "N", n, k, work, n, tau, z, n, ormWork, ormWork.length, info);
    check("dormtr", info, "back-transformation");
    // dstemr returns ascending eigenpairs; reverse the columns to descending.
    double[] vectors = new double[n * k];
    for (int c = 0; c < k; c++) {
      System.arraycopy(z, (k - 1 - c) * n, vectors, c * n, n);
    }
    return new SymmetricEigen(values, vectors, n);
  }

  /**
   * The upper triangle of (A + Aᵀ)/2 as a column-major n×n copy with zeros below the diagonal: the
   * input of every LAPACK routine here that reads the upper triangle ({@code dsyevr}, {@code
   * dsytrd}, {@code dpotrf}, {@code dsytrf}). Fails on a non-finite entry.
   */
  static double[] upperTriangle(double[] a, int n) {
    return upperTriangle(a, n, 0);
  }

  /** The same in an array of n² + {@code spare} entries (the spare ones zero). */
  static double[] upperTriangle(double[] a, int n, int spare) {
    if (a.length < (long) n * n) {
      throw new IllegalArgumentException(
          "matrix array has " + a.length + " entries, need " + n + "×" + n);
    }
    double[] work = new double[n * n + spare];
    SymmetricStorage.forEachUpper(
        n,
        true,
        (i, j) -> {
          double v = 0.5 * (a[i + j * n] + a[j + i * n]);
          if (!Double.isFinite(v)) {
            throw new ArithmeticException("matrix entry (" + i + "," + j + ") is not finite: " + v);
          }
          work[i + j * n] = v;
        });
    return work;
  }

  private static void check(intW info, String step) {
    check("dsyevr", info, step);
  }

  /** Fails unless LAPACK's {@code info} is 0, naming the routine and the step. */
  static void check(String routine, intW info, String step) {
    if (info.val != 0) {
      throw new ArithmeticException(
          "LAPACK " + routine + " " + step + " failed with info = " + info.val);
    }
  }

  /**
   * The number of eigenvalues above {@code rcond·λ_max} (and above 0): the numerical rank used when
   * inverting. With λ_max ≤ 0 the rank is 0; with only the leading eigenvalues known, at most their
   * count.
   */
  public int rank(double rcond) {
    if (n == 0 || values[0] <= 0) {
      return 0;
    }
    double threshold = rcond * values[0];
    int r = 0;
    while (r < values.length && values[r] > threshold && values[r] > 0) {
      r++;
    }
    return r;
  }

  /**
   * Flips each of the first {@code k} columns of a column-major rows×k matrix so that its entry of
   * largest magnitude is positive (the first such entry on ties). Makes eigenvector signs
   * deterministic.
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
