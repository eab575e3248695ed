package io.github.sparkkpca.feature;

import java.util.Arrays;
import java.util.Locale;

/**
 * How the statistics pass of a Nyström fit obtains the feature covariance C = Wᵀ S W (S the centred
 * covariance of the kernel columns k_x, W the whitening of K_mm).
 *
 * <ul>
 *   <li>{@link #WHITENED}: every row is whitened on the executors, φ = Wᵀk_x, and the scatter of φ is
 *       accumulated: 2md + m² + r² flops per row (triangular W). Its rounding error grows like √cond(K_mm).</li>
 *   <li>{@link #GRAM}: the scatter of the kernel columns themselves is accumulated (m×m, centred block by block
 *       as for φ) and the driver whitens it once, Wᵀ S W and φ̄ = Wᵀk̄: 2md + m² flops per row, the minimal
 *       work. Its rounding error grows like cond(K_mm): see {@link #gramBound}.</li>
 *   <li>{@link #AUTO} (the default): {@code GRAM} when its bound stays within {@link #TOLERANCE}, i.e. when
 *       cond(K_mm) = λ_1/λ_r of the retained spectrum is below {@link #conditionLimit}, else {@code WHITENED}.</li>
 * </ul>
 * The derivation and measurements are in docs/gram-route.md.
 */
public enum StatisticsRoute {
  AUTO, WHITENED, GRAM;

  /** The parameter values, lower case. */
  public static final String[] NAMES = {"auto", "whitened", "gram"};

  /**
   * τ: the relative eigenvalue error, |λ̂_i − λ_i| / λ_1, the Gram route may add. The tightest tolerance of the
   * accuracy tests is 1e-11·λ_1 between two fits (partition invariance), so each may err by half of it.
   */
  public static final double TOLERANCE = 5e-12;

  /** Unit roundoff of IEEE double precision, 2⁻⁵³. */
  static final double UNIT_ROUNDOFF = 0x1.0p-53;

  public String paramName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static StatisticsRoute parse(String name) {
    for (StatisticsRoute s : values()) {
      if (s.paramName().equalsIgnoreCase(name)) {
        return s;
      }
    }
    throw new IllegalArgumentException("Unknown statistics route '" + name + "'; expected one of "
        + Arrays.toString(NAMES));
  }

  /**
   * η, the relative error of the accumulated centred scatter S (‖Ŝ − S‖₂ ≤ η‖S‖₂), in the probabilistic
   * (root-sum) model of rounding: inner products of length b within a block, a sequential sum over the
   * ⌈n/b⌉ blocks of a partition, the Chan merges, and the driver's two products with W of inner length m.
   * The same η enters both routes; they differ in how W amplifies it.
   */
  public static double accumulationError(int m, int blockSize, long n) {
    double blocks = Math.ceil((double) Math.max(n, 1) / blockSize);
    return UNIT_ROUNDOFF * (Math.sqrt(blockSize) + Math.sqrt(blocks) + 2 * Math.sqrt(m));
  }

  /**
   * The Gram route's bound on |λ̂_i − λ_i| / λ_1(C) for every i (Weyl): ‖Wᵀ E W‖₂ ≤ ‖W‖₂² η ‖S‖₂ and
   * ‖S‖₂ ≤ λ_1(K)·λ_1(C), so the bound is η·cond(K), cond(K) = λ_1(K)/λ_r(K) over the retained spectrum.
   */
  public static double gramBound(double condition, int m, int blockSize, long n) {
    return accumulationError(m, blockSize, n) * condition;
  }

  /**
   * The whitened route's bound in the same terms: the rows' forward error ‖δφ‖ ≤ η‖W‖₂‖k_x‖ enters the
   * covariance through 2·Σφδφᵀ, relative to λ_1(C) about 2η·√cond(K).
   */
  public static double whitenedBound(double condition, int m, int blockSize, long n) {
    return 2 * accumulationError(m, blockSize, n) * Math.sqrt(condition);
  }

  /** The largest cond(K_mm) for which {@link #gramBound} stays within {@link #TOLERANCE}. */
  public static double conditionLimit(int m, int blockSize, long n) {
    return TOLERANCE / accumulationError(m, blockSize, n);
  }
}
