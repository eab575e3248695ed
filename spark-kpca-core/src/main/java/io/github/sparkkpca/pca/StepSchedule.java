package io.github.sparkkpca.pca;

import java.io.Serializable;
import java.util.Locale;

/**
 * The step sizes η_t of Oja's update, t = 1, 2, … counting mini-batch steps.
 *
 * <ul>
 *   <li>{@code constant:η}: η_t = η (tracks a drifting stream; no convergence to a point).
 *   <li>{@code inverse:c:t₀}: η_t = c/(t + t₀), the usual practical surrogate of the theoretical
 *       schedule.
 *   <li>{@code three-phase:gap:T₀:T₁} (Allen-Zhu and Li, "First Efficient Convergence for Streaming
 *       k-PCA", FOCS 2017, Theorem 1, restated as Theorem D.3 of Ullah et al., NeurIPS 2018, with
 *       every Θ constant 1): η_t = 1/(gap·T₀) for t ≤ T₀ (warm-up), 1/(gap·T₁) for T₀ &lt; t ≤ T₀ +
 *       T₁, and 1/(gap·(t − T₀)) afterwards. Ullah et al. print the middle phase as 1/(gap²·T₁);
 *       the value used here is Allen-Zhu and Li's, which makes the schedule continuous at t = T₀ +
 *       T₁. The theorem takes T₀ = Θ(4kΛ/(gap²δ²)) and T₁ = Θ(Λ/gap²) for the eigengap gap = λ_k −
 *       λ_{k+1} and Λ = Σ_{i≤k} λ_i of the feature covariance, both unknown in practice: they are
 *       given here.
 * </ul>
 *
 * @param kind {@code constant}, {@code inverse} or {@code three-phase}
 * @param a η, c or gap
 * @param b 0, t₀ or T₀
 * @param c 0, 0 or T₁
 */
public record StepSchedule(String kind, double a, double b, double c) implements Serializable {

  /** The syntax {@link #parse} accepts, for messages. */
  public static final String SYNTAX = "constant:ETA, inverse:C:T0 or three-phase:GAP:T0:T1";

  public StepSchedule {
    boolean ok =
        switch (kind) {
          case "constant" -> positive(a);
          case "inverse" -> positive(a) && b >= 0 && Double.isFinite(b);
          case "three-phase" ->
              positive(a) && b >= 1 && c >= 1 && Double.isFinite(b) && Double.isFinite(c);
          default -> false;
        };
    if (!ok) {
      throw new IllegalArgumentException(
          "step schedule "
              + describe(kind, a, b, c)
              + " is invalid: expected "
              + SYNTAX
              + " with ETA, C, GAP > 0, T0 >= 0 (inverse) and T0, T1 >= 1 (three-phase)");
    }
  }

  /** η_t = η. */
  public static StepSchedule constant(double eta) {
    return new StepSchedule("constant", eta, 0, 0);
  }

  /** η_t = c/(t + t₀). */
  public static StepSchedule inverse(double c, double t0) {
    return new StepSchedule("inverse", c, t0, 0);
  }

  /** Allen-Zhu and Li's schedule (see the class comment). */
  public static StepSchedule threePhase(double gap, double t0, double t1) {
    return new StepSchedule("three-phase", gap, t0, t1);
  }

  /**
   * Parses {@value #SYNTAX}.
   *
   * @throws IllegalArgumentException naming the text when it does not parse or a value is out of
   *     range
   */
  public static StepSchedule parse(String text) {
    String[] parts = text.trim().split(":");
    try {
      return switch (parts[0]) {
        case "constant" -> {
          expect(parts, 2, text);
          yield constant(Double.parseDouble(parts[1]));
        }
        case "inverse" -> {
          expect(parts, 3, text);
          yield inverse(Double.parseDouble(parts[1]), Double.parseDouble(parts[2]));
        }
        case "three-phase" -> {
          expect(parts, 4, text);
          yield threePhase(
              Double.parseDouble(parts[1]),
              Double.parseDouble(parts[2]),
              Double.parseDouble(parts[3]));
        }
        default ->
            throw new IllegalArgumentException("step schedule '" + text + "': expected " + SYNTAX);
      };
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "step schedule '" + text + "': not a number (" + e.getMessage() + "); expected " + SYNTAX,
          e);
    }
  }

  private static void expect(String[] parts, int n, String text) {
    if (parts.length != n) {
      throw new IllegalArgumentException("step schedule '" + text + "': expected " + SYNTAX);
    }
  }

  /** η_t for step t ≥ 1. */
  public double eta(long t) {
    return switch (kind) {
      case "constant" -> a;
      case "inverse" -> a / (t + b);
      default -> t <= b ? 1.0 / (a * b) : t <= b + c ? 1.0 / (a * c) : 1.0 / (a * (t - b));
    };
  }

  private static boolean positive(double v) {
    return v > 0 && Double.isFinite(v);
  }

  private static String describe(String kind, double a, double b, double c) {
    return String.format(Locale.ROOT, "%s(%s, %s, %s)", kind, a, b, c);
  }

  @Override
  public String toString() {
    return switch (kind) {
      case "constant" -> "constant:" + a;
      case "inverse" -> "inverse:" + a + ":" + b;
      default -> "three-phase:" + a + ":" + b + ":" + c;
    };
  }
}
