package io.github.sparkkpca.linalg;

import org.netlib.util.intW;

/**
 * How many eigenvalues of a real symmetric matrix lie above a threshold, without computing them: by
 * Sylvester's law of inertia, A − τI and the block-diagonal D of its Bunch–Kaufman factorisation A
 * − τI = U D Uᵀ (LAPACK {@code dsytrf}, n³/3 flops) have the same number of positive eigenvalues.
 * The factorisation is backward stable, so the count is exact for a matrix within rounding of A: it
 * agrees with counting computed eigenvalues except for eigenvalues within rounding of τ, where
 * those disagree as well.
 *
 * <p>Used to decide the numerical rank of K_mm (eigenvalues above rcond·λ_max) at the cost of a
 * factorisation instead of an eigendecomposition (≈ 30 times fewer flops for m = 2000).
 */
public final class Inertia {

  private Inertia() {}

  /**
   * The largest eigenvalue of a symmetric positive semi-definite matrix (column-major n×n, upper
   * triangle read), by power iteration from the all-ones vector with the Rayleigh quotient: stops
   * when it changes by less than {@code 1e-13} relative, or after {@code maxIterations}. The
   * quotient approaches λ_max from below, with an error that is small even when λ_max is nearly
   * repeated (the error scales with λ_max − λ_2).
   */
  public static double largestEigenvalue(double[] a, int n, int maxIterations) {
    return largestEigenvalue(
        n,
        x -> {
          double[] y = new double[n];
          Blas.blas().dsymv("U", n, 1.0, a, n, x, 1, 0.0, y, 1);
          return y;
        },
        maxIterations);
  }

  /**
   * The same power iteration on a symmetric positive semi-definite matrix given by its product x ↦
   * A·x (a new array), for matrices not held in one array ({@link TiledSymmetricMatrix}).
   */
  public static double largestEigenvalue(
      int n, java.util.function.UnaryOperator<double[]> times, int maxIterations) {
    if (n == 0) {
      return 0.0;
    }
    double[] x = new double[n];
    java.util.Arrays.fill(x, 1.0 / Math.sqrt(n));
    double rayleigh = Double.NaN;
    for (int it = 0; it < maxIterations; it++) {
      double[] y = times.apply(x);
      double next = Blas.blas().ddot(n, x, 1, y, 1);
      double norm = Blas.blas().dnrm2(n, y, 1);
      if (!(norm > 0) || !Double.isFinite(norm)) {
        return Double.isFinite(next) ? next : Double.NaN;
      }
      for (int i = 0; i < n; i++) {
        x[i] = y[i] / norm;
      }
      if (Math.abs(next - rayleigh) <= 1e-13 * Math.abs(next)) {
        return next;
      }
      rayleigh = next;
    }
    return rayleigh;
  }

  /**
   * The number of eigenvalues of the symmetric matrix {@code a} (column-major n×n, symmetrised
   * first as in {@link SymmetricEigen#of}; not modified) that are greater than {@code tau}.
   */
  public static int countAbove(double[] a, int n, double tau) {
    if (n == 0) {
      return 0;
    }
    double[] shifted = SymmetricEigen.upperTriangle(a, n);
    for (int j = 0; j < n; j++) {
      shifted[j + j * n] -= tau;
    }
    int[] pivots = new int[n];
    intW info = new intW(0);
    double[] query = new double[1];
    Blas.lapack().dsytrf("U", n, shifted, n, pivots, query, -1, info);
    double[] work = new double[Math.max(1, (int) query[0])];
    Blas.lapack().dsytrf("U", n, shifted, n, pivots, work, work.length, info);
    if (info.val < 0) {
      SymmetricEigen.check("dsytrf", info, "factorisation");
    }
    // info > 0: D has an exact zero on the diagonal, an eigenvalue equal to τ, which is not above
    // it.
    int above = 0;
    for (int k = 0; k < n; k++) {
      double d = shifted[k + k * n];
      if (pivots[k] > 0) {
        above += d > 0 ? 1 : 0;
      } else if (k + 1 < n && pivots[k] < 0 && pivots[k + 1] == pivots[k]) {
        // A 2×2 block [[d, e], [e, f]] (upper storage: e above the diagonal of column k + 1).
        double e = shifted[k + (k + 1) * n];
        double f = shifted[(k + 1) + (k + 1) * n];
        double det = d * f - e * e;
        if (det < 0) {
          above += 1;
        } else if (det > 0) {
          above += d + f > 0 ? 2 : 0;
        } else {
          above += (d + f > 0) ? 1 : 0;
        }
        k++;
      } else {
        above += d > 0 ? 1 : 0;
      }
    }
    return above;
  }
}
