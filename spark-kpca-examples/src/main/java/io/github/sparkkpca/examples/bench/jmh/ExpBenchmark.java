package io.github.sparkkpca.examples.bench.jmh;

import io.github.sparkkpca.linalg.FastExp;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * exp over one row of kernel arguments (m values in [−10, 0], as −γ‖x−z‖² of an rbf kernel):
 * Math.exp in a loop against {@link FastExp}; and the rbf map of one row as the kernel block runs
 * it ({@link FastExp#gaussianInPlace}: argument and exponential from the inner products). Scores
 * are nanoseconds per value (the copy of the input, needed because both work in place, is in all of
 * them).
 *
 * <p>{@code tableExp} measures the alternative the library does not use: exp(x) = 2^(e +
 * j/128)·exp(r) with a 128-entry table of 2^(j/128) and a degree-5 polynomial on |r| ≤ ln2/256
 * (about 10 vector operations per value instead of the 26 of the degree-13 polynomial). C2 does not
 * vectorise the table lookup, so the last loop (index, table, scale) runs scalar, and it is slower
 * than {@link FastExp} overall.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@OperationsPerInvocation(ExpBenchmark.M)
public class ExpBenchmark {

  static final int M = 1000;

  /** γ of the rbf benchmarks: −γ‖x − z‖² ∈ [−10, 0]. */
  static final double GAMMA = 2.5;

  double[] arguments;
  double[] values;
  FastExp fastExp;
  TableExp tableExp;

  /**
   * Inner products ⟨x, z_j⟩ with ‖x‖² = 1 and ‖z_j‖² = 1, so that −γ‖x − z_j‖² lies in [−10, 0].
   */
  double[] inner;

  double[] sqNorms;

  @Setup
  public void setUp() {
    Random random = new Random(1);
    arguments = new double[M];
    for (int j = 0; j < M; j++) {
      arguments[j] = -10 * random.nextDouble();
    }
    values = new double[M];
    fastExp = new FastExp(M);
    tableExp = new TableExp(M);
    inner = new double[M];
    sqNorms = new double[M];
    for (int j = 0; j < M; j++) {
      inner[j] = 1 - random.nextDouble() * 2; // ‖x − z‖² = 2 − 2⟨x, z⟩ ∈ [0, 4]
      sqNorms[j] = 1;
    }
  }

  @Benchmark
  public double[] mathExp() {
    System.arraycopy(arguments, 0, values, 0, M);
    for (int j = 0; j < M; j++) {
      values[j] = Math.exp(values[j]);
    }
    return values;
  }

  @Benchmark
  public double[] fastExp() {
    System.arraycopy(arguments, 0, values, 0, M);
    fastExp.expInPlace(values, M);
    return values;
  }

  @Benchmark
  public double[] tableExp() {
    System.arraycopy(arguments, 0, values, 0, M);
    tableExp.expInPlace(values, M);
    return values;
  }

  /**
   * The rbf map of one row as the kernel block runs it: the argument and the exponential from ⟨x,
   * z_j⟩.
   */
  @Benchmark
  public double[] gaussianRow() {
    System.arraycopy(inner, 0, values, 0, M);
    fastExp.gaussianInPlace(values, 0, M, 1.0, sqNorms, -GAMMA);
    return values;
  }

  /**
   * The table-driven exponential of {@code tableExp}: k = rint(128x/ln2) by the 1.5·2^52 shifter, r
   * = x − k·ln2/128 (Cody–Waite, fdlibm's split of ln 2), exp(r) − 1 by its degree-5 Taylor
   * polynomial (truncation below 6e−19), then 2^(k/128) = 2^⌊k/128⌋·T_j with j = k mod 128 from the
   * shifter's low bits and the table T_j = 2^(j/128) rounded, its rounding error c_j = (2^(j/128) −
   * T_j)/T_j added back: exp(x) ≈ S + S·(p + c_j), S = T_j·2^⌊k/128⌋. The table comes from
   * 2^(1/128) (seven square roots of 2 in 60-digit decimal arithmetic) and its powers.
   */
  static final class TableExp {
    private static final int BITS = 7;
    private static final int N = 1 << BITS;
    private static final double MIN_ARGUMENT = -708.0;
    private static final double N_OVER_LN2 = N / Math.log(2);
    private static final double STEP_HI = 6.93147180369123816490e-01 / N;
    private static final double STEP_LO = 1.90821492927058770002e-10 / N;
    private static final double SHIFT = 0x1.8p52;
    private static final double C2 = 1.0 / 2;
    private static final double C3 = 1.0 / 6;
    private static final double C4 = 1.0 / 24;
    private static final double C5 = 1.0 / 120;
    private static final long[] TABLE_BITS = new long[N];
    private static final double[] TABLE_TAIL = new double[N];

    static {
      java.math.MathContext context = new java.math.MathContext(60);
      java.math.BigDecimal root = java.math.BigDecimal.valueOf(2);
      for (int i = 0; i < BITS; i++) {
        root = root.sqrt(context);
      }
      java.math.BigDecimal power = java.math.BigDecimal.ONE;
      for (int j = 0; j < N; j++) {
        double rounded = power.doubleValue();
        TABLE_BITS[j] = Double.doubleToRawLongBits(rounded);
        java.math.BigDecimal exact = new java.math.BigDecimal(rounded);
        TABLE_TAIL[j] = power.subtract(exact).divide(exact, context).doubleValue();
        power = power.multiply(root, context);
      }
    }

    private final double[] shifted;

    TableExp(int capacity) {
      shifted = new double[capacity];
    }

    void expInPlace(double[] x, int n) {
      double[] t = shifted;
      for (int i = 0; i < n; i++) {
        double a = Math.max(x[i], MIN_ARGUMENT);
        x[i] = a;
        t[i] = a * N_OVER_LN2 + SHIFT;
      }
      for (int i = 0; i < n; i++) {
        double k = t[i] - SHIFT;
        x[i] = x[i] - k * STEP_HI - k * STEP_LO;
      }
      for (int i = 0; i < n; i++) {
        double r = x[i];
        double r2 = r * r;
        x[i] = r + r2 * ((C2 + C3 * r) + r2 * (C4 + C5 * r));
      }
      for (int i = 0; i < n; i++) {
        long bits = Double.doubleToRawLongBits(t[i]);
        int j = (int) bits & (N - 1);
        double scale = Double.longBitsToDouble(TABLE_BITS[j] + ((bits >> BITS) << 52));
        x[i] = scale + scale * (x[i] + TABLE_TAIL[j]);
      }
    }
  }
}
