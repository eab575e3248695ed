package io.github.sparkkpca.ml;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * A Param validator whose refusal says what is valid: {@code gamma must be finite and > 0; got
 * Infinity}. Spark runs a Param's validator whenever a value is set ({@code set}, the setters,
 * {@code ParamMap}, loading), and its own refusal ("... parameter gamma given invalid value
 * Infinity.") names neither the range nor the choices; a rule throws its own message first, so the
 * refusal happens at set time with these words. {@link #requirement()} is the text after the
 * Param's name ("must be in [0, 1)"), which the Python Params carry too (python/tools/
 * generate_params.py), so Python refuses a value with the same words before any JVM call.
 *
 * <p>Doubles must be finite wherever a rule has a bound (an infinite γ or ridge makes no kernel),
 * and NaN is refused by every numeric rule.
 */
public final class ParamRule extends scala.runtime.AbstractFunction1<Object, Object>
    implements Serializable {

  private static final long serialVersionUID = 1L;

  /** A serializable test of one value. */
  private interface Test extends Serializable {
    boolean accepts(Object value);
  }

  /** A serializable source of a requirement text computed when asked (the kernel's choices). */
  private interface Text extends Supplier<String>, Serializable {}

  private final String name;
  private final Text requirement;
  private final Test test;
  private String kind = "";
  private double lower = Double.NaN;
  private double upper = Double.NaN;
  private boolean lowerInclusive;
  private boolean upperInclusive;
  private List<String> choices = List.of();

  private ParamRule(String name, Text requirement, Test test) {
    this.name = name;
    this.requirement = requirement;
    this.test = test;
  }

  private ParamRule describe(
      String kind, double lower, double upper, boolean lowerInclusive, boolean upperInclusive) {
    this.kind = kind;
    this.lower = lower;
    this.upper = upper;
    this.lowerInclusive = lowerInclusive;
    this.upperInclusive = upperInclusive;
    return this;
  }

  /**
   * What the rule checks, for other languages' copies of it (python/tools/generate_params.py):
   * {@code int} (an integer within {@link #lower()}/{@link #upper()}), {@code double} (a finite
   * double within them), {@code choice} (one of {@link #choices()}), {@code kernel} (a registered
   * kernel name, case-insensitive) or {@code grid} (a non-empty array of finite doubles &gt; 0).
   */
  public String kind() {
    return kind;
  }

  /** The lower bound (NaN: none). */
  public double lower() {
    return lower;
  }

  /** The upper bound (NaN: none). */
  public double upper() {
    return upper;
  }

  public boolean lowerInclusive() {
    return lowerInclusive;
  }

  public boolean upperInclusive() {
    return upperInclusive;
  }

  /** The valid values of a {@code choice} or {@code kernel} rule, in order. */
  public List<String> choices() {
    return kind.equals("kernel") ? io.github.sparkkpca.kernel.KernelFamilies.names() : choices;
  }

  /** The text that follows the Param's name in a refusal, e.g. {@code must be one of a, b}. */
  public String requirement() {
    return requirement.get();
  }

  /** The refusal of {@code value}: "name requirement; got value". */
  public String message(Object value) {
    return name + " " + requirement() + "; got " + show(value);
  }

  /**
   * True when {@code value} is valid.
   *
   * @throws IllegalArgumentException with {@link #message} when it is not
   */
  @Override
  public Object apply(Object value) {
    if (test.accepts(value)) {
      return Boolean.TRUE;
    }
    throw new IllegalArgumentException(message(value));
  }

  /** This rule as the validator type of {@code Param<T>}. */
  @SuppressWarnings("unchecked")
  public <T> scala.Function1<T, Object> of() {
    return (scala.Function1<T, Object>) (scala.Function1<?, Object>) this;
  }

  /** An integer &gt; {@code lower}. */
  public static ParamRule intGt(String name, int lower) {
    return new ParamRule(name, () -> "must be > " + lower, v -> ((Integer) v) > lower)
        .describe("int", lower, Double.NaN, false, false);
  }

  /** An integer &ge; {@code lower}. */
  public static ParamRule intGtEq(String name, int lower) {
    return new ParamRule(name, () -> "must be >= " + lower, v -> ((Integer) v) >= lower)
        .describe("int", lower, Double.NaN, true, false);
  }

  /**
   * A number of support points (landmarks), whose m×m matrices must fit in a Java array: an integer
   * in [1, {@link io.github.sparkkpca.execution.FitMemory#MAX_LANDMARKS}]. Refused when set, so a
   * fit, the CLI and Python refuse m = 50,000 before any pass over the data.
   */
  public static ParamRule supportSize(String name) {
    int upper = io.github.sparkkpca.execution.FitMemory.MAX_LANDMARKS;
    return new ParamRule(
            name,
            () ->
                "must be in [1, "
                    + upper
                    + "] (an m x m matrix of doubles holds more entries than a Java array above "
                    + upper
                    + ")",
            v -> ((Integer) v) >= 1 && ((Integer) v) <= upper)
        .describe("int", 1, upper, true, true);
  }

  /**
   * A number of landmarks: an integer in [1, {@link
   * io.github.sparkkpca.execution.FitMemory#MAX_SUPPLIED_LANDMARKS}]. Above 46,340 only the top-k
   * route of NystromKernelPCA runs (its whitening holds no m×m array); a fit refuses the other
   * routes and stages there, and any m beyond its memory, before any pass.
   */
  public static ParamRule landmarkCount(String name) {
    int upper = io.github.sparkkpca.execution.FitMemory.MAX_SUPPLIED_LANDMARKS;
    return new ParamRule(
            name,
            () ->
                "must be in [1, "
                    + upper
                    + "] (above 46340 NystromKernelPCA with statisticsRoute = top-k or auto"
                    + " only)",
            v -> ((Integer) v) >= 1 && ((Integer) v) <= upper)
        .describe("int", 1, upper, true, true);
  }

  /** A finite double &gt; {@code lower}. */
  public static ParamRule finiteGt(String name, double lower) {
    return new ParamRule(
            name,
            () -> "must be finite and > " + number(lower),
            v -> Double.isFinite((Double) v) && (Double) v > lower)
        .describe("double", lower, Double.NaN, false, false);
  }

  /** A finite double. */
  public static ParamRule finite(String name) {
    return new ParamRule(name, () -> "must be finite", v -> Double.isFinite((Double) v))
        .describe("double", Double.NaN, Double.NaN, false, false);
  }

  /** A double in an interval (NaN refused). */
  public static ParamRule inRange(
      String name, double lower, double upper, boolean lowerInclusive, boolean upperInclusive) {
    String text =
        "must be in "
            + (lowerInclusive ? "[" : "(")
            + number(lower)
            + ", "
            + number(upper)
            + (upperInclusive ? "]" : ")");
    return new ParamRule(
            name,
            () -> text,
            v -> {
              double x = (Double) v;
              return (lowerInclusive ? x >= lower : x > lower)
                  && (upperInclusive ? x <= upper : x < upper);
            })
        .describe("double", lower, upper, lowerInclusive, upperInclusive);
  }

  /** One of {@code choices}, exactly as written. */
  public static ParamRule oneOf(String name, String... choices) {
    List<String> list = List.copyOf(Arrays.asList(choices));
    ParamRule rule =
        new ParamRule(name, () -> "must be one of " + String.join(", ", list), list::contains)
            .describe("choice", Double.NaN, Double.NaN, false, false);
    rule.choices = list;
    return rule;
  }

  /** A name of a registered kernel family or alias, case-insensitive. */
  public static ParamRule kernelName(String name) {
    return new ParamRule(
            name,
            () ->
                "must be one of "
                    + String.join(", ", io.github.sparkkpca.kernel.KernelFamilies.names()),
            v -> io.github.sparkkpca.kernel.KernelFamilies.isKnown((String) v))
        .describe("kernel", Double.NaN, Double.NaN, false, false);
  }

  /** A non-empty array of finite doubles &gt; 0. */
  public static ParamRule positiveGrid(String name) {
    return new ParamRule(
            name,
            () -> "must be a non-empty list of finite values > 0",
            v -> {
              double[] values = (double[]) v;
              if (values.length == 0) {
                return false;
              }
              for (double x : values) {
                if (!(Double.isFinite(x) && x > 0)) {
                  return false;
                }
              }
              return true;
            })
        .describe("grid", 0, Double.NaN, false, false);
  }

  private static String number(double x) {
    return x == Math.rint(x) && Math.abs(x) < 1e15
        ? Long.toString((long) x)
        : Double.toString(x).toLowerCase(Locale.ROOT);
  }

  private static String show(Object value) {
    if (value instanceof double[] values) {
      return Arrays.toString(values);
    }
    return String.valueOf(value);
  }
}
