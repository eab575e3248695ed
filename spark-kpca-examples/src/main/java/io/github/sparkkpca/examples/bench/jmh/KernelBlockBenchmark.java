package io.github.sparkkpca.examples.bench.jmh;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.RowBlock;
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
 * The rbf kernel block of b rows against m landmarks in dimension d: the inner-product GEMM alone
 * ({@code innerProducts}, 2·b·m·d flops), the whole block as the library computes it ({@code
 * rbfBlock}: GEMM, squared distances and FastExp), and the same with Math.exp ({@code
 * rbfBlockMathExp}, the previous implementation). Scores are milliseconds per block.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class KernelBlockBenchmark {

  @Param({"50", "784"})
  int d;

  @Param({"1000", "2000"})
  int m;

  @Param({"2048"})
  int b;

  LandmarkKernel rbf;
  LandmarkKernel linear;
  RowBlock block;
  double[] landmarks;
  double[] landmarkSqNorms;
  double[] out;
  double gamma;

  @Setup
  public void setUp() {
    Random random = new Random(3);
    landmarks = new double[m * d];
    for (int i = 0; i < landmarks.length; i++) {
      landmarks[i] = random.nextGaussian();
    }
    double[] rows = new double[b * d];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = random.nextGaussian();
    }
    block = new RowBlock(b, d);
    block.fill(rows, b);
    gamma = 1.0 / (4.0 * d);
    rbf = new LandmarkKernel(Kernel.rbf(gamma), landmarks, m, d);
    linear = new LandmarkKernel(Kernel.linear(), landmarks, m, d);
    landmarkSqNorms = new double[m];
    for (int j = 0; j < m; j++) {
      for (int t = 0; t < d; t++) {
        landmarkSqNorms[j] += landmarks[j * d + t] * landmarks[j * d + t];
      }
    }
    out = new double[m * b];
  }

  @Benchmark
  public double[] innerProducts() {
    linear.compute(block, out);
    return out;
  }

  @Benchmark
  public double[] rbfBlock() {
    rbf.compute(block, out);
    return out;
  }

  @Benchmark
  public double[] rbfBlockMathExp() {
    Blas.blas().dgemm("T", "N", m, b, d, 1.0, landmarks, d, block.values(), d, 0.0, out, m);
    double minusGamma = -gamma;
    double[] rowSqNorms = block.sqNorms();
    for (int i = 0; i < b; i++) {
      double xx = rowSqNorms[i];
      int base = i * m;
      for (int j = 0; j < m; j++) {
        double sq = xx + landmarkSqNorms[j] - 2.0 * out[base + j];
        out[base + j] = Math.exp(minusGamma * Math.max(sq, 0.0));
      }
    }
    return out;
  }
}
