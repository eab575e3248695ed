package io.github.sparkkpca.landmarks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.spark.ml.linalg.DenseMatrix;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Every landmark strategy: exact count, distinct rows, determinism across partitionings. */
class LandmarkStrategiesTest {

  private static Set<List<Double>> distinctRows(DenseMatrix landmarks) {
    Set<List<Double>> rows = new HashSet<>();
    for (int i = 0; i < landmarks.numRows(); i++) {
      Double[] row = new Double[landmarks.numCols()];
      for (int j = 0; j < row.length; j++) {
        row[j] = landmarks.apply(i, j);
      }
      rows.add(List.of(row));
    }
    return rows;
  }

  @ParameterizedTest
  @ValueSource(strings = {"uniform", "leverage", "kmeans"})
  void exactlyMDistinctLandmarksForAnyPartitioning(String strategy) {
    double[][] x = LocalSpark.clusters(600, 5, 31);
    NystromKernelPCAModel first = null;
    for (int partitions : new int[] {1, 3, 8}) {
      NystromKernelPCAModel model = new NystromKernelPCA().setK(3).setNumLandmarks(40).setSeed(9)
          .setLandmarkSampling(strategy).fit(LocalSpark.frame(x, partitions));
      assertEquals(40, model.numSupportPoints(), strategy);
      assertEquals(40, distinctRows(model.landmarks()).size(), strategy + ": landmarks are distinct");
      assertTrue(model.landmarkSelection().startsWith(strategy + ": 40 distinct"), model.landmarkSelection());
      if (first == null) {
        first = model;
      } else {
        assertArrayEquals(first.landmarks().toArray(), model.landmarks().toArray(), 0.0,
            strategy + " with " + partitions + " partitions");
      }
    }
  }

  @Test
  void fewerDistinctRowsThanRequestedIsReported() {
    double[][] x = new double[60][];
    for (int i = 0; i < x.length; i++) {
      x[i] = new double[] {i % 7, (i % 7) * (i % 7)};
    }
    NystromKernelPCAModel model = new NystromKernelPCA().setK(2).setNumLandmarks(10).setGamma(0.1)
        .fit(LocalSpark.frame(x, 2));
    assertEquals(7, model.numSupportPoints());
    assertTrue(model.landmarkSelection().contains("the data have only 7 distinct rows"), model.landmarkSelection());
  }

  /**
   * On 97% tight majority cluster + 3% far, spread-out minority, ridge leverage scores of the minority
   * rows are high, so leverage sampling takes several times more of them than uniform sampling does.
   */
  @Test
  void leverageSamplingPrefersTheRareCluster() {
    Random random = new Random(5);
    int n = 2000;
    double[][] x = new double[n][3];
    for (int i = 0; i < n; i++) {
      boolean rare = i % 33 == 0;
      for (int t = 0; t < 3; t++) {
        x[i][t] = rare ? 6 + 2.0 * random.nextGaussian() : 0.3 * random.nextGaussian();
      }
    }
    Dataset<Row> df = LocalSpark.frame(x, 4);
    int uniformRare = 0;
    int leverageRare = 0;
    for (long seed = 1; seed <= 4; seed++) {
      uniformRare += countRare(new NystromKernelPCA().setK(2).setNumLandmarks(30).setGamma(0.5).setSeed(seed)
          .fit(df).landmarks());
      leverageRare += countRare(new NystromKernelPCA().setK(2).setNumLandmarks(30).setGamma(0.5).setSeed(seed)
          .setLandmarkSampling("leverage").setLeverageRegularization(1e-3).fit(df).landmarks());
    }
    // Uniform expects 4 × 30 × 61/2000 ≈ 3.7 rare landmarks in total.
    assertTrue(uniformRare <= 12, "uniform took " + uniformRare);
    assertTrue(leverageRare >= 3 * Math.max(uniformRare, 4), "leverage took " + leverageRare + " vs uniform "
        + uniformRare);
  }

  private static int countRare(DenseMatrix landmarks) {
    int rare = 0;
    for (int i = 0; i < landmarks.numRows(); i++) {
      if (landmarks.apply(i, 0) > 2) {
        rare++;
      }
    }
    return rare;
  }
}
