package io.github.sparkkpca.examples.bench.jmh;

import io.github.sparkkpca.linalg.FastExp;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * exp over one row of kernel arguments (m values in [−10, 0], as −γ‖x−z‖² of an rbf kernel): Math.exp in
 * a loop against {@link FastExp}; and the rbf map of one row as the kernel block runs it
 * ({@link FastExp#gaussianInPlace}: argument and exponential from the inner products). Scores are
 * nanoseconds per value (the copy of the input, needed because both work in place, is in all of them).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@OperationsPerInvocation(ExpBenchmark.M)
public class ExpBenchmark {

  static final int M = 1000;
  /** γ of the rbf benchmarks: −γ‖x − z‖² ∈ [−10, 0]. */
  static final double GAMMA = 2.5;

  double[] arguments;
  double[] values;
  FastExp fastExp;
  /** Inner products ⟨x, z_j⟩ with ‖x‖² = 1 and ‖z_j‖² = 1, so that −γ‖x − z_j‖² lies in [−10, 0]. */
  double[] inner;
  double[] sqNorms;

  @Setup
  public void setUp() {
    Random random = new Random(1);
    arguments = new double[M];
    for (int j = 0; j < M; j++) {
      arguments[j] = -10 * random.nextDouble();
    }
    values = new double[M];
    fastExp = new FastExp(M);
    inner = new double[M];
    sqNorms = new double[M];
    for (int j = 0; j < M; j++) {
      inner[j] = 1 - random.nextDouble() * 2;      // ‖x − z‖² = 2 − 2⟨x, z⟩ ∈ [0, 4]
      sqNorms[j] = 1;
    }
  }

  @Benchmark
  public double[] mathExp() {
    System.arraycopy(arguments, 0, values, 0, M);
    for (int j = 0; j < M; j++) {
      values[j] = Math.exp(values[j]);
    }
    return values;
  }

  @Benchmark
  public double[] fastExp() {
    System.arraycopy(arguments, 0, values, 0, M);
    fastExp.expInPlace(values, M);
    return values;
  }

  /** The rbf map of one row as the kernel block runs it: the argument and the exponential from ⟨x, z_j⟩. */
  @Benchmark
  public double[] gaussianRow() {
    System.arraycopy(inner, 0, values, 0, M);
    fastExp.gaussianInPlace(values, 0, M, 1.0, sqNorms, -GAMMA);
    return values;
  }
}
