package io.github.sparkkpca.ml;

import io.github.sparkkpca.execution.FitMemory;
import io.github.sparkkpca.execution.KernelPcaFit;
import io.github.sparkkpca.execution.TopKFit;
import io.github.sparkkpca.feature.NystromFeatureMap;
import io.github.sparkkpca.feature.NystromWhitening;
import io.github.sparkkpca.feature.StatisticsRoute;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.landmarks.LandmarkSampler;
import io.github.sparkkpca.linalg.DriverThreads;
import io.github.sparkkpca.pca.SpectrumExtent;

/**
 * The top-k route's steps of a Nyström fit ({@link TopKFit}): its refusals, and the whitening that
 * holds no m×m array ({@link NystromWhitening#factor}: a pivoted Cholesky when K_mm has numerical
 * rank r ≤ min(m/8, 2048), O(m·r²) flops and 8·m·r bytes; else K_mm in tiles and its tiled Cholesky
 * factor, m³/3 flops in 4m² bytes).
 *
 * <p>That factor is taken when {@code statisticsRoute = top-k} and m exceeds {@link
 * TopKFit.Settings#denseFactorUpTo} (4096 by default, the Spark setting {@link
 * TopKFit#DENSE_FACTOR_CONF}), and when {@code statisticsRoute = auto} and the m×m routes cannot
 * run: m above {@value FitMemory#MAX_LANDMARKS} (one Java array) or their memory beyond the
 * driver's heap or {@code spark.executor.memory} ({@link FitMemory#squareRoutesFit}). Otherwise the
 * top-k route whitens with today's dense map, so that it equals the whitened route's W bit for bit.
 */
final class NystromTopK {

  /** The landmarks of the leading block whose kernel matrix the degeneracy test reads. */
  static final int DEGENERACY_LANDMARKS = 2048;

  private NystromTopK() {}

  /**
   * Why this fit takes the factor with no m×m array, or null when it does not.
   *
   * @param landmarks the landmarks chosen and their kernel
   */
  static String largeFactorReason(
      NystromFit.Options options, KernelPcaFit.Context c, LandmarkKernel landmarks) {
    int m = landmarks.numLandmarks();
    if (options.route() == StatisticsRoute.TOP_K) {
      int limit = options.topK().denseFactorUpTo();
      return m > limit
          ? "top-k requested; m = " + m + " above " + TopKFit.DENSE_FACTOR_CONF + " = " + limit
          : null;
    }
    if (options.route() != StatisticsRoute.AUTO
        || options.spectrum() == SpectrumExtent.FULL
        || options.growsLandmarks()) {
      return null;
    }
    if (m > FitMemory.MAX_LANDMARKS) {
      return "auto: top-k, the only route for m = "
          + m
          + " above "
          + FitMemory.MAX_LANDMARKS
          + " (the m×m routes hold K_mm in one Java array)";
    }
    long rowBytes =
        landmarks.path().sparse()
            ? FitMemory.sparseRowBytes(c.scanned().scan().maxStoredEntries())
            : 8L * c.d();
    String why =
        FitMemory.squareRoutesFit(
            c.sparkContext(), m, rowBytes, c.blockSize(landmarks, m), options.landmarksParam());
    return why == null ? null : "auto: top-k, the m×m routes cannot run here (" + why + ")";
  }

  /**
   * Refuses, before any pass, a landmark sampler that needs an m×m array at m above {@value
   * FitMemory#MAX_LANDMARKS}: leverage sampling decomposes the kernel matrix of an m-row pilot
   * ({@link io.github.sparkkpca.landmarks.RidgeLeverageScores}). Uniform and k-means landmarks, and
   * supplied ones, hold m·d values; residual growth is bounded by maxLandmarks' own rule.
   */
  static void refuseSamplingAboveTheArrayLimit(NystromFit.Options options) {
    int m = options.requestedLandmarks();
    if (options.supplied() == null
        && options.selection() == io.github.sparkkpca.landmarks.LandmarkSampling.LEVERAGE
        && m > FitMemory.MAX_LANDMARKS) {
      throw new IllegalArgumentException(
          "landmarkSampling = leverage decomposes the m×m kernel matrix of an m-row pilot, which no"
              + " Java array holds at numLandmarks m = "
              + m
              + " (m <= 46340): use landmarkSampling = uniform or kmeans");
    }
  }

  /**
   * Refuses, before the factor and any pass, what the route cannot give: kernels that are not
   * positive definite, and the full spectrum.
   */
  static void refuseWhatItCannotGive(NystromFit.Options options, KernelPcaFit.Context c) {
    if (!c.kernel().isPositiveDefinite()) {
      throw new IllegalArgumentException(
          "statisticsRoute = top-k needs a positive definite kernel (its total variance is"
              + " (1/n) sum k(x,x) - ||mean||^2); kernel "
              + c.kernel()
              + " is not: use statisticsRoute = whitened");
    }
    if (options.spectrum() == SpectrumExtent.FULL) {
      throw new IllegalArgumentException(
          "statisticsRoute = top-k finds the k leading eigenvalues only; spectrum = full needs"
              + " statisticsRoute = whitened, gram or auto");
    }
  }

  /**
   * The support with the factor that holds no m×m array. The degeneracy test reads the kernel
   * matrix of the first {@value #DEGENERACY_LANDMARKS} landmarks (a uniform subset: the samplers
   * return landmarks in random order), m'²/2 kernel values.
   */
  static NystromFit.Support support(
      KernelPcaFit.Settings settings,
      NystromFit.Options options,
      KernelPcaFit.Context c,
      LandmarkSampler.Landmarks chosen,
      LandmarkKernel landmarks) {
    refuseWhatItCannotGive(options, c);
    int m = chosen.count();
    int leading = Math.min(m, DEGENERACY_LANDMARKS);
    String degenerate =
        leading == m
            ? NystromFit.degeneracy(landmarks.gram(), m, c)
            : c.degeneracy(
                new LandmarkKernel(c.kernel(), chosen.points().head(leading)).gram(),
                leading,
                c.kernel(),
                "the first " + leading + " of the m = " + m + " landmarks");
    long start = System.nanoTime();
    NystromWhitening.Factor factor;
    try {
      factor =
          NystromWhitening.factor(
              landmarks, options.rcond(), options.topK().tile(), DriverThreads.count());
    } catch (IllegalArgumentException refused) {
      // K_mm neither of low rank nor provably full rank (equal landmarks, say): today's dense map
      // decomposes it when its 3m² doubles fit the heap and the top-k route was asked for (auto
      // comes here because the m×m arrays do not fit).
      if (options.route() != StatisticsRoute.TOP_K
          || m > FitMemory.MAX_LANDMARKS
          || 24.0 * m * m > 0.8 * Runtime.getRuntime().maxMemory()) {
        throw refused;
      }
      settings
          .log()
          .warn(
              "{}: {}; whitening with the dense map instead (3 m×m arrays)",
              settings.stage(),
              refused.getMessage());
      NystromFeatureMap map = NystromFeatureMap.fit(landmarks, landmarks.gram(), options.rcond());
      return NystromFit.Support.dense(chosen, map, degenerate);
    }
    settings
        .log()
        .info(
            "{}: whitening of m = {} landmarks by {} in {} s (cond(K_mm) ~ {}); kernel-block path {}",
            settings.stage(),
            m,
            factor.kind(),
            String.format("%.1f", (System.nanoTime() - start) / 1e9),
            String.format("%.3g", factor.conditionEstimate()),
            landmarks.path().reason());
    return new NystromFit.Support(chosen, landmarks, null, factor, degenerate);
  }

  /** The route's fit, with why it was taken ({@code reason}) in the model's route check. */
  static NystromFit.Result fit(
      KernelPcaFit.Settings settings,
      NystromFit.Options options,
      NystromFit.Support support,
      KernelPcaFit.Context c,
      String reason) {
    refuseWhatItCannotGive(options, c);
    int m = support.chosen().count();
    TopKFit.Fitted fitted =
        TopKFit.fit(
            c.scanned().vectors(),
            support.landmarks(),
            support.whitening().w(),
            settings.k(),
            settings.centered(),
            options.topK(),
            settings.seed(),
            // Rows per block by the values a row of the pass keeps: its m kernel values and l panel
            // products (the m×m routes keep r features instead).
            c.blockSize(
                support.landmarks(),
                Math.min(support.rank(), settings.k() + options.topK().oversampling())),
            settings.column(),
            settings.jobs(),
            m - support.rank(),
            support.chosen().description());
    String routeCheck =
        reason + "; whitening " + support.whitening().kind() + "; " + fitted.report();
    settings.log().info("{}: {}", settings.stage(), routeCheck);
    return new NystromFit.Result(
        null, fitted.solution(), support, c.kernel(), StatisticsRoute.TOP_K, routeCheck);
  }
}
