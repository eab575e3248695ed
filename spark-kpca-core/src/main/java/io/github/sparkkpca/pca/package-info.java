/**
 * Linear PCA of features: the covariance eigensolve from {@link
 * io.github.sparkkpca.feature.FeatureStatistics}, a fitted "feature map + linear PCA" ({@link
 * FeaturePCA}) and a model's fitted state ({@link KernelPCASolution}), scoring and residuals
 * ({@link Projector}), pre-images, how much of the spectrum to compute, Oja's rule with its step
 * sizes, and exact kernel PCA grown or shrunk point by point on the driver.
 *
 * <p>Layer 4: uses {@code linalg}, {@code kernel} and {@code feature}. Internal: public for the
 * layers above and the examples, no compatibility promise.
 */
package io.github.sparkkpca.pca;
