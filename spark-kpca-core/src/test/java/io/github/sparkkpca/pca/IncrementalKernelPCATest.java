package io.github.sparkkpca.pca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.linalg.IncrementalEigen;
import io.github.sparkkpca.ml.KernelPCA;
import io.github.sparkkpca.ml.KernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import java.util.Arrays;
import java.util.Random;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * Kernel PCA grown (and shrunk) point by point equals exact {@link KernelPCA} of the same points.
 */
class IncrementalKernelPCATest {

  private static final int K = 5;
  private static final double GAMMA = 0.2;

  private static double[][] data() {
    double[][] x = LocalSpark.clusters(90, 3, 41);
    Random random = new Random(43);
    // Every 9th point repeats an earlier one: zero (uncentred) and repeated eigenvalues, deflation.
    for (int i = 8; i < x.length; i += 9) {
      x[i] = x[random.nextInt(i)].clone();
    }
    return x;
  }

  @Test
  void uncentredGrownPointByPointEqualsExactKernelPCA() {
    check(false);
  }

  @Test
  void centredGrownPointByPointEqualsExactKernelPCA() {
    check(true);
  }

  private static void check(boolean centered) {
    double[][] x = data();
    IncrementalKernelPCA inc =
        IncrementalKernelPCA.create(
            Kernel.rbf(GAMMA), 3, centered, IncrementalEigen.Monitoring.defaults());
    for (double[] row : x) {
      inc.add(row);
    }
    if (!centered) {
      // Growth is checked uncentred; centred, the deletions below start from the grown state and
      // the final
      // comparison covers both (a single Spark fit each keeps the test short).
      compare(inc, x, centered);
    }
    // Delete 25 points at arbitrary positions; the rest must equal a batch fit of what remains.
    Random random = new Random(47);
    double[][] remaining = x.clone();
    int size = remaining.length;
    for (int step = 0; step < 25; step++) {
      int pos = random.nextInt(size);
      inc.remove(pos);
      System.arraycopy(remaining, pos + 1, remaining, pos, size - pos - 1);
      size--;
    }
    compare(inc, Arrays.copyOf(remaining, size), centered);
    assertTrue(inc.stats().deflated() > 0, "repeated points must deflate: " + inc.stats());
    assertTrue(inc.stats().maxOrthogonalityError() < 1e-10, inc.stats().toString());
  }

  private static void compare(IncrementalKernelPCA inc, double[][] x, boolean centered) {
    Dataset<Row> df = LocalSpark.frame(x, 2);
    KernelPCAModel exact =
        new KernelPCA()
            .setKernel("rbf")
            .setGamma(GAMMA)
            .setK(K)
            .setCentered(centered)
            .setInputCol("features")
            .setOutputCol("kpca")
            .fit(df);
    double[] variances = inc.variances(K);
    for (int c = 0; c < K; c++) {
      double expected = exact.explainedVariance().apply(c);
      assertEquals(
          expected, variances[c], 1e-10 * exact.explainedVariance().apply(0), "variance " + c);
    }
    double[][] batchScores = LocalSpark.collect(exact.transform(df), "kpca");
    double[] scores = inc.scores(K);
    int n = x.length;
    double[] probe = {0.3, -1.1, 2.0};
    double[] newBatch =
        LocalSpark.collect(exact.transform(LocalSpark.frame(new double[][] {probe}, 1)), "kpca")[0];
    double[] newInc = inc.transform(probe, K);
    for (int c = 0; c < K; c++) {
      // Signs: both fix them by the largest coefficient; compare up to a common sign per component
      // anyway.
      double sign = Math.signum(scores[c * n] * batchScores[0][c]);
      sign = sign == 0 ? 1 : sign;
      for (int i = 0; i < n; i++) {
        assertEquals(batchScores[i][c], sign * scores[i + c * n], 1e-8, "score " + i + "," + c);
      }
      assertEquals(newBatch[c], sign * newInc[c], 1e-8, "new-point score " + c);
    }
  }

  @Test
  void rejectsBadPointsAndK() {
    IncrementalKernelPCA inc =
        IncrementalKernelPCA.create(Kernel.rbf(1), 2, true, IncrementalEigen.Monitoring.defaults());
    assertThrows(IllegalArgumentException.class, () -> inc.add(new double[3]));
    assertThrows(IllegalArgumentException.class, () -> inc.add(new double[] {1, Double.NaN}));
    inc.add(new double[] {0, 0});
    inc.add(new double[] {1, 0});
    // Two centred points have one non-zero eigenvalue.
    assertEquals(1, inc.variances(1).length);
    assertThrows(IllegalArgumentException.class, () -> inc.variances(2));
    assertThrows(IllegalArgumentException.class, () -> inc.remove(2));
  }
}
