package io.github.sparkkpca.kernel;

import io.github.sparkkpca.linalg.RowSet;
import java.io.Serializable;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The definition of one kernel family: everything the library needs to know about it, in one place.
 * The built-in families are the constants of {@link KernelType}; a family defined elsewhere (an
 * enum constant implementing this interface, so it stays one instance after serialization) is
 * registered with {@link KernelFamilies#register} or by a {@link KernelProvider}. Names, parsing,
 * the {@code kernel} parameter's validation and the help texts all derive from the registered
 * definitions.
 *
 * <p>The parameters: γ the {@code gamma} parameter, c₀ the {@code coef0} parameter and p the {@code
 * degree} parameter of the {@link Kernel} passed to each method.
 */
public interface KernelFamily extends Serializable {

  /** The canonical name, as the {@code kernel} parameter takes it and saved models store it. */
  String paramName();

  /** Other names the {@code kernel} parameter accepts for this family (lower case). */
  default List<String> aliases() {
    return List.of();
  }

  /** The formula, in ASCII, for help texts: e.g. {@code exp(-gamma*||x-y||^2)}. */
  String formula();

  /**
   * Whether the family is positive semi-definite for its usual parameters. Whether a given kernel
   * is can depend on its parameters too: see {@link #isPositiveDefinite(Kernel)}.
   */
  default boolean isPositiveDefinite() {
    return true;
  }

  /**
   * Whether every Gram matrix of this kernel (with its parameters) is positive semi-definite. The
   * one flag the library reads to decide which reported quantities are those of the positive-part
   * surrogate and which are refused ({@link Kernel#requirePositiveDefinite}; docs/kernels.md).
   */
  default boolean isPositiveDefinite(Kernel kernel) {
    return isPositiveDefinite();
  }

  /** Whether the kernel has a bandwidth/scale γ. */
  default boolean usesGamma() {
    return true;
  }

  /** Whether the kernel has the offset c₀. */
  default boolean usesCoef0() {
    return false;
  }

  /** Whether the kernel has the degree p. */
  default boolean usesDegree() {
    return false;
  }

  /** Whether k(x−c, z−c) = k(x, z) for every shift c. */
  default boolean isShiftInvariant() {
    return false;
  }

  /** k(x, y) evaluated directly from the vectors (the reference, not the hot path). */
  double apply(Kernel kernel, double[] x, double[] y);

  /** k(x, x) from ‖x‖² alone. */
  double diagonal(Kernel kernel, double sqNorm);

  /**
   * Whether the kernel is a function of ⟨x,z⟩, ‖x‖² and ‖z‖², so that a block is one GEMM followed
   * by {@link #mapInnerProducts}; otherwise {@link #directBlock} computes it.
   */
  default boolean hasInnerProductForm() {
    return true;
  }

  /**
   * Turns inner products ⟨x_i, z_j⟩ (m×b column-major, {@code out[i·m + j]}) into kernel values in
   * place, given ‖x_i‖² and ‖z_j‖².
   */
  default void mapInnerProducts(
      Kernel kernel, double[] out, double[] rowSqNorms, int b, double[] landmarkSqNorms, int m) {
    throw new IllegalStateException("no inner-product form for " + paramName());
  }

  /**
   * Whether the kernel is a function of ‖x − z‖₁ alone (laplacian), so that a block of sparse rows
   * is computed at sparse cost from ‖x − z‖₁ = ‖x‖₁ + ‖z‖₁ − Σ_{t∈both}(|x_t| + |z_t| − |x_t −
   * z_t|) and {@link #mapL1Distances}.
   */
  default boolean hasL1Form() {
    return false;
  }

  /**
   * Turns the L1 distances out[0..n) into kernel values in place (families with {@link
   * #hasL1Form}).
   */
  default void mapL1Distances(Kernel kernel, double[] out, int n) {
    throw new IllegalStateException("no L1-distance form for " + paramName());
  }

  /**
   * Whether blocks of sparse rows can be computed from their non-zeros (the sparse kernel-block
   * path, see {@link LandmarkKernel}): an inner-product form ({@link #mapInnerProducts}, with ‖x‖²,
   * ‖z‖² and the sparse ⟨x,z⟩) or an L1 form ({@link #mapL1Distances}). A family with neither gets
   * the dense path whatever its data.
   */
  default boolean hasSparseForm() {
    return hasInnerProductForm() || hasL1Form();
  }

  /**
   * The block of b rows against m landmarks computed directly, for families without an
   * inner-product form (same layout as {@link Kernel#block}).
   */
  default void directBlock(
      Kernel kernel, double[] rows, int b, double[] landmarks, int m, int d, double[] out) {
    throw new IllegalStateException(paramName() + " has an inner-product form");
  }

  /**
   * The data-driven γ when none is set, from up to {@code maxPoints} of the m points (row-major,
   * m×d); families without γ return 1.
   *
   * @throws IllegalArgumentException when no γ can be derived from the points
   */
  double medianHeuristicGamma(double[] points, int m, int d, int maxPoints);

  /**
   * {@link #medianHeuristicGamma(double[], int, int, int)} on a set that may be sparse. The default
   * densifies the first min(m, maxPoints) points; the built-in families read sparse points by their
   * non-zeros (or not at all) and give the same value as on the dense points.
   */
  default double medianHeuristicGamma(RowSet points, int maxPoints) {
    RowSet head = points.head(Math.min(points.count(), maxPoints));
    return medianHeuristicGamma(head.toDense(), head.count(), points.dim(), maxPoints);
  }

  /** The default γ in words, for help texts (e.g. {@code 1/(2*median ||x-y||^2)}). */
  default String gammaDefault() {
    return usesGamma() ? "1/d" : "none";
  }

  /**
   * sup_x k(x,x) when the kernel is bounded and positive definite (the B of the Nyström confidence
   * bound), else +∞.
   */
  default double diagonalBound() {
    return Double.POSITIVE_INFINITY;
  }

  /** Whether random Fourier features can approximate the kernel (it has a spectral density). */
  default boolean hasSpectralDensity() {
    return false;
  }

  /**
   * One coordinate of a frequency ω drawn from the kernel's spectral density for scale γ (called
   * D·d times, in order, on one generator).
   */
  default double sampleFrequency(double gamma, SplittableRandom random) {
    throw new IllegalStateException(paramName() + " has no spectral density");
  }

  /** One line for help texts: name, aliases, formula, and a note when not positive definite. */
  default String description() {
    return paramName()
        + (aliases().isEmpty() ? "" : " (= " + String.join(", ", aliases()) + ")")
        + " "
        + formula()
        + (isPositiveDefinite() ? "" : " (not positive definite)");
  }
}
