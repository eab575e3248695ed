package io.github.sparkkpca.feature;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.linalg.SymmetricEigen;
import io.github.sparkkpca.linalg.SymmetricStorage;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * ⟨φ(x), φ(y)⟩ must equal the Nyström kernel k_xᵀ K_mm⁺ k_y, computed here independently from a
 * full eigendecomposition, whichever whitening W the map chose (inverse Cholesky factor or V_r
 * Λ_r^{-1/2}).
 */
class NystromFeatureMapTest {

  private static final int D = 4;

  @Test
  void fullRankLandmarksUseTheTriangularFactorAndReproduceTheNystromKernel() {
    double[] landmarks = randomRows(30, 1);
    NystromFeatureMap map = NystromFeatureMap.fit(landmarkKernel(landmarks, 30), 1e-12);
    assertTrue(map.isTriangular());
    assertEquals(30, map.rank());
    assertReproducesNystromKernel(map, landmarks, 30);
  }

  @Test
  void duplicatedLandmarksFallBackToTheEigenbasisWithTheSameRank() {
    double[] landmarks = randomRows(30, 2);
    System.arraycopy(landmarks, 0, landmarks, 7 * D, D);
    NystromFeatureMap map = NystromFeatureMap.fit(landmarkKernel(landmarks, 30), 1e-12);
    assertFalse(map.isTriangular());
    assertEquals(29, map.rank());
    assertReproducesNystromKernel(map, landmarks, 30);
  }

  /**
   * The rank decision at the rcond boundary, with K_mm = diag(1, 1/4, 1/100, 10⁻⁶) (a linear kernel
   * on scaled unit vectors, cond = 10⁶): far from it the trace test λ_max·tr(K⁻¹) &lt; 1/(2·rcond)
   * proves full rank; just below 1/cond it fails (1.0001·10⁶ &gt; 5.6·10⁵) and the inertia count
   * still finds all four eigenvalues above rcond·λ_max; just above, it finds three and the map
   * drops the smallest direction.
   */
  @Test
  void fullRankIsDecidedExactlyAtTheRcondBoundary() {
    double[] scales = {1, 0.5, 0.1, 1e-3};
    double[] landmarks = new double[4 * D];
    for (int j = 0; j < 4; j++) {
      landmarks[j * D + j] = scales[j];
    }
    LandmarkKernel linear =
        new LandmarkKernel(new Kernel(KernelType.LINEAR, 1.0, 3, 1.0), landmarks, 4, D);
    assertEquals(1e-6, linear.gram()[15], 1e-20);
    NystromFeatureMap far = NystromFeatureMap.fit(linear, 1e-12);
    assertTrue(far.isTriangular());
    assertEquals(4, far.rank());
    assertEquals(1e6, far.conditionEstimate(), 1e-3 * 1e6);
    NystromFeatureMap below = NystromFeatureMap.fit(linear, 0.9e-6);
    assertTrue(below.isTriangular());
    assertEquals(4, below.rank());
    NystromFeatureMap above = NystromFeatureMap.fit(linear, 1.1e-6);
    assertFalse(above.isTriangular());
    assertEquals(3, above.rank());
    assertEquals(100, above.conditionEstimate(), 1e-9);
  }

  /**
   * The Gram route's driver step: {@link NystromFeatureMap#whiten} of the kernel columns'
   * statistics equals the statistics of the whitened features accumulated directly (the whitened
   * route), on one driver thread and split over three (the {@code sparkkpca.driverThreads}
   * property).
   */
  @Test
  void whiteningTheKernelColumnStatisticsEqualsAccumulatingTheFeatures() {
    int m = 37;
    double[] landmarks = randomRows(m, 4);
    NystromFeatureMap map = NystromFeatureMap.fit(landmarkKernel(landmarks, m), 1e-12);
    assertTrue(map.isTriangular());
    java.util.List<org.apache.spark.ml.linalg.Vector> rows = new java.util.ArrayList<>();
    double[] values = randomRows(200, 8);
    for (int i = 0; i < 200; i++) {
      rows.add(
          org.apache.spark.ml.linalg.Vectors.dense(
              java.util.Arrays.copyOfRange(values, i * D, (i + 1) * D)));
    }
    FeatureStatistics direct = map.accumulate(rows.iterator(), 64, "x");
    double scale = 0;
    for (double v : direct.covariance(true)) {
      scale = Math.max(scale, Math.abs(v));
    }
    final double tolerance = 1e-9 * scale;
    onOneAndThreeDriverThreads(
        threads -> {
          FeatureStatistics whitened =
              map.whiten(map.kernelColumns().accumulate(rows.iterator(), 64, "x"));
          assertEquals(direct.count(), whitened.count());
          double[] expected = direct.covariance(true);
          double[] actual = whitened.covariance(true);
          for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], tolerance, threads + " threads, entry " + i);
          }
          for (int c = 0; c < m; c++) {
            assertEquals(
                direct.mean()[c], whitened.mean()[c], 1e-9, threads + " threads, mean " + c);
          }
        });
  }

  /** Runs {@code body} with the driver's linear algebra on one thread, then split over three. */
  private static void onOneAndThreeDriverThreads(java.util.function.Consumer<String> body) {
    for (String threads : new String[] {"1", "3"}) {
      System.setProperty("sparkkpca.driverThreads", threads);
      try {
        body.accept(threads);
      } finally {
        System.clearProperty("sparkkpca.driverThreads");
      }
    }
  }

  /**
   * The Gram route's whitening at a size where its second step runs as several column blocks per
   * thread (m = 700 &gt; 2·256): Wᵀ M W from {@link NystromFeatureMap#whiten} equals two plain
   * GEMMs with the map's W, on one driver thread and split over three, and the result is exactly
   * symmetric.
   */
  @Test
  void whiteningInColumnBlocksEqualsTheDenseProduct() {
    int m = 700;
    int d = 40;
    Random random = new Random(12);
    double[] landmarks = new double[m * d];
    for (int i = 0; i < landmarks.length; i++) {
      landmarks[i] = random.nextGaussian();
    }
    // Nearly equidistant points in 40 dimensions: a well-conditioned K_mm, so W is the inverse
    // Cholesky factor.
    NystromFeatureMap map =
        NystromFeatureMap.fit(new LandmarkKernel(Kernel.rbf(0.01), landmarks, m, d), 1e-12);
    assertTrue(map.isTriangular());
    double[] data = new double[m * 2 * m];
    for (int i = 0; i < data.length; i++) {
      data[i] = random.nextGaussian();
    }
    double[] scatter = new double[m * m];
    Blas.blas().dsyrk("U", "N", m, 2 * m, 1.0, data, m, 0.0, scatter, m);
    SymmetricStorage.mirrorUpper(scatter, m);
    double[] w = map.weights();
    double[] mw = new double[m * m];
    Blas.blas().dgemm("N", "N", m, m, m, 1.0, scatter, m, w, m, 0.0, mw, m);
    double[] expected = new double[m * m];
    Blas.blas().dgemm("T", "N", m, m, m, 1.0, w, m, mw, m, 0.0, expected, m);
    double scale = 0;
    for (double v : expected) {
      scale = Math.max(scale, Math.abs(v));
    }
    final double tolerance = 1e-12 * scale;
    onOneAndThreeDriverThreads(
        threads -> {
          double[] actual =
              map.whiten(FeatureStatistics.of(m, 2L * m, new double[m], scatter, 1.0)).scatter();
          for (int j = 0; j < m; j++) {
            for (int i = 0; i < m; i++) {
              assertEquals(
                  expected[j * m + i],
                  actual[j * m + i],
                  tolerance,
                  threads + " threads, entry (" + i + ", " + j + ")");
              assertEquals(
                  actual[j * m + i],
                  actual[i * m + j],
                  0.0,
                  threads + " threads, symmetry at (" + i + ", " + j + ")");
            }
          }
        });
  }

  private static void assertReproducesNystromKernel(
      NystromFeatureMap map, double[] landmarks, int m) {
    LandmarkKernel lk = map.landmarkKernel();
    int b = 12;
    RowBlock block = new RowBlock(b, D);
    block.fill(randomRows(b, 9), b);
    double[] features = new double[map.outputDim() * b];
    map.map(block, new double[map.scratchSize(b)], features);

    double[] kxm = new double[m * b];
    lk.compute(block, kxm);
    SymmetricEigen eig = SymmetricEigen.of(lk.gram(), m);
    int r = eig.rank(1e-12);
    double[] pinv = new double[m * m];
    for (int t = 0; t < r; t++) {
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < m; j++) {
          pinv[i + j * m] += eig.vectors()[i + t * m] * eig.vectors()[j + t * m] / eig.values()[t];
        }
      }
    }
    int rank = map.outputDim();
    for (int x = 0; x < b; x++) {
      for (int y = 0; y < b; y++) {
        double viaFeatures = 0;
        for (int c = 0; c < rank; c++) {
          viaFeatures += features[c + x * rank] * features[c + y * rank];
        }
        double nystrom = 0;
        for (int i = 0; i < m; i++) {
          for (int j = 0; j < m; j++) {
            nystrom += kxm[i + x * m] * pinv[i + j * m] * kxm[j + y * m];
          }
        }
        assertEquals(nystrom, viaFeatures, 1e-9, "rows " + x + ", " + y);
      }
    }
    // Landmarks map onto themselves: ⟨φ(z_i), φ(z_j)⟩ = K_ij when K_mm has full rank.
    if (rank == m) {
      RowBlock own = new RowBlock(m, D);
      own.fill(landmarks, m);
      double[] f = new double[m * m];
      map.map(own, new double[map.scratchSize(m)], f);
      double[] gram = lk.gram();
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < m; j++) {
          double dot = 0;
          for (int c = 0; c < m; c++) {
            dot += f[c + i * m] * f[c + j * m];
          }
          assertEquals(gram[i + j * m], dot, 1e-9);
        }
      }
    }
  }

  private static LandmarkKernel landmarkKernel(double[] rows, int m) {
    return new LandmarkKernel(new Kernel(KernelType.RBF, 0.5, 3, 1.0), rows, m, D);
  }

  private static double[] randomRows(int count, long seed) {
    Random random = new Random(seed);
    double[] rows = new double[count * D];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = random.nextGaussian();
    }
    return rows;
  }
}
