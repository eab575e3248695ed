package io.github.sparkkpca.pca;

import java.util.Arrays;

/**
 * The fitted state of a kernel PCA model: how it scores new rows, the spectrum it was chosen from
 * and, for models that can grow, the feature map with the statistics behind it.
 *
 * @param projector y(x) = U_kᵀ(φ(x) − φ̄) and the residual, through the feature map
 * @param spectrum every eigenvalue of the (centred or uncentred) covariance found by the fit,
 *     descending; the first k are the variances of the k scores
 * @param totalVariance total variance in feature space the ratios refer to
 * @param totalVarianceMethod how {@code totalVariance} was obtained (see the models' Javadoc)
 * @param numRows n, the number of training rows
 * @param droppedRank directions dropped by rank thresholding (landmarks minus the rank kept)
 * @param landmarkSelection how the landmarks were chosen, with the effective count
 * @param featurePCA the feature map, its statistics and linear PCA; null for exact kernel PCA and
 *     for models saved in format 1, which kept only the projector and cannot grow
 */
public record KernelPCASolution(
    Projector projector,
    double[] spectrum,
    double totalVariance,
    String totalVarianceMethod,
    long numRows,
    int droppedRank,
    String landmarkSelection,
    FeaturePCA featurePCA) {

  /** The state of a "feature map + linear PCA" fit. */
  public static KernelPCASolution of(FeaturePCA fit, int droppedRank, String landmarkSelection) {
    return new KernelPCASolution(
        fit.projector(),
        fit.spectrum(),
        fit.totalVariance(),
        fit.totalVarianceMethod(),
        fit.count(),
        droppedRank,
        landmarkSelection,
        fit);
  }

  /**
   * Σ_i / totalVariance for the k components; all 0 when the total variance is 0 (constant data in
   * feature space), never NaN.
   */
  public double[] explainedVarianceRatio() {
    double[] ratio = Arrays.copyOf(spectrum, projector.numComponents());
    for (int i = 0; i < ratio.length; i++) {
      ratio[i] = totalVariance > 0 ? ratio[i] / totalVariance : 0.0;
    }
    return ratio;
  }

  /**
   * R(ℓ) = totalVariance − Σ_{i≤ℓ} Σ_i for ℓ = 1..k, clamped at 0: the mean squared feature-space
   * distance of the training points to the ℓ-dimensional principal subspace.
   */
  public double[] reconstructionError() {
    double[] error = new double[projector.numComponents()];
    double captured = 0;
    for (int l = 0; l < error.length; l++) {
      captured += spectrum[l];
      error[l] = Math.max(totalVariance - captured, 0.0);
    }
    return error;
  }

  /** Whether the model keeps its statistics and can absorb more rows. */
  public boolean isUpdatable() {
    return featurePCA != null;
  }
}
