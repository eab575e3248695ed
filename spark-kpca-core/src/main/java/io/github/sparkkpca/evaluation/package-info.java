/**
 * Judging fitted models: the held-out reconstruction error as a Spark {@code Evaluator} ({@link
 * ReconstructionErrorEvaluator}), the variance captured under the exact kernel ({@link
 * CapturedVariance}), the leave-one-out choice of k by MPRESS ({@link Mpress}; for a DataFrame,
 * {@link KSelection}), the Nyström confidence bound ({@link NystromConfidenceBound}) and what a
 * fitted model reports ({@link ModelSummary}).
 *
 * <p>Layer 10, beside {@code streaming} (neither uses the other): uses {@code ml} and the layers
 * below it. Public API.
 */
package io.github.sparkkpca.evaluation;
