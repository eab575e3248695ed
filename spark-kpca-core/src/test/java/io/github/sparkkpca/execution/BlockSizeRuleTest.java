package io.github.sparkkpca.execution;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.feature.FeatureMap;
import io.github.sparkkpca.feature.NystromFeatureMap;
import io.github.sparkkpca.feature.RandomFourierFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.RowSet;
import org.junit.jupiter.api.Test;

/**
 * The one block-size rule of the fits, updates, growth and streaming folds ({@link
 * FeaturePasses#blockSize}): the sizes are asked for (kernel values per row, row width, features
 * per row) = (m, {@code RowBlock.width}, r) for a Nyström map, (m, width, m) for its kernel columns
 * (the regression fits' and the Gram route's pass) and (D, width, D) for random features, with the
 * width 1.5 × the most non-zeros of a row for sparse blocks and d for dense ones.
 */
class BlockSizeRuleTest {

  private static final int D = 1 << 18;

  /** The arguments the rule passes to the sizes, recorded; the sizes answer 7. */
  private static int[] asked(FeatureMap map, long maxStoredEntries) {
    int[] seen = new int[3];
    int b =
        FeaturePasses.blockSize(
            map,
            maxStoredEntries,
            (m, width, k) -> {
              seen[0] = m;
              seen[1] = width;
              seen[2] = k;
              return 7;
            });
    assertEquals(7, b, "the rule answers what the sizes answer");
    return seen;
  }

  /** m sparse landmarks in dimension 2^18, three non-zeros each. */
  private static LandmarkKernel sparseLandmarks(int m) {
    int[] offsets = new int[m + 1];
    int[] indices = new int[3 * m];
    double[] values = new double[3 * m];
    for (int j = 0; j < m; j++) {
      offsets[j + 1] = 3 * (j + 1);
      for (int e = 0; e < 3; e++) {
        indices[3 * j + e] = 1000 * j + 17 * e;
        values[3 * j + e] = 1 + j + e;
      }
    }
    LandmarkKernel kernel =
        new LandmarkKernel(Kernel.linear(), RowSet.sparse(offsets, indices, values, m, D));
    assertTrue(kernel.isSparse(), "wide sparse landmarks take the sparse path");
    return kernel;
  }

  @Test
  void aNystromMapAsksForItsLandmarksNonZerosAndRank() {
    int m = 12;
    int r = 9;
    NystromFeatureMap map = NystromFeatureMap.of(sparseLandmarks(m), new double[m * r], r, false);
    // 60 stored entries at most: 1.5 × 60 = 90 doubles a row, not d = 2^18.
    assertArrayEquals(new int[] {m, 90, r}, asked(map, 60));
    assertArrayEquals(new int[] {m, 90, m}, asked(map.kernelColumns(), 60));
  }

  @Test
  void aDenseNystromMapAsksForTheDimension() {
    int m = 4;
    int d = 6;
    double[] points = new double[m * d];
    java.util.Arrays.setAll(points, t -> 1 + t);
    LandmarkKernel dense = new LandmarkKernel(Kernel.rbf(0.5), points, m, d);
    assertFalse(dense.isSparse(), "landmarks without zeros take the dense path");
    NystromFeatureMap map = NystromFeatureMap.of(dense, new double[m * 2], 2, true);
    // Dense blocks: a row is d doubles, however few entries the scan found.
    assertArrayEquals(new int[] {m, d, 2}, asked(map, 3));
  }

  @Test
  void randomFeaturesAskForTheirFeaturesTwice() {
    RandomFourierFeatureMap map = RandomFourierFeatureMap.draw(Kernel.rbf(0.5), 50, 100, 3);
    assertArrayEquals(new int[] {50, 15, 50}, asked(map, 10));
  }
}
