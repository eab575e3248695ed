package io.github.sparkkpca.evaluation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.testing.LocalSpark;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/** k selection on a DataFrame against brute-force leave-one-out kernel PCA and {@link Mpress}. */
class KSelectionTest {

  private static double[] flat(double[][] x) {
    int d = x[0].length;
    double[] out = new double[x.length * d];
    for (int i = 0; i < x.length; i++) {
      System.arraycopy(x[i], 0, out, i * d, d);
    }
    return out;
  }

  @Test
  void curveOfADataFrameEqualsBruteForceLeaveOneOut() {
    double[][] x = LocalSpark.clusters(30, 3, 4);
    int maxK = 8;
    double[] expected = MpressTest.bruteForceMpress(x, maxK);
    Dataset<Row> df = LocalSpark.frame(x, 3);
    KSelection.Result r =
        new KSelection()
            .setKernel("poly")
            .setGamma(1.0)
            .setDegree(2)
            .setCoef0(1.0)
            .setMaxK(maxK)
            .select(df, "features");
    assertEquals(30, r.n());
    assertArrayEquals(expected, r.mpress(), 1e-9 * expected[0]);
    int argmin = 0;
    for (int j = 1; j < maxK; j++) {
      if (expected[j] < expected[argmin]) {
        argmin = j;
      }
    }
    assertEquals(argmin + 1, r.k());
    assertEquals(KernelType.POLYNOMIAL, r.kernel().type());
    assertEquals(1.0, r.kernel().gamma());
    // AUTO takes the deletion route from 40 rows on; 30 rows are decomposed afresh.
    assertEquals(Mpress.Method.BATCH, r.method());
  }

  @Test
  void defaultGammaIsTheMedianHeuristicOverTheRowsUsed() {
    double[][] x = LocalSpark.clusters(45, 2, 7);
    Dataset<Row> df = LocalSpark.frame(x, 2);
    KSelection.Result r = new KSelection().setMaxK(5).select(df, "features");
    double gamma = Kernel.medianHeuristicGamma(KernelType.RBF, flat(x), x.length, 2, 1000);
    assertEquals(gamma, r.kernel().gamma(), 1e-15 * gamma);
    Mpress.Curve expected = Mpress.compute(Kernel.rbf(gamma), flat(x), x.length, 2, 5);
    assertArrayEquals(expected.mpress(), r.mpress(), 1e-12 * expected.mpress()[0]);
    assertEquals(expected.k(), r.k());
    assertEquals(Mpress.Method.DELETION, r.method());
  }

  @Test
  void refusesTooManyRowsUnlessSubsampledAndBadParameters() {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(30, 3, 4), 2);
    IllegalArgumentException tooMany =
        assertThrows(
            IllegalArgumentException.class,
            () -> new KSelection().setGamma(0.5).setMaxK(3).setMaxRows(20).select(df, "features"));
    assertTrue(tooMany.getMessage().contains("maxRows = 20"), tooMany.getMessage());
    KSelection.Result sub =
        new KSelection()
            .setGamma(0.5)
            .setMaxK(3)
            .setMaxRows(20)
            .setSubsampleSeed(4)
            .select(df, "features");
    assertEquals(20, sub.n());
    assertEquals(3, sub.mpress().length);

    assertThrows(IllegalArgumentException.class, () -> new KSelection().setKernel("nope"));
    assertThrows(IllegalArgumentException.class, () -> new KSelection().setGamma(0));
    assertThrows(IllegalArgumentException.class, () -> new KSelection().setDegree(0));
    assertThrows(IllegalArgumentException.class, () -> new KSelection().setMaxRows(2));
    IllegalArgumentException maxK =
        assertThrows(
            IllegalArgumentException.class,
            () -> new KSelection().setMaxK(20).setMaxRows(20).select(df, "features"));
    assertTrue(maxK.getMessage().contains("maxK 20"), maxK.getMessage());
    IllegalArgumentException rank =
        assertThrows(
            IllegalArgumentException.class,
            () -> new KSelection().setKernel("linear").setMaxK(3).select(df, "features"));
    assertTrue(rank.getMessage().contains("numerical rank is 3"), rank.getMessage());
  }
}
