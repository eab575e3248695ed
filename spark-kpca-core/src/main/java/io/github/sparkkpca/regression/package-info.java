/**
 * The mathematics of kernel principal component regression and relevant dimension estimation: the
 * labelled statistics (feature statistics plus ȳ and the cross-moment), the label scan and coding,
 * the per-partition loops, the component regression and the relevant dimension with its per-width
 * diagnostics. The stages that use them are in {@code ml}.
 *
 * <p>Layer 5: uses {@code linalg}, {@code kernel}, {@code feature} and {@code pca}. Internal:
 * public for the layers above and the examples, no compatibility promise.
 */
package io.github.sparkkpca.regression;
