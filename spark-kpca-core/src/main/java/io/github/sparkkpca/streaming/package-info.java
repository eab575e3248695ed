/**
 * Models that change as data arrive: {@link StreamingKernelPCA}, the {@code foreachBatch} sink of a
 * Structured Streaming query that writes each micro-batch's model as a new version (exact refits or
 * RF-Oja), and {@link IncrementalNystrom}, which grows a fitted Nyström model landmark by landmark.
 *
 * <p>Layer 10, beside {@code evaluation} (neither uses the other): uses {@code ml} and the layers
 * below it. Public API.
 */
package io.github.sparkkpca.streaming;
