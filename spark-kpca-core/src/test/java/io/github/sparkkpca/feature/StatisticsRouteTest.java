package io.github.sparkkpca.feature;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The a-posteriori check's estimates evaluated by hand on a case small enough to write down. */
class StatisticsRouteTest {

  private static final double ETA = 1e-14;
  private static final double CONDITION = 1e4;

  /**
   * m = r = 2, W = I, column variances (a, b), one component with landmark weights α = e_1,
   * eigenvalues (λ_1, λ_2): ‖diag(s)W‖_F = √(a + b), ‖diag(s)α‖ = √a, so ρ = √2·η·√((a + b)·a), σ =
   * √2·η·a, the gap λ_1 − λ_2 − 2η·cond·λ_1, and the score error √λ_2·ρ/gap (only the tail term: k
   * = 1).
   */
  @Test
  void estimatesEqualTheirFormulas() {
    double a = 3;
    double b = 5;
    double[] spectrum = {2.0, 0.5};
    StatisticsRoute.Check check =
        StatisticsRoute.check(
            ETA,
            CONDITION,
            new double[] {a, b},
            new double[] {1, 0, 0, 1},
            2,
            2,
            new double[] {1, 0},
            1,
            spectrum);
    double rho = Math.sqrt(2) * ETA * Math.sqrt((a + b) * a);
    double sigma = Math.sqrt(2) * ETA * a;
    double gap = spectrum[0] - spectrum[1] - 2 * ETA * CONDITION * spectrum[0];
    assertEquals(sigma + rho * rho / gap, check.eigenvalueError(), 1e-12 * sigma);
    assertEquals(
        Math.sqrt(spectrum[1]) * rho / gap, check.scoreError(), 1e-12 * check.scoreError());
    assertTrue(check.passed());
  }

  /** Two components with equal eigenvalues: their gap vanishes, so nothing can be vouched for. */
  @Test
  void aVanishingGapFails() {
    StatisticsRoute.Check check =
        StatisticsRoute.check(
            ETA,
            CONDITION,
            new double[] {1, 1, 1},
            new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1},
            3,
            3,
            new double[] {1, 0, 0, 0, 1, 0},
            2,
            new double[] {1.0, 1.0, 0.1});
    assertFalse(check.passed());
    assertEquals(Double.POSITIVE_INFINITY, check.eigenvalueError());
  }

  /**
   * Errors above the tolerances fail: a large η·‖diag(s)W‖ makes the score error exceed 1e-8·√λ_1.
   */
  @Test
  void largeEstimatesFail() {
    StatisticsRoute.Check check =
        StatisticsRoute.check(
            1e-6,
            1,
            new double[] {1, 1},
            new double[] {1, 0, 0, 1},
            2,
            2,
            new double[] {1, 0},
            1,
            new double[] {1.0, 0.5});
    assertTrue(check.scoreError() > StatisticsRoute.SCORE_TOLERANCE);
    assertFalse(check.passed());
  }

  @Test
  void eigenvalueKPlusOneIsRequired() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                StatisticsRoute.check(
                    ETA,
                    CONDITION,
                    new double[] {1, 1},
                    new double[] {1, 0, 0, 1},
                    2,
                    2,
                    new double[] {1, 0},
                    1,
                    new double[] {1.0}));
    assertTrue(e.getMessage().contains("k + 1"), e.getMessage());
  }
}
