package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.execution.TopKFit;
import io.github.sparkkpca.testing.LocalSpark;
import java.nio.file.Path;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The top-k route with the whitening that holds no m×m array (the factor of m beyond one Java
 * array), at small m: the Spark settings {@link TopKFit#DENSE_FACTOR_CONF} = 0 and {@link
 * TopKFit#TILE_CONF} = 16 send every m to it and make every tile boundary count (m = 100 is 7
 * tiles, the last of 4 rows). Each model is compared with the whitened route's on the same
 * landmarks (dense W, today's factorisation) as {@link TopKRouteTest} compares them: eigenvalues
 * within 1e-8·λ_1, scores up to sign, total variance.
 */
class TopKLargeFactorTest {

  private static final double[][] X = LocalSpark.clusters(300, 5, 11);

  @TempDir Path tmp;

  private SparkSession spark;

  @BeforeEach
  void largeFactorAtEveryM() {
    spark = LocalSpark.spark();
    spark.conf().set(TopKFit.DENSE_FACTOR_CONF, "0");
    spark.conf().set(TopKFit.TILE_CONF, "16");
  }

  @AfterEach
  void restore() {
    spark.conf().unset(TopKFit.DENSE_FACTOR_CONF);
    spark.conf().unset(TopKFit.TILE_CONF);
  }

  private static NystromKernelPCA estimator(String kernel, double gamma, int m, int k) {
    return TopKRouteTest.estimator(kernel, gamma, m, k).setTopKTolerance(1e-9);
  }

  private static NystromKernelPCAModel[] bothRoutes(NystromKernelPCA est, Dataset<Row> data) {
    return new NystromKernelPCAModel[] {
      est.copy(ParamMap.empty()).setStatisticsRoute("whitened").fit(data),
      est.copy(ParamMap.empty()).setStatisticsRoute("top-k").fit(data)
    };
  }

  /** Full-rank K_mm (rank above m/8 = 12 pivots): K_mm in 16-tiles and their Cholesky factor. */
  @Test
  void tiledFactorMatchesTheWhitenedRoute() throws Exception {
    Dataset<Row> data = LocalSpark.frame(X, 2);
    NystromKernelPCAModel[] models = bothRoutes(estimator("rbf", 0.3, 100, 4), data);
    NystromKernelPCAModel topK = models[1];
    assertTrue(
        topK.getStatisticsRouteCheck().contains("whitening tiled Cholesky (tiles of 16;"),
        topK.getStatisticsRouteCheck());
    TopKRouteTest.assertSameModel(models[0], topK, data, 1e-6, "tiled rbf");
    // cond(K_mm) from the power and inverse iterations, against the dense factor's estimate.
    double ratio = topK.getLandmarkConditionEstimate() / models[0].getLandmarkConditionEstimate();
    assertTrue(ratio > 0.5 && ratio < 2, "condition estimates differ by " + ratio);
    // The model is an expansion: it saves, loads and scores bit for bit.
    String path = tmp.resolve("tiled").toString();
    topK.save(path);
    NystromKernelPCAModel loaded = NystromKernelPCAModel.load(path);
    double[][] a = LocalSpark.collect(topK.transform(data), "kpca");
    double[][] b = LocalSpark.collect(loaded.transform(data), "kpca");
    for (int i = 0; i < a.length; i++) {
      assertArrayEquals(a[i], b[i], 0.0, "row " + i);
    }
  }

  /**
   * K_mm of numerical rank 10 (a degree-2 polynomial kernel on 3 columns, 10 monomials) at m = 100:
   * the pivoted Cholesky stops at rank 10 ≤ 12, O(m·r²); the whitened route drops the same 90
   * directions by rcond from its eigendecomposition. Uncentred.
   */
  @Test
  void pivotedFactorMatchesTheWhitenedRouteAtLowRank() {
    double[][] x3 = new double[X.length][];
    for (int i = 0; i < X.length; i++) {
      x3[i] = java.util.Arrays.copyOf(X[i], 3);
    }
    Dataset<Row> data = LocalSpark.frame(x3, 2);
    NystromKernelPCAModel[] models =
        bothRoutes(estimator("polynomial", 0.2, 100, 4).setCentered(false).setRcond(1e-10), data);
    assertTrue(
        models[1].getStatisticsRouteCheck().contains("whitening pivoted Cholesky of rank 10"),
        models[1].getStatisticsRouteCheck());
    TopKRouteTest.assertSameModel(models[0], models[1], data, 1e-6, "pivoted polynomial");
  }

  /**
   * Sparse rows on the sparse kernel-block path, cosine kernel, tiled factor. Rows of at least 4
   * stored entries: rows of one entry on the same column are equal up to scale, which cosine makes
   * equal landmarks and K_mm singular (the tiled factor then refuses the fit in one line).
   */
  @Test
  void sparseRowsWithTheTiledFactor() {
    java.util.List<org.apache.spark.ml.linalg.Vector> rows =
        SparseInputTest.sparseRows(400, 500, 6, 3).stream()
            .filter(v -> v.numNonzeros() >= 4)
            .toList();
    Dataset<Row> data = LocalSpark.vectors(rows, 2);
    NystromKernelPCAModel[] models = bothRoutes(estimator("cosine", 1, 50, 3), data);
    assertTrue(
        models[1].getStatisticsRouteCheck().contains("tiled Cholesky"),
        models[1].getStatisticsRouteCheck());
    TopKRouteTest.assertSameModel(models[0], models[1], data, 1e-6, "sparse cosine tiled");
    assertEquals(models[0].getKernelBlockPath(), models[1].getKernelBlockPath());
  }

  /**
   * Rows of one entry on the same column are equal up to scale, which cosine makes equal landmarks:
   * K_mm is singular with a rank above the pivoted factor's m/8, which the tiled factor refuses;
   * the top-k route then whitens with today's dense map (its m×m arrays fit) and equals the
   * whitened route. Above 46,340 landmarks, or where they do not fit, the refusal stands (one
   * line).
   */
  @Test
  void equalLandmarksFallBackToTheDenseMap() {
    Dataset<Row> data = LocalSpark.vectors(SparseInputTest.sparseRows(200, 500, 6, 3), 2);
    NystromKernelPCAModel[] models = bothRoutes(estimator("cosine", 1, 50, 3), data);
    assertEquals("top-k", models[1].getStatisticsRouteTaken());
    assertTrue(
        !models[1].getStatisticsRouteCheck().contains("tiled"),
        models[1].getStatisticsRouteCheck());
    TopKRouteTest.assertSameModel(models[0], models[1], data, 1e-6, "equal landmarks");
    IllegalArgumentException leverage =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () ->
                estimator("rbf", 0.3, 46_341, 2)
                    .setLandmarkSampling("leverage")
                    .setStatisticsRoute("top-k")
                    .fit(data));
    assertTrue(
        leverage.getMessage().startsWith("landmarkSampling = leverage decomposes"),
        leverage.getMessage());
  }

  /**
   * CrossValidator over γ with the held-out reconstruction error: the top-k route's models (tiled
   * factor, 4-tiles at m = 15) give every fold's metric as the whitened route's do, to 1e-8
   * relative (the residual needs k(x,x), the mean's landmark weights and ‖φ̄‖², all in the
   * expansion), and the same best γ.
   */
  @Test
  void crossValidatorOverGammaAsTheWhitenedRoute() {
    spark.conf().set(TopKFit.TILE_CONF, "4");
    Dataset<Row> df =
        LocalSpark.frame(LocalSpark.clusters(60, 3, 5), 2)
            .withColumn("fold", org.apache.spark.sql.functions.expr("cast(id % 3 as int)"));
    double[][] metrics = new double[2][];
    double[] best = new double[2];
    String[] routes = {"whitened", "top-k"};
    for (int r = 0; r < 2; r++) {
      NystromKernelPCA kpca =
          new NystromKernelPCA()
              .setK(2)
              .setNumLandmarks(15)
              .setSeed(7)
              .setTopKTolerance(1e-10)
              .setStatisticsRoute(routes[r])
              .setResidualCol("residual");
      org.apache.spark.ml.param.ParamMap[] grid =
          new org.apache.spark.ml.tuning.ParamGridBuilder()
              .addGrid(kpca.gamma(), new double[] {2.0, 0.05})
              .build();
      org.apache.spark.ml.tuning.CrossValidatorModel cv =
          new org.apache.spark.ml.tuning.CrossValidator()
              .setEstimator(kpca)
              .setEstimatorParamMaps(grid)
              .setEvaluator(new io.github.sparkkpca.evaluation.ReconstructionErrorEvaluator())
              .setFoldCol("fold")
              .setNumFolds(3)
              .fit(df);
      metrics[r] = cv.avgMetrics();
      NystromKernelPCAModel chosen = (NystromKernelPCAModel) cv.bestModel();
      assertEquals(routes[r], chosen.getStatisticsRouteTaken());
      best[r] = chosen.getGamma();
    }
    for (int g = 0; g < 2; g++) {
      assertEquals(metrics[0][g], metrics[1][g], 1e-8 * Math.abs(metrics[0][g]), "γ " + g);
    }
    assertEquals(best[0], best[1], 0.0);
  }
}
