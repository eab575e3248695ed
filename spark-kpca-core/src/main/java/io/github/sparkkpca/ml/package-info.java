/**
 * The Spark ML stages of this library: the estimators ({@link NystromKernelPCA}, {@link
 * RandomFeatureKernelPCA}, {@link KernelPCA}, {@link KernelPCARegressor}, {@link
 * RelevantDimensionEstimator}), their models and their params. The class names are part of the
 * saved format: saved models and Pipelines record them.
 *
 * <p>Layer 9: uses every layer below it. Public API.
 */
package io.github.sparkkpca.ml;
