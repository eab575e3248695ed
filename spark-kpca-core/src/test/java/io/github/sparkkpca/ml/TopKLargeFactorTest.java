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
    return new NystromKernelPCA()
        .setKernel(kernel)
        .setGamma(gamma)
        .setDegree(2)
        .setCoef0(1)
        .setK(k)
        .setNumLandmarks(m)
        .setSeed(5)
        .setTopKTolerance(1e-9);
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
        topK.getStatisticsRouteCheck().contains("whitening tiled Cholesky (tiles of 16)"),
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
}
