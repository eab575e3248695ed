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
 * a loop against {@link FastExp}. Scores are nanoseconds per exponential (the copy of the input, needed
 * because FastExp works in place, is in both).
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

  double[] arguments;
  double[] values;
  FastExp fastExp;

  @Setup
  public void setUp() {
    Random random = new Random(1);
    arguments = new double[M];
    for (int j = 0; j < M; j++) {
      arguments[j] = -10 * random.nextDouble();
    }
    values = new double[M];
    fastExp = new FastExp(M);
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
}
