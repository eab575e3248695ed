package io.github.sparkkpca.feature;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.linalg.RowBlock;
import java.util.Arrays;
import java.util.Random;
import org.apache.spark.ml.linalg.Vectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random Fourier features approximate their kernel at the Monte Carlo rate, with the spectral
 * densities' scales right; the features, readouts and draws are checked against formulas written
 * out here.
 */
class RandomFourierFeatureMapTest {

  private static final int N = 40;
  private static final int D_IN = 5;

  private static double[] points(long seed) {
    Random random = new Random(seed);
    double[] x = new double[N * D_IN];
    for (int i = 0; i < x.length; i++) {
      x[i] = random.nextGaussian();
    }
    return x;
  }

  private static double[] row(double[] x, int i) {
    return Arrays.copyOfRange(x, i * D_IN, (i + 1) * D_IN);
  }

  /** z(x_i) for all rows, through map(), D×N column-major. */
  private static double[] features(RandomFourierFeatureMap map, double[] x) {
    RowBlock block = new RowBlock(N, D_IN);
    block.fill(x, N);
    double[] z = new double[map.numFeatures() * N];
    map.map(block, new double[map.scratchSize(N)], z);
    return z;
  }

  /**
   * The mean over pairs i < j of |z(x_i)ᵀz(x_j) − k(x_i, x_j)|, averaged over {@code seeds} draws,
   * and the value the central limit theorem predicts for it: each feature contributes T = 2cos(ωᵀx
   * + b)cos(ωᵀy + b) = cos(ωᵀδ) + cos(ωᵀ(x + y) + 2b) with E[T] = k(δ) and Var[T] = 1 + k(2δ)/2 −
   * k(δ)², so the error is about N(0, Var[T]/D) and E|error| ≈ √(2/π)·√(Var[T]/D).
   */
  private static double[] meanErrorAndPrediction(
      Kernel kernel, double[] x, int features, int seeds) {
    double error = 0;
    for (int s = 0; s < seeds; s++) {
      double[] z = features(RandomFourierFeatureMap.draw(kernel, features, D_IN, 1000 + s), x);
      double sum = 0;
      int pairs = 0;
      for (int i = 0; i < N; i++) {
        for (int j = i + 1; j < N; j++) {
          double dot = 0;
          for (int t = 0; t < features; t++) {
            dot += z[i * features + t] * z[j * features + t];
          }
          sum += Math.abs(dot - kernel.apply(row(x, i), row(x, j)));
          pairs++;
        }
      }
      error += sum / pairs / seeds;
    }
    double predicted = 0;
    int pairs = 0;
    for (int i = 0; i < N; i++) {
      for (int j = i + 1; j < N; j++) {
        double[] a = row(x, i);
        double[] b = row(x, j);
        double[] twice = new double[D_IN];
        for (int t = 0; t < D_IN; t++) {
          twice[t] = a[t] + (a[t] - b[t]);
        }
        double k = kernel.apply(a, b);
        double variance = 1 + kernel.apply(twice, b) / 2 - k * k;
        predicted += Math.sqrt(2 / Math.PI) * Math.sqrt(variance / features);
        pairs++;
      }
    }
    return new double[] {error, predicted / pairs};
  }

  @ParameterizedTest
  @ValueSource(strings = {"rbf", "laplacian"})
  void kernelErrorFallsLikeOneOverSqrtD(String kernelName) {
    Kernel kernel = new Kernel(KernelType.parse(kernelName), 0.3, 3, 1.0);
    double[] x = points(7);
    double previous = Double.NaN;
    for (int features : new int[] {100, 400, 1600}) {
      double[] result = meanErrorAndPrediction(kernel, x, features, 20);
      double error = result[0];
      // The level itself: a wrong scale of the spectral density samples another kernel, and the
      // error then
      // stays at the bias instead of following the prediction.
      assertEquals(
          result[1],
          error,
          0.15 * result[1],
          kernelName + ", D = " + features + ": mean error " + error + ", predicted " + result[1]);
      if (!Double.isNaN(previous)) {
        double ratio = previous / error;
        assertTrue(
            ratio > 1.7 && ratio < 2.35,
            kernelName
                + ": quadrupling D to "
                + features
                + " divides the error by "
                + ratio
                + ", expected about 2");
      }
      previous = error;
    }
  }

  @Test
  void spectralDensitiesHaveTheKernelsScale() {
    double gamma = 0.7;
    int features = 4000;
    // rbf exp(−γ‖δ‖²): ω ~ N(0, 2γI), so the mean of ω_t² is 2γ.
    double[] omega =
        RandomFourierFeatureMap.draw(Kernel.rbf(gamma), features, D_IN, 3).frequencies();
    double sumSquares = 0;
    for (double w : omega) {
      sumSquares += w * w;
    }
    assertEquals(2 * gamma, sumSquares / omega.length, 0.05 * 2 * gamma);
    // laplacian exp(−γ‖δ‖₁): ω_t ~ Cauchy(0, γ), whose |ω_t| has median γ.
    double[] cauchy =
        RandomFourierFeatureMap.draw(
                new Kernel(KernelType.LAPLACIAN, gamma, 3, 1.0), features, D_IN, 3)
            .frequencies()
            .clone();
    for (int i = 0; i < cauchy.length; i++) {
      cauchy[i] = Math.abs(cauchy[i]);
    }
    Arrays.sort(cauchy);
    assertEquals(gamma, cauchy[cauchy.length / 2], 0.05 * gamma);
    // Phases uniform on [0, 2π): mean π.
    double[] phases = RandomFourierFeatureMap.draw(Kernel.rbf(gamma), features, D_IN, 3).phases();
    assertEquals(Math.PI, Arrays.stream(phases).average().orElseThrow(), 0.05 * Math.PI);
    assertTrue(Arrays.stream(phases).allMatch(b -> b >= 0 && b < 2 * Math.PI));
  }

  @Test
  void featuresAreTheFormulaForDenseAndSparseRows() {
    RandomFourierFeatureMap map = RandomFourierFeatureMap.draw(Kernel.rbf(0.4), 64, D_IN, 11);
    double[] x = points(2);
    for (int i = 0; i < N; i += 2) {
      x[i * D_IN + 1] = 0;
      x[i * D_IN + 3] = 0;
    }
    double[] z = features(map, x);
    RowBlock sparse = new RowBlock(N, D_IN);
    for (int i = 0; i < N; i++) {
      sparse.add(Vectors.dense(row(x, i)).toSparse(), "features");
    }
    double[] zSparse = new double[64 * N];
    map.map(sparse, null, zSparse);
    assertArrayEquals(z, zSparse, 0.0, "dense and sparse rows give the same features");
    double[] omega = map.frequencies();
    double[] phases = map.phases();
    for (int i = 0; i < N; i++) {
      for (int j = 0; j < 64; j++) {
        double dot = 0;
        for (int t = 0; t < D_IN; t++) {
          dot += omega[j * D_IN + t] * x[i * D_IN + t];
        }
        assertEquals(
            Math.sqrt(2.0 / 64) * Math.cos(dot + phases[j]),
            z[i * 64 + j],
            1e-14,
            "row " + i + ", j " + j);
      }
    }
  }

  @Test
  void readoutIsATimesZWithTheSquaredNorm() {
    int features = 30;
    RandomFourierFeatureMap map =
        RandomFourierFeatureMap.draw(
            new Kernel(KernelType.LAPLACIAN, 0.5, 3, 1.0), features, D_IN, 4);
    double[] x = points(5);
    double[] z = features(map, x);
    Random random = new Random(9);
    double[] a = new double[features * 3];
    for (int i = 0; i < a.length; i++) {
      a[i] = random.nextGaussian();
    }
    LinearReadout readout = map.readout(a, 3);
    RowBlock block = new RowBlock(N, D_IN);
    block.fill(x, N);
    double[] out = new double[3 * N];
    double[] sqNorms = new double[N];
    readout.apply(block, new double[readout.scratchSize(N)], out, sqNorms);
    double total = 0;
    for (int i = 0; i < N; i++) {
      double norm = 0;
      for (int j = 0; j < features; j++) {
        norm += z[i * features + j] * z[i * features + j];
      }
      total += norm;
      assertEquals(norm, sqNorms[i], 1e-14);
      for (int c = 0; c < 3; c++) {
        double expected = 0;
        for (int j = 0; j < features; j++) {
          expected += a[j + c * features] * z[i * features + j];
        }
        assertEquals(expected, out[c + i * 3], 1e-13);
      }
    }
    assertEquals(total, map.diagonalSum(block), 1e-12);
    // The two leading functionals alone: the first two columns of A, in a 2×b output.
    double[] leading = new double[2 * N];
    readout.apply(block, 2, new double[readout.scratchSize(N)], leading, null);
    for (int i = 0; i < N; i++) {
      for (int c = 0; c < 2; c++) {
        assertEquals(
            out[c + i * 3], leading[c + i * 2], 1e-13, "leading functional " + c + " of row " + i);
      }
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> readout.apply(block, 4, new double[readout.scratchSize(N)], new double[4 * N], null));
    assertThrows(
        IllegalArgumentException.class,
        () -> readout.apply(block, 0, new double[readout.scratchSize(N)], new double[N], null));
    assertTrue(map.isExplicit());
    assertEquals("rff", map.kind());
  }

  @Test
  void drawsAreReproducibleAndNested() {
    Kernel kernel = Kernel.rbf(1.0);
    RandomFourierFeatureMap a = RandomFourierFeatureMap.draw(kernel, 50, 3, 42);
    RandomFourierFeatureMap b = RandomFourierFeatureMap.draw(kernel, 50, 3, 42);
    RandomFourierFeatureMap c = RandomFourierFeatureMap.draw(kernel, 50, 3, 43);
    RandomFourierFeatureMap longer = RandomFourierFeatureMap.draw(kernel, 80, 3, 42);
    assertArrayEquals(a.frequencies(), b.frequencies(), 0.0);
    assertArrayEquals(a.phases(), b.phases(), 0.0);
    assertFalse(Arrays.equals(a.frequencies(), c.frequencies()));
    assertArrayEquals(a.frequencies(), Arrays.copyOf(longer.frequencies(), 150), 0.0);
    assertArrayEquals(a.phases(), Arrays.copyOf(longer.phases(), 50), 0.0);
  }

  @Test
  void kernelsWithoutASpectralDensityAreRefused() {
    for (KernelType type :
        new KernelType[] {
          KernelType.POLYNOMIAL, KernelType.LINEAR, KernelType.COSINE, KernelType.SIGMOID
        }) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> RandomFourierFeatureMap.draw(new Kernel(type, 1.0, 2, 1.0), 10, 3, 1));
      assertTrue(
          e.getMessage().contains("'" + type.paramName() + "' has no random Fourier features")
              && e.getMessage().contains("rbf and laplacian"),
          e.getMessage());
    }
    IllegalArgumentException sizes =
        assertThrows(
            IllegalArgumentException.class,
            () -> RandomFourierFeatureMap.of(Kernel.rbf(1), new double[5], new double[2], 3));
    assertTrue(
        sizes.getMessage().contains("5 frequency entries and 2 phases for d = 3"),
        sizes.getMessage());
  }
}
