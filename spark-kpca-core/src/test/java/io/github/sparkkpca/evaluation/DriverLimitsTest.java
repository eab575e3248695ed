package io.github.sparkkpca.evaluation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import java.util.OptionalLong;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * The driver-side n×n computations (MPRESS, the exact kernel matrix of the captured variance)
 * refuse a size they cannot allocate with an IllegalArgumentException naming the numbers, before
 * anything is collected; the seeded subsample does not depend on the partitioning; an argmin at
 * maxK is flagged.
 */
class DriverLimitsTest {

  private static final Dataset<Row> LARGE = LocalSpark.frame(LocalSpark.clusters(20_000, 2, 5), 4);

  @Test
  void kSelectionRefusesARowLimitItCannotHold() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new KSelection().setMaxK(3).setMaxRows(20_000).select(LARGE, "features"));
    assertTrue(e.getMessage().contains("n = 20000"), e.getMessage());
    assertTrue(
        e.getMessage().contains("GiB") && e.getMessage().contains("maxRows"), e.getMessage());
  }

  @Test
  void mpressRefusesMoreRowsThanAJavaArrayCanSquare() {
    int n = 46_341;
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Mpress.run(Kernel.rbf(1.0), new double[n], n, 1, 2, Mpress.Method.AUTO));
    assertTrue(
        e.getMessage().contains("n = 46341") && e.getMessage().contains("46340"), e.getMessage());
  }

  @Test
  void capturedVarianceRefusesAnExactSampleItCannotHold() {
    NystromKernelPCAModel model =
        new NystromKernelPCA()
            .setK(2)
            .setNumLandmarks(10)
            .setSeed(1)
            .fit(LocalSpark.frame(LocalSpark.clusters(100, 2, 3), 2));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> CapturedVariance.evaluate(model, LARGE, 20_000, 1L));
    assertTrue(e.getMessage().contains("n = 20000"), e.getMessage());
    assertTrue(
        e.getMessage().contains("GiB") && e.getMessage().contains("exactSample"), e.getMessage());
  }

  @Test
  void seededSubsampleIsTheSameForAnyPartitioning() {
    double[][] x = LocalSpark.clusters(200, 3, 8);
    Mpress.Sample one = Mpress.sample(LocalSpark.frame(x, 1), "features", 50, OptionalLong.of(3));
    Mpress.Sample four = Mpress.sample(LocalSpark.frame(x, 4), "features", 50, OptionalLong.of(3));
    Mpress.Sample seven = Mpress.sample(LocalSpark.frame(x, 7), "features", 50, OptionalLong.of(3));
    assertEquals(50, one.n());
    assertTrue(java.util.Arrays.equals(one.points(), four.points()), "1 and 4 partitions");
    assertTrue(java.util.Arrays.equals(one.points(), seven.points()), "1 and 7 partitions");
    Mpress.Sample other = Mpress.sample(LocalSpark.frame(x, 4), "features", 50, OptionalLong.of(4));
    assertFalse(
        java.util.Arrays.equals(one.points(), other.points()), "another seed, another sample");
  }

  @Test
  void argminAtMaxKIsFlagged() {
    // One strong direction plus noise in 100 dimensions: the held-out noise is mostly outside the
    // other rows' span, so MPRESS rises after the signal's component and its argmin is inner.
    int n = 30;
    int d = 100;
    java.util.Random random = new java.util.Random(1);
    double[] points = new double[n * d];
    for (int i = 0; i < n; i++) {
      double t = 10 * random.nextGaussian();
      for (int j = 0; j < d; j++) {
        points[i * d + j] = (j == 0 ? t : 0) + random.nextGaussian();
      }
    }
    Mpress.Sample sample = new Mpress.Sample(points, n, d);
    KSelection.Result wide = new KSelection().setKernel("linear").setMaxK(8).select(sample);
    int k = wide.k();
    assertTrue(k < 8, "the test needs an inner argmin, got k = " + k);
    assertFalse(wide.argminAtMaxK());
    // Cut at the minimiser, the curve ends at its minimum: the argmin is maxK and is flagged.
    KSelection.Result cut = new KSelection().setKernel("linear").setMaxK(k).select(sample);
    assertEquals(k, cut.k());
    assertTrue(cut.argminAtMaxK());
  }
}
