package io.github.sparkkpca.feature;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
