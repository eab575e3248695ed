package io.github.sparkkpca.feature;

import io.github.sparkkpca.kernel.LandmarkGramTiles;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.DenseWhitening;
import io.github.sparkkpca.linalg.DriverThreads;
import io.github.sparkkpca.linalg.PivotedCholesky;
import io.github.sparkkpca.linalg.TiledCholesky;
import io.github.sparkkpca.linalg.TiledSymmetricMatrix;
import io.github.sparkkpca.linalg.WhiteningFactor;
import java.util.Locale;

/**
 * The Nyström whitening W (W·Wᵀ = K_mm⁺ on the retained rank) as a {@link WhiteningFactor}, for any
 * m: up to {@link #DENSE_UP_TO} landmarks today's {@link NystromFeatureMap#fit} (the same W, bit
 * for bit), above it a factor that holds no m×m array:
 *
 * <ol>
 *   <li>a pivoted Cholesky from kernel columns ({@link PivotedCholesky}), stopped at rcond·max
 *       diag(K_mm), tried up to {@link #maxPivotedRank}(m) = min(m/8, 2048) columns (at most
 *       m·2048² memory-bound flops and 8·m·2048 bytes when it gives up): K_mm of numerical rank r ≪
 *       m costs O(m·r²) and W = L·V_r·Σ_r⁻¹ keeps today's rule (eigenvalues of LLᵀ above
 *       rcond·σ_1);
 *   <li>else K_mm in tiles ({@link LandmarkGramTiles}) and its tiled Cholesky factor, W = L⁻ᵀ
 *       (today's full-rank W): m³/3 flops, 8·m²/2 bytes. Full rank is checked by estimates: λ_max
 *       by power iteration (m² flops each) and λ_min by inverse iteration with the factor (2m²
 *       each, {@link #INVERSE_ITERATIONS}); the estimate of λ_min is from above, so the factor is
 *       kept only when λ_max/λ_min is below 0.01/rcond (a margin of 100 over today's threshold),
 *       and a K_mm that fails this, or whose factorisation meets a non-positive pivot, is refused
 *       in one line (its rank is neither low enough for the pivoted factor nor full: fewer
 *       landmarks or a larger rcond).
 * </ol>
 */
public final class NystromWhitening {

  /** The largest m whose K_mm fits one Java array (m² ≤ 2³¹ − 1): today's factorisation. */
  public static final int DENSE_UP_TO = 46_340;

  /** Power iterations at most for λ_max of the tiled K_mm. */
  private static final int POWER_ITERATIONS = 100;

  /** Inverse iterations for λ_min with the tiled factor (an estimate to a few per cent). */
  static final int INVERSE_ITERATIONS = 20;

  private NystromWhitening() {}

  /** The W of a fitted map (triangular or eigenbasis), held in its one array. */
  public static DenseWhitening of(NystromFeatureMap map) {
    return new DenseWhitening(
        map.weights(), map.landmarkKernel().numLandmarks(), map.rank(), map.isTriangular());
  }

  /**
   * A whitening factor and what the fit reports of it.
   *
   * @param w the factor
   * @param conditionEstimate cond(K_mm) on the retained rank: σ_1/σ_r of LᵀL for the pivoted
   *     factor, the power and inverse iteration estimates for the tiled one (from below: λ_min is
   *     estimated from above)
   * @param kind which factor and how long its steps took, in words, for the log and the model's
   *     route check
   */
  public record Factor(WhiteningFactor w, double conditionEstimate, String kind) {}

  /**
   * W for these landmarks: today's map up to {@code denseUpTo} landmarks, else the pivoted or tiled
   * factor (class comment), tiles of side {@code tile}.
   *
   * @throws IllegalArgumentException when K_mm is neither of low numerical rank nor
   *     well-conditioned enough to be proven full-rank by the estimates
   */
  public static WhiteningFactor of(
      LandmarkKernel kernel, double rcond, int denseUpTo, int tile, int threads) {
    if (kernel.numLandmarks() <= denseUpTo) {
      return of(NystromFeatureMap.fit(kernel, rcond));
    }
    return factor(kernel, rcond, tile, threads).w();
  }

  /**
   * The factor that holds no m×m array (class comment, items 1 and 2), at any m.
   *
   * @throws IllegalArgumentException when K_mm is neither of low numerical rank nor
   *     well-conditioned enough to be proven full-rank by the estimates
   */
  public static Factor factor(LandmarkKernel kernel, double rcond, int tile, int threads) {
    int m = kernel.numLandmarks();
    long start = System.nanoTime();
    PivotedCholesky.Factor pivoted =
        pivotingPaysOff(m, kernel.blockWidth())
            ? PivotedCholesky.factor(
                LandmarkGramTiles.columns(kernel), rcond, maxPivotedRank(m), threads)
            : null;
    if (pivoted != null) {
      PivotedCholesky.Whitening w = pivoted.whitening(rcond);
      return new Factor(
          w.w(),
          w.conditionEstimate(),
          String.format(
              Locale.ROOT,
              "pivoted Cholesky of rank %d (%d kept by rcond; %.1f s)",
              pivoted.rank(),
              w.w().rank(),
              seconds(start)));
    }
    double pivotedSeconds = seconds(start);
    long fillStart = System.nanoTime();
    TiledSymmetricMatrix gram = LandmarkGramTiles.gram(kernel, tile, threads);
    double fillSeconds = seconds(fillStart);
    long factorStart = System.nanoTime();
    double largest = gram.largestEigenvalue(POWER_ITERATIONS);
    TiledCholesky factor;
    try {
      factor = TiledCholesky.factor(gram, threads);
    } catch (TiledCholesky.NotPositiveDefinite e) {
      throw refused(
          m, rcond, "its Cholesky factorisation met a non-positive pivot at row " + e.pivot());
    }
    double smallest = smallestEigenvalueEstimate(factor);
    if (!(largest / smallest < 0.01 / rcond)) {
      throw refused(
          m, rcond, String.format("cond(K_mm) ≈ %.3g is not below 0.01/rcond", largest / smallest));
    }
    return new Factor(
        factor,
        largest / smallest,
        String.format(
            Locale.ROOT,
            "tiled Cholesky (tiles of %d; pivoted attempt %.1f s, K_mm %.1f s, factor and"
                + " condition %.1f s)",
            tile,
            pivotedSeconds,
            fillSeconds,
            seconds(factorStart)));
  }

  private static double seconds(long start) {
    return (System.nanoTime() - start) / 1e9;
  }

  /** {@link #of} with today's threshold, tiles of {@link TiledSymmetricMatrix#defaultTile()}. */
  public static WhiteningFactor of(LandmarkKernel kernel, double rcond) {
    return of(
        kernel, rcond, DENSE_UP_TO, TiledSymmetricMatrix.defaultTile(), DriverThreads.count());
  }

  /**
   * Whether the pivoted attempt is worth its cost when it fails: R = {@link #maxPivotedRank} pivots
   * cost about m·R·(d + R) memory-bound flops (a kernel column and a matrix-vector product each,
   * counted at a tenth of the tiled factor's BLAS-3 rate), tried when that is below a quarter of
   * the tiled factor's m³/3 or below 10⁹ (a second at most). At m = 50,000, d = 100 it is (2.2·10¹²
   * against 1.0·10¹³); at m = 16,000, d = 784 it is not (9·10¹¹ against 3.4·10¹¹).
   */
  static boolean pivotingPaysOff(long m, long d) {
    long r = maxPivotedRank((int) m);
    double attempt = (double) m * r * (d + r);
    return attempt <= 1e9 || 10 * attempt <= m * (double) m * m / 12;
  }

  /** The most pivots tried before the tiled factor: min(m/8, 2048), at least 1. */
  public static int maxPivotedRank(int m) {
    return Math.max(1, Math.min(m / 8, 2048));
  }

  /**
   * λ_min(K_mm) ≈ 1/‖W‖₂² by power iteration on W·Wᵀ = K_mm⁻¹ (a solve each way, 2m² flops) from a
   * fixed pseudo-random start: the Rayleigh quotient of K_mm⁻¹ approaches 1/λ_min from below, so
   * the estimate is from above.
   */
  static double smallestEigenvalueEstimate(WhiteningFactor w) {
    int m = w.landmarks();
    java.util.Random random = new java.util.Random(m);
    double[] x = new double[m];
    for (int i = 0; i < m; i++) {
      x[i] = random.nextGaussian();
    }
    double estimate = 0;
    for (int it = 0; it < INVERSE_ITERATIONS; it++) {
      double norm = io.github.sparkkpca.linalg.Blas.blas().dnrm2(m, x, 1);
      for (int i = 0; i < m; i++) {
        x[i] /= norm;
      }
      double[] y = w.transposeTimes(x, 1);
      double next = io.github.sparkkpca.linalg.Blas.blas().ddot(y.length, y, 1, y, 1);
      x = w.times(y, 1);
      boolean converged = Math.abs(next - estimate) <= 1e-3 * next;
      estimate = next;
      if (converged) {
        break;
      }
    }
    return 1.0 / estimate;
  }

  private static IllegalArgumentException refused(int m, double rcond, String why) {
    return new IllegalArgumentException(
        "K_mm of m = "
            + m
            + " landmarks has numerical rank above "
            + maxPivotedRank(m)
            + " (the pivoted factor's limit) and "
            + why
            + " (rcond = "
            + rcond
            + "; equal landmarks, or equal up to scale with cosine, make it singular): use fewer or"
            + " distinct landmarks, a larger rcond, or statisticsRoute = whitened (m <= 46340)");
  }
}
