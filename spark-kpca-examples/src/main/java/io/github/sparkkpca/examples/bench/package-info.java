/**
 * Benchmarks: the {@code bench} command (a grid of fits and transforms against the dgemm bound,
 * with optional scikit-learn and Spark ML baselines), its rows, charts and baselines, and the
 * driver-step benchmarks; micro-benchmarks (JMH) in {@code bench.jmh}. Not a library API.
 */
package io.github.sparkkpca.examples.bench;
