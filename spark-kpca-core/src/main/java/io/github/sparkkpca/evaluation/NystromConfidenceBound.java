package io.github.sparkkpca.evaluation;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.landmarks.LandmarkSampling;
import io.github.sparkkpca.linalg.SymmetricEigen;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import org.apache.commons.math3.special.Erf;

/**
 * Confidence bound on how much worse Nyström kernel PCA reconstructs the training data than exact
 * kernel PCA (Hallgren, <i>Kernel PCA and the Nyström method</i>, PhD thesis, University College
 * London, 2021, Theorem 4, chapter 6), with the two-sided eigengap its proof uses.
 *
 * <p>Setting: uncentred kernel PCA (the theorem assumes zero mean in feature space; the thesis
 * leaves the centred case open), a bounded kernel with B = sup_x k(x, x), n training rows of which
 * m form the Nyström subset S, the rows outside S drawn i.i.d. The bounded quantity is the excess
 * empirical reconstruction error of the d-dimensional Nyström subspace Ṽ_d over the exact one V̂_d
 * (thesis eq. 6.5):
 *
 * <pre>  R_n(Ṽ_d) − R_n(V̂_d) = Σ_{j≤d} λ̂ⁿ_j − Σ_{j≤d} λ̃_j,</pre>
 *
 * λ̂ⁿ the eigenvalues of K/n and λ̃ those of the uncentred Nyström fit (both descending). With
 * λ̂ᵐ_1 ≥ … ≥ λ̂ᵐ_m the eigenvalues of K_mm/m (the subset alone, O(m³)), λ̂ᵐ_0 := ∞, confidence 1 −
 * 2e^{−δ} and Φ the standard normal distribution function,
 *
 * <pre>
 *   D   = (n − m)/n · ( B √(2δ) / √(n − m) + B² / √m · (√(2 ln 2) + 2√(2π) Φ(−√(2 ln 2))) )
 *   D_j = min{ 2D / min(λ̂ᵐ_{j−1} − λ̂ᵐ_j, λ̂ᵐ_j − λ̂ᵐ_{j+1}), 1 }
 *   R_n(Ṽ_d) − R_n(V̂_d) ≤ Σ_{j≤d} λ̂ᵐ_j D_j² + D · max_{i≤d} D_i²,   d = 1..m − 1.
 * </pre>
 *
 * D bounds ‖C_n − C_m‖_HS (Hoeffding in Hilbert space for the rows outside S, an expectation bound
 * for S); D_j bounds sin θ_j between the exact and Nyström j-th axes by Davis–Kahan, which needs
 * the gap on both sides of λ̂ᵐ_j. The statement of Theorem 4 prints the gap as min(λ̂ᵐ_{j−1} −
 * λ̂ᵐ_j, λ̂ᵐ_{j−1} − λ̂ᵐ_{j+1}), which is always its first term; its Davis–Kahan step uses the
 * two-sided gap above, as done here. A zero gap (repeated eigenvalue) gives D_j = 1. The bound is
 * often conservative at moderate n and m.
 */
public final class NystromConfidenceBound {

  /**
   * √(2 ln 2) + 2√(2π) Φ(−√(2 ln 2)) ≈ 1.776574: the expectation constant of the subset term of D;
   * Φ(−x) = erfc(x/√2)/2.
   */
  public static final double SUBSET_CONSTANT =
      Math.sqrt(2 * Math.log(2))
          + 2 * Math.sqrt(2 * Math.PI) * 0.5 * Erf.erfc(Math.sqrt(2 * Math.log(2)) / Math.sqrt(2));

  private NystromConfidenceBound() {}

  /**
   * The bound and its ingredients.
   *
   * @param deviation D, the bound on ‖C_n − C_m‖_HS
   * @param subsetEigenvalues λ̂ᵐ_1 ≥ … ≥ λ̂ᵐ_m, the eigenvalues of K_mm/m
   * @param angleBounds D_j for j = 1..k (index j − 1)
   * @param reconstructionErrorBound the bound on R_n(Ṽ_d) − R_n(V̂_d) for d = 1..k (index d − 1)
   */
  public record Bound(
      double deviation,
      double[] subsetEigenvalues,
      double[] angleBounds,
      double[] reconstructionErrorBound) {}

  /**
   * B = sup_x k(x, x) for the bounded kernels: 1 for rbf, laplacian and cosine (k(x, x) = 1, or 0
   * for the zero vector under cosine).
   *
   * @throws IllegalArgumentException for polynomial, linear and sigmoid kernels, which are
   *     unbounded (or, for sigmoid, not positive definite) and make the bound infinite
   */
  public static double kernelBound(Kernel kernel) {
    double bound = kernel.type().diagonalBound();
    if (!kernel.isPositiveDefinite()) {
      throw new IllegalArgumentException(
          "the Nyström confidence bound needs a bounded positive "
              + "definite kernel: kernel "
              + kernel.type().paramName()
              + " is not positive definite; use "
              + boundedKernels()
              + " (B = 1)");
    }
    if (!(bound < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(
          "the Nyström confidence bound needs a "
              + "bounded kernel (sup k(x,x) < ∞): kernel "
              + kernel.type().paramName()
              + " is unbounded; use "
              + boundedKernels()
              + " (B = 1)");
    }
    return bound;
  }

  /** The registered kernels with a finite sup k(x,x), as "rbf, laplacian or cosine". */
  private static String boundedKernels() {
    java.util.List<String> names =
        io.github.sparkkpca.kernel.KernelFamilies.all().stream()
            .filter(f -> f.isPositiveDefinite() && f.diagonalBound() < Double.POSITIVE_INFINITY)
            .map(io.github.sparkkpca.kernel.KernelFamily::paramName)
            .toList();
    return names.size() < 2
        ? String.join("", names)
        : String.join(", ", names.subList(0, names.size() - 1))
            + " or "
            + names.get(names.size() - 1);
  }

  /** δ such that 1 − 2e^{−δ} = confidence: ln(2 / (1 − confidence)). */
  public static double delta(double confidence) {
    if (!(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException("confidence must be in (0, 1), got " + confidence);
    }
    return Math.log(2 / (1 - confidence));
  }

  /**
   * D = (n − m)/n · (B√(2δ)/√(n − m) + B²/√m · {@link #SUBSET_CONSTANT}), 0 when m = n.
   *
   * @throws IllegalArgumentException naming the parameter when m ∉ [1, n], B ≤ 0 or B is not
   *     finite, or the confidence is not in (0, 1)
   */
  public static double deviation(long n, int m, double kernelBound, double confidence) {
    if (m < 1 || m > n) {
      throw new IllegalArgumentException(
          "the subset size m must be in [1, n] = [1, " + n + "], got " + m);
    }
    if (!(kernelBound > 0) || Double.isInfinite(kernelBound)) {
      throw new IllegalArgumentException(
          "the kernel bound B = sup k(x,x) must be positive and finite, got " + kernelBound);
    }
    double delta = delta(confidence);
    if (m == n) {
      return 0.0;
    }
    double outside = kernelBound * Math.sqrt(2 * delta) / Math.sqrt((double) (n - m));
    double subset = kernelBound * kernelBound / Math.sqrt(m) * SUBSET_CONSTANT;
    return (double) (n - m) / n * (outside + subset);
  }

  /**
   * The bound for d = 1..k from n, B, the confidence and the eigenvalues of K_mm/m (descending, all
   * m).
   *
   * @throws IllegalArgumentException naming the parameter when k ∉ [1, m − 1] or as {@link
   *     #deviation}
   */
  public static Bound compute(
      long n, double kernelBound, double confidence, double[] subsetEigenvalues, int k) {
    return fromDeviation(
        deviation(n, subsetEigenvalues.length, kernelBound, confidence), subsetEigenvalues, k);
  }

  /**
   * The bound for d = 1..k from D and the eigenvalues of K_mm/m (descending, all m): the second
   * half of the theorem, separated so that the gap rule can be checked with any D.
   *
   * @throws IllegalArgumentException naming the parameter when k ∉ [1, m − 1] or D &lt; 0
   */
  public static Bound fromDeviation(double deviation, double[] subsetEigenvalues, int k) {
    if (!(deviation >= 0)) {
      throw new IllegalArgumentException("the deviation D must be non-negative, got " + deviation);
    }
    int m = subsetEigenvalues.length;
    if (k < 1 || k > m - 1) {
      throw new IllegalArgumentException(
          "the bound covers d = 1..m − 1, so k must be in [1, "
              + (m - 1)
              + "] for m = "
              + m
              + ", got k = "
              + k);
    }
    double d = deviation;
    double[] angle = new double[k];
    double[] bound = new double[k];
    double weighted = 0;
    double maxAngleSq = 0;
    for (int j = 0; j < k; j++) {
      double above =
          j == 0 ? Double.POSITIVE_INFINITY : subsetEigenvalues[j - 1] - subsetEigenvalues[j];
      double below = subsetEigenvalues[j] - subsetEigenvalues[j + 1];
      double gap = Math.min(above, below);
      angle[j] = gap > 0 ? Math.min(2 * d / gap, 1.0) : 1.0;
      double angleSq = angle[j] * angle[j];
      weighted += subsetEigenvalues[j] * angleSq;
      maxAngleSq = Math.max(maxAngleSq, angleSq);
      bound[j] = weighted + d * maxAngleSq;
    }
    return new Bound(d, subsetEigenvalues.clone(), angle, bound);
  }

  /**
   * The bound for a fitted uncentred Nyström model whose landmarks are a subset of its training
   * rows (uniform or leverage sampling): B from its kernel, n its training rows, λ̂ᵐ from K_mm/m of
   * its landmarks, d = 1..k its components.
   *
   * @throws IllegalArgumentException for a centred model (the thesis leaves the centred case open),
   *     an unbounded kernel, k-means landmarks (not training rows) or k ≥ m
   */
  public static Bound compute(NystromKernelPCAModel model, double confidence) {
    if (model.getCentered()) {
      throw new IllegalArgumentException(
          "the Nyström confidence bound is for uncentred models (centered = "
              + "false): the thesis leaves the centred case open");
    }
    double b = kernelBound(model.fittedKernel());
    if (model.getLandmarkSelection() == LandmarkSampling.KMEANS) {
      throw new IllegalArgumentException(
          "the Nyström confidence bound needs landmarks drawn from the training "
              + "rows: landmarkSampling = kmeans builds new points; use uniform or leverage");
    }
    // The landmarks as stored (sparse rows stay their non-zeros): K_mm on the model's block path.
    io.github.sparkkpca.linalg.RowSet landmarks =
        io.github.sparkkpca.linalg.RowSet.of(model.landmarkVectors(), model.numFeatures());
    int m = landmarks.count();
    double[] values =
        SymmetricEigen.of(new LandmarkKernel(model.fittedKernel(), landmarks).gram(), m).values();
    double[] scaled = new double[m];
    for (int j = 0; j < m; j++) {
      scaled[j] = values[j] / m;
    }
    return compute(model.numRows(), b, confidence, scaled, model.numComponents());
  }
}
