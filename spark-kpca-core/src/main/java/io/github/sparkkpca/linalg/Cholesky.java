package io.github.sparkkpca.linalg;

import org.netlib.util.intW;

/**
 * The inverse Cholesky factor of a symmetric positive definite matrix: with A = Rᵀ R (R upper triangular,
 * LAPACK {@code dpotrf}), returns R⁻¹ ({@code dtrtri}), so that R⁻¹ R⁻ᵀ = A⁻¹.
 *
 * <p>Used as a whitening W = R⁻¹ of a full-rank landmark kernel matrix: φ = Wᵀk then costs one triangular
 * multiply ({@code dtrmm}, m² flops per row) instead of a dense one (2m²), and the factorisation costs m³/3
 * flops instead of an eigendecomposition's ≈ 9m³.
 */
public final class Cholesky {

  private Cholesky() {
  }

  /**
   * R⁻¹ for A = RᵀR, n×n column-major with zeros below the diagonal, or null when A is not numerically
   * positive definite (a non-positive pivot in {@code dpotrf}, or a singular R). {@code a} (n×n
   * column-major) is read from its upper triangle after symmetrisation and not modified.
   */
  public static double[] inverseUpperFactor(double[] a, int n) {
    double[] r = SymmetricEigen.upperTriangle(a, n);
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
}
