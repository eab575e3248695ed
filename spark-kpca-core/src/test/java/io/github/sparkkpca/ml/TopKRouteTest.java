package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.testing.LocalSpark;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * statisticsRoute = top-k against the whitened route on the same landmarks: eigenvalues within
 * 1e-8·λ_1 (the bound; the default tolerance 1e-6 gives residual²/gap far below it), scores
 * within what the residuals allow (Davis–Kahan: angle ≤ ρ/gap), total variance as the whitened
 * route computes it; exact KPCA at m = n; partition invariance; an ill-conditioned K_mm; k close to
 * m; the stop-short failure; persistence in expansion form and the refused update.
 */
class TopKRouteTest {

  private static final double[][] X = LocalSpark.clusters(300, 5, 11);

  @TempDir Path tmp;

  static NystromKernelPCA estimator(String kernel, double gamma, int m, int k) {
    return new NystromKernelPCA()
        .setKernel(kernel)
        .setGamma(gamma)
        .setDegree(2)
        .setCoef0(1)
        .setK(k)
        .setNumLandmarks(m)
        .setSeed(5);
  }

  /** The scores of both models, compared up to each component's sign, within {@code tol}. */
  static void assertSameModel(
      NystromKernelPCAModel expected,
      NystromKernelPCAModel actual,
      Dataset<Row> rows,
      double scoreTol,
      String what) {
    int k = expected.getK();
    double lambda1 = expected.eigenvalues().apply(0);
    for (int i = 0; i < k; i++) {
      assertEquals(
          expected.eigenvalues().apply(i),
          actual.eigenvalues().apply(i),
          1e-8 * lambda1,
          what + ": eigenvalue " + i);
    }
    assertEquals(expected.totalVariance(), actual.totalVariance(), 1e-10, what + ": total");
    double[][] es = LocalSpark.collect(expected.transform(rows), "kpca");
    double[][] as = LocalSpark.collect(actual.transform(rows), "kpca");
    for (int c = 0; c < k; c++) {
      double dot = 0;
      for (int i = 0; i < es.length; i++) {
        dot += es[i][c] * as[i][c];
      }
      double sign = Math.signum(dot);
      double worst = 0;
      for (int i = 0; i < es.length; i++) {
        worst = Math.max(worst, Math.abs(es[i][c] - sign * as[i][c]));
      }
      assertTrue(worst <= scoreTol, what + ": component " + c + " scores differ by " + worst);
    }
  }

  @Test
  void matchesTheWhitenedRouteForEachKernelCentredAndNot() {
    Dataset<Row> data = LocalSpark.frame(X, 1);
    // Each kernel once, both centrings across them (each fit is a few Spark jobs); cosine in the
    // sparse test below.
    String[][] kernels = {
      {"rbf", "0.3", "true"}, {"laplacian", "0.3", "false"}, {"polynomial", "0.2", "true"}
    };
    for (String[] kernel : kernels) {
      {
        boolean centred = Boolean.parseBoolean(kernel[2]);
        NystromKernelPCA est =
            estimator(kernel[0], Double.parseDouble(kernel[1]), 60, 4)
                .setCentered(centred)
                .setTopKTolerance(1e-9);
        NystromKernelPCAModel whitened =
            est.copy(ParamMap.empty()).setStatisticsRoute("whitened").fit(data);
        NystromKernelPCAModel topK =
            est.copy(ParamMap.empty()).setStatisticsRoute("top-k").fit(data);
        String what = kernel[0] + (centred ? " centred" : " uncentred");
        assertEquals("top-k", topK.getStatisticsRouteTaken(), what);
        assertTrue(topK.getStatisticsRouteCheck().contains("passes"), what);
        assertEquals(4, topK.eigenvalues().size(), what);
        assertSameModel(whitened, topK, data, 1e-6, what);
      }
    }
  }

  @Test
  void sparseRowsMatchTheWhitenedRoute() {
    List<Vector> rows = SparseInputTest.sparseRows(200, 500, 6, 3);
    Dataset<Row> data = LocalSpark.vectors(rows, 2);
    NystromKernelPCA est = estimator("cosine", 1, 50, 3).setTopKTolerance(1e-9);
    NystromKernelPCAModel whitened =
        est.copy(ParamMap.empty()).setStatisticsRoute("whitened").fit(data);
    NystromKernelPCAModel topK = est.copy(ParamMap.empty()).setStatisticsRoute("top-k").fit(data);
    assertSameModel(whitened, topK, data, 1e-6, "sparse cosine");
  }

  @Test
  void equalsExactKernelPcaAtMEqualN() {
    double[][] x = LocalSpark.clusters(80, 4, 2);
    Dataset<Row> data = LocalSpark.frame(x, 2);
    KernelPCAModel exact = new KernelPCA().setGamma(0.5).setK(3).fit(data);
    NystromKernelPCAModel topK =
        estimator("rbf", 0.5, 80, 3).setStatisticsRoute("top-k").setTopKTolerance(1e-10).fit(data);
    for (int i = 0; i < 3; i++) {
      assertEquals(
          exact.eigenvalues().apply(i),
          topK.eigenvalues().apply(i),
          1e-8 * exact.eigenvalues().apply(0),
          "eigenvalue " + i);
    }
  }

  @Test
  void partitioningDoesNotChangeTheModel() {
    NystromKernelPCA est = estimator("rbf", 0.3, 50, 4).setStatisticsRoute("top-k");
    NystromKernelPCAModel one = est.fit(LocalSpark.frame(X, 1));
    NystromKernelPCAModel four = est.fit(LocalSpark.frame(X, 4));
    String passes = one.getStatisticsRouteCheck().replaceAll(" passes.*", "");
    assertEquals(passes, four.getStatisticsRouteCheck().replaceAll(" passes.*", ""));
    double[][] a = LocalSpark.collect(one.transform(LocalSpark.frame(X, 2)), "kpca");
    double[][] b = LocalSpark.collect(four.transform(LocalSpark.frame(X, 2)), "kpca");
    for (int i = 0; i < a.length; i++) {
      assertArrayEquals(a[i], b[i], 1e-10, "row " + i);
    }
  }

  @Test
  void illConditionedLandmarkMatrixAndKCloseToM() {
    Dataset<Row> data = LocalSpark.frame(X, 2);
    // gamma = 0.01 on these clusters: cond(K_mm) about 1e9 at m = 60.
    NystromKernelPCA ill = estimator("rbf", 0.01, 60, 5);
    NystromKernelPCAModel whitened =
        ill.copy(ParamMap.empty()).setStatisticsRoute("whitened").fit(data);
    NystromKernelPCAModel topK = ill.copy(ParamMap.empty()).setStatisticsRoute("top-k").fit(data);
    assertTrue(
        whitened.getLandmarkConditionEstimate() > 1e6,
        "cond " + whitened.getLandmarkConditionEstimate());
    assertSameModel(whitened, topK, data, 1e-4, "ill-conditioned");
    NystromKernelPCA close = estimator("rbf", 0.3, 20, 18).setTopKTolerance(1e-10);
    assertSameModel(
        close.copy(ParamMap.empty()).setStatisticsRoute("whitened").fit(data),
        close.copy(ParamMap.empty()).setStatisticsRoute("top-k").fit(data),
        data,
        1e-4,
        "k = 18 of m = 20");
  }

  @Test
  void stopsShortInOneLine() {
    NystromKernelPCA est =
        estimator("rbf", 0.3, 60, 4)
            .setStatisticsRoute("top-k")
            .setTopKMaxPasses(1)
            .setTopKTolerance(1e-12);
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> est.fit(LocalSpark.frame(X, 2)));
    assertTrue(
        e.getMessage().contains("topKMaxPasses = 1")
            && e.getMessage().contains("topKTolerance = 1.0e-12")
            && e.getMessage().contains("raise topKMaxPasses"),
        e.getMessage());
    assertTrue(!e.getMessage().contains("\n"), e.getMessage());
  }

  @Test
  void savesAsAnExpansionAndRefusesUpdates() throws Exception {
    Dataset<Row> data = LocalSpark.frame(X, 2);
    NystromKernelPCAModel model =
        estimator("rbf", 0.3, 50, 3).setStatisticsRoute("top-k").fit(data);
    assertNull(model.statistics());
    String path = tmp.resolve("topk").toString();
    model.save(path);
    NystromKernelPCAModel loaded = NystromKernelPCAModel.load(path);
    assertEquals("top-k", loaded.getStatisticsRouteTaken());
    double[][] a = LocalSpark.collect(model.transform(data), "kpca");
    double[][] b = LocalSpark.collect(loaded.transform(data), "kpca");
    for (int i = 0; i < a.length; i++) {
      assertArrayEquals(a[i], b[i], 0.0, "row " + i);
    }
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> loaded.update(data));
    assertTrue(e.getMessage().contains("statisticsRoute = top-k"), e.getMessage());
  }
}
