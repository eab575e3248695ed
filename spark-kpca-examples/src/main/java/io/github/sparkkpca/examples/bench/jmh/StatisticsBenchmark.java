package io.github.sparkkpca.examples.bench.jmh;

import io.github.sparkkpca.feature.FeatureStatistics;
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
 * The per-block statistics update of the fit for b rows and m landmarks of full rank (r = m): the
 * feature product F = Wᵀ K with the fit's upper-triangular W ({@code features}, TRMM, b·m² flops;
 * the dense GEMM of a rank-deficient K_mm is {@code featuresDense}, 2·b·m² flops) and {@link
 * FeatureStatistics#addBlock} (centring, the SYRK of b·m² flops and the pairwise merge; {@code
 * scatter}). Scores are milliseconds per block; divide the flops by them for GFLOP/s.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class StatisticsBenchmark {

  @Param({"1000", "2000"})
  int m;

  @Param({"2048"})
  int b;

  double[] weights;
  double[] kernel;
  double[] features;
  double[] centredCopy;
  FeatureStatistics stats;

  @Setup
  public void setUp() {
    Random random = new Random(5);
    weights = new double[m * m];
    for (int j = 0; j < m; j++) {
      for (int i = 0; i <= j; i++) {
        weights[i + j * m] = random.nextGaussian();
      }
    }
    kernel = new double[m * b];
    for (int i = 0; i < kernel.length; i++) {
      kernel[i] = random.nextDouble();
    }
    features = new double[m * b];
    Blas.blas().dgemm("T", "N", m, b, m, 1.0, weights, m, kernel, m, 0.0, features, m);
    centredCopy = new double[m * b];
    stats = new FeatureStatistics(m);
  }

  @Benchmark
  public double[] features() {
    System.arraycopy(kernel, 0, features, 0, kernel.length);
    Blas.blas().dtrmm("L", "U", "T", "N", m, b, 1.0, weights, m, features, m);
    return features;
  }

  @Benchmark
  public double[] featuresDense() {
    Blas.blas().dgemm("T", "N", m, b, m, 1.0, weights, m, kernel, m, 0.0, features, m);
    return features;
  }

  @Benchmark
  public FeatureStatistics scatter() {
    // addBlock centres its input in place; work on a copy so every call sees the same features.
    System.arraycopy(features, 0, centredCopy, 0, features.length);
    stats.addBlock(centredCopy, b, b);
    return stats;
  }
}
