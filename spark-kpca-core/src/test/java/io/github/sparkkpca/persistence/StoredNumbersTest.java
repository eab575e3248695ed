package io.github.sparkkpca.persistence;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.feature.NystromFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.RowSet;
import java.util.Random;
import java.util.TreeSet;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.junit.jupiter.api.Test;

/**
 * The load's K_mm check ({@link StoredNumbers#landmarkKernel}) on landmarks kept sparse: it accepts
 * the kernel the weights were computed with and refuses another γ, on landmarks 2^24 wide, whose
 * dense form (m·d doubles, 6.4 GiB here) this JVM could not hold: the check reads the stored form.
 */
class StoredNumbersTest {

  private static final int D = 1 << 24;

  /** m sparse rows of 12 non-zeros each over d columns, drawn from a fixed seed. */
  private static RowSet sparseRows(int m, int d) {
    Random random = new Random(5);
    Vector[] rows = new Vector[m];
    for (int j = 0; j < m; j++) {
      TreeSet<Integer> columns = new TreeSet<>();
      while (columns.size() < 12) {
        columns.add(random.nextInt(d));
      }
      int[] indices = columns.stream().mapToInt(Integer::intValue).toArray();
      double[] values = new double[indices.length];
      for (int t = 0; t < values.length; t++) {
        values[t] = 0.1 + random.nextDouble();
      }
      rows[j] = Vectors.sparse(d, indices, values);
    }
    return RowSet.of(rows, d);
  }

  @Test
  void acceptsTheFittedKernelAndRefusesAnotherGammaOnWideSparseLandmarks() {
    RowSet points = sparseRows(50, D);
    double gamma = 0.3;
    LandmarkKernel landmarks = new LandmarkKernel(Kernel.rbf(gamma), points);
    assertTrue(landmarks.isSparse(), "the landmarks take the sparse path");
    NystromFeatureMap map = NystromFeatureMap.fit(landmarks, 1e-12);
    assertDoesNotThrow(() -> StoredNumbers.landmarkKernel(map, Kernel.rbf(gamma), ""));
    // As a load rebuilds it: the stored landmarks and W bound to the metadata's kernel.
    Kernel other = Kernel.rbf(1.5 * gamma);
    NystromFeatureMap loaded =
        NystromFeatureMap.of(
            new LandmarkKernel(other, points), map.weights(), map.rank(), map.isTriangular());
    for (NystromFeatureMap checked : new NystromFeatureMap[] {map, loaded}) {
      IllegalArgumentException refused =
          assertThrows(
              IllegalArgumentException.class,
              () -> StoredNumbers.landmarkKernel(checked, other, ""));
      assertTrue(refused.getMessage().contains("another kernel or gamma"), refused.getMessage());
    }
  }

  @Test
  void acceptsACosineMapOnWideSparseLandmarks() {
    RowSet points = sparseRows(40, D);
    Kernel cosine = Kernel.of(KernelType.COSINE, Double.NaN, 0, 0);
    NystromFeatureMap map = NystromFeatureMap.fit(new LandmarkKernel(cosine, points), 1e-12);
    assertDoesNotThrow(() -> StoredNumbers.landmarkKernel(map, cosine, ""));
  }
}
