package io.github.sparkkpca.feature;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.FastCos;
import io.github.sparkkpca.linalg.RowBlock;
import java.util.Random;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random Fourier features of sparse rows (one axpy of length D per non-zero) equal the features
 * written out from their definition, z_j(x) = √(2/D)·cos(ω_jᵀx + b_j), summed over the non-zeros
 * only; dense rows keep the GEMM of D×d frequencies, bit for bit; a frequency matrix that cannot be
 * held is refused in one line.
 */
class RandomFourierSparseTest {

  private static final int D_IN = 400;
  private static final int ROWS = 30;
  private static final int FEATURES = 64;

  /** ROWS rows of D_IN columns with about {@code nonZeros} non-zeros each. */
  private static Vector[] rows(int nonZeros, long seed) {
    Random random = new Random(seed);
    Vector[] out = new Vector[ROWS];
    for (int i = 0; i < ROWS; i++) {
      double[] x = new double[D_IN];
      for (int p = 0; p < nonZeros; p++) {
        x[random.nextInt(D_IN)] = random.nextGaussian();
      }
      out[i] = Vectors.dense(x).toSparse();
    }
    return out;
  }

  /** Through a dense block (the sparse rows scattered, their non-zeros gathered back). */
  private static double[] map(RandomFourierFeatureMap map, Vector[] rows) {
    return map(map, rows, new RowBlock(rows.length, D_IN));
  }

  private static double[] map(RandomFourierFeatureMap map, Vector[] rows, RowBlock block) {
    for (Vector v : rows) {
      block.add(v, "features");
    }
    double[] z = new double[FEATURES * rows.length];
    map.map(block, null, z);
    return z;
  }

  /** z_j(x) = √(2/D)·cos(Σ_t ω_jt x_t + b_j) from the D×d frequencies, with Math.cos. */
  private static double[] definition(RandomFourierFeatureMap map, Vector[] rows) {
    double[] omega = map.frequencies();
    double[] b = map.phases();
    double[] z = new double[FEATURES * rows.length];
    for (int i = 0; i < rows.length; i++) {
      double[] x = rows[i].toArray();
      for (int j = 0; j < FEATURES; j++) {
        double s = 0;
        for (int t = 0; t < D_IN; t++) {
          s += omega[j * D_IN + t] * x[t];
        }
        z[i * FEATURES + j] = Math.sqrt(2.0 / FEATURES) * Math.cos(s + b[j]);
      }
    }
    return z;
  }

  @ParameterizedTest
  @ValueSource(strings = {"rbf", "laplacian"})
  void sparseRowsMatchTheDefinition(String kernelName) {
    Kernel kernel =
        Kernel.of(KernelType.valueOf(kernelName.toUpperCase(java.util.Locale.ROOT)), 0.3, 2, 0);
    RandomFourierFeatureMap map = RandomFourierFeatureMap.draw(kernel, FEATURES, D_IN, 7);
    Vector[] sparse = rows(8, 1);
    double[] z = map(map, sparse);
    double[] expected = definition(map, sparse);
    // The map's own block holds the rows by their non-zeros: the same sums, bit for bit.
    RowBlock own = map.newBlock(ROWS);
    assertTrue(own.isSparse());
    assertArrayEquals(z, map(map, sparse, own), 0.0);
    // Cauchy frequencies (laplacian) reach hundreds: the phase's rounding is relative to |ωᵀx|.
    assertArrayEquals(expected, z, kernelName.equals("rbf") ? 1e-12 : 1e-9);
  }

  /**
   * The same sparse rows in a block of their own (sparse path) and in a block made dense by extra
   * dense rows (GEMM path) give the same features to rounding.
   */
  @Test
  void sparseAndDensePathsAgreeToRounding() {
    RandomFourierFeatureMap map = RandomFourierFeatureMap.draw(Kernel.rbf(0.05), FEATURES, D_IN, 3);
    Vector[] sparse = rows(10, 2);
    double[] viaSparse = map(map, sparse);
    int extra = 8;
    double[] full = new double[D_IN];
    java.util.Arrays.fill(full, 0.01);
    RowBlock mixed = new RowBlock(ROWS + extra, D_IN);
    for (Vector v : sparse) {
      mixed.add(v, "features");
    }
    for (int i = 0; i < extra; i++) {
      mixed.add(Vectors.dense(full), "features");
    }
    double[] z = new double[FEATURES * (ROWS + extra)];
    map.map(mixed, null, z);
    double worst = 0;
    int differ = 0;
    for (int t = 0; t < FEATURES * ROWS; t++) {
      worst = Math.max(worst, Math.abs(viaSparse[t] - z[t]));
      differ += viaSparse[t] == z[t] ? 0 : 1;
    }
    assertTrue(worst < 1e-13, "sparse vs GEMM path: " + worst);
    // Two computations (summation orders differ), not one path twice.
    assertTrue(differ > 0, "the two blocks took the same path");
  }

  /** Dense rows: the GEMM of the D×d frequencies, then phase, FastCos and scale, bit for bit. */
  @Test
  void denseRowsAreTheGemmOfTheFrequencies() {
    Kernel kernel = Kernel.rbf(0.05);
    RandomFourierFeatureMap map = RandomFourierFeatureMap.draw(kernel, FEATURES, D_IN, 11);
    Random random = new Random(5);
    double[] x = new double[ROWS * D_IN];
    for (int i = 0; i < x.length; i++) {
      x[i] = random.nextGaussian();
    }
    RowBlock block = new RowBlock(ROWS, D_IN);
    block.fill(x, ROWS);
    double[] z = new double[FEATURES * ROWS];
    map.map(block, null, z);
    double[] expected = new double[FEATURES * ROWS];
    Blas.blas()
        .dgemm(
            "T",
            "N",
            FEATURES,
            ROWS,
            D_IN,
            1.0,
            map.frequencies(),
            D_IN,
            x,
            D_IN,
            0.0,
            expected,
            FEATURES);
    FastCos cos = new FastCos(FEATURES);
    double[] row = new double[FEATURES];
    for (int i = 0; i < ROWS; i++) {
      System.arraycopy(expected, i * FEATURES, row, 0, FEATURES);
      for (int j = 0; j < FEATURES; j++) {
        row[j] += map.phases()[j];
      }
      cos.cosInPlace(row, FEATURES);
      for (int j = 0; j < FEATURES; j++) {
        expected[i * FEATURES + j] = row[j] * Math.sqrt(2.0 / FEATURES);
      }
    }
    assertArrayEquals(expected, z, 0.0);
  }

  /** of() (a loaded model) rebuilds the map that draw() made: same features, same frequencies. */
  @Test
  void rebuiltMapScoresAsTheDrawnOne() {
    Kernel kernel = Kernel.of(KernelType.LAPLACIAN, 0.2, 2, 0);
    RandomFourierFeatureMap drawn = RandomFourierFeatureMap.draw(kernel, FEATURES, D_IN, 13);
    RandomFourierFeatureMap rebuilt =
        RandomFourierFeatureMap.of(kernel, drawn.frequencies(), drawn.phases(), D_IN);
    assertArrayEquals(drawn.frequencies(), rebuilt.frequencies(), 0.0);
    Vector[] sparse = rows(5, 4);
    assertArrayEquals(map(drawn, sparse), map(rebuilt, sparse), 0.0);
  }

  @Test
  void aFrequencyMatrixThatCannotBeHeldIsRefusedInOneLine() {
    Kernel kernel = Kernel.rbf(0.1);
    IllegalArgumentException tooManyEntries =
        assertThrows(
            IllegalArgumentException.class,
            () -> RandomFourierFeatureMap.draw(kernel, 100_000, 1 << 20, 1));
    assertTrue(tooManyEntries.getMessage().contains("D = 100000"), tooManyEntries.getMessage());
    assertTrue(tooManyEntries.getMessage().contains("d = 1048576"), tooManyEntries.getMessage());
    assertFalse(tooManyEntries.getMessage().contains("\n"));
    long max = Runtime.getRuntime().maxMemory();
    // Fits in a Java array but not in this JVM's heap.
    int features = (int) Math.min(Integer.MAX_VALUE / 2 / 1000, max / 8 / 1000 + 1000);
    IllegalArgumentException tooLarge =
        assertThrows(
            IllegalArgumentException.class,
            () -> RandomFourierFeatureMap.draw(kernel, features * 2, 1000, 1));
    assertTrue(tooLarge.getMessage().contains("GiB"), tooLarge.getMessage());
    assertTrue(tooLarge.getMessage().contains("can still allocate"), tooLarge.getMessage());
  }
}
