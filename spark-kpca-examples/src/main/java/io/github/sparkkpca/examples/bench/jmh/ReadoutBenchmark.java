package io.github.sparkkpca.examples.bench.jmh;

import io.github.sparkkpca.feature.LinearReadout;
import io.github.sparkkpca.linalg.Blas;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The readout of a scoring block: c = k + 1 functionals of b rows' f features, AᵀF (c×b). {@code
 * readOut} is the library's form ({@link LinearReadout#readOut}: the b×c product FᵀA, then
 * transposed); {@code cByB} the c×b product in one GEMM, the form before it. Scores are
 * microseconds per block.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class ReadoutBenchmark {

  @Param({"1000", "8000"})
  int f;

  @Param({"21", "51"})
  int c;

  @Param({"256"})
  int b;

  double[] coefficients;
  double[] scratch;
  double[] out;

  @Setup
  public void setUp() {
    Random random = new Random(5);
    coefficients = new double[f * c];
    for (int i = 0; i < coefficients.length; i++) {
      coefficients[i] = random.nextGaussian();
    }
    scratch = new double[LinearReadout.readOutScratch(f, c, b)];
    for (int i = 0; i < f * b; i++) {
      scratch[i] = random.nextDouble();
    }
    out = new double[c * b];
  }

  @Benchmark
  public double[] readOut() {
    LinearReadout.readOut(coefficients, f, c, scratch, b, out);
    return out;
  }

  @Benchmark
  public double[] cByB() {
    Blas.blas().dgemm("T", "N", c, b, f, 1.0, coefficients, f, scratch, f, 0.0, out, c);
    return out;
  }
}
