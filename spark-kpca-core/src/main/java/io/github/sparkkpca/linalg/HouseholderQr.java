package io.github.sparkkpca.linalg;

import org.netlib.util.intW;

/** The thin QR factorisation of a tall matrix by Householder reflections (LAPACK). */
public final class HouseholderQr {

  private HouseholderQr() {}

  /**
   * Overwrites the n×b matrix X (column-major, n ≥ b) by the Q of its Householder QR ({@code
   * dgeqrf}, {@code dorgqr}), so that its columns are orthonormal and span the same space when X
   * has full rank, and writes R (b×b, zero below the diagonal) into {@code r} when it is not null.
   *
   * @param tau scratch of at least b doubles
   */
  public static void orthonormalize(double[] x, int n, int b, double[] tau, double[] r) {
    intW info = new intW(0);
    double[] query = new double[1];
    Blas.lapack().dgeqrf(n, b, x, n, tau, query, -1, info);
    SymmetricEigen.check("dgeqrf", info, "workspace query");
    double[] work = new double[Math.max(1, (int) query[0])];
    Blas.lapack().dgeqrf(n, b, x, n, tau, work, work.length, info);
    SymmetricEigen.check("dgeqrf", info, "factorisation");
    if (r != null) {
      for (int j = 0; j < b; j++) {
        for (int i = 0; i < b; i++) {
          r[i + j * b] = i <= j ? x[i + j * n] : 0.0;
        }
      }
    }
    Blas.lapack().dorgqr(n, b, b, x, n, tau, query, -1, info);
    SymmetricEigen.check("dorgqr", info, "workspace query");
    if (query[0] > work.length) {
      work = new double[(int) query[0]];
    }
    Blas.lapack().dorgqr(n, b, b, x, n, tau, work, work.length, info);
    SymmetricEigen.check("dorgqr", info, "forming Q");
  }
}
