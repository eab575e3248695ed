package io.github.sparkkpca.feature;

import io.github.sparkkpca.linalg.SymmetricEigen;

/**
 * Linear PCA of feature vectors from their {@link FeatureStatistics}: the shared core of every kernel PCA
 * in this library ("feature map + linear PCA"). The Nyström path feeds it φ(x) = Wᵀk_x.
 *
 * <p>C = M/n (centred) or M/n + φ̄φ̄ᵀ (uncentred) is decomposed as C = U Σ Uᵀ with Σ descending; negative
 * rounding noise in Σ is clamped to 0.
 *
 * @param variances all r eigenvalues Σ_1 ≥ … ≥ Σ_r ≥ 0 of C: the variances of the scores (centred) or
 *                  their mean squares (uncentred)
 * @param components U_k, r×k column-major, the leading k eigenvectors
 * @param k         number of components kept
 * @param mean      φ̄, the mean feature vector
 * @param count     n
 * @param diagonalMean (1/n) Σ k(x_i, x_i)
 */
public record LinearPCA(double[] variances, double[] components, int k, double[] mean, long count,
    double diagonalMean) {

  /** Fits the leading k components. */
  public static LinearPCA fit(FeatureStatistics stats, int k, boolean centered) {
    int r = stats.dim();
    if (k < 1 || k > r) {
      throw new IllegalArgumentException("k must be in [1, " + r + "], got " + k);
    }
    if (stats.count() == 0) {
      throw new IllegalArgumentException("no rows were accumulated");
    }
    // Every eigenvalue (the model's spectrum), but eigenvectors only for the k components kept.
    SymmetricEigen eig = SymmetricEigen.leading(stats.covariance(centered), r, k);
    double[] variances = eig.values().clone();
    for (int i = 0; i < r; i++) {
      variances[i] = Math.max(variances[i], 0.0);
    }
    double[] components = eig.vectors();
    return new LinearPCA(variances, components, k, stats.mean(), stats.count(),
        stats.diagonalSum() / stats.count());
  }
}
