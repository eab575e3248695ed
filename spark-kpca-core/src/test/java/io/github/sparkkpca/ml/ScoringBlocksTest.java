package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.sparkkpca.testing.LocalSpark;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * Scoring runs in blocks of at most {@link KernelParams#SCORING_BLOCK_ROWS} rows by default (700
 * rows in two partitions: two blocks each), and the scores and residuals do not depend on the
 * block: the automatic size, one row at a time and sizes that split the partitions unevenly give
 * the same values. On the training rows the scores also have the statistics the fit promised, mean
 * 0 and variances Σ_i, for both readouts (kernel expansion over landmarks, explicit random
 * features). Scores without the residual column (read out of the k component columns only, not the
 * mean's) equal those with it.
 */
class ScoringBlocksTest {

  private static final int N = 700;

  @Test
  void nystromScoresDoNotDependOnTheBlock() {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(N, 5, 21), 2);
    NystromKernelPCAModel model =
        new NystromKernelPCA()
            .setK(4)
            .setNumLandmarks(60)
            .setSeed(3)
            .setResidualCol("residual")
            .fit(df);
    assertBlockInvariantScores(model, df);
  }

  @Test
  void randomFeatureScoresDoNotDependOnTheBlock() {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(N, 5, 22), 2);
    RandomFeatureKernelPCAModel model =
        new RandomFeatureKernelPCA()
            .setK(4)
            .setNumRandomFeatures(90)
            .setSeed(4)
            .setResidualCol("residual")
            .fit(df);
    assertBlockInvariantScores(model, df);
  }

  private static void assertBlockInvariantScores(AbstractKernelPCAModel<?> model, Dataset<Row> df) {
    model.setBlockSize(0);
    double[] autoResiduals = new double[N];
    double[][] auto = scores(model.transform(df), autoResiduals);
    double[] variances = model.eigenvalues().toArray();
    int k = auto[0].length;
    for (int j = 0; j < k; j++) {
      double mean = 0;
      double square = 0;
      for (double[] y : auto) {
        mean += y[j] / N;
        square += y[j] * y[j] / N;
      }
      assertEquals(0.0, mean, 1e-9 * Math.sqrt(variances[0]), "mean of score " + j);
      assertEquals(variances[j], square, 1e-8 * variances[0], "variance of score " + j);
    }
    double scoreTolerance = 1e-12 * Math.sqrt(variances[0]);
    for (int blockSize : new int[] {1, 97, 256, 1000}) {
      model.setBlockSize(blockSize);
      double[] blockedResiduals = new double[N];
      assertSameScores(
          auto,
          scores(model.transform(df), blockedResiduals),
          scoreTolerance,
          "block size " + blockSize);
      for (int i = 0; i < N; i++) {
        assertEquals(
            autoResiduals[i],
            blockedResiduals[i],
            1e-12 * variances[0] * k,
            "block size " + blockSize + ", residual of row " + i);
      }
    }
    model.setBlockSize(0);
    // Without the residual column only the k component columns are read out (not the mean's): same
    // scores.
    model.setResidualCol("");
    double[][] withoutResiduals = scores(model.transform(df), null);
    model.setResidualCol("residual");
    assertSameScores(auto, withoutResiduals, scoreTolerance, "without residuals");
  }

  private static void assertSameScores(
      double[][] expected, double[][] actual, double tolerance, String what) {
    assertEquals(expected.length, actual.length, what + ": rows");
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i].length, actual[i].length, what + ": scores of row " + i);
      for (int j = 0; j < expected[i].length; j++) {
        assertEquals(expected[i][j], actual[i][j], tolerance, what + ", row " + i + ", score " + j);
      }
    }
  }

  /**
   * The scores of the rows in id order, their residuals into {@code residuals} (null: the transform
   * has no residual column): one transform.
   */
  private static double[][] scores(Dataset<Row> scored, double[] residuals) {
    Dataset<Row> ordered = scored.orderBy("id");
    java.util.List<Row> rows =
        (residuals == null ? ordered.select("kpca") : ordered.select("kpca", "residual"))
            .collectAsList();
    double[][] out = new double[rows.size()][];
    for (int i = 0; i < out.length; i++) {
      out[i] = ((org.apache.spark.ml.linalg.Vector) rows.get(i).get(0)).toArray();
      if (residuals != null) {
        residuals[i] = rows.get(i).getDouble(1);
      }
    }
    return out;
  }
}
