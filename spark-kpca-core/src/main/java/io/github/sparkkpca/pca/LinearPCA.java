package io.github.sparkkpca.pca;

import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.linalg.BlockKrylovEigen;
import io.github.sparkkpca.linalg.SymmetricEigen;

/**
 * Linear PCA of feature vectors from their {@link FeatureStatistics}: the shared core of every
 * kernel PCA in this library ("feature map + linear PCA"). The Nyström path feeds it φ(x) = Wᵀk_x.
 *
 * <p>C = M/n (centred) or M/n + φ̄φ̄ᵀ (uncentred) is decomposed as C = U Σ Uᵀ with Σ descending;
 * negative rounding noise in Σ is clamped to 0.
 *
 * <p>The spectrum is computed in full (p = r) unless less is asked for: p eigenvalues, e.g. {@link
 * #leadingNumEigenvalues}(r, k), and the total tr C = Σ of all r eigenvalues from the diagonal.
 * With p &lt; r the k components and p eigenvalues come from {@link BlockKrylovEigen} (a few dozen
 * GEMMs with the r×r matrix instead of its tridiagonalisation), with p = r from the dense {@link
 * SymmetricEigen#leading}.
 *
 * @param variances the p leading eigenvalues Σ_1 ≥ … ≥ Σ_p ≥ 0 of C (p ≥ k; all r of them when
 *     asked for): the variances of the scores (centred) or their mean squares (uncentred)
 * @param components U_k, r×k column-major, the leading k eigenvectors
 * @param k number of components kept
 * @param mean φ̄, the mean feature vector
 * @param count n
 * @param diagonalMean (1/n) Σ k(x_i, x_i)
 * @param trace tr C, the sum of all r eigenvalues: the total variance (centred) or mean square
 *     (uncentred) of φ, known without the rest of the spectrum
 */
public record LinearPCA(
    double[] variances,
    double[] components,
    int k,
    double[] mean,
    long count,
    double diagonalMean,
    double trace) {

  /**
   * A leading part of the spectrum worth computing when the whole is not needed: min(r, max(k,
   * 50)), the k variances and at least a 50-bar scree plot; what models compute by default ({@link
   * SpectrumExtent#LEADING}). Each eigenvalue asked for costs about as much as a component (the
   * iteration converges the eigenpairs together): measured on kernel covariances at r = 4000 and
   * 8000, 100 eigenvalues took 2.5 times as long as 50.
   */
  public static int leadingNumEigenvalues(int r, int k) {
    return Math.min(r, Math.max(k, 50));
  }

  /** Fits the leading k components and every eigenvalue. */
  public static LinearPCA fit(FeatureStatistics stats, int k, boolean centered) {
    return fit(stats, k, centered, stats.dim());
  }

  /**
   * Fits the leading k components and the {@code numEigenvalues} leading eigenvalues of C.
   *
   * @param numEigenvalues p, k ≤ p ≤ r; r for the whole spectrum
   */
  public static LinearPCA fit(
      FeatureStatistics stats, int k, boolean centered, int numEigenvalues) {
    int r = stats.dim();
    if (k < 1 || k > r) {
      throw new IllegalArgumentException("k must be in [1, " + r + "], got " + k);
    }
    if (numEigenvalues < k || numEigenvalues > r) {
      throw new IllegalArgumentException(
          "numEigenvalues must be in [k, r] = [" + k + ", " + r + "], got " + numEigenvalues);
    }
    if (stats.count() == 0) {
      throw new IllegalArgumentException("no rows were accumulated");
    }
    double[] covariance = stats.covariance(centered);
    double trace = BlockKrylovEigen.trace(covariance, r);
    // Eigenvectors only for the k components kept.
    SymmetricEigen eig =
        numEigenvalues == r
            ? SymmetricEigen.leading(covariance, r, k)
            : BlockKrylovEigen.leading(covariance, r, numEigenvalues).eigen();
    double[] variances = new double[numEigenvalues];
    for (int i = 0; i < numEigenvalues; i++) {
      variances[i] = Math.max(eig.values()[i], 0.0);
    }
    double[] components = java.util.Arrays.copyOf(eig.vectors(), r * k);
    return new LinearPCA(
        variances,
        components,
        k,
        stats.mean(),
        stats.count(),
        stats.diagonalSum() / stats.count(),
        trace);
  }
}
