package io.github.sparkkpca.feature;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import org.junit.jupiter.api.Test;

/** The route's own plan: what each requested route takes, and why. */
class StatisticsRoutePlanTest {

  /** m = 20 landmarks 10 apart on a line: K_mm is the identity to 1e-40, cond = 1. */
  private static NystromFeatureMap wellConditioned() {
    int m = 20;
    double[] points = new double[m];
    for (int j = 0; j < m; j++) {
      points[j] = 10.0 * j;
    }
    return NystromFeatureMap.fit(new LandmarkKernel(Kernel.rbf(1.0), points, m, 1), 1e-12);
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
    int m = 20;
    double[] close = new double[m];
    for (int j = 0; j < m; j++) {
      close[j] = 0.1 * j;
    }
    NystromFeatureMap ill =
        NystromFeatureMap.fit(new LandmarkKernel(Kernel.rbf(1.0), close, m, 1), 1e-12);
    assertEquals(
        new StatisticsRoute.Plan(StatisticsRoute.WHITENED, false, "a-priori bound"),
        StatisticsRoute.AUTO.plan(ill, 1_000_000, 256, 2, 2));
  }
}
