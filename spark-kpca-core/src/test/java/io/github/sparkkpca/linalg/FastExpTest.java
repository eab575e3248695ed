package io.github.sparkkpca.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class FastExpTest {

  /** max |fast − Math.exp| / Math.exp over the arguments, through the array form. */
  private static double maxRelativeError(double[] arguments) {
    double[] values = arguments.clone();
    new FastExp(4).expInPlace(values, values.length);
    double worst = 0;
    for (int i = 0; i < arguments.length; i++) {
      double exact = Math.exp(arguments[i]);
      worst = Math.max(worst, Math.abs(values[i] - exact) / exact);
    }
    return worst;
  }

  @Test
  void relativeErrorIsWithinTheDocumentedBoundOverTheWholeRange() {
    Random random = new Random(17);
    int n = 1 << 20;
    double[] uniform = new double[n];
    double[] kernelRange = new double[n];
    double[] tiny = new double[n];
    for (int i = 0; i < n; i++) {
      uniform[i] =
          FastExp.MIN_ARGUMENT
              + (FastExp.MAX_ARGUMENT - FastExp.MIN_ARGUMENT) * random.nextDouble();
      kernelRange[i] = -20 * random.nextDouble(); // −γ‖x−z‖² of typical rbf kernels
      tiny[i] = -Math.pow(10, -300 + 302 * random.nextDouble()); // arguments from −1e−300 to −100
    }
    // Every reduction interval boundary (x ≈ (j + 1/2)·ln 2) and the ends of the range.
    double[] grid = new double[4 * 2048 + 2];
    int g = 0;
    for (int j = -1021; j <= 1022; j++) {
      double mid = (j + 0.5) * Math.log(2);
      for (double delta : new double[] {-1e-9, 0, 1e-9, 0.25}) {
        grid[g++] = Math.max(FastExp.MIN_ARGUMENT, Math.min(FastExp.MAX_ARGUMENT, mid + delta));
      }
    }
    grid[g++] = FastExp.MIN_ARGUMENT;
    grid[g] = FastExp.MAX_ARGUMENT;
    for (double[] arguments : new double[][] {uniform, kernelRange, tiny, grid}) {
      double worst = maxRelativeError(arguments);
      assertTrue(
          worst <= FastExp.MAX_RELATIVE_ERROR,
          "max relative error " + worst + " > " + FastExp.MAX_RELATIVE_ERROR);
    }
  }

  @Test
  void arrayAndScalarFormsAreBitIdentical() {
    Random random = new Random(3);
    double[] x = new double[10_000];
    for (int i = 0; i < x.length; i++) {
      x[i] = -700 * random.nextDouble() + (i % 7 == 0 ? 700 * random.nextDouble() : 0);
    }
    double[] values = x.clone();
    new FastExp(1).expInPlace(values, values.length); // grows its scratch space
    for (int i = 0; i < x.length; i++) {
      assertEquals(
          Double.doubleToRawLongBits(FastExp.exp(x[i])),
          Double.doubleToRawLongBits(values[i]),
          "x = " + x[i]);
    }
  }

  @Test
  void edgeCases() {
    assertEquals(1.0, FastExp.exp(0.0), 0.0);
    assertEquals(1.0, FastExp.exp(-0.0), 0.0);
    assertEquals(1.0, FastExp.exp(-1e-300), 0.0);
    assertEquals(Math.E, FastExp.exp(1.0), 1e-15 * Math.E);
    // Below the range the argument is clamped: a tiny positive value instead of a subnormal or
    // zero.
    double floor = FastExp.exp(FastExp.MIN_ARGUMENT);
    assertEquals(Math.exp(FastExp.MIN_ARGUMENT), floor, FastExp.MAX_RELATIVE_ERROR * floor);
    assertEquals(floor, FastExp.exp(-745.0), 0.0);
    assertEquals(floor, FastExp.exp(Double.NEGATIVE_INFINITY), 0.0);
    assertTrue(floor < 3.4e-308);
    assertTrue(Double.isNaN(FastExp.exp(Double.NaN)));
    double[] only = {Double.NaN, -1.0};
    new FastExp(2).expInPlace(only, 1); // only the first value
    assertTrue(Double.isNaN(only[0]));
    assertEquals(-1.0, only[1], 0.0);
  }

  /**
   * The Gaussian-kernel map of a row in place equals FastExp.exp of the scalar expression bit for
   * bit, for row lengths around the loops' unrolling, at an offset (the values around the row
   * untouched), with negative distances (rounding, clamped to 0) and arguments below the clamp (far
   * rows, large γ).
   */
  @Test
  void gaussianMapIsBitIdenticalToTheScalarExpression() {
    Random random = new Random(29);
    FastExp exp = new FastExp(1);
    for (int n : new int[] {1, 3, 4, 7, 8, 9, 15, 16, 17, 1000, 1003}) {
      double[] sqNorms = new double[n];
      for (int j = 0; j < n; j++) {
        sqNorms[j] = 50 * random.nextDouble();
      }
      for (double minusGamma : new double[] {-1e-7, -0.02, -3.0, -1e4}) {
        int offset = 5;
        double rowSqNorm = 40 * random.nextDouble();
        double[] inner = new double[offset + n + 2];
        for (int i = 0; i < inner.length; i++) {
          // Mostly ‖x − z‖² ≥ 0, some slightly negative (rounding).
          double target = i % 5 == 0 ? -1e-12 * random.nextDouble() : 30 * random.nextDouble();
          int j = Math.max(0, Math.min(n - 1, i - offset));
          inner[i] = (rowSqNorm + sqNorms[j] - target) / 2;
        }
        double[] values = inner.clone();
        exp.gaussianInPlace(values, offset, n, rowSqNorm, sqNorms, minusGamma);
        for (int i = 0; i < inner.length; i++) {
          double expected =
              i < offset || i >= offset + n
                  ? inner[i]
                  : FastExp.exp(
                      minusGamma * Math.max(rowSqNorm + sqNorms[i - offset] - 2.0 * inner[i], 0.0));
          assertEquals(
              Double.doubleToRawLongBits(expected),
              Double.doubleToRawLongBits(values[i]),
              "n = " + n + ", -gamma = " + minusGamma + ", index " + i);
        }
      }
    }
  }
}
