package io.github.sparkkpca.kernel;

import dev.ludovic.netlib.blas.BLAS;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.FastExp;
import io.github.sparkkpca.linalg.SymmetricStorage;
import java.io.Serializable;

/**
 * A kernel k(x, y) on R^d: a {@linkplain KernelFamily family} with its parameters fixed. Every
 * family-specific step (value, diagonal, the element-wise map of a block, the median heuristic) is
 * the family's; this record holds the parameters and the BLAS part shared by every family.
 *
 * <p>The hot path is {@link #block}: the kernel between a block of b rows and m landmarks, computed
 * from one GEMM of inner products (‖x−z‖² = ‖x‖² + ‖z‖² − 2⟨x,z⟩, clamped at 0 against rounding)
 * followed by the family's element-wise map (for rbf a vectorised exp, {@link FastExp}, within
 * 3e−16 relative of Math.exp). A family without an inner-product form (the Laplacian kernel needs
 * L1 distances) computes its block directly at b·m·d operations.
 *
 * <p>The expansion of ‖x−z‖² loses about ε·(‖x‖² + ‖z‖²) to cancellation, which is everything when
 * the data lie far from the origin (rows 1e8 + N(0,1): ‖x‖² ≈ 1e16·d, distances ≈ 1). A
 * shift-invariant kernel with an inner-product form (rbf) gets rows and landmarks shifted by a
 * common centre (the landmark mean) from {@link LandmarkKernel}; the other GEMM kernels are not
 * shift-invariant and get raw rows.
 *
 * @param type the kernel family
 * @param gamma γ: scale of the inner product (polynomial, sigmoid) or inverse bandwidth (rbf,
 *     laplacian); ignored by families that do not use it
 * @param degree p: the polynomial degree (families that use a degree only)
 * @param coef0 c₀: the additive constant (families that use it only)
 */
public record Kernel(KernelFamily type, double gamma, int degree, double coef0)
    implements Serializable {

  /** Points the median heuristic for γ looks at (pairs: about half its square). */
  public static final int MEDIAN_HEURISTIC_POINTS = 1000;

  public Kernel {
    if (type == null) {
      throw new IllegalArgumentException("kernel type must not be null");
    }
    if (type.usesGamma() && !(gamma > 0 && Double.isFinite(gamma))) {
      throw new IllegalArgumentException(
          "gamma must be finite and > 0 for the " + type.paramName() + " kernel, got " + gamma);
    }
    if (type.usesDegree() && degree < 1) {
      throw new IllegalArgumentException("degree must be >= 1, got " + degree);
    }
    if (!Double.isFinite(coef0)) {
      throw new IllegalArgumentException("coef0 must be finite, got " + coef0);
    }
  }

  /**
   * Whether both kernels are the same function: same family and equal values of the parameters that
   * family uses (γ, p and c₀ are ignored where they play no part).
   */
  public boolean sameFunction(Kernel other) {
    return type.paramName().equals(other.type.paramName())
        && (!type.usesGamma() || Double.compare(gamma, other.gamma) == 0)
        && (!type.usesDegree() || degree == other.degree)
        && (!type.usesCoef0() || Double.compare(coef0, other.coef0) == 0);
  }

  /** The Gaussian kernel exp(−γ‖x−y‖²). */
  public static Kernel rbf(double gamma) {
    return new Kernel(KernelType.RBF, gamma, 3, 1.0);
  }

  /** The linear kernel ⟨x, y⟩. */
  public static Kernel linear() {
    return new Kernel(KernelType.LINEAR, 1.0, 3, 1.0);
  }

  /**
   * The kernel of a family with the given parameters, γ replaced by 1 when the family has none (so
   * an unset γ, NaN, is accepted there).
   */
  public static Kernel of(KernelFamily type, double gamma, int degree, double coef0) {
    return new Kernel(type, type.usesGamma() ? gamma : 1.0, degree, coef0);
  }

  /**
   * Whether every Gram matrix of this kernel is positive semi-definite ({@link
   * KernelFamily#isPositiveDefinite(Kernel)}: never for sigmoid, for polynomial only with c₀ ≥ 0).
   */
  public boolean isPositiveDefinite() {
    return type.isPositiveDefinite() && type.isPositiveDefinite(this);
  }

  /**
   * Refuses a quantity that has no meaning unless every Gram matrix of the kernel is positive
   * semi-definite (a residual k(x,x) − ‖Pφ(x)‖², which needs k(x,x) to be a squared norm; a
   * pre-image; the Nyström confidence bound; MPRESS), with one line naming the quantity, the kernel
   * and why. Whether the kernel is positive definite comes from its family's definition ({@link
   * KernelFamily#isPositiveDefinite(Kernel)}); see docs/kernels.md for what each reported quantity
   * means for each kernel.
   *
   * @param quantity what was asked for, e.g. "the per-row residual (residualCol)"
   * @param advice what to do instead, or empty
   * @throws IllegalArgumentException when this kernel is not positive definite
   */
  public void requirePositiveDefinite(String quantity, String advice) {
    if (!isPositiveDefinite()) {
      throw new IllegalArgumentException(
          quantity
              + " needs a positive definite kernel: "
              + indefiniteness()
              + ", so k(x,x) is no squared norm of a feature vector"
              + (advice.isEmpty() ? "" : "; " + advice));
    }
  }

  /**
   * "kernel sigmoid tanh(gamma*&lt;x,y&gt;+coef0) (coef0 = 1.0) is not positive definite", or the
   * same with "is positive definite": the kernel, its formula and the parameter its definiteness
   * depends on, for messages.
   */
  public String indefiniteness() {
    return "kernel "
        + type.paramName()
        + " "
        + type.formula()
        + (type.usesCoef0() ? " (coef0 = " + coef0 + ")" : "")
        + (isPositiveDefinite() ? " is positive definite" : " is not positive definite");
  }

  /** Whether k(x−c, z−c) = k(x, z) for every shift c (rbf and laplacian). */
  public boolean isShiftInvariant() {
    return type.isShiftInvariant();
  }

  /**
   * k(x, y) for two vectors of equal length, evaluated directly (a reference, not the hot path).
   */
  public double apply(double[] x, double[] y) {
    if (x.length != y.length) {
      throw new IllegalArgumentException("vector sizes differ: " + x.length + " and " + y.length);
    }
    return type.apply(this, x, y);
  }

  /** k(x, x) from ‖x‖² alone. */
  public double diagonal(double sqNorm) {
    return type.diagonal(this, sqNorm);
  }

  /**
   * The kernel between b rows and m landmarks.
   *
   * @param rows b×d row-major block of rows
   * @param rowSqNorms ‖x_i‖², length ≥ b
   * @param b number of rows in the block
   * @param landmarks m×d row-major landmarks
   * @param landmarkSqNorms ‖z_j‖², length m
   * @param m number of landmarks
   * @param d dimension
   * @param out receives K as an m×b column-major matrix: out[i·m + j] = k(x_i, z_j), so each row's
   *     kernel vector k_x is contiguous; length ≥ m·b
   */
  public void block(
      double[] rows,
      double[] rowSqNorms,
      int b,
      double[] landmarks,
      double[] landmarkSqNorms,
      int m,
      int d,
      double[] out) {
    if (b == 0) {
      return;
    }
    if (!type.hasInnerProductForm()) {
      type.directBlock(this, rows, b, landmarks, m, d, out);
      return;
    }
    innerProducts(rows, b, landmarks, m, d, out);
    type.mapInnerProducts(this, out, rowSqNorms, b, landmarkSqNorms, m);
  }

  /** ⟨x_i, z_j⟩ into out[i·m + j] by one GEMM: {@link #block} before the family's map. */
  static void innerProducts(double[] rows, int b, double[] landmarks, int m, int d, double[] out) {
    if (b == 0) {
      return;
    }
    // Column-major views: landmarks are d×m (lda = d), rows are d×b; out = Zᵀ X is m×b.
    BLAS blas = Blas.blas();
    blas.dgemm("T", "N", m, b, d, 1.0, landmarks, d, rows, d, 0.0, out, m);
  }

  /** ⟨z_i, z_j⟩ of m points into out (m×m, both triangles): {@link #gram} before the map. */
  static void gramInnerProducts(double[] points, int m, int d, double[] out) {
    if (m == 0) {
      return;
    }
    Blas.blas().dsyrk("U", "T", m, d, 1.0, points, d, 0.0, out, m);
    SymmetricStorage.mirrorUpper(out, m);
  }

  /**
   * The m×m kernel matrix of the points among themselves (K_mm), column-major in {@code out}: the
   * inner products by one SYRK (m²d flops, half of {@link #block}'s GEMM on the same points),
   * mirrored, then mapped as {@link #block} maps them; so K_mm is exactly symmetric.
   *
   * @param points m×d row-major
   * @param sqNorms ‖z_j‖², length m
   */
  public void gram(double[] points, double[] sqNorms, int m, int d, double[] out) {
    if (m == 0) {
      return;
    }
    if (!type.hasInnerProductForm()) {
      type.directBlock(this, points, m, points, m, d, out);
      return;
    }
    gramInnerProducts(points, m, d, out);
    type.mapInnerProducts(this, out, sqNorms, m, sqNorms, m);
  }

  /**
   * The median heuristic for γ, computed on up to {@code maxPoints} of the given points (row-major,
   * m×d): rbf γ = 1 / (2·median ‖x−y‖²), i.e. bandwidth σ = median distance; laplacian γ = 1 /
   * median ‖x−y‖₁; polynomial and sigmoid γ = 1/d (scikit-learn's default); linear and cosine
   * ignore γ (1). Distances are summed from coordinate differences, never expanded through norms,
   * so they are exact up to rounding of the differences themselves wherever the points lie (the
   * same shift-invariant distances the kernel blocks see).
   *
   * @throws IllegalArgumentException when all sampled points coincide, so no bandwidth can be
   *     derived, or when the median distance overflows a double
   */
  public static double medianHeuristicGamma(
      KernelFamily type, double[] points, int m, int d, int maxPoints) {
    return type.medianHeuristicGamma(points, m, d, maxPoints);
  }

  /**
   * {@link #medianHeuristicGamma} on up to {@value #MEDIAN_HEURISTIC_POINTS} points of a set that
   * may be sparse ({@link KernelFamily#medianHeuristicGamma(RowSet, int)}).
   */
  public static double medianHeuristicGamma(
      KernelFamily type, io.github.sparkkpca.linalg.RowSet points) {
    return type.medianHeuristicGamma(points, MEDIAN_HEURISTIC_POINTS);
  }

  /** {@link #medianHeuristicGamma} on up to {@value #MEDIAN_HEURISTIC_POINTS} points. */
  public static double medianHeuristicGamma(KernelFamily type, double[] points, int m, int d) {
    return medianHeuristicGamma(type, points, m, d, MEDIAN_HEURISTIC_POINTS);
  }
}
