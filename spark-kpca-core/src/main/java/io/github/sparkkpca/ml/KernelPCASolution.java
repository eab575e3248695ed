package io.github.sparkkpca.ml;

import io.github.sparkkpca.feature.NystromProjector;

/**
 * The fitted state of a kernel PCA model: the projector over its support points (the landmarks for
 * Nyström, all training rows for exact KPCA) and the spectrum it was chosen from.
 *
 * @param projector           y(x) = Pᵀk_x − o and the residual
 * @param spectrum            every eigenvalue of the (centred or uncentred) covariance found by the fit,
 *                            descending; the first k are the variances of the k scores
 * @param totalVariance       total variance in feature space the ratios refer to
 * @param totalVarianceMethod how {@code totalVariance} was obtained (see the models' Javadoc)
 * @param numRows             n, the number of training rows
 * @param droppedRank         support points minus the numerical rank kept (rank thresholding)
 * @param landmarkSelection   how the support points were chosen, with the effective count
 */
public record KernelPCASolution(NystromProjector projector, double[] spectrum, double totalVariance,
    String totalVarianceMethod, long numRows, int droppedRank, String landmarkSelection) {
}
