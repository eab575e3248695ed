package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.feature.StatisticsRoute;
import io.github.sparkkpca.testing.LocalSpark;
import java.nio.file.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Gram route (accumulate the scatter of k_x, whiten on the driver) against the whitened route (whiten
 * every row): same model within the error bound of {@link StatisticsRoute#gramBound} plus
 * {@link StatisticsRoute#whitenedBound}, the automatic choice following the condition of K_mm, partition-count
 * invariance, updates and persistence of what the fit recorded.
 */
class NystromStatisticsRouteTest {

  private static final int N = 600;
  private static final int K = 4;
  private static final double[][] X = LocalSpark.clusters(N, 5, 7);

  /** γ = 1, m = 40 (cond(K_mm) ≈ 25): auto on 4 partitions, whitened on 2, gram on 1. */
  private static NystromKernelPCAModel auto;
  private static NystromKernelPCAModel whitened;
  private static NystromKernelPCAModel gramOne;

  @TempDir
  Path tmp;

  @BeforeAll
  static void fitWellConditioned() {
    auto = estimator(1.0, 40, "auto").fit(LocalSpark.frame(X, 4));
    whitened = estimator(1.0, 40, "whitened").fit(LocalSpark.frame(X, 2));
    gramOne = estimator(1.0, 40, "gram").fit(LocalSpark.frame(X, 1));
  }

  private static NystromKernelPCA estimator(double gamma, int m, String route) {
    return new NystromKernelPCA().setGamma(gamma).setK(K).setNumLandmarks(m).setSeed(3).setStatisticsRoute(route);
  }

  /** ε·λ_1: the bound on both routes' eigenvalue errors together, for the model's m, block size and n. */
  private static double bothRoutesBound(NystromKernelPCAModel model) {
    int m = model.numSupportPoints();
    int b = model.effectiveBlockSize(m, model.numFeatures(), model.rank());
    double cond = model.getLandmarkConditionEstimate();
    return (StatisticsRoute.gramBound(cond, m, b, model.numRows())
        + StatisticsRoute.whitenedBound(cond, m, b, model.numRows())) * model.eigenvalues().apply(0);
  }

  /** The smallest distance of one of the k leading eigenvalues to its neighbours (Davis–Kahan's gap). */
  private static double gap(NystromKernelPCAModel model) {
    double[] ev = model.eigenvalues().toArray();
    double gap = Double.POSITIVE_INFINITY;
    for (int c = 0; c < K; c++) {
      gap = Math.min(gap, ev[c] - ev[c + 1]);
      if (c > 0) {
        gap = Math.min(gap, ev[c - 1] - ev[c]);
      }
    }
    return gap;
  }

  /**
   * Eigenvalues within {@code bound} (absolute), scores within 2·bound/gap: ‖δC‖₂ ≤ bound moves each component by
   * an angle ≤ bound/gap (Davis–Kahan), and ‖φ(x) − φ̄‖ ≤ 2 for the rbf kernel (k(x,x) = 1).
   */
  private static void assertClose(NystromKernelPCAModel expected, NystromKernelPCAModel actual, Dataset<Row> rows,
      double bound, String what) {
    for (int i = 0; i < K + 1; i++) {
      assertEquals(expected.eigenvalues().apply(i), actual.eigenvalues().apply(i), bound, what + ": eigenvalue " + i);
    }
    assertEquals(expected.totalVariance(), actual.totalVariance(), bound * expected.rank(), what + ": total");
    double scoreBound = 2 * bound / gap(expected);
    double[][] es = LocalSpark.collect(expected.transform(rows), "kpca");
    double[][] as = LocalSpark.collect(actual.transform(rows), "kpca");
    double worst = 0;
    for (int i = 0; i < es.length; i++) {
      for (int c = 0; c < K; c++) {
        worst = Math.max(worst, Math.abs(es[i][c] - as[i][c]));
      }
    }
    assertTrue(worst <= scoreBound, what + ": scores differ by " + worst + " > " + scoreBound);
  }

  /**
   * γ = 1, m = 40: cond(K_mm) ≈ 25, so auto takes the Gram route (bound ≈ 1e-13·λ_1 ≤ 5e-12); it equals the
   * whitened route within the bound, and the Gram route is the same for 1 and 4 partitions.
   */
  @Test
  void wellConditionedTakesTheGramRoute() {
    Dataset<Row> two = LocalSpark.frame(X, 2);
    assertEquals("gram", auto.getStatisticsRouteTaken());
    assertEquals("whitened", whitened.getStatisticsRouteTaken());
    double cond = auto.getLandmarkConditionEstimate();
    assertTrue(cond > 10 && cond < 100, "cond(K_mm) = " + cond);
    assertEquals(cond, whitened.getLandmarkConditionEstimate(), 0.0, "same landmarks, same estimate");
    int b = auto.effectiveBlockSize(40, 5, 40);
    assertTrue(StatisticsRoute.gramBound(cond, 40, b, N) <= StatisticsRoute.TOLERANCE);
    double bound = bothRoutesBound(whitened);
    assertTrue(bound < 1e-12 * whitened.eigenvalues().apply(0), "bound " + bound);
    assertClose(whitened, auto, two, bound, "auto (gram, 4 partitions) vs whitened");
    assertClose(gramOne, auto, two, 2 * bound, "gram: 1 vs 4 partitions");
  }

  /**
   * γ = 0.02, m = 80: cond(K_mm) ≈ 5e7, the Gram bound ≈ 3e-7·λ_1 exceeds the tolerance, so auto whitens; forced,
   * the Gram route still stays within its (loose) bound.
   */
  @Test
  void illConditionedWhitens() {
    Dataset<Row> df = LocalSpark.frame(X, 2);
    NystromKernelPCAModel autoIll = estimator(0.02, 80, "auto").fit(df);
    NystromKernelPCAModel gram = estimator(0.02, 80, "gram").fit(df);
    assertEquals("whitened", autoIll.getStatisticsRouteTaken());
    assertEquals("gram", gram.getStatisticsRouteTaken());
    double cond = autoIll.getLandmarkConditionEstimate();
    assertTrue(cond > 1e6, "cond(K_mm) = " + cond);
    int b = autoIll.effectiveBlockSize(80, 5, autoIll.rank());
    assertTrue(StatisticsRoute.gramBound(cond, 80, b, N) > StatisticsRoute.TOLERANCE, "auto must avoid it");
    assertClose(autoIll, gram, df, bothRoutesBound(autoIll), "forced gram vs whitened");
  }

  /**
   * A Gram-route model updates (the new rows are whitened) like a whitened-route one: the same statistics to
   * the bound, and the route and cond(K_mm) recorded survive save and load.
   */
  @Test
  void gramModelUpdatesAndPersists() throws Exception {
    Dataset<Row> more = LocalSpark.frame(LocalSpark.clusters(200, 5, 8), 2);
    NystromKernelPCAModel gram = auto;
    NystromKernelPCAModel gramUpdated = gram.update(more);
    NystromKernelPCAModel whitenedUpdated = whitened.update(more);
    assertEquals(N + 200, gramUpdated.numRows());
    double bound = bothRoutesBound(whitenedUpdated);
    FeatureStatistics gs = gramUpdated.statistics();
    FeatureStatistics ws = whitenedUpdated.statistics();
    double[] gm = gs.mean();
    double[] wm = ws.mean();
    for (int i = 0; i < gm.length; i++) {
      assertEquals(wm[i], gm[i], 1e-12, "mean " + i);
    }
    double[] gc = gs.covariance(true);
    double[] wc = ws.covariance(true);
    for (int i = 0; i < gc.length; i++) {
      assertEquals(wc[i], gc[i], bound, "covariance entry " + i);
    }
    // Equal statistics give equal models; the eigenvalues confirm it without another transform.
    for (int i = 0; i < K + 1; i++) {
      assertEquals(whitenedUpdated.eigenvalues().apply(i), gramUpdated.eigenvalues().apply(i), bound,
          "updated eigenvalue " + i);
    }

    String path = tmp.resolve("gram-model").toString();
    gram.write().save(path);
    NystromKernelPCAModel loaded = NystromKernelPCAModel.load(path);
    assertEquals("gram", loaded.getStatisticsRouteTaken());
    assertEquals(gram.getLandmarkConditionEstimate(), loaded.getLandmarkConditionEstimate(), 0.0);
    assertEquals("auto", loaded.getStatisticsRoute().paramName());
  }

  @Test
  void unknownRouteIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new NystromKernelPCA().setStatisticsRoute("cholesky"));
    assertTrue(e.getMessage().contains("statisticsRoute"), e.getMessage());
  }
}
