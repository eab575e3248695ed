package io.github.sparkkpca.ml;

import io.github.sparkkpca.execution.DataScan;
import io.github.sparkkpca.execution.FeaturePasses;
import io.github.sparkkpca.execution.KernelPcaFit;
import io.github.sparkkpca.execution.SuppliedLandmarks;
import io.github.sparkkpca.execution.TopKFit;
import io.github.sparkkpca.feature.NystromFeatureMap;
import io.github.sparkkpca.feature.NystromWhitening;
import io.github.sparkkpca.feature.StatisticsRoute;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelDegeneracy;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.landmarks.LandmarkSampler;
import io.github.sparkkpca.landmarks.LandmarkSampling;
import io.github.sparkkpca.landmarks.ResidualGrowth;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.DriverThreads;
import io.github.sparkkpca.pca.FeaturePCA;
import io.github.sparkkpca.pca.KernelPCASolution;
import io.github.sparkkpca.pca.SpectrumExtent;
import java.util.Locale;

/**
 * The Nyström steps of {@link KernelPcaFit}: landmarks supplied, sampled or grown; the feature map
 * of K_mm; the statistics pass by the route {@link StatisticsRoute#plan} chooses (with the Gram
 * route's a-posteriori check when asked); linear PCA of the features.
 */
public final class NystromFit implements KernelPcaFit.Steps<NystromFit.Support, NystromFit.Result> {

  /**
   * The Nyström params of the stage.
   *
   * @param supplied landmarks given by the user, or null to choose them
   * @param numLandmarks m, or the most landmarks M when they are grown ({@code residual})
   */
  public record Options(
      SuppliedLandmarks supplied,
      LandmarkSampling selection,
      int numLandmarks,
      double leverageRegularization,
      int kmeansMaxIter,
      ResidualGrowth.Settings growth,
      double rcond,
      StatisticsRoute route,
      SpectrumExtent spectrum,
      TopKFit.Settings topK) {

    /** Landmarks grown until the data are explained, not a set number. */
    public boolean growsLandmarks() {
      return supplied == null && selection == LandmarkSampling.RESIDUAL;
    }

    /** m, or its maximum when m is chosen by residual growth. */
    public int requestedLandmarks() {
      return supplied != null ? supplied.count() : numLandmarks;
    }

    /** The parameter that sets m, for messages. */
    public String landmarksParam() {
      return supplied != null
          ? "the number of supplied landmarks m"
          : growsLandmarks() ? "maxLandmarks M" : "numLandmarks m";
    }
  }

  /**
   * The landmarks chosen, their kernel, their whitening W and the kernel's degeneracy on them
   * ("none", or the {@link KernelDegeneracy#message} of a kernel that is numerically the identity
   * or constant). {@code map} is today's dense feature map (W in one array), or null when the top-k
   * route took the factor that holds no m×m array ({@link NystromTopK}).
   */
  public record Support(
      LandmarkSampler.Landmarks chosen,
      LandmarkKernel landmarks,
      NystromFeatureMap map,
      NystromWhitening.Factor whitening,
      String kernelDegenerate) {

    /** Today's dense map and its W. */
    static Support dense(
        LandmarkSampler.Landmarks chosen, NystromFeatureMap map, String kernelDegenerate) {
      return new Support(
          chosen,
          map.landmarkKernel(),
          map,
          new NystromWhitening.Factor(
              NystromWhitening.of(map), map.conditionEstimate(), "dense (one m×m array)"),
          kernelDegenerate);
    }

    /** r, the rank W retains. */
    public int rank() {
      return whitening.w().rank();
    }
  }

  /**
   * The fit: linear PCA of the features (null for the top-k route, whose solution is {@code topK}),
   * its support, the route taken and why.
   */
  public record Result(
      FeaturePCA fitted,
      KernelPCASolution topK,
      Support support,
      Kernel kernel,
      StatisticsRoute route,
      String routeCheck) {

    public LandmarkSampler.Landmarks chosen() {
      return support.chosen();
    }

    public String kernelDegenerate() {
      return support.kernelDegenerate();
    }

    /** The model's solution, with the rank dropped and how the landmarks were chosen. */
    public KernelPCASolution solution(int droppedRank, String landmarkSelection) {
      return topK != null
          ? new KernelPCASolution(
              topK.projector(),
              topK.spectrum(),
              topK.totalVariance(),
              topK.totalVarianceMethod(),
              topK.numRows(),
              droppedRank,
              landmarkSelection,
              null)
          : KernelPCASolution.of(fitted, droppedRank, landmarkSelection);
    }
  }

  private final KernelPcaFit.Settings settings;
  private final Options options;

  public NystromFit(KernelPcaFit.Settings settings, Options options) {
    this.settings = settings;
    this.options = options;
  }

  @Override
  public void checkDimension(int d) {
    if (options.supplied() != null && options.supplied().dim() != d) {
      throw new IllegalArgumentException(
          "The supplied landmarks have size "
              + options.supplied().dim()
              + " but column '"
              + settings.column()
              + "' holds vectors of size "
              + d);
    }
  }

  @Override
  public boolean sparseKernelBlocks() {
    return settings.family().hasSparseForm();
  }

  @Override
  public KernelPcaFit.Need memoryBeforeScan(int d) {
    int m = options.requestedLandmarks();
    NystromTopK.refuseSamplingAboveTheArrayLimit(options);
    int l = Math.min(m, settings.k() + options.topK().oversampling());
    boolean auto =
        options.route() == StatisticsRoute.AUTO
            && options.spectrum() != SpectrumExtent.FULL
            && !options.growsLandmarks();
    return options.route() == StatisticsRoute.TOP_K || auto
        ? new KernelPcaFit.Need(m, options.landmarksParam(), 1, l, options.topK(), auto)
        : new KernelPcaFit.Need(m, options.landmarksParam());
  }

  /** Residual growth draws its own rows; the uniform sample then only serves the γ heuristic. */
  @Override
  public int sampleCapacity(boolean gammaSet) {
    int requested = options.requestedLandmarks();
    return options.supplied() != null
        ? 0
        : options.growsLandmarks()
            ? Math.min(requested, Kernel.MEDIAN_HEURISTIC_POINTS)
            : requested;
  }

  @Override
  public void checkRows(long n) {
    int requested = options.requestedLandmarks();
    if (options.supplied() == null && !options.growsLandmarks() && requested > n) {
      throw new IllegalArgumentException(
          "numLandmarks m = "
              + requested
              + " exceeds the number of rows n = "
              + n
              + "; use m <= n (m = n gives exact kernel PCA)");
    }
  }

  @Override
  public io.github.sparkkpca.linalg.RowSet gammaPoints(DataScan scan) {
    SuppliedLandmarks supplied = options.supplied();
    return supplied != null ? supplied.points() : KernelPcaFit.Steps.super.gammaPoints(scan);
  }

  @Override
  public Support support(KernelPcaFit.Context c) {
    Kernel kernel = c.kernel();
    int k = settings.k();
    int requested = options.requestedLandmarks();
    SuppliedLandmarks supplied = options.supplied();
    DataScan scan = c.scanned().scan();
    LandmarkSampler.Landmarks chosen =
        supplied != null
            ? new LandmarkSampler.Landmarks(
                supplied.points(), "supplied: " + supplied.count() + " landmarks")
            : LandmarkSampler.of(
                    options.selection(),
                    options.leverageRegularization(),
                    options.kmeansMaxIter(),
                    options.growth())
                .select(
                    new LandmarkSampler.Input(
                        c.dataset().sparkSession(),
                        c.scanned().vectors(),
                        scan,
                        kernel,
                        c.n(),
                        c.d(),
                        requested,
                        settings.seed(),
                        settings.column(),
                        width ->
                            settings.blockSizes().of(scan.sampleSize(), width, scan.sampleSize()),
                        settings.jobs()));
    if (chosen.count() < k) {
      throw new IllegalArgumentException(
          "k = " + k + " exceeds the number of landmarks obtained, " + chosen.description());
    }
    if (chosen.count() < requested && !options.growsLandmarks()) {
      settings
          .log()
          .warn(
              "{}: {} landmarks instead of the {} requested: {}",
              settings.stage(),
              chosen.count(),
              requested,
              chosen.description());
    }
    LandmarkKernel landmarkKernel = new LandmarkKernel(kernel, chosen.points());
    if (NystromTopK.largeFactorReason(options, c, landmarkKernel) != null) {
      return NystromTopK.support(settings, options, c, chosen, landmarkKernel);
    }
    double[] gram = landmarkKernel.gram();
    String degenerate = degeneracy(gram, chosen.count(), c);
    NystromFeatureMap map = NystromFeatureMap.fit(landmarkKernel, gram, options.rcond());
    settings
        .log()
        .info("{}: kernel-block path {}", settings.stage(), map.landmarkKernel().path().reason());
    return Support.dense(chosen, map, degenerate);
  }

  /** The degeneracy test on K_mm, its WARN line when degenerate. */
  static String degeneracy(double[] gram, int m, KernelPcaFit.Context c) {
    return c.degeneracy(gram, m, c.kernel(), "the m = " + m + " landmarks");
  }

  @Override
  public KernelPcaFit.Rank rank(Support support, KernelPcaFit.Context c) {
    int m = support.chosen().count();
    int r = support.rank();
    return new KernelPcaFit.Rank(
        r,
        "the landmark kernel matrix has numerical rank r = "
            + r
            + " (m = "
            + m
            + ", "
            + (m - r)
            + " dropped by rcond = "
            + options.rcond()
            + ")",
        "allows",
        "; lower k or raise m");
  }

  @Override
  public Result solve(Support support, KernelPcaFit.Context c) {
    if (support.map() == null) {
      return NystromTopK.fit(
          settings,
          options,
          support,
          c,
          NystromTopK.largeFactorReason(options, c, support.landmarks()));
    }
    NystromFeatureMap map = support.map();
    int m = support.chosen().count();
    int r = map.rank();
    int k = settings.k();
    long n = c.n();
    settings
        .log()
        .info(
            "{}: n = {}, d = {}, m = {}, rank r = {} ({} dropped), kernel = {}, BLAS = {}",
            settings.stage(),
            n,
            c.d(),
            m,
            r,
            m - r,
            c.kernel(),
            Blas.implementation());
    int block = c.blockSize(map);
    StatisticsRoute.Plan plan =
        options
            .route()
            .plan(
                map,
                n,
                new StatisticsRoute.Shape(
                    rowWidth(c),
                    k,
                    c.kernel().isPositiveDefinite(),
                    options.spectrum() == SpectrumExtent.FULL),
                block,
                c.sparkContext().defaultParallelism(),
                DriverThreads.count());
    settings
        .log()
        .info(
            "{}: statistics route {}{} ({} requested; cond(K_mm) ~ {}, Gram route bound {} "
                + "of lambda_1, tolerance {})",
            settings.stage(),
            plan.route().paramName(),
            plan.checked() ? " with the a-posteriori check" : "",
            options.route().paramName(),
            String.format("%.3g", map.conditionEstimate()),
            String.format("%.2g", StatisticsRoute.gramBound(map.conditionEstimate(), m, block, n)),
            StatisticsRoute.TOLERANCE);
    int numEigenvalues = options.spectrum().numEigenvalues(r, k);
    StatisticsRoute route = plan.route();
    String routeCheck = plan.reason();
    if (route == StatisticsRoute.TOP_K) {
      return NystromTopK.fit(settings, options, support, c, routeCheck);
    }
    FeaturePCA fitted = null;
    if (route == StatisticsRoute.GRAM) {
      var columns =
          FeaturePasses.statistics(
              c.scanned().vectors(),
              map.kernelColumns(),
              block,
              settings.column(),
              settings.jobs());
      double[] columnVariances = plan.checked() ? columns.variances() : null;
      // The check needs eigenvalue k + 1; the model keeps the extent asked for.
      int solved = plan.checked() && numEigenvalues == k && k < r ? k + 1 : numEigenvalues;
      fitted = FeaturePCA.solve(map, map.whiten(columns), k, settings.centered(), solved);
      if (plan.checked()) {
        StatisticsRoute.Check check =
            StatisticsRoute.check(
                StatisticsRoute.accumulationError(m, block, n),
                map.conditionEstimate(),
                columnVariances,
                map.weights(),
                m,
                r,
                map.toLandmarkWeights(fitted.components(), k),
                k,
                fitted.spectrum());
        routeCheck =
            String.format(
                Locale.ROOT,
                "a-posteriori check %s (eigenvalue error %.2g, RMS score error %.2g)",
                check.passed() ? "passed" : "failed: whitened pass",
                check.eigenvalueError(),
                check.scoreError());
        settings
            .log()
            .info(
                "{}: {}; allowed {} and {}",
                settings.stage(),
                routeCheck,
                String.format("%.2g", StatisticsRoute.TOLERANCE * fitted.spectrum()[0]),
                String.format(
                    "%.2g",
                    StatisticsRoute.SCORE_TOLERANCE
                        * Math.sqrt(Math.max(0, fitted.spectrum()[0]))));
        if (check.passed()) {
          fitted = fitted.withLeadingEigenvalues(numEigenvalues);
        } else {
          route = StatisticsRoute.WHITENED;
          fitted = null;
        }
      }
    }
    if (fitted == null) {
      fitted =
          FeaturePCA.solve(
              map,
              FeaturePasses.statistics(
                  c.scanned().vectors(), map, block, settings.column(), settings.jobs()),
              k,
              settings.centered(),
              numEigenvalues);
    }
    warnOnZeroVariance(fitted.spectrum());
    return new Result(fitted, null, support, c.kernel(), route, routeCheck);
  }

  /** d, or the mean stored entries per row when the kernel blocks take the sparse path. */
  static double rowWidth(KernelPcaFit.Context c) {
    DataScan scan = c.scanned().scan();
    return Math.max(1.0, Math.min(c.d(), (double) scan.storedEntries() / Math.max(1, c.n())));
  }

  /**
   * Warns when a kept component has (numerically) zero variance: k is larger than the data support.
   */
  private void warnOnZeroVariance(double[] spectrum) {
    int k = settings.k();
    for (int i = 1; i < k; i++) {
      if (!(spectrum[i] > options.rcond() * spectrum[0])) {
        settings
            .log()
            .warn(
                "{}: component {} of {} has (numerically) zero variance {}",
                settings.stage(),
                i + 1,
                k,
                spectrum[i]);
        break;
      }
    }
  }
}
