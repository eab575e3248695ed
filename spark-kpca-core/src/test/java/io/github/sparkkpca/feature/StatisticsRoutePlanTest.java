package io.github.sparkkpca.feature;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import org.junit.jupiter.api.Test;

/** The route's own plan: what each requested route takes, and why. */
class StatisticsRoutePlanTest {

  /** m = 20 landmarks {@code spacing} apart on a line, rbf kernel with γ = 1. */
  private static NystromFeatureMap onALine(double spacing) {
    int m = 20;
    double[] points = new double[m];
    for (int j = 0; j < m; j++) {
      points[j] = spacing * j;
    }
    return NystromFeatureMap.fit(new LandmarkKernel(Kernel.rbf(1.0), points, m, 1), 1e-12);
  }

  /** Landmarks 10 apart: K_mm is the identity to 1e-40, cond = 1. */
  private static NystromFeatureMap wellConditioned() {
    return onALine(10.0);
  }

  @Test
  void requestedRoutesAreTakenAsAsked() {
    NystromFeatureMap map = wellConditioned();
    assertEquals(
        new StatisticsRoute.Plan(StatisticsRoute.WHITENED, false, "requested"),
        StatisticsRoute.WHITENED.plan(map, 1_000_000, 256, 2, 2));
    assertEquals(
        new StatisticsRoute.Plan(StatisticsRoute.GRAM, false, "requested"),
        StatisticsRoute.GRAM.plan(map, 10, 256, 2, 2));
    assertEquals(
        new StatisticsRoute.Plan(StatisticsRoute.GRAM, true, "a-posteriori check"),
        StatisticsRoute.GRAM_CHECKED.plan(map, 10, 256, 2, 2));
  }

  @Test
  void autoWeighsCostThenConditioning() {
    NystromFeatureMap map = wellConditioned();
    // 4m/(3 driver threads) = 80/6 = 13.3 rows per slot; 10 rows on 2 slots are 5.
    assertEquals(
        new StatisticsRoute.Plan(
            StatisticsRoute.WHITENED, false, "cost: n/slots = 5 < 4m/(3 driver threads) = 13"),
        StatisticsRoute.AUTO.plan(map, 10, 256, 2, 2));
    assertEquals(
        new StatisticsRoute.Plan(StatisticsRoute.GRAM, false, "a-priori bound"),
        StatisticsRoute.AUTO.plan(map, 1_000_000, 256, 2, 2));
    // Landmarks 0.1 apart with γ = 1: K_mm is nearly all ones, its retained spectrum spans many
    // orders of magnitude, beyond the Gram route's condition limit.
    NystromFeatureMap ill = onALine(0.1);
    assertEquals(
        new StatisticsRoute.Plan(StatisticsRoute.WHITENED, false, "a-priori bound"),
        StatisticsRoute.AUTO.plan(ill, 1_000_000, 256, 2, 2));
  }

  /**
   * Just above the condition limit (within {@link StatisticsRoute#CHECK_WINDOW} of it) auto takes
   * the Gram route with the a-posteriori check; landmarks 0.55 apart with γ = 1 give cond ≈ 1.2e3
   * against a limit of 515 for m = 20, b = 256, n = 10⁶.
   */
  @Test
  void autoChecksJustAboveTheLimit() {
    int m = 20;
    NystromFeatureMap map = onALine(0.55);
    double limit = StatisticsRoute.conditionLimit(m, 256, 1_000_000);
    double cond = map.conditionEstimate();
    assertTrue(cond > limit && cond < StatisticsRoute.CHECK_WINDOW * limit, "cond " + cond);
    assertEquals(
        new StatisticsRoute.Plan(StatisticsRoute.GRAM, true, "a-priori bound within 10x: check"),
        StatisticsRoute.AUTO.plan(map, 1_000_000, 256, 2, 2));
    // 10⁹ rows are 4·10⁶ blocks to sum: η is 20 times larger, the limit 23, out of the window.
    assertTrue(
        cond
            > StatisticsRoute.CHECK_WINDOW * StatisticsRoute.conditionLimit(m, 256, 1_000_000_000));
    assertEquals(
        new StatisticsRoute.Plan(StatisticsRoute.WHITENED, false, "a-priori bound"),
        StatisticsRoute.AUTO.plan(map, 1_000_000_000, 256, 2, 2));
  }

  /**
   * The cost model of auto's top-k choice: at m = 50,000, d = 100, k = 50 (l = 60) and n = 10^8 on
   * 1000 slots, 12 passes of 2md + 4ml = 2.2e7 flops per row are 2.6e8 against 2md + m^2 = 2.51e9
   * of the Gram route; at m = 8000, d = 784 (MNIST), top-k costs more (12 × 1.45e7 > 7.65e7).
   */
  @Test
  void topKPaysOffWhereMSquaredDominates() {
    assertTrue(StatisticsRoute.topKPaysOff(100_000_000L, 50_000, 50_000, 100, 50, 1000, 8));
    assertFalse(StatisticsRoute.topKPaysOff(60_000L, 8000, 8000, 784, 50, 2, 2));
    assertEquals(
        12 * (1e5 * (2.0 * 50_000 * 100 + 4.0 * 50_000 * 60) + 2.0 * 50_000 * 50_000.0 * 60 / 8),
        StatisticsRoute.topKCost(100_000_000L, 50_000, 100, 50, 1000, 8),
        1e3);
  }
}
