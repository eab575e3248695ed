package io.github.sparkkpca.linalg;

import dev.ludovic.netlib.blas.BLAS;
import org.netlib.util.intW;

/**
 * The inverse Cholesky factor of a symmetric positive definite matrix: with A = Rᵀ R (R upper
 * triangular, LAPACK {@code dpotrf}), returns R⁻¹ ({@code dtrtri}), so that R⁻¹ R⁻ᵀ = A⁻¹.
 *
 * <p>Used as a whitening W = R⁻¹ of a full-rank landmark kernel matrix: φ = Wᵀk then costs one
 * triangular multiply ({@code dtrmm}, m² flops per row) instead of a dense one (2m²), and the
 * factorisation costs m³/3 flops instead of an eigendecomposition's ≈ 9m³.
 */
public final class Cholesky {

  private Cholesky() {}

  /** Columns per step of the blocked factorisation and per task of the blocked inverse. */
  static final int BLOCK = 256;

  /**
   * Orders below this are factorised by one LAPACK call each (the split would not pay for itself).
   */
  static final int SPLIT_FROM = 1024;

  /**
   * R⁻¹ for A = RᵀR, n×n column-major with zeros below the diagonal, or null when A is not
   * numerically positive definite (a non-positive pivot in {@code dpotrf}, or a singular R). {@code
   * a} (n×n column-major) is read from its upper triangle after symmetrisation and not modified.
   * Uses {@link DriverThreads#count()} threads.
   */
  public static double[] inverseUpperFactor(double[] a, int n) {
    return inverseUpperFactor(a, n, DriverThreads.count());
  }

  /**
   * The same on {@code threads} threads: for n ≥ {@value #SPLIT_FROM} and more than one thread, the
   * right-looking blocked factorisation (LAPACK's own algorithm: {@code dpotrf} of each diagonal
   * block, then the panel's {@code dtrsm} and the trailing {@code dsyrk}/{@code dgemm} update split
   * by columns into parts of equal work) and the inverse by column blocks (block J of R⁻¹ solves
   * R[0:j₁, 0:j₁]·X = I[0:j₁, J], j₁ the block's last column: n³/3 flops in all, as {@code
   * dtrtri}). Each part is one single-threaded BLAS call, so the parts run on separate cores. The
   * result equals the one-call result to rounding.
   */
  static double[] inverseUpperFactor(double[] a, int n, int threads) {
    boolean split = threads > 1 && n >= SPLIT_FROM;
    // n spare entries: dev.ludovic.netlib checks that lda·(columns) entries follow each operand's
    // offset,
    // which a block starting below the first row of the last columns overruns by fewer than n.
    double[] r = SymmetricEigen.upperTriangle(a, n, split ? n : 0);
    if (!split) {
      intW info = new intW(0);
      Blas.lapack().dpotrf("U", n, r, n, info);
      if (info.val > 0) {
        return null;
      }
      SymmetricEigen.check("dpotrf", info, "factorisation");
      Blas.lapack().dtrtri("U", "N", n, r, n, info);
      if (info.val > 0) {
        return null;
      }
      SymmetricEigen.check("dtrtri", info, "inversion");
      return r;
    }
    try (DriverThreads.Team team = DriverThreads.team(threads)) {
      if (!factorBlocked(r, n, team)) {
        return null;
      }
      return invertBlocked(r, n, team);
    }
  }

  /** A = RᵀR in place (upper triangle), blocked; false when a pivot is not positive. */
  private static boolean factorBlocked(double[] r, int n, DriverThreads.Team team) {
    BLAS blas = Blas.blas();
    intW info = new intW(0);
    for (int step = 0; step < n; step += BLOCK) {
      int k = step;
      int kb = Math.min(BLOCK, n - k);
      Blas.lapack().dpotrf("U", kb, r, k + k * n, n, info);
      if (info.val > 0) {
        return false;
      }
      SymmetricEigen.check("dpotrf", info, "factorisation");
      int first = k + kb;
      int rest = n - first;
      if (rest == 0) {
        break;
      }
      int diagonal = k + k * n;
      // R12 = R11⁻ᵀ A12, split by columns (equal work per column).
      int[] even = DriverThreads.split(first, n, 2 * team.threads(), false);
      team.forEach(
          even.length - 1,
          part ->
              blas.dtrsm(
                  "L",
                  "U",
                  "T",
                  "N",
                  kb,
                  even[part + 1] - even[part],
                  1.0,
                  r,
                  diagonal,
                  n,
                  r,
                  k + even[part] * n,
                  n));
      // A22 −= R12ᵀ R12 on the upper triangle: column j costs ∝ j − first + 1, so the parts widen
      // to the left.
      int[] triangular = DriverThreads.split(first, n, 2 * team.threads(), true);
      team.forEach(
          triangular.length - 1,
          part -> {
            int p0 = triangular[part];
            int width = triangular[part + 1] - p0;
            if (p0 > first) {
              blas.dgemm(
                  "T",
                  "N",
                  p0 - first,
                  width,
                  kb,
                  -1.0,
                  r,
                  k + first * n,
                  n,
                  r,
                  k + p0 * n,
                  n,
                  1.0,
                  r,
                  first + p0 * n,
                  n);
            }
            blas.dsyrk("U", "T", width, kb, -1.0, r, k + p0 * n, n, 1.0, r, p0 + p0 * n, n);
          });
    }
    return true;
  }

  /** R⁻¹ (upper triangular, zeros below) from the factor R, by column blocks, largest first. */
  private static double[] invertBlocked(double[] r, int n, DriverThreads.Team team) {
    for (int i = 0; i < n; i++) {
      if (!(r[i + i * n] > 0)) {
        return null;
      }
    }
    double[] inverse = new double[n * n];
    int blocks = (n + BLOCK - 1) / BLOCK;
    BLAS blas = Blas.blas();
    team.forEach(
        blocks,
        task -> {
          int block = blocks - 1 - task;
          int j0 = block * BLOCK;
          int j1 = Math.min(n, j0 + BLOCK);
          for (int j = j0; j < j1; j++) {
            inverse[j + j * n] = 1.0;
          }
          blas.dtrsm("L", "U", "N", "N", j1, j1 - j0, 1.0, r, 0, n, inverse, j0 * n, n);
        });
    return inverse;
  }
}
