package io.github.sparkkpca.linalg;

/**
 * cos(x) over an array, written so that HotSpot's C2 compiler vectorises it (SIMD) on Java 17 and
 * later, as {@link FastExp} does for exp. It is the element-wise step of random Fourier features,
 * where a fit takes n·D cosines (Math.cos is a scalar intrinsic).
 *
 * <p><b>Method.</b> Cody–Waite reduction x = k·2π + r with k = rint(x/2π) (found with the 1.5·2^52
 * shifter, so no float-to-int conversion is needed) and |r| ≤ π, 2π split into three parts of which
 * the first two have at most 30 significant bits, so that k·2π_1 and k·2π_2 are exact for |k| ≤
 * 2^23; then cos r by its Taylor polynomial of degree 28 in r (truncation error below π^30/30! ≈
 * 3.1e−18 on |r| ≤ π), evaluated in r² by Horner's rule in two loops. Each step is its own small
 * loop with unit-stride indices only, the form C2 vectorises.
 *
 * <p><b>Accuracy.</b> For |x| ≤ {@link #MAX_ARGUMENT} the absolute error against {@link Math#cos}
 * is at most {@link #MAX_ABSOLUTE_ERROR} (the tests sweep the range and assert it). An array
 * holding a larger magnitude or a NaN is computed with {@link Math#cos} instead, entirely: random
 * features reach such arguments only when the kernel is far too narrow for the data.
 *
 * <p>An instance holds one scratch array and is not thread-safe; create one per task or per block.
 */
public final class FastCos {

  /** The largest |x| computed by the polynomial path (2^23 · 2π ≈ 5.3e7). */
  public static final double MAX_ARGUMENT = 0x1p23 * 2 * Math.PI;

  /** Bound on |fast − Math.cos(x)| for |x| ≤ MAX_ARGUMENT. */
  public static final double MAX_ABSOLUTE_ERROR = 2.0e-15;

  private static final double INV_TWO_PI = 1.0 / (2 * Math.PI);

  /** 1.5·2^52: x/2π + SHIFT − SHIFT rounds x/2π to the nearest integer. */
  private static final double SHIFT = 0x1.8p52;

  /**
   * 2π = TWO_PI_1 + TWO_PI_2 + TWO_PI_3 (to 1e−32); the first two have at most 30 significant bits.
   */
  private static final double TWO_PI_1;

  private static final double TWO_PI_2;
  private static final double TWO_PI_3;

  static {
    // The leading 30 bits of the double fl(2π), its remaining 23 bits (exact), and 2π − fl(2π).
    double twoPi = 2 * Math.PI;
    TWO_PI_1 = truncate(twoPi, 30);
    TWO_PI_2 = twoPi - TWO_PI_1;
    TWO_PI_3 = 2.4492935982947064e-16;
  }

  private static final double C1 = -1.0 / 2;
  private static final double C2 = 1.0 / 24;
  private static final double C3 = -1.0 / 720;
  private static final double C4 = 1.0 / 40320;
  private static final double C5 = -1.0 / 3628800;
  private static final double C6 = 1.0 / 479001600;
  private static final double C7 = -1.0 / 87178291200.0;
  private static final double C8 = 1.0 / 20922789888000.0;
  private static final double C9 = -1.0 / 6402373705728000.0;
  private static final double C10 = 1.0 / 2432902008176640000.0;
  private static final double C11 = -1.0 / 1.1240007277776077e21;
  private static final double C12 = 1.0 / 6.204484017332394e23;
  private static final double C13 = -1.0 / 4.0329146112660565e26;
  private static final double C14 = 1.0 / 3.0488834461171387e29;

  private double[] high;

  /** Scratch space for up to {@code capacity} values (grown on demand). */
  public FastCos(int capacity) {
    high = new double[Math.max(1, capacity)];
  }

  /** Replaces x[0..n) by cos(x[i]). */
  public void cosInPlace(double[] x, int n) {
    if (!(largestMagnitude(x, n) <= MAX_ARGUMENT)) {
      for (int i = 0; i < n; i++) {
        x[i] = Math.cos(x[i]);
      }
      return;
    }
    if (high.length < n) {
      high = new double[n];
    }
    double[] y = high;
    reduce(x, n);
    polynomialHigh(x, y, n);
    polynomialLow(x, y, n);
  }

  /** max |x_i| (NaN when some x_i is NaN). */
  private static double largestMagnitude(double[] x, int n) {
    double largest = 0;
    for (int i = 0; i < n; i++) {
      largest = Math.max(largest, Math.abs(x[i]));
    }
    return largest;
  }

  /** x ← x − k·2π with k = rint(x/2π), so |x| ≤ π (to rounding). */
  private static void reduce(double[] x, int n) {
    for (int i = 0; i < n; i++) {
      double a = x[i];
      double k = (a * INV_TWO_PI + SHIFT) - SHIFT;
      x[i] = ((a - k * TWO_PI_1) - k * TWO_PI_2) - k * TWO_PI_3;
    }
  }

  /** y = c8 + c9·s + … + c14·s^6 with s = r². */
  private static void polynomialHigh(double[] x, double[] y, int n) {
    for (int i = 0; i < n; i++) {
      double s = x[i] * x[i];
      y[i] = C8 + s * (C9 + s * (C10 + s * (C11 + s * (C12 + s * (C13 + s * C14)))));
    }
  }

  /** cos r = 1 + c1·s + … + c7·s^7 + y·s^8. */
  private static void polynomialLow(double[] x, double[] y, int n) {
    for (int i = 0; i < n; i++) {
      double s = x[i] * x[i];
      double p = C4 + s * (C5 + s * (C6 + s * (C7 + s * y[i])));
      x[i] = 1.0 + s * (C1 + s * (C2 + s * (C3 + s * p)));
    }
  }

  /** x with all but its {@code bits} leading significant bits cleared. */
  private static double truncate(double x, int bits) {
    long mask = -1L << (52 - (bits - 1));
    return Double.longBitsToDouble(Double.doubleToRawLongBits(x) & mask);
  }
}
