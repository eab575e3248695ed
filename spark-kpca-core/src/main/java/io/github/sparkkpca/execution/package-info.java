/**
 * Execution over Spark: the one pass helper ({@link DistributedPass}), the one input rule ({@link
 * InputVectors}), the validating scan with its reproducible uniform sample ({@link DataScan},
 * {@link RowHash}, {@link SmallestKeys}), the passes fits and updates share ({@link
 * FeaturePasses}), the row-block loop and partition scoring of transform ({@link BlockedRows},
 * {@link ProjectPartition}), the memory check before a fit ({@link FitMemory}) and literal column
 * references ({@link QuotedColumns}).
 *
 * <p>Layer 6: uses {@code linalg}, {@code kernel}, {@code feature}, {@code pca} and {@code
 * regression}. Internal: public for the layers above and the examples, no compatibility promise.
 */
package io.github.sparkkpca.execution;
