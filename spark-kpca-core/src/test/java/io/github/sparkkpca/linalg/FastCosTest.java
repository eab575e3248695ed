package io.github.sparkkpca.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class FastCosTest {

  /** max |fast − Math.cos| over the arguments, through the array form. */
  private static double maxAbsoluteError(double[] arguments) {
    double[] values = arguments.clone();
    new FastCos(4).cosInPlace(values, values.length);
    double worst = 0;
    for (int i = 0; i < arguments.length; i++) {
      worst = Math.max(worst, Math.abs(values[i] - Math.cos(arguments[i])));
    }
    return worst;
  }

  @Test
  void absoluteErrorIsWithinTheDocumentedBoundOverTheWholeRange() {
    Random random = new Random(23);
    int n = 1 << 20;
    double[] features = new double[n];
    double[] wide = new double[n];
    double[] logarithmic = new double[n];
    for (int i = 0; i < n; i++) {
      features[i] = 60 * (random.nextDouble() - 0.5); // ωᵀx + b of well-scaled random features
      wide[i] = FastCos.MAX_ARGUMENT * (2 * random.nextDouble() - 1);
      logarithmic[i] =
          (random.nextBoolean() ? 1 : -1) * Math.pow(10, -300 + 307.7 * random.nextDouble());
    }
    // Every reduction boundary (x ≈ (j + 1/2)·2π, where |r| = π) and multiple of 2π up to 2^12
    // periods,
    // and the ends of the range.
    double[] grid = new double[6 * 8193 + 2];
    int g = 0;
    for (int j = -4096; j <= 4096; j++) {
      for (double at : new double[] {(j + 0.5) * 2 * Math.PI, j * 2 * Math.PI}) {
        for (double delta : new double[] {-1e-9, 0, 1e-9}) {
          grid[g++] = at + delta;
        }
      }
    }
    grid[g++] = FastCos.MAX_ARGUMENT;
    grid[g] = -FastCos.MAX_ARGUMENT;
    for (double[] arguments : new double[][] {features, wide, logarithmic, grid}) {
      double worst = maxAbsoluteError(arguments);
      assertTrue(
          worst <= FastCos.MAX_ABSOLUTE_ERROR,
          "max absolute error " + worst + " > " + FastCos.MAX_ABSOLUTE_ERROR);
    }
  }

  @Test
  void largeArgumentsAndNaNFallBackToMathCos() {
    double[] x = {0.5, 2 * FastCos.MAX_ARGUMENT, 1e300, -3.0};
    double[] values = x.clone();
    new FastCos(1).cosInPlace(values, x.length);
    for (int i = 0; i < x.length; i++) {
      assertEquals(Math.cos(x[i]), values[i], 0.0, "x = " + x[i]);
    }
    double[] nan = {1.0, Double.NaN};
    new FastCos(2).cosInPlace(nan, 2);
    assertEquals(Math.cos(1.0), nan[0], 0.0);
    assertTrue(Double.isNaN(nan[1]));
  }

  @Test
  void onlyTheFirstNValuesAreTouched() {
    double[] x = {0.0, Math.PI, 7.0};
    new FastCos(1).cosInPlace(x, 2);
    assertEquals(1.0, x[0], 0.0);
    assertEquals(-1.0, x[1], 1e-15);
    assertEquals(7.0, x[2], 0.0);
  }
}
