package io.github.sparkkpca.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.linalg.RowBlock;
import java.util.Random;
import org.apache.spark.ml.linalg.Vectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class KernelTest {

  private static Kernel kernelOf(KernelType type) {
    return new Kernel(type, 0.15, 3, 0.7);
  }

  @ParameterizedTest
  @EnumSource(KernelType.class)
  void blockMatchesDirectEvaluationAndDiagonal(KernelType type) {
    Random random = new Random(7);
    int b = 9;
    int m = 6;
    int d = 5;
    double[] rows = new double[b * d];
    double[] landmarks = new double[m * d];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = random.nextGaussian();
    }
    for (int i = 0; i < landmarks.length; i++) {
      landmarks[i] = random.nextGaussian();
    }
    Kernel kernel = kernelOf(type);
    LandmarkKernel lk = new LandmarkKernel(kernel, landmarks, m, d);
    RowBlock block = new RowBlock(b, d);
    for (int i = 0; i < b; i++) {
      block.add(Vectors.dense(java.util.Arrays.copyOfRange(rows, i * d, (i + 1) * d)), "x");
    }
    double[] out = new double[m * b];
    lk.compute(block, out);
    for (int i = 0; i < b; i++) {
      double[] x = java.util.Arrays.copyOfRange(rows, i * d, (i + 1) * d);
      for (int j = 0; j < m; j++) {
        double[] z = java.util.Arrays.copyOfRange(landmarks, j * d, (j + 1) * d);
        assertEquals(
            kernel.apply(x, z), out[i * m + j], 1e-12, type + " k(x" + i + ", z" + j + ")");
      }
      assertEquals(kernel.apply(x, x), lk.diagonal(block, i), 1e-12, type + " k(x,x)");
    }
  }

  @Test
  void rbfBlockIsAccurateRelativeToMathExpDownToTinyValues() {
    // Integer coordinates make norms, inner products and squared distances exact, so the only error
    // left
    // is the exponential's: the block must match Math.exp to FastExp's bound for values down to
    // 1e-307.
    Random random = new Random(29);
    int b = 37;
    int m = 301;
    int d = 5;
    double[] rows = new double[b * d];
    double[] landmarks = new double[m * d];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = random.nextInt(41) - 20;
    }
    for (int i = 0; i < landmarks.length; i++) {
      landmarks[i] = random.nextInt(41) - 20;
    }
    double gamma = 0.09; // γ·‖x−z‖² spans [0, 720]
    LandmarkKernel lk = new LandmarkKernel(Kernel.rbf(gamma), landmarks, m, d);
    RowBlock block = new RowBlock(b, d);
    block.fill(rows, b);
    double[] out = new double[m * b];
    lk.compute(block, out);
    int checked = 0;
    for (int i = 0; i < b; i++) {
      for (int j = 0; j < m; j++) {
        double sq = 0;
        for (int t = 0; t < d; t++) {
          double diff = rows[i * d + t] - landmarks[j * d + t];
          sq += diff * diff;
        }
        double argument = -gamma * sq;
        double value = out[i * m + j];
        if (argument >= io.github.sparkkpca.linalg.FastExp.MIN_ARGUMENT) {
          double exact = Math.exp(argument);
          assertTrue(
              Math.abs(value - exact)
                  <= io.github.sparkkpca.linalg.FastExp.MAX_RELATIVE_ERROR * exact,
              "k(x" + i + ", z" + j + ") = " + value + ", Math.exp gives " + exact);
          checked++;
        } else {
          assertTrue(value >= 0 && value < 3.4e-308, "k(x" + i + ", z" + j + ") = " + value);
        }
      }
    }
    assertTrue(checked > b * m / 2, "most values are in range: " + checked);
  }

  @Test
  void closedFormsOfEachKernel() {
    double[] x = {1, 2};
    double[] y = {3, -1};
    // ‖x−y‖² = 4 + 9 = 13, ‖x−y‖₁ = 5, ⟨x,y⟩ = 1, ‖x‖² = 5, ‖y‖² = 10
    assertEquals(Math.exp(-0.5 * 13), Kernel.rbf(0.5).apply(x, y), 1e-15);
    assertEquals(
        Math.exp(-0.5 * 5), new Kernel(KernelType.LAPLACIAN, 0.5, 3, 0).apply(x, y), 1e-15);
    assertEquals(
        Math.pow(0.5 * 1 + 2, 3), new Kernel(KernelType.POLYNOMIAL, 0.5, 3, 2).apply(x, y), 1e-12);
    assertEquals(1.0, Kernel.linear().apply(x, y), 0);
    assertEquals(1 / Math.sqrt(50), new Kernel(KernelType.COSINE, 1, 3, 0).apply(x, y), 1e-15);
    assertEquals(Math.tanh(0.5 + 2), new Kernel(KernelType.SIGMOID, 0.5, 3, 2).apply(x, y), 1e-15);
  }

  @Test
  void sparseRowsGiveTheSameBlockAsDenseRows() {
    Kernel kernel = Kernel.rbf(0.3);
    double[] landmarks = {1, 0, 2, 0, 1, 1};
    LandmarkKernel lk = new LandmarkKernel(kernel, landmarks, 2, 3);
    RowBlock dense = new RowBlock(2, 3);
    RowBlock sparse = new RowBlock(2, 3);
    dense.add(Vectors.dense(0, 0, 3), "x");
    dense.add(Vectors.dense(1, 0, 0), "x");
    sparse.add(Vectors.sparse(3, new int[] {2}, new double[] {3}), "x");
    sparse.add(Vectors.sparse(3, new int[] {0}, new double[] {1}), "x");
    double[] a = new double[4];
    double[] b = new double[4];
    lk.compute(dense, a);
    lk.compute(sparse, b);
    org.junit.jupiter.api.Assertions.assertArrayEquals(a, b, 0);
  }

  /**
   * The sparse kernel-block path against the direct evaluation {@code apply} on dense arrays, for
   * every family: rows in sparse and in dense blocks (one of them a dense vector in a sparse
   * block), K_mm, and the median heuristic on sparse points equal to the one on the same dense
   * points.
   */
  @ParameterizedTest
  @EnumSource(KernelType.class)
  void sparsePathEqualsDirectEvaluation(KernelType type) {
    Random random = new Random(11);
    int d = 40;
    int m = 7;
    int b = 5;
    double[] z = new double[m * d];
    for (int j = 0; j < m; j++) {
      for (int e = 0; e < 4; e++) {
        z[j * d + random.nextInt(12)] = random.nextGaussian(); // shared columns 0..11
      }
    }
    io.github.sparkkpca.linalg.RowSet points = io.github.sparkkpca.linalg.RowSet.compact(z, m, d);
    assertTrue(points.isSparse());
    Kernel kernel = Kernel.of(type, 0.3, 2, 0.5);
    LandmarkKernel lk = new LandmarkKernel(kernel, points, new KernelBlockPath(true, "test"));
    assertTrue(lk.isSparse());
    double[][] rows = new double[b][d];
    RowBlock sparse = lk.newBlock(b);
    RowBlock dense = new RowBlock(b, d);
    for (int i = 0; i < b; i++) {
      for (int e = 0; e < 5; e++) {
        rows[i][random.nextInt(16)] = random.nextGaussian() * 2;
      }
      sparse.add(i == 0 ? Vectors.dense(rows[i]) : Vectors.dense(rows[i]).toSparse(), "x");
      dense.add(Vectors.dense(rows[i]).toSparse(), "x");
    }
    double[] fromSparse = new double[m * b];
    double[] fromDense = new double[m * b];
    lk.compute(sparse, fromSparse);
    lk.compute(dense, fromDense);
    for (int i = 0; i < b; i++) {
      for (int j = 0; j < m; j++) {
        double expected =
            kernel.apply(rows[i], java.util.Arrays.copyOfRange(z, j * d, (j + 1) * d));
        double tolerance = 1e-13 * Math.max(1, Math.abs(expected));
        assertEquals(expected, fromSparse[i * m + j], tolerance, type + " sparse block " + i + j);
        assertEquals(expected, fromDense[i * m + j], tolerance, type + " dense block " + i + j);
      }
    }
    double[] gram = lk.gram();
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < m; j++) {
        double expected =
            kernel.apply(
                java.util.Arrays.copyOfRange(z, i * d, (i + 1) * d),
                java.util.Arrays.copyOfRange(z, j * d, (j + 1) * d));
        assertEquals(
            expected, gram[i + j * m], 1e-13 * Math.max(1, Math.abs(expected)), type + " K_mm");
        assertEquals(gram[i + j * m], gram[j + i * m], 0.0, type + " K_mm symmetric");
      }
    }
    if (type.usesGamma()) {
      assertEquals(
          type.medianHeuristicGamma(z, m, d, 1000),
          Kernel.medianHeuristicGamma(type, points),
          0.0,
          type + " median heuristic on sparse points");
    }
  }

  /**
   * The rule: sparse landmarks take the sparse path, dense ones the dense path, by density alone.
   */
  @Test
  void pathRuleReadsTheDensityNotTheStorage() {
    double[] z = new double[4 * 100];
    z[3] = 1;
    z[150] = 2;
    io.github.sparkkpca.linalg.RowSet dense = io.github.sparkkpca.linalg.RowSet.dense(z, 4, 100);
    KernelBlockPath a = KernelBlockPath.choose(KernelType.RBF, dense);
    KernelBlockPath b = KernelBlockPath.choose(KernelType.RBF, dense.toSparse());
    assertTrue(a.sparse() && b.sparse(), a.reason());
    assertEquals(a, b);
    double[] full = new double[4 * 100];
    java.util.Arrays.fill(full, 1.0);
    KernelBlockPath c =
        KernelBlockPath.choose(
            KernelType.RBF, io.github.sparkkpca.linalg.RowSet.dense(full, 4, 100));
    assertTrue(!c.sparse() && c.reason().startsWith("dense: landmark density 1"), c.reason());
  }

  @Test
  void medianHeuristicIsOneOverTwiceTheMedianSquaredDistance() {
    // Points 0, 1, 3 on a line: squared distances 1, 4, 9 → median 4 → γ = 1/8.
    double[] points = {0, 1, 3};
    assertEquals(1.0 / 8, Kernel.medianHeuristicGamma(KernelType.RBF, points, 3, 1, 1000), 1e-15);
    // L1 distances 1, 2, 3 → median 2 → γ = 1/2.
    assertEquals(0.5, Kernel.medianHeuristicGamma(KernelType.LAPLACIAN, points, 3, 1, 1000), 1e-15);
    assertEquals(
        1.0 / 4, Kernel.medianHeuristicGamma(KernelType.POLYNOMIAL, new double[8], 2, 4, 10), 0);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Kernel.medianHeuristicGamma(KernelType.RBF, new double[6], 3, 2, 10));
    assertTrue(e.getMessage().contains("set gamma explicitly"), e.getMessage());
  }

  @Test
  void rejectsBadParameters() {
    assertThrows(IllegalArgumentException.class, () -> Kernel.rbf(0));
    assertThrows(IllegalArgumentException.class, () -> Kernel.rbf(-1));
    assertThrows(IllegalArgumentException.class, () -> Kernel.rbf(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> new Kernel(KernelType.POLYNOMIAL, 1, 0, 1));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> KernelType.parse("rbff"));
    assertTrue(e.getMessage().contains("rbff"));
    assertEquals(KernelType.RBF, KernelType.parse("Gaussian"));
  }

  /**
   * n×d points (1e8 + N(0,1)) − 1e8, exactly: the same points as {@code offset + x} for offsets up
   * to 1e8.
   */
  private static double[] pointsNearTheOrigin(int n, int d, long seed) {
    Random random = new Random(seed);
    double[] x = new double[n * d];
    for (int i = 0; i < x.length; i++) {
      x[i] = (1e8 + random.nextGaussian()) - 1e8;
    }
    return x;
  }

  private static double[] shifted(double[] x, double offset) {
    double[] out = x.clone();
    for (int i = 0; i < out.length; i++) {
      out[i] += offset; // exact: x has at most 26 fraction bits, offset + x < 2^27
    }
    return out;
  }

  /**
   * The rbf kernel depends on x − z only. Far from the origin, ‖x‖² + ‖z‖² − 2⟨x,z⟩ cancels
   * everything (rows 1e8 + N(0,1): ‖x‖² ≈ 3e16, so its rounding error is about 4 against distances
   * of about 6), so the blocks and K_mm must come out as at the origin.
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(doubles = {1e6, 1e8, -3e7})
  void rbfBlocksFarFromTheOriginEqualTheBlocksAtTheOrigin(double offset) {
    int b = 40;
    int m = 25;
    int d = 3;
    double[] rows = pointsNearTheOrigin(b, d, 11);
    double[] landmarks = pointsNearTheOrigin(m, d, 12);
    Kernel kernel = Kernel.rbf(0.2);
    LandmarkKernel near = new LandmarkKernel(kernel, landmarks, m, d);
    LandmarkKernel far = new LandmarkKernel(kernel, shifted(landmarks, offset), m, d);
    RowBlock nearBlock = new RowBlock(b, d);
    nearBlock.fill(rows, b);
    RowBlock farBlock = new RowBlock(b, d);
    farBlock.fill(shifted(rows, offset), b);
    double[] expected = new double[m * b];
    double[] actual = new double[m * b];
    near.compute(nearBlock, expected);
    far.compute(farBlock, actual);
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i], actual[i], 1e-14, "offset " + offset + ", entry " + i);
    }
    double[] nearGram = near.gram();
    double[] farGram = far.gram();
    for (int i = 0; i < nearGram.length; i++) {
      assertEquals(nearGram[i], farGram[i], 1e-14, "offset " + offset + ", K_mm entry " + i);
    }
  }

  /**
   * Rows sharing a large column (offsets 1e4 to 1e8) on the sparse path: K_bm (from sparse and from
   * dense blocks) and K_mm equal the direct evaluation and the dense path's blocks on the same
   * landmarks to 1e-14. Both paths shift by the same centre (column 0's value), so both compute
   * squared distances of the small columns only, whose expansion errs by a few ε·γ·(‖x−c‖² +
   * ‖z−c‖²) ≈ 1e-17 here; 1e-14 is the tolerance the dense path's own far-from-the-origin test
   * uses. Unshifted, the expansion's error is ε·γ·2·offset², 2e-7 at 1e4 and 2e1 at 1e8. At m = n
   * the model's eigenvalues are those of H K_mm H / m: they equal the exact ones (K by direct
   * differences) to 1e-12 of λ₁.
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(doubles = {1e4, 1e5, 1e6, 1e7, 1e8})
  void sparseRbfWithASharedLargeColumnEqualsTheDensePath(double offset) {
    int m = 30;
    int b = 12;
    int d = 2000;
    double[][] z = io.github.sparkkpca.testing.Reference.sharedLargeColumn(m, d, offset, 5, -1, 5);
    double[][] x = io.github.sparkkpca.testing.Reference.sharedLargeColumn(b, d, offset, 5, 3, 6);
    Kernel kernel = Kernel.rbf(5);
    BothPaths paths = BothPaths.of(kernel, z, x);
    LandmarkKernel sparse = paths.sparse();
    LandmarkKernel dense = paths.dense();
    double[] fromSparse = paths.fromSparse();
    double[] fromDenseBlock = paths.fromDenseBlock();
    double[] densePath = paths.densePath();
    for (int i = 0; i < b; i++) {
      for (int j = 0; j < m; j++) {
        double exact = kernel.apply(x[i], z[j]);
        String at = "offset " + offset + ", k(x" + i + ", z" + j + ")";
        assertEquals(exact, densePath[i * m + j], 1e-14, "dense path, " + at);
        assertEquals(densePath[i * m + j], fromSparse[i * m + j], 1e-14, "sparse path, " + at);
        assertEquals(densePath[i * m + j], fromDenseBlock[i * m + j], 1e-14, "dense block, " + at);
      }
    }
    double[] gram = sparse.gram();
    double[] denseGram = dense.gram();
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < m; j++) {
        String at = "offset " + offset + ", K_mm(" + i + ", " + j + ")";
        assertEquals(kernel.apply(z[i], z[j]), denseGram[i + j * m], 1e-14, "dense path, " + at);
        assertEquals(denseGram[i + j * m], gram[i + j * m], 1e-14, "sparse path, " + at);
      }
    }
    assertArrayEquals(dense.centre(), sparse.centre(), 0.0, "the same centre on both paths");
    // m = n: the model's eigenvalues are those of H K_mm H / m; against K by direct differences.
    double[][] k = new double[m][m];
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < m; j++) {
        k[i][j] = gram[i + j * m];
      }
    }
    double[] exact =
        io.github.sparkkpca.testing.Reference.eigenvalues(
            io.github.sparkkpca.testing.Reference.center(
                io.github.sparkkpca.testing.Reference.gram(kernel, z)),
            m);
    double[] ours =
        io.github.sparkkpca.testing.Reference.eigenvalues(
            io.github.sparkkpca.testing.Reference.center(k), m);
    for (int i = 0; i < 5; i++) {
      assertEquals(exact[i], ours[i], 1e-12 * exact[0], "offset " + offset + ", eigenvalue " + i);
    }
    assertTrue(fromSparse[0] > 0.1 && fromSparse[0] < 0.99, "a kernel value that is not 0 or 1");
  }

  /**
   * A large column that the centre cannot remove: stored in three rows of four (the others lack
   * it), or with two clusters of values (offset and 1.5·offset). The centre leaves coordinates of
   * the order of the offset, so the expansion alone errs by ε·γ·offset² (3 % in λ₁ at 1e7); the
   * pairs whose estimated error exceeds the tolerance are recomputed from coordinate differences.
   * Both paths, K_bm from sparse and dense blocks and K_mm, against direct evaluation to 1e-14.
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource({
    "1e4, false",
    "1e6, false",
    "1e8, false",
    "1e4, true",
    "1e6, true",
    "1e8, true"
  })
  void rbfWithALargeColumnTheCentreCannotRemoveEqualsDirectEvaluation(
      double offset, boolean twoClusters) {
    int m = 24;
    int b = 10;
    int d = 500;
    double[][] z = io.github.sparkkpca.testing.Reference.sharedLargeColumn(m, d, offset, 5, -1, 7);
    double[][] x = io.github.sparkkpca.testing.Reference.sharedLargeColumn(b, d, offset, 5, -1, 8);
    for (double[][] rows : new double[][][] {z, x}) {
      for (int i = 0; i < rows.length; i++) {
        if (twoClusters) {
          rows[i][0] = i % 2 == 0 ? offset : 1.5 * offset;
        } else if (i % 4 == 0) {
          rows[i][0] = 0;
        }
      }
    }
    // Near-duplicates of landmarks among the rows, where the expansion is least accurate.
    x[0] = z[1].clone();
    x[1] = z[2].clone();
    x[1][3] += 1e-3;
    Kernel kernel = Kernel.rbf(5);
    BothPaths paths = BothPaths.of(kernel, z, x);
    LandmarkKernel sparse = paths.sparse();
    LandmarkKernel dense = paths.dense();
    double[] fromSparse = paths.fromSparse();
    double[] fromDenseBlock = paths.fromDenseBlock();
    double[] densePath = paths.densePath();
    int nonTrivial = 0;
    for (int i = 0; i < b; i++) {
      for (int j = 0; j < m; j++) {
        double exact = kernel.apply(x[i], z[j]);
        nonTrivial += exact > 1e-3 && exact < 0.999 ? 1 : 0;
        String at = "offset " + offset + ", k(x" + i + ", z" + j + ")";
        assertEquals(exact, densePath[i * m + j], 1e-14, "dense path, " + at);
        assertEquals(exact, fromSparse[i * m + j], 1e-14, "sparse path, " + at);
        assertEquals(exact, fromDenseBlock[i * m + j], 1e-14, "dense block, " + at);
      }
    }
    double[] gram = sparse.gram();
    double[] denseGram = dense.gram();
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < m; j++) {
        String at = "offset " + offset + ", K_mm(" + i + ", " + j + ")";
        assertEquals(kernel.apply(z[i], z[j]), denseGram[i + j * m], 1e-14, "dense path, " + at);
        assertEquals(kernel.apply(z[i], z[j]), gram[i + j * m], 1e-14, "sparse path, " + at);
      }
    }
    assertTrue(nonTrivial > b, "kernel values that are neither 0 nor 1: " + nonTrivial);
  }

  /**
   * A large column (magnitude + N(0, 0.005²)) stored in a fraction of the rows and landmarks (5 %
   * to 95 %), on the large-column set-up's features N(0, 0.1²), γ = 5: at 5 % and 15 % the centre
   * leaves the column at 0 (the sparse rule's one fifth; the dense mean rounds to 0), at 50 % and
   * 95 % it leaves two groups; pairs within the large group then have an expanded distance that
   * cancels to nothing (at 1e8, a rounding error of ‖x‖² ≈ 1e16 is 2, and exp(−5·2) is no kernel
   * value of 0.6). Such values underflowed to 0 and, the old test being k·γ·4ε·a, were never
   * recomputed. Both paths, K_bm from sparse and dense blocks and K_mm, against direct evaluation
   * to the documented bound ({@link LandmarkKernel#CANCELLATION_TOLERANCE}, 1e-14).
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource({
    "0.05, 1e4", "0.05, 1e8", "0.05, 1e10", "0.05, 1e12",
    "0.15, 1e4", "0.15, 1e8", "0.15, 1e10", "0.15, 1e12",
    "0.5, 1e4", "0.5, 1e8", "0.5, 1e10", "0.5, 1e12",
    "0.95, 1e4", "0.95, 1e8", "0.95, 1e10", "0.95, 1e12"
  })
  void rbfWithALargeColumnInAFractionOfTheRowsEqualsDirectEvaluation(
      double fraction, double magnitude) {
    int m = 40;
    int b = 30;
    double[][] z = largeColumnInAFraction(m, 200, magnitude, fraction, 31);
    double[][] x = largeColumnInAFraction(b, 200, magnitude, fraction, 32);
    // Near-duplicates of landmarks holding the column, where the expansion cancels most.
    int holder =
        java.util.stream.IntStream.range(0, m).filter(j -> z[j][0] != 0).findFirst().orElseThrow();
    x[0] = z[holder].clone();
    x[0][1] += 0.01;
    Kernel kernel = Kernel.rbf(5);
    BothPaths paths = BothPaths.of(kernel, z, x);
    int nonTrivial = 0;
    for (int i = 0; i < b; i++) {
      for (int j = 0; j < m; j++) {
        double exact = kernel.apply(x[i], z[j]);
        nonTrivial += exact > 1e-3 && exact < 0.999 && x[i][0] != 0 && z[j][0] != 0 ? 1 : 0;
        String at = fraction + " of rows at " + magnitude + ", k(x" + i + ", z" + j + ")";
        assertEquals(exact, paths.densePath()[i * m + j], 1e-14, "dense path, " + at);
        assertEquals(exact, paths.fromSparse()[i * m + j], 1e-14, "sparse path, " + at);
        assertEquals(exact, paths.fromDenseBlock()[i * m + j], 1e-14, "dense block, " + at);
      }
    }
    double[] gram = paths.sparse().gram();
    double[] denseGram = paths.dense().gram();
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < m; j++) {
        double exact = kernel.apply(z[i], z[j]);
        String at = fraction + " of rows at " + magnitude + ", K_mm(" + i + ", " + j + ")";
        assertEquals(exact, denseGram[i + j * m], 1e-14, "dense path, " + at);
        assertEquals(exact, gram[i + j * m], 1e-14, "sparse path, " + at);
      }
    }
    assertTrue(nonTrivial > 0, "pairs holding the column with kernel values neither 0 nor 1");
  }

  /**
   * The large-column set-up ({@link io.github.sparkkpca.testing.Reference#sharedLargeColumn}) with
   * column 0 = magnitude + N(0, 0.005²) in ⌊(i+1)·fraction⌋ − ⌊i·fraction⌋ of the rows, absent in
   * the others.
   */
  static double[][] largeColumnInAFraction(
      int n, int d, double magnitude, double fraction, long seed) {
    double[][] x = io.github.sparkkpca.testing.Reference.sharedLargeColumn(n, d, 1, 5, -1, seed);
    Random random = new Random(seed + 1000);
    for (int i = 0; i < n; i++) {
      boolean holds = Math.floor((i + 1) * fraction) > Math.floor(i * fraction);
      x[i][0] = holds ? magnitude + 0.005 * random.nextGaussian() : 0;
    }
    return x;
  }

  /**
   * The kernel blocks of rows x against landmarks z on the sparse path (from sparse and from dense
   * blocks) and on the dense path, for the same landmarks.
   */
  private record BothPaths(
      LandmarkKernel sparse,
      LandmarkKernel dense,
      double[] fromSparse,
      double[] fromDenseBlock,
      double[] densePath) {

    static BothPaths of(Kernel kernel, double[][] z, double[][] x) {
      int m = z.length;
      int b = x.length;
      int d = z[0].length;
      double[] flat = new double[m * d];
      for (int j = 0; j < m; j++) {
        System.arraycopy(z[j], 0, flat, j * d, d);
      }
      io.github.sparkkpca.linalg.RowSet points =
          io.github.sparkkpca.linalg.RowSet.compact(flat, m, d);
      LandmarkKernel sparse = new LandmarkKernel(kernel, points);
      LandmarkKernel dense = new LandmarkKernel(kernel, points, new KernelBlockPath(false, "test"));
      assertTrue(sparse.isSparse(), sparse.path().reason());
      RowBlock sparseRows = sparse.newBlock(b);
      RowBlock denseRows = new RowBlock(b, d);
      for (int i = 0; i < b; i++) {
        sparseRows.add(Vectors.dense(x[i]).toSparse(), "x");
        denseRows.add(Vectors.dense(x[i]), "x");
      }
      BothPaths paths =
          new BothPaths(sparse, dense, new double[m * b], new double[m * b], new double[m * b]);
      sparse.compute(sparseRows, paths.fromSparse());
      sparse.compute(denseRows, paths.fromDenseBlock());
      dense.compute(denseRows, paths.densePath());
      return paths;
    }
  }

  @Test
  void rbfCentreIsAFunctionOfTheLandmarksOnlyAndShiftsExactly() {
    double[] landmarks = shifted(pointsNearTheOrigin(30, 2, 13), 1e8);
    double[] centre = new LandmarkKernel(Kernel.rbf(1), landmarks, 30, 2).centre();
    assertArrayEquals(
        centre, new LandmarkKernel(Kernel.rbf(1), landmarks.clone(), 30, 2).centre(), 0);
    for (double c : centre) {
      // the mean rounded to a multiple of a power of two near the spread: within the spread of 1e8
      assertEquals(1e8, c, 8.0);
      assertEquals(c, Math.rint(c), 0, "a round centre keeps x − c exact");
    }
    // Integers near the origin are shifted by an integer, so their squared distances stay exact.
    double[] integers = {-3, 4, 7, 1, 0, -5, 2, 2};
    for (double c : new LandmarkKernel(Kernel.rbf(1), integers, 4, 2).centre()) {
      assertEquals(Math.rint(c), c, 0);
    }
    assertEquals(
        null, new LandmarkKernel(Kernel.linear(), integers, 4, 2).centre(), "only rbf is shifted");
  }

  /**
   * ‖x‖·‖z‖ must not be formed as √(‖x‖²‖z‖²), which overflows from 1e154 and underflows below
   * 1e−154.
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(doubles = {1e100, 1e-100})
  void cosineIsScaleInvariantForHugeAndTinyVectors(double scale) {
    double[] landmarks = {1, 2, 3, -1, 0, 2};
    double[] rows = {3, -1, 2, 1, 1, 1};
    Kernel cosine = new Kernel(KernelType.COSINE, 1, 3, 0);
    double[] expected = new double[4];
    new LandmarkKernel(cosine, landmarks, 2, 3).compute(blockOf(rows, 2, 3), expected);
    double[] scaledLandmarks = landmarks.clone();
    double[] scaledRows = rows.clone();
    for (int i = 0; i < 6; i++) {
      scaledLandmarks[i] *= scale;
      scaledRows[i] *= scale;
    }
    double[] actual = new double[4];
    new LandmarkKernel(cosine, scaledLandmarks, 2, 3).compute(blockOf(scaledRows, 2, 3), actual);
    assertArrayEquals(expected, actual, 1e-15);
    assertEquals(
        cosine.apply(new double[] {3, -1, 2}, new double[] {1, 2, 3}),
        cosine.apply(
            new double[] {3 * scale, -scale, 2 * scale},
            new double[] {scale, 2 * scale, 3 * scale}),
        1e-15);
    assertTrue(Math.abs(expected[0]) > 0.1, "a test value that is not 0: " + expected[0]);
  }

  private static RowBlock blockOf(double[] rows, int b, int d) {
    RowBlock block = new RowBlock(b, d);
    block.fill(rows, b);
    return block;
  }

  /**
   * (γ⟨x,y⟩ + c₀)^p with c₀ &lt; 0 is indefinite: for γ‖x‖² = −c₀, the Gram matrix of {x, 0} is
   * [[0, c₀^p], [c₀^p, c₀^p]], with determinant −c₀^{2p} &lt; 0.
   */
  @Test
  void positiveDefinitenessDependsOnCoef0ForThePolynomialKernel() {
    Kernel negative = new Kernel(KernelType.POLYNOMIAL, 0.5, 2, -1);
    double[] x = {Math.sqrt(2), 0};
    double[] origin = {0, 0};
    double determinant =
        negative.apply(x, x) * negative.apply(origin, origin)
            - negative.apply(x, origin) * negative.apply(origin, x);
    assertTrue(determinant < 0, "an indefinite Gram matrix: det = " + determinant);
    assertTrue(!negative.isPositiveDefinite());
    assertTrue(new Kernel(KernelType.POLYNOMIAL, 0.5, 2, 0).isPositiveDefinite());
    assertTrue(new Kernel(KernelType.POLYNOMIAL, 0.5, 3, 1).isPositiveDefinite());
    assertTrue(!new Kernel(KernelType.SIGMOID, 0.5, 3, 1).isPositiveDefinite());
    assertTrue(
        new Kernel(KernelType.RBF, 0.5, 3, -1).isPositiveDefinite(), "coef0 is not used by rbf");
  }

  @Test
  void medianHeuristicRefusesDistancesThatOverflow() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                Kernel.medianHeuristicGamma(
                    KernelType.RBF, new double[] {0, 1e160, -1e160}, 3, 1, 10));
    assertTrue(
        e.getMessage().contains("overflows") && e.getMessage().contains("rescale"), e.getMessage());
  }

  /**
   * K_mm by {@link Kernel#gram} (one SYRK, mirrored) equals the general block of the points against
   * themselves to rounding, and is exactly symmetric; m = 150 spans three mirror tiles.
   */
  @ParameterizedTest
  @EnumSource(KernelType.class)
  void gramEqualsTheBlockOfThePointsAgainstThemselves(KernelType type) {
    int m = 150;
    int d = 7;
    Random random = new Random(11);
    double[] points = new double[m * d];
    for (int i = 0; i < points.length; i++) {
      points[i] = random.nextGaussian();
    }
    double[] sqNorms = new double[m];
    for (int j = 0; j < m; j++) {
      for (int t = 0; t < d; t++) {
        sqNorms[j] += points[j * d + t] * points[j * d + t];
      }
    }
    Kernel kernel = new Kernel(type, 0.2, 3, 1.0);
    double[] gram = new double[m * m];
    kernel.gram(points, sqNorms, m, d, gram);
    double[] block = new double[m * m];
    kernel.block(points, sqNorms, m, points, sqNorms, m, d, block);
    for (int j = 0; j < m; j++) {
      for (int i = 0; i < m; i++) {
        assertEquals(gram[j + i * m], gram[i + j * m], 0.0, "symmetric at " + i + "," + j);
        assertEquals(
            block[i + j * m],
            gram[i + j * m],
            1e-13 * Math.max(1, Math.abs(block[i + j * m])),
            type + " at " + i + "," + j);
      }
    }
  }
}
