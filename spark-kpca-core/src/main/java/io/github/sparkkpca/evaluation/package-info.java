/**
 * Judging fitted models: the held-out reconstruction error as a Spark {@code Evaluator} ({@link
 * ReconstructionErrorEvaluator}), the variance captured under the exact kernel ({@link
 * CapturedVariance}), the leave-one-out choice of k by MPRESS ({@link Mpress}) and the Nyström
 * confidence bound ({@link NystromConfidenceBound}).
 *
 * <p>Layer 10, beside {@code streaming} (neither uses the other): uses {@code ml} and the layers
 * below it. Public API.
 */
package io.github.sparkkpca.evaluation;
