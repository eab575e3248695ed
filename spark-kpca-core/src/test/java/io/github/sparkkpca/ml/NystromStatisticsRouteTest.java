package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.feature.StatisticsRoute;
import io.github.sparkkpca.testing.LocalSpark;
import java.nio.file.Path;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Gram route (accumulate the scatter of k_x, whiten on the driver) against the whitened route
 * (whiten every row): same model within the error bound of {@link StatisticsRoute#gramBound} plus
 * {@link StatisticsRoute#whitenedBound}, the automatic choice following the condition of K_mm,
 * partition-count invariance, updates and persistence of what the fit recorded.
 */
class NystromStatisticsRouteTest {

  private static final int N = 600;
  private static final int K = 4;
  private static final double[][] X = LocalSpark.clusters(N, 5, 7);

  /** γ = 1, m = 40 (cond(K_mm) ≈ 25): auto on 4 partitions, whitened on 2, gram on 1. */
  private static NystromKernelPCAModel auto;

  private static NystromKernelPCAModel whitened;
  private static NystromKernelPCAModel gramOne;

  @TempDir Path tmp;

  @BeforeAll
  static void fitWellConditioned() {
    auto = estimator(1.0, 40, "auto").fit(LocalSpark.frame(X, 4));
    whitened = estimator(1.0, 40, "whitened").fit(LocalSpark.frame(X, 2));
    gramOne = estimator(1.0, 40, "gram").fit(LocalSpark.frame(X, 1));
  }

  private static NystromKernelPCA estimator(double gamma, int m, String route) {
    return new NystromKernelPCA()
        .setGamma(gamma)
        .setK(K)
        .setNumLandmarks(m)
        .setSeed(3)
        .setStatisticsRoute(route);
  }

  /**
   * ε·λ_1: the bound on both routes' eigenvalue errors together, for the model's m, block size and
   * n.
   */
  private static double bothRoutesBound(NystromKernelPCAModel model) {
    int m = model.numSupportPoints();
    int b = model.effectiveBlockSize(m, model.numFeatures(), model.rank());
    double cond = model.getLandmarkConditionEstimate();
    return (StatisticsRoute.gramBound(cond, m, b, model.numRows())
            + StatisticsRoute.whitenedBound(cond, m, b, model.numRows()))
        * model.eigenvalues().apply(0);
  }

  /**
   * The smallest distance of one of the k leading eigenvalues to its neighbours (Davis–Kahan's
   * gap).
   */
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
   * Eigenvalues within {@code bound} (absolute), scores within 2·bound/gap: ‖δC‖₂ ≤ bound moves
   * each component by an angle ≤ bound/gap (Davis–Kahan), and ‖φ(x) − φ̄‖ ≤ 2 for the rbf kernel
   * (k(x,x) = 1).
   */
  private static void assertClose(
      NystromKernelPCAModel expected,
      NystromKernelPCAModel actual,
      Dataset<Row> rows,
      double bound,
      String what) {
    for (int i = 0; i < K + 1; i++) {
      assertEquals(
          expected.eigenvalues().apply(i),
          actual.eigenvalues().apply(i),
          bound,
          what + ": eigenvalue " + i);
    }
    assertEquals(
        expected.totalVariance(),
        actual.totalVariance(),
        bound * expected.rank(),
        what + ": total");
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
   * γ = 1, m = 40: cond(K_mm) ≈ 25, so auto takes the Gram route (bound ≈ 1e-13·λ_1 ≤ 5e-12); it
   * equals the whitened route within the bound, and the Gram route is the same for 1 and 4
   * partitions.
   */
  @Test
  void wellConditionedTakesTheGramRoute() {
    Dataset<Row> two = LocalSpark.frame(X, 2);
    assertEquals("gram", auto.getStatisticsRouteTaken());
    assertEquals("whitened", whitened.getStatisticsRouteTaken());
    double cond = auto.getLandmarkConditionEstimate();
    assertTrue(cond > 10 && cond < 100, "cond(K_mm) = " + cond);
    assertEquals(
        cond, whitened.getLandmarkConditionEstimate(), 0.0, "same landmarks, same estimate");
    int b = auto.effectiveBlockSize(40, 5, 40);
    assertTrue(StatisticsRoute.gramBound(cond, 40, b, N) <= StatisticsRoute.TOLERANCE);
    double bound = bothRoutesBound(whitened);
    assertTrue(bound < 1e-12 * whitened.eigenvalues().apply(0), "bound " + bound);
    assertClose(whitened, auto, two, bound, "auto (gram, 4 partitions) vs whitened");
    assertClose(gramOne, auto, two, 2 * bound, "gram: 1 vs 4 partitions");
  }

  /**
   * γ = 0.02, m = 80: cond(K_mm) ≈ 5e7, the a-priori Gram bound ≈ 3e-7·λ_1 exceeds the tolerance,
   * so auto whitens; gram-checked takes the Gram route through the a-posteriori check, which passes
   * here. What the check promises is then asserted with the tests' own tolerances against an
   * independent whitened fit: eigenvalues within 1e-11·λ_1 (the partition-invariance tolerance) and
   * scores within 1e-8, on 2 and 3 partitions. The unchecked Gram route is the same model.
   */
  @Test
  void illConditionedIsCheckedAPosteriori() {
    Dataset<Row> df = LocalSpark.frame(X, 2);
    NystromKernelPCAModel autoWhitens = estimator(0.02, 80, "auto").fit(df);
    assertEquals("whitened", autoWhitens.getStatisticsRouteTaken());
    assertEquals("a-priori bound", autoWhitens.getStatisticsRouteCheck());
    NystromKernelPCAModel autoIll = estimator(0.02, 80, "gram-checked").fit(df);
    NystromKernelPCAModel autoIll3 =
        estimator(0.02, 80, "gram-checked").fit(LocalSpark.frame(X, 3));
    NystromKernelPCAModel whitenedIll = estimator(0.02, 80, "whitened").fit(df);
    NystromKernelPCAModel gram = estimator(0.02, 80, "gram").fit(df);
    assertEquals("gram", autoIll.getStatisticsRouteTaken());
    assertTrue(
        autoIll.getStatisticsRouteCheck().startsWith("a-posteriori check passed"),
        autoIll.getStatisticsRouteCheck());
    assertEquals("gram", autoIll3.getStatisticsRouteTaken());
    assertEquals("whitened", whitenedIll.getStatisticsRouteTaken());
    assertEquals("requested", whitenedIll.getStatisticsRouteCheck());
    assertEquals("a-priori bound", auto.getStatisticsRouteCheck());
    double cond = autoIll.getLandmarkConditionEstimate();
    assertTrue(cond > 1e6, "cond(K_mm) = " + cond);
    int b = autoIll.effectiveBlockSize(80, 5, autoIll.rank());
    assertTrue(
        StatisticsRoute.gramBound(cond, 80, b, N) > StatisticsRoute.TOLERANCE,
        "a-priori, auto avoids it");
    for (NystromKernelPCAModel model : new NystromKernelPCAModel[] {autoIll, autoIll3}) {
      assertWithinCheckTolerances(whitenedIll, model, df);
    }
    assertArrayEquals(
        gram.eigenvalues().toArray(), autoIll.eigenvalues().toArray(), 0.0, "the same Gram fit");
  }

  /**
   * γ = 0.5, m = 80: cond(K_mm) ≈ 9e2 lies between the Gram route's condition limit and {@link
   * StatisticsRoute#CHECK_WINDOW} times it, so auto takes the Gram route with the a-posteriori
   * check, which passes; the model is the one gram-checked gives, and it agrees with an independent
   * whitened fit to the tests' tolerances (eigenvalues 1e-11·λ_1, scores 1e-8).
   */
  @Test
  void justAboveTheLimitAutoChecks() {
    Dataset<Row> df = LocalSpark.frame(X, 2);
    NystromKernelPCAModel autoChecked = estimator(0.5, 80, "auto").fit(df);
    NystromKernelPCAModel whitenedFit = estimator(0.5, 80, "whitened").fit(df);
    int b = autoChecked.effectiveBlockSize(80, 5, autoChecked.rank());
    double cond = autoChecked.getLandmarkConditionEstimate();
    double limit = StatisticsRoute.conditionLimit(80, b, N);
    assertTrue(
        cond > limit && cond < StatisticsRoute.CHECK_WINDOW * limit,
        "cond(K_mm) = " + cond + ", limit " + limit);
    assertEquals("gram", autoChecked.getStatisticsRouteTaken());
    assertTrue(
        autoChecked.getStatisticsRouteCheck().startsWith("a-posteriori check passed"),
        autoChecked.getStatisticsRouteCheck());
    assertWithinCheckTolerances(whitenedFit, autoChecked, df);
  }

  /**
   * What a passed check promises, against an independent whitened fit: the k + 1 leading
   * eigenvalues within 1e-11·λ_1 (the partition-invariance tolerance) and every score within 1e-8.
   */
  private static void assertWithinCheckTolerances(
      NystromKernelPCAModel whitenedFit, NystromKernelPCAModel checked, Dataset<Row> df) {
    assertEquals(
        whitenedFit.eigenvalues().size(), checked.eigenvalues().size(), "same spectrum extent");
    double lambda1 = whitenedFit.eigenvalues().apply(0);
    for (int i = 0; i < K + 1; i++) {
      assertEquals(
          whitenedFit.eigenvalues().apply(i),
          checked.eigenvalues().apply(i),
          1e-11 * lambda1,
          "eigenvalue " + i);
    }
    double[][] ws = LocalSpark.collect(whitenedFit.transform(df), "kpca");
    double[][] as = LocalSpark.collect(checked.transform(df), "kpca");
    for (int i = 0; i < ws.length; i++) {
      for (int c = 0; c < K; c++) {
        assertEquals(ws[i][c], as[i][c], 1e-8, "score " + i + ", component " + c);
      }
    }
  }

  /**
   * 600 equally spaced points on a circle and every tenth of them a landmark: K_mm is circulant and
   * the data are symmetric under the rotation by 2π/60, so the components come in pairs of equal
   * eigenvalues (cosine and sine), and no check can vouch for either direction of a pair.
   * gram-checked fits by the Gram route, the check fails on the vanishing gaps, and the fit falls
   * back to the whitened pass: the model of a whitened fit.
   */
  @Test
  void degenerateComponentsFailTheCheckAndWhiten() {
    int n = 600;
    int m = 60;
    double[][] circle = new double[n][];
    Vector[] landmarks = new Vector[m];
    for (int i = 0; i < n; i++) {
      double angle = 2 * Math.PI * i / n;
      circle[i] = new double[] {Math.cos(angle), Math.sin(angle)};
      if (i % (n / m) == 0) {
        landmarks[i / (n / m)] = Vectors.dense(circle[i]);
      }
    }
    Dataset<Row> df = LocalSpark.frame(circle, 2);
    NystromKernelPCAModel autoCircle =
        estimator(20, m, "gram-checked").setLandmarks(landmarks).fit(df);
    NystromKernelPCAModel whitenedCircle =
        estimator(20, m, "whitened").setLandmarks(landmarks).fit(df);
    assertEquals("whitened", autoCircle.getStatisticsRouteTaken());
    assertTrue(
        autoCircle.getStatisticsRouteCheck().startsWith("a-posteriori check failed"),
        autoCircle.getStatisticsRouteCheck());
    double[] ev = whitenedCircle.eigenvalues().toArray();
    assertEquals(ev[0], ev[1], 1e-10 * ev[0], "a pair of equal eigenvalues");
    assertArrayEquals(ev, autoCircle.eigenvalues().toArray(), 0.0, "the whitened pass's model");
  }

  /**
   * The Gram route's driver work against its saving on the executors: n / slots ≥ 4m / (3·driver
   * threads).
   */
  @Test
  void gramRouteOnlyWhereItPaysOff() {
    assertTrue(StatisticsRoute.gramPaysOff(60_000, 8000, 2, 2));
    // 4·8000 / (3·2) = 5333.3 rows per slot.
    assertTrue(StatisticsRoute.gramPaysOff(10_667, 8000, 2, 2));
    assertTrue(!StatisticsRoute.gramPaysOff(10_666, 8000, 2, 2));
    assertTrue(!StatisticsRoute.gramPaysOff(21_332, 8000, 2, 1), "one driver thread");
    assertTrue(
        !StatisticsRoute.gramPaysOff(60_000, 8000, 16, 2),
        "a 16-slot cluster: whiten on the executors");
    // 60 rows and m = 50 on 2 slots: whitened by cost, before any condition test.
    double[][] few = java.util.Arrays.copyOf(X, 60);
    NystromKernelPCAModel model = estimator(1.0, 50, "auto").fit(LocalSpark.frame(few, 2));
    assertEquals("whitened", model.getStatisticsRouteTaken());
    assertTrue(
        model.getStatisticsRouteCheck().startsWith("cost: "), model.getStatisticsRouteCheck());
  }

  /**
   * A Gram-route model updates (the new rows are whitened) like a whitened-route one: the same
   * statistics to the bound, and the route and cond(K_mm) recorded survive save and load.
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
      assertEquals(
          whitenedUpdated.eigenvalues().apply(i),
          gramUpdated.eigenvalues().apply(i),
          bound,
          "updated eigenvalue " + i);
    }

    String path = tmp.resolve("gram-model").toString();
    gram.write().save(path);
    NystromKernelPCAModel loaded = NystromKernelPCAModel.load(path);
    assertEquals("gram", loaded.getStatisticsRouteTaken());
    assertEquals(gram.getStatisticsRouteCheck(), loaded.getStatisticsRouteCheck());
    assertEquals(gram.getLandmarkConditionEstimate(), loaded.getLandmarkConditionEstimate(), 0.0);
    assertEquals("auto", loaded.getStatisticsRoute().paramName());
  }

  @Test
  void unknownRouteIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new NystromKernelPCA().setStatisticsRoute("cholesky"));
    assertTrue(e.getMessage().contains("statisticsRoute"), e.getMessage());
  }
}
