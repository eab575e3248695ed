package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.feature.RandomFourierFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.pca.FeaturePCA;
import io.github.sparkkpca.pca.SpectrumExtent;
import io.github.sparkkpca.testing.LocalSpark;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default leading spectrum (block Krylov on the r×r covariance) against the full one (dense
 * solver), and the {@code spectrum} param through fit, save and load.
 */
class SpectrumExtentTest {

  @TempDir Path dir;

  /**
   * The same statistics solved both ways, at r = 1600 (large enough for the iteration to answer:
   * its block of 60 columns is at most 0.04·r): the k leading eigenvalues to 1e-10 relative, the 50
   * kept to 1e-10·λ_1, the total variance from the trace, the components' scores.
   */
  @Test
  void leadingSpectrumAgreesWithTheDenseSolver() {
    int k = 4;
    int r = 1600;
    double[][] x = LocalSpark.clusters(2000, 5, 11);
    List<Vector> rows = new ArrayList<>();
    for (double[] row : x) {
      rows.add(new DenseVector(row));
    }
    RandomFourierFeatureMap map = RandomFourierFeatureMap.draw(Kernel.rbf(0.5), r, 5, 3);
    FeatureStatistics stats = map.accumulate(rows.iterator(), 256, "features");
    for (boolean centered : new boolean[] {true, false}) {
      FeaturePCA leading = FeaturePCA.solve(map, stats, k, centered, SpectrumExtent.LEADING);
      FeaturePCA full = FeaturePCA.solve(map, stats, k, centered, SpectrumExtent.FULL);
      double[] a = leading.spectrum();
      double[] b = full.spectrum();
      assertEquals(50, a.length, "min(r, max(k, 50)) leading eigenvalues");
      assertEquals(r, b.length, "all r with FULL");
      for (int i = 0; i < k; i++) {
        assertEquals(b[i], a[i], 1e-10 * b[i], "eigenvalue " + i + " relative to itself");
      }
      for (int i = 0; i < a.length; i++) {
        assertEquals(b[i], a[i], 1e-10 * b[0], "eigenvalue " + i + " relative to the largest");
      }
      assertEquals(
          full.totalVariance(),
          leading.totalVariance(),
          1e-12 * full.totalVariance(),
          "the trace is the sum of all eigenvalues");
      for (int c = 0; c < k; c++) {
        for (int i = 0; i < r; i++) {
          assertEquals(
              full.components()[i + c * r],
              leading.components()[i + c * r],
              1e-7,
              "component " + c + " entry " + i);
        }
      }
    }
  }

  @Test
  void theParamIsKeptBySaveAndLoadAndChecked() throws java.io.IOException {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(200, 5, 3), 2);
    NystromKernelPCA estimator = new NystromKernelPCA().setK(3).setNumLandmarks(80).setSeed(7);
    assertEquals("leading", estimator.getSpectrum(), "leading is the default");
    NystromKernelPCAModel leading = estimator.fit(df);
    NystromKernelPCAModel full = estimator.setSpectrum("full").fit(df);
    assertEquals(50, leading.eigenvalues().size());
    assertEquals(full.rank(), full.eigenvalues().size());
    assertTrue(full.rank() > 50);
    String leadingPath = dir.resolve("leading").toString();
    leading.write().save(leadingPath);
    NystromKernelPCAModel leadingLoaded = NystromKernelPCAModel.load(leadingPath);
    assertEquals("leading", leadingLoaded.getSpectrum());
    assertEquals(
        leading.totalVariance(),
        leadingLoaded.totalVariance(),
        0.0,
        "the total from the trace, restored");
    assertArrayEquals(leading.eigenvalues().toArray(), leadingLoaded.eigenvalues().toArray(), 0.0);
    assertEquals(full.totalVariance(), leading.totalVariance(), 1e-12 * full.totalVariance());
    String path = dir.resolve("full").toString();
    full.write().save(path);
    NystromKernelPCAModel loaded = NystromKernelPCAModel.load(path);
    assertEquals("full", loaded.getSpectrum());
    assertEquals(full.rank(), loaded.eigenvalues().size());
    assertEquals(
        full.rank(), loaded.update(df.limit(10)).eigenvalues().size(), "update keeps the extent");
    assertThrows(IllegalArgumentException.class, () -> new NystromKernelPCA().setSpectrum("all"));
  }
}
