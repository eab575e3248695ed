package io.github.sparkkpca.feature;

import java.util.Arrays;
import java.util.Locale;

/**
 * How the statistics pass of a Nyström fit obtains the feature covariance C = Wᵀ S W (S the centred
 * covariance of the kernel columns k_x, W the whitening of K_mm).
 *
 * <ul>
 *   <li>{@link #WHITENED}: every row is whitened on the executors, φ = Wᵀk_x, and the scatter of φ
 *       is accumulated: 2md + m² + r² flops per row (triangular W). Its rounding error grows like
 *       √cond(K_mm).
 *   <li>{@link #GRAM}: the scatter of the kernel columns themselves is accumulated (m×m, centred
 *       block by block as for φ) and the driver whitens it once, Wᵀ S W and φ̄ = Wᵀk̄: 2md + m²
 *       flops per row, the minimal work. Its rounding error grows like cond(K_mm): see {@link
 *       #gramBound}.
 *   <li>{@link #GRAM_CHECKED}: {@code GRAM}, then the a-posteriori {@link #check} of the solved
 *       components, and a whitened pass when the check fails (then the fit reads the data twice).
 *       For spectra whose k leading eigenvalues are well separated, e.g. MNIST, the Gram route's
 *       speed with a stated accuracy.
 *   <li>{@link #AUTO} (the default): {@code WHITENED} when the Gram route's driver work would cost
 *       more than it saves on the executors ({@link #gramPaysOff}); else {@code GRAM} when its
 *       a-priori bound stays within {@link #TOLERANCE}, i.e. when cond(K_mm) = λ_1/λ_r of the
 *       retained spectrum is below {@link #conditionLimit}; else {@code GRAM_CHECKED} when the
 *       bound exceeds the tolerance by less than {@link #CHECK_WINDOW}; else {@code WHITENED}. Far
 *       above the limit it does not try the check: a failed check costs a second pass, and there
 *       the check fails whenever the k components reach into a near-degenerate part of the spectrum
 *       (a noise floor), which is common. Close to the limit the check's estimates sit orders of
 *       magnitude inside the tolerances unless eigenvalues are (numerically) equal, and a Gram pass
 *       costs about half a whitened one, so trying it is the better bet. Before all of this, {@code
 *       AUTO} takes {@code TOP_K} where {@link #topKPaysOff} says it is cheaper.
 *   <li>{@link #TOP_K}: no m×m statistic at all. The k leading eigenpairs of C by block Krylov with
 *       Rayleigh–Ritz on the driver, each product C·Q one pass that broadcasts V = W·Q (m×l, l = k
 *       + 10) and accumulates the m×l product of the centred kernel-column scatter with V: passes ×
 *       (2md + 4ml) flops per row (2m·nnz + 4ml sparse), 8(b·m + b·l + 2·m·l) bytes per task, until
 *       every one of the k pairs has a residual ‖C u_i − θ_i u_i‖ ≤ topKTolerance·θ_1; a fit that
 *       reaches topKMaxPasses first fails. Its model is an expansion over the landmarks (P = W U_k
 *       and the mean's weights), without W or statistics: it cannot be updated and keeps k
 *       eigenvalues. Positive definite kernels only (the total variance needs k(x,x) to bound
 *       ‖φ(x)‖²). See {@code io.github.sparkkpca.execution.TopKFit}.
 * </ul>
 *
 * The derivation and measurements are in docs/gram-route.md.
 */
public enum StatisticsRoute {
  AUTO,
  WHITENED,
  GRAM,
  GRAM_CHECKED,
  TOP_K;

  /**
   * The passes {@link #topKPaysOff} expects of the top-k route: an assumption, not yet measured at
   * large m (the test data sets, m ≤ 80, converge in about 4 passes at the default tolerance; block
   * Krylov needs more where the spectrum decays slowly past the k-th eigenvalue).
   */
  public static final int EXPECTED_TOP_K_PASSES = 12;

  /**
   * Below this m, {@link #AUTO} keeps today's routes whatever the cost model says: a fit there
   * takes seconds, and their models keep the statistics (updates) and the leading spectrum (p =
   * max(k, 50) eigenvalues), which a top-k model does not.
   */
  public static final int TOP_K_MIN_LANDMARKS = 4096;

  /**
   * What the cost model of {@link #AUTO} needs to weigh the top-k route: d (or the mean stored
   * entries of a sparse row), k, whether the kernel is positive definite and whether the whole
   * spectrum is asked for (which only the other routes give).
   */
  public record Shape(double d, int k, boolean definite, boolean fullSpectrum) {}

  /** The parameter values, in the order of the constants. */
  public static final String[] NAMES =
      Arrays.stream(values()).map(StatisticsRoute::paramName).toArray(String[]::new);

  /**
   * τ: the relative eigenvalue error, |λ̂_i − λ_i| / λ_1, the Gram route may add. The tightest
   * tolerance of the accuracy tests is 1e-11·λ_1 between two fits (partition invariance), so each
   * may err by half of it.
   */
  public static final double TOLERANCE = 5e-12;

  /**
   * The RMS score error, relative to √λ_1 (the spread of the first component's scores), that the
   * a-posteriori {@link #check} allows each component. The tests compare scores to 1e-8 for kernels
   * whose √λ_1 is 0.2–0.6.
   */
  public static final double SCORE_TOLERANCE = 1e-8;

  /**
   * How far above {@link #TOLERANCE} the Gram route's a-priori bound may be for {@link #AUTO} to
   * take the Gram route with the a-posteriori {@link #check} instead of whitening: the window
   * cond(K_mm) &lt; 10·{@link #conditionLimit}. The check, an estimate in the same rounding model,
   * passed on the measured fits whose k leading eigenvalues are well separated (MNIST, at
   * conditions 10³ to 10⁵ times the limit) and failed on a noise floor of near-equal eigenvalues at
   * 10⁵ times the limit (docs/gram-route.md). Within a factor 10 its normwise gap shift is at most
   * 10⁻¹⁰·λ_1 and its residuals about 100 times smaller than there (ρ_i grows like √κ), so it fails
   * only on (numerically) equal eigenvalues, where the whitened pass then runs.
   */
  public static final double CHECK_WINDOW = 10;

  /** Unit roundoff of IEEE double precision, 2⁻⁵³. */
  static final double UNIT_ROUNDOFF = 0x1.0p-53;

  /** The constant's name in lower case with hyphens ({@code gram-checked}). */
  public String paramName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static StatisticsRoute parse(String name) {
    for (StatisticsRoute s : values()) {
      if (s.paramName().equalsIgnoreCase(name)) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "Unknown statistics route '" + name + "'; expected one of " + Arrays.toString(NAMES));
  }

  /**
   * The route a fit takes and why.
   *
   * @param route {@link #WHITENED} or {@link #GRAM}
   * @param checked whether the Gram route's result is checked a posteriori ({@link #GRAM_CHECKED})
   * @param reason why, for the model's {@code statisticsRouteCheck} and the log
   */
  public record Plan(StatisticsRoute route, boolean checked, String reason) {}

  /**
   * The plan for this requested route: {@link #GRAM_CHECKED} is the Gram route with the check;
   * {@link #WHITENED} and {@link #GRAM} are taken as requested; {@link #AUTO} takes the whitened
   * route when the Gram route does not pay off ({@link #gramPaysOff}), else the Gram route when
   * cond(K_mm) is below {@link #conditionLimit}, else the Gram route with the check when the
   * condition estimate is below {@link #CHECK_WINDOW} times that limit, else the whitened one.
   *
   * @param map the fitted feature map (its condition estimate)
   * @param blockSize the statistics pass's rows per block
   * @param slots the task slots of the cluster
   * @param driverThreads the driver's BLAS threads
   */
  public Plan plan(NystromFeatureMap map, long n, int blockSize, int slots, int driverThreads) {
    return plan(map, n, null, blockSize, slots, driverThreads);
  }

  /**
   * The plan as {@link #plan(NystromFeatureMap, long, int, int, int)}, where {@link #AUTO} first
   * takes {@link #TOP_K} when {@link #topKPaysOff} for this shape (null: never).
   */
  public Plan plan(
      NystromFeatureMap map, long n, Shape shape, int blockSize, int slots, int driverThreads) {
    int m = map.landmarkKernel().numLandmarks();
    return switch (this) {
      case GRAM_CHECKED -> new Plan(GRAM, true, "a-posteriori check");
      case WHITENED, GRAM, TOP_K -> new Plan(this, false, "requested");
      case AUTO -> {
        if (shape != null
            && shape.definite()
            && !shape.fullSpectrum()
            && m >= TOP_K_MIN_LANDMARKS
            && topKPaysOff(n, m, map.rank(), shape.d(), shape.k(), slots, driverThreads)) {
          yield new Plan(
              TOP_K,
              false,
              String.format(
                  java.util.Locale.ROOT,
                  "cost: top-k %.3g flops per slot against %.3g for the cheaper of whitened and gram"
                      + " (%d expected passes)",
                  topKCost(n, m, shape.d(), shape.k(), slots, driverThreads),
                  todaysCost(n, m, map.rank(), shape.d(), slots, driverThreads),
                  EXPECTED_TOP_K_PASSES));
        }
        if (!gramPaysOff(n, m, slots, driverThreads)) {
          yield new Plan(
              WHITENED,
              false,
              "cost: n/slots = "
                  + (n / Math.max(1, slots))
                  + " < 4m/(3 driver threads) = "
                  + String.format(
                      java.util.Locale.ROOT, "%.0f", gramBreakEvenRowsPerSlot(m, driverThreads)));
        }
        double limit = conditionLimit(m, blockSize, n);
        if (map.conditionBelow(limit)) {
          yield new Plan(GRAM, false, "a-priori bound");
        }
        // The estimate approaches cond(K_mm) from below; a condition just above the window may
        // still try the check, which guards the result either way.
        yield map.conditionEstimate() < CHECK_WINDOW * limit
            ? new Plan(GRAM, true, "a-priori bound within " + (int) CHECK_WINDOW + "x: check")
            : new Plan(WHITENED, false, "a-priori bound");
      }
    };
  }

  /**
   * η, the relative error of the accumulated centred scatter S (‖Ŝ − S‖₂ ≤ η‖S‖₂), in the
   * probabilistic (root-sum) model of rounding: inner products of length b within a block, a
   * sequential sum over the ⌈n/b⌉ blocks of a partition, the Chan merges, and the driver's two
   * products with W of inner length m. The same η enters both routes; they differ in how W
   * amplifies it.
   */
  public static double accumulationError(int m, int blockSize, long n) {
    double blocks = Math.ceil((double) Math.max(n, 1) / blockSize);
    return UNIT_ROUNDOFF * (Math.sqrt(blockSize) + Math.sqrt(blocks) + 2 * Math.sqrt(m));
  }

  /**
   * The Gram route's bound on |λ̂_i − λ_i| / λ_1(C) for every i (Weyl): ‖Wᵀ E W‖₂ ≤ ‖W‖₂² η ‖S‖₂
   * and ‖S‖₂ ≤ λ_1(K)·λ_1(C), so the bound is η·cond(K), cond(K) = λ_1(K)/λ_r(K) over the retained
   * spectrum.
   */
  public static double gramBound(double condition, int m, int blockSize, long n) {
    return accumulationError(m, blockSize, n) * condition;
  }

  /**
   * The whitened route's bound in the same terms: the rows' forward error ‖δφ‖ ≤ η‖W‖₂‖k_x‖ enters
   * the covariance through 2·Σφδφᵀ, relative to λ_1(C) about 2η·√cond(K).
   */
  public static double whitenedBound(double condition, int m, int blockSize, long n) {
    return 2 * accumulationError(m, blockSize, n) * Math.sqrt(condition);
  }

  /**
   * Whether the Gram route's driver work pays for itself: it saves m² flops per row on the
   * executors (n·m² in all, spread over the task slots) and adds the whitening on the driver, 4m³/3
   * flops over the driver's threads (NystromFeatureMap#whiten). Worth it when n / slots ≥ 4m /
   * (3·driverThreads); on MNIST at m = 8000 (n = 60,000, 2 slots, 2 driver threads) the saving was
   * 55 s of statistics against 18 s more on the driver when the whitening took 2m³.
   */
  public static boolean gramPaysOff(long n, int m, int slots, int driverThreads) {
    return (double) n / Math.max(1, slots) >= gramBreakEvenRowsPerSlot(m, driverThreads);
  }

  /**
   * The rows per task slot from which the Gram route pays off: 4m / (3·driverThreads) ({@link
   * #gramPaysOff}).
   */
  public static double gramBreakEvenRowsPerSlot(int m, int driverThreads) {
    return 4.0 * m / (3.0 * Math.max(1, driverThreads));
  }

  /**
   * The top-k route's work in flops per task slot (the driver's counted over its threads): {@link
   * #EXPECTED_TOP_K_PASSES} passes of (n/slots)·(2md + 4ml), l = k + 10, and per pass the driver's
   * two products with W, 2m²l flops.
   */
  public static double topKCost(long n, int m, double d, int k, int slots, int driverThreads) {
    double l = k + 10.0;
    double rows = (double) n / Math.max(1, slots);
    return EXPECTED_TOP_K_PASSES
        * (rows * (2.0 * m * d + 4.0 * m * l)
            + 2.0 * m * (double) m * l / Math.max(1, driverThreads));
  }

  /**
   * The cheaper of the whitened route, (n/slots)·(2md + m² + r²), and the Gram route,
   * (n/slots)·(2md + m²) + 4m³/(3·driverThreads), in flops per slot. The work every route shares
   * (K_mm and W on the driver) is left out of both sides.
   */
  public static double todaysCost(long n, int m, int r, double d, int slots, int driverThreads) {
    double rows = (double) n / Math.max(1, slots);
    double mm = (double) m * m;
    double whitened = rows * (2.0 * m * d + mm + (double) r * r);
    double gram = rows * (2.0 * m * d + mm) + 4.0 * mm * m / (3.0 * Math.max(1, driverThreads));
    return Math.min(whitened, gram);
  }

  /** Whether {@link #topKCost} is below {@link #todaysCost}. */
  public static boolean topKPaysOff(
      long n, int m, int r, double d, int k, int slots, int driverThreads) {
    return topKCost(n, m, d, k, slots, driverThreads)
        < todaysCost(n, m, r, d, slots, driverThreads);
  }

  /** The largest cond(K_mm) for which {@link #gramBound} stays within {@link #TOLERANCE}. */
  public static double conditionLimit(int m, int blockSize, long n) {
    return TOLERANCE / accumulationError(m, blockSize, n);
  }

  /**
   * The outcome of {@link #check}: the largest estimated eigenvalue error and RMS score error over
   * the k components (absolute, in the units of the eigenvalues and of the scores), and whether
   * both are within {@link #TOLERANCE}·λ_1 and {@link #SCORE_TOLERANCE}·√λ_1.
   */
  public record Check(double eigenvalueError, double scoreError, boolean passed) {}

  /**
   * The a-posteriori check of a Gram-route solution (docs/gram-route.md, "The a-posteriori check").
   * The decomposed Ĉ = Wᵀ(S + E)W differs from the exact C by WᵀEW. In the probabilistic model of
   * rounding (the errors of the entries independent, as behind η), |E_jl| ≲ η·s_j·s_l with s_j² =
   * S_jj the variance of kernel column j, so for component i with landmark weights α_i = W û_i:
   *
   * <ul>
   *   <li>the residual of (λ̂_i, û_i) against C is about ρ_i = √2·η·‖diag(s)W‖_F·‖diag(s)α_i‖, and
   *       its Rayleigh-quotient shift σ_i = √2·η·‖diag(s)α_i‖²; the eigenvalue error is at most σ_i
   *       + ρ_i²/δ_i (Kato–Temple), δ_i the distance to the neighbouring eigenvalues;
   *   <li>the RMS score error over the training rows weights each direction of the residual by the
   *       variance of C along it: SE_i² = Σ_{j≤k, j≠i} λ_j·(ε_ji/|λ_i − λ_j|)² + λ_{k+1}·(ρ_i/(λ_i
   *       − λ_{k+1}))², with ε_ji = √2·η·‖diag(s)α_j‖·‖diag(s)α_i‖ (first-order perturbation); the
   *       directions beyond the k components are bounded by the largest weight λ/(λ_i − λ)² among
   *       them, the one at λ_{k+1}.
   * </ul>
   *
   * Every gap is first reduced by twice the normwise shift η·cond(K_mm)·λ_1 (Weyl), so that it is a
   * gap of the exact C; a gap that vanishes fails the check.
   *
   * @param eta η, {@link #accumulationError}
   * @param condition cond(K_mm) over the retained spectrum
   * @param columnVariances S_jj, the m variances of the kernel columns (the Gram route's centred
   *     scatter / n)
   * @param weights W, m×r column-major
   * @param landmarkWeights α = W U_k, m×k column-major
   * @param spectrum the leading eigenvalues of Ĉ found: more than k of them, or all r when r = k
   */
  public static Check check(
      double eta,
      double condition,
      double[] columnVariances,
      double[] weights,
      int m,
      int r,
      double[] landmarkWeights,
      int k,
      double[] spectrum) {
    if (spectrum.length <= k && k < r) {
      throw new IllegalArgumentException(
          "the check needs eigenvalue k + 1 = " + (k + 1) + "; got " + spectrum.length);
    }
    double weighted = 0;
    for (int p = 0; p < r; p++) {
      for (int j = 0; j < m; j++) {
        double w = weights[j + p * m];
        weighted += columnVariances[j] * w * w;
      }
    }
    weighted = Math.sqrt(weighted);
    double[] weightedAlpha = new double[k];
    for (int i = 0; i < k; i++) {
      double t = 0;
      for (int j = 0; j < m; j++) {
        double a = landmarkWeights[j + i * m];
        t += columnVariances[j] * a * a;
      }
      weightedAlpha[i] = Math.sqrt(t);
    }
    double lambda1 = spectrum[0];
    double shift = 2 * eta * condition * lambda1;
    double next = k < r ? spectrum[k] : 0;
    double worstEigenvalue = 0;
    double worstScore = 0;
    double entryError =
        Math.sqrt(2) * eta; // √2: E is symmetric, E_jl and E_lj are one error, counted twice
    for (int i = 0; i < k; i++) {
      double rho = entryError * weighted * weightedAlpha[i];
      double sigma = entryError * weightedAlpha[i] * weightedAlpha[i];
      double gap = Double.POSITIVE_INFINITY;
      if (i > 0) {
        gap = spectrum[i - 1] - spectrum[i];
      }
      if (i + 1 < spectrum.length) {
        gap = Math.min(gap, spectrum[i] - spectrum[i + 1]);
      }
      gap -= shift;
      double variance = 0;
      if (k < r) {
        double tailGap = spectrum[i] - next - shift;
        variance += tailGap > 0 ? next * Math.pow(rho / tailGap, 2) : Double.POSITIVE_INFINITY;
      }
      for (int j = 0; j < k; j++) {
        if (j != i) {
          double coupling = entryError * weightedAlpha[j] * weightedAlpha[i];
          double pairGap = Math.abs(spectrum[i] - spectrum[j]) - shift;
          variance +=
              pairGap > 0
                  ? spectrum[j] * Math.pow(coupling / pairGap, 2)
                  : Double.POSITIVE_INFINITY;
        }
      }
      double eigenvalueError = gap > 0 ? sigma + rho * rho / gap : Double.POSITIVE_INFINITY;
      worstEigenvalue = Math.max(worstEigenvalue, eigenvalueError);
      worstScore = Math.max(worstScore, Math.sqrt(variance));
    }
    boolean passed =
        lambda1 > 0
            && worstEigenvalue <= TOLERANCE * lambda1
            && worstScore <= SCORE_TOLERANCE * Math.sqrt(lambda1);
    return new Check(worstEigenvalue, worstScore, passed);
  }
}
