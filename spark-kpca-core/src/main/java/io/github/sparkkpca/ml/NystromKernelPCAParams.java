package io.github.sparkkpca.ml;

import io.github.sparkkpca.landmarks.LandmarkSampling;
import java.io.Serializable;
import org.apache.spark.ml.param.DoubleArrayParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.Params;

/**
 * Parameters of {@link NystromKernelPCA} and {@link NystromKernelPCAModel}, beyond the shared ones.
 */
public interface NystromKernelPCAParams extends FeaturePCAParams {

  /** The Param objects of one stage instance. */
  final class Definitions implements Serializable {
    final IntParam numLandmarks;
    final Param<String> landmarkSampling;
    final LongParam seed;
    final DoubleParam rcond;
    final DoubleParam leverageRegularization;
    final IntParam kmeansMaxIter;
    final DoubleParam landmarkTolerance;
    final IntParam maxLandmarks;
    final IntParam landmarkProbeSize;
    final Param<String> landmarkTest;
    final DoubleParam landmarkAlpha;
    final DoubleArrayParam landmarkResidualCurve;
    final Param<String> statisticsRoute;
    final Param<String> statisticsRouteTaken;
    final Param<String> statisticsRouteCheck;
    final DoubleParam topKTolerance;
    final IntParam topKMaxPasses;
    final DoubleParam landmarkConditionEstimate;
    final Param<String> kernelBlockPath;
    final Param<String> kernelDegenerate;

    Definitions(Params owner) {
      numLandmarks =
          new IntParam(
              owner,
              "numLandmarks",
              "m, the number of landmarks (Nyström centres) "
                  + "sampled from the data (> 0, <= number of rows); ignored when landmarks are supplied",
              ParamRule.landmarkCount("numLandmarks").of());
      landmarkSampling =
          new Param<>(
              owner,
              "landmarkSampling",
              "how landmarks are chosen: uniform = "
                  + "exactly m rows uniformly without replacement (no extra pass); leverage = m rows sampled without "
                  + "replacement proportionally to approximate ridge leverage scores from a uniform pilot (one extra "
                  + "pass); kmeans = the m centres of Spark ML KMeans, k-means|| init (a shuffle + kmeansMaxIter "
                  + "passes); residual = m chosen automatically: rows in a seeded random order are admitted while their "
                  + "feature-space residual k(x,x) - u'K_mm^-1 u is large, until held-out probe rows are explained "
                  + "(landmarkTolerance or landmarkTest = f) or maxLandmarks (Hallgren 2021, sec. 3.4; numLandmarks is "
                  + "ignored). All are reproducible for a seed and independent of the partitioning",
              ParamRule.oneOf("landmarkSampling", LandmarkSampling.NAMES).of());
      seed = new LongParam(owner, "seed", "random seed of every random choice of the fit");
      rcond =
          new DoubleParam(
              owner,
              "rcond",
              "relative eigenvalue cut-off: eigenvalues of K_mm at or below "
                  + "rcond * lambda_max are dropped (rank thresholding) instead of inverted",
              ParamRule.inRange("rcond", 0.0, 1.0, true, false).of());
      leverageRegularization =
          new DoubleParam(
              owner,
              "leverageRegularization",
              "ridge lambda of the ridge "
                  + "leverage scores l_i = [K(K + n*lambda*I)^-1]_ii used by landmarkSampling = leverage, relative to "
                  + "the mean k(x,x) (> 0); smaller lambda favours rarer directions",
              ParamRule.finiteGt("leverageRegularization", 0.0).of());
      kmeansMaxIter =
          new IntParam(
              owner,
              "kmeansMaxIter",
              "Lloyd iterations of landmarkSampling = kmeans " + "(>= 1)",
              ParamRule.intGtEq("kmeansMaxIter", 1).of());
      landmarkTolerance =
          new DoubleParam(
              owner,
              "landmarkTolerance",
              "tau of landmarkSampling = residual: "
                  + "growth stops when the mean residual k(x,x) - u'K_mm^-1 u of the held-out probe rows is <= tau times "
                  + "their mean k(x,x), and only rows whose residual exceeds that level are admitted (in (0, 1))",
              ParamRule.inRange("landmarkTolerance", 0.0, 1.0, false, false).of());
      maxLandmarks =
          new IntParam(
              owner,
              "maxLandmarks",
              "M, the most landmarks landmarkSampling = residual " + "admits (>= 1)",
              ParamRule.supportSize("maxLandmarks").of());
      landmarkProbeSize =
          new IntParam(
              owner,
              "landmarkProbeSize",
              "P, the held-out probe rows of "
                  + "landmarkSampling = residual (the first P of the seeded order, at most a quarter of the rows; never "
                  + "landmarks) whose mean residual "
                  + "decides when to stop; the F-test splits them into two halves of P/2 (>= 2)",
              ParamRule.intGtEq("landmarkProbeSize", 2).of());
      landmarkTest =
          new Param<>(
              owner,
              "landmarkTest",
              "stopping rule of landmarkSampling = residual: "
                  + "tolerance = mean probe residual <= landmarkTolerance x mean k(x,x); f = EXPERIMENTAL F-test of "
                  + "Hallgren (2021) ch. 4 (stop when F = sum of probe residuals of one half with m landmarks over that "
                  + "of the other half with m + 1 does not exceed the 1 - landmarkAlpha quantile of F(N(n-m), N(n-m)); "
                  + "derived under Gaussian noise, not evaluated by the thesis, no correction for repeated testing)",
              ParamRule.oneOf(
                      "landmarkTest", io.github.sparkkpca.landmarks.ResidualGrowth.Test.NAMES)
                  .of());
      landmarkAlpha =
          new DoubleParam(
              owner,
              "landmarkAlpha",
              "level alpha of the F-test of landmarkTest = f " + "(in (0, 1))",
              ParamRule.inRange("landmarkAlpha", 0.0, 1.0, false, false).of());
      landmarkResidualCurve =
          new DoubleArrayParam(
              owner,
              "landmarkResidualCurve",
              "set by a fit with "
                  + "landmarkSampling = residual (an output, ignored as an input): the mean residual of the held-out "
                  + "probe rows relative to their mean k(x,x) after each of the m landmarks was admitted");
      statisticsRoute =
          new Param<>(
              owner,
              "statisticsRoute",
              "how the statistics pass forms the feature "
                  + "covariance C = W'SW (S the covariance of the kernel columns k_x, W the whitening of K_mm): whitened = "
                  + "each row whitened on the executors, phi = W'k_x, and the scatter of phi accumulated (2md + 2m^2 flops "
                  + "per row; rounding error ~ u*sqrt(cond K_mm)); gram = the centred scatter of k_x accumulated and "
                  + "whitened once on the driver (2md + m^2 flops per row, the minimal work; rounding error ~ u*cond K_mm); "
                  + "gram-checked = gram, then an a-posteriori check of the solved components (estimated eigenvalue error "
                  + "<= 5e-12 of lambda_1, RMS score error <= 1e-8 of sqrt(lambda_1)) and a whitened pass when it fails; "
                  + "auto = whitened when the Gram route's driver work (4m^3/3 flops) exceeds its saving on the executors "
                  + "(n/slots < 4m/(3 driver threads)), else gram when its eigenvalue error bound eta*cond(K_mm) is <= 5e-12 "
                  + "of lambda_1, else gram-checked when that bound is within 10 times 5e-12, else whitened "
                  + "(docs/gram-route.md); top-k = no m x m statistic: the k leading eigenpairs by block Krylov, each "
                  + "product one pass of 2md + 4ml flops per row (l = k + 10) until every residual is <= topKTolerance "
                  + "of lambda_1 (positive definite kernels; its model keeps k eigenvalues and cannot be updated), which "
                  + "auto takes for m >= 4096 when its cost model says it is cheaper. Updates always whiten their rows",
              ParamRule.oneOf("statisticsRoute", io.github.sparkkpca.feature.StatisticsRoute.NAMES)
                  .of());
      topKTolerance =
          new DoubleParam(
              owner,
              "topKTolerance",
              "statisticsRoute = top-k: the passes stop when every one of the k leading Ritz pairs has a "
                  + "residual ||C u - theta u|| <= topKTolerance * theta_1 (eigenvalue error <= residual^2 / gap); "
                  + "in (0, 1)",
              ParamRule.inRange("topKTolerance", 0.0, 1.0, false, false).of());
      topKMaxPasses =
          new IntParam(
              owner,
              "topKMaxPasses",
              "statisticsRoute = top-k: the most passes over the data; a fit that has not met "
                  + "topKTolerance by then fails, naming the residual (>= 1)",
              ParamRule.intGtEq("topKMaxPasses", 1).of());
      statisticsRouteTaken =
          new Param<>(
              owner,
              "statisticsRouteTaken",
              "set by a fit (an output, ignored as "
                  + "an input): the statistics route the fit took, whitened or gram");
      statisticsRouteCheck =
          new Param<>(
              owner,
              "statisticsRouteCheck",
              "set by a fit (an output, ignored as "
                  + "an input): why the route was taken: requested, cost, a-priori bound, or the a-posteriori check's "
                  + "outcome with its estimates");
      kernelBlockPath =
          new Param<>(
              owner,
              "kernelBlockPath",
              "set by a fit (an output, ignored as an input): how kernel blocks are computed and "
                  + "why: 'dense: …' (rows scattered, one GEMM against dense landmarks, 2·m·d flops "
                  + "per row) or 'sparse: …' (rows and landmarks by their non-zeros, at most "
                  + "2·m·nnz(x) flops per row), with the landmark density the rule measured");
      kernelDegenerate =
          new Param<>(
              owner,
              "kernelDegenerate",
              "set by a fit (an output, ignored as an input): 'none', or 'identity: …' or "
                  + "'constant: …' when the kernel is numerically the identity or a constant on the "
                  + "landmarks (gamma far from the data's scale), with what the fit shows and what "
                  + "to do (the fit's WARN line)");
      landmarkConditionEstimate =
          new DoubleParam(
              owner,
              "landmarkConditionEstimate",
              "set by a fit (an output, "
                  + "ignored as an input): cond(K_mm) = lambda_1/lambda_r over the retained spectrum of the landmark kernel "
                  + "matrix, exact when K_mm was eigendecomposed (rank-deficient), else a power-iteration estimate");
    }
  }

  /** This stage's Nyström Param objects. */
  Definitions nystromParams();

  /** m, the number of landmarks; default 100. */
  default IntParam numLandmarks() {
    return nystromParams().numLandmarks;
  }

  /** Landmark strategy; default {@code uniform}. */
  default Param<String> landmarkSampling() {
    return nystromParams().landmarkSampling;
  }

  /** Seed; default a hash of the class name, as Spark's {@code HasSeed}. */
  default LongParam seed() {
    return nystromParams().seed;
  }

  /** Rank cut-off; default 1e-12. */
  default DoubleParam rcond() {
    return nystromParams().rcond;
  }

  /** λ of leverage sampling, relative to mean k(x,x); default 1e-3. */
  default DoubleParam leverageRegularization() {
    return nystromParams().leverageRegularization;
  }

  /** Iterations of k-means landmark selection; default 20. */
  default IntParam kmeansMaxIter() {
    return nystromParams().kmeansMaxIter;
  }

  /** τ of residual growth; default 0.01. */
  default DoubleParam landmarkTolerance() {
    return nystromParams().landmarkTolerance;
  }

  /** M, the most landmarks residual growth admits; default 1000. */
  default IntParam maxLandmarks() {
    return nystromParams().maxLandmarks;
  }

  /** P, the held-out probe rows of residual growth; default 256. */
  default IntParam landmarkProbeSize() {
    return nystromParams().landmarkProbeSize;
  }

  /** Stopping rule of residual growth, tolerance or f (experimental); default tolerance. */
  default Param<String> landmarkTest() {
    return nystromParams().landmarkTest;
  }

  /** Level of the F-test; default 0.05. */
  default DoubleParam landmarkAlpha() {
    return nystromParams().landmarkAlpha;
  }

  /**
   * Output of residual growth: the relative mean probe residual after each landmark; unset
   * otherwise.
   */
  default DoubleArrayParam landmarkResidualCurve() {
    return nystromParams().landmarkResidualCurve;
  }

  /**
   * For landmarks chosen by residual growth: the mean residual of the held-out probe rows relative
   * to their mean k(x,x) after each landmark was admitted (entry j − 1 for j landmarks; m entries);
   * null otherwise.
   */
  default double[] getLandmarkResidualCurve() {
    return isDefined(landmarkResidualCurve())
        ? getOrDefault(landmarkResidualCurve()).clone()
        : null;
  }

  /** How the statistics pass forms the covariance: auto, whitened, gram, gram-checked or top-k. */
  default Param<String> statisticsRoute() {
    return nystromParams().statisticsRoute;
  }

  default io.github.sparkkpca.feature.StatisticsRoute getStatisticsRoute() {
    return io.github.sparkkpca.feature.StatisticsRoute.parse(getOrDefault(statisticsRoute()));
  }

  default DoubleParam topKTolerance() {
    return nystromParams().topKTolerance;
  }

  default double getTopKTolerance() {
    return (Double) getOrDefault(topKTolerance());
  }

  default IntParam topKMaxPasses() {
    return nystromParams().topKMaxPasses;
  }

  default int getTopKMaxPasses() {
    return (Integer) getOrDefault(topKMaxPasses());
  }

  /** Output of a fit: the statistics route taken, whitened, gram or top-k. */
  default Param<String> statisticsRouteTaken() {
    return nystromParams().statisticsRouteTaken;
  }

  /** The statistics route the fit took; null when unknown (older models). */
  default String getStatisticsRouteTaken() {
    return isDefined(statisticsRouteTaken()) ? getOrDefault(statisticsRouteTaken()) : null;
  }

  /** Output of a fit: the kernel-block path, sparse or dense, and why. */
  default Param<String> kernelBlockPath() {
    return nystromParams().kernelBlockPath;
  }

  /**
   * How the fit computed kernel blocks and why ({@code sparse: …} or {@code dense: …}, see {@link
   * io.github.sparkkpca.kernel.KernelBlockPath}); null when unknown (older models). A loaded model
   * takes the same path: the rule reads only the kernel and the landmarks.
   */
  default String getKernelBlockPath() {
    return isDefined(kernelBlockPath()) ? getOrDefault(kernelBlockPath()) : null;
  }

  /** Output of a fit: whether the kernel is degenerate on the landmarks, and what to do. */
  default Param<String> kernelDegenerate() {
    return nystromParams().kernelDegenerate;
  }

  /**
   * {@code none}, or {@code identity: …} / {@code constant: …} with the fit's warning ({@link
   * io.github.sparkkpca.kernel.KernelDegeneracy}); null when unknown (older models).
   */
  default String getKernelDegenerate() {
    return isDefined(kernelDegenerate()) ? getOrDefault(kernelDegenerate()) : null;
  }

  /** Output of a fit: why the statistics route was taken. */
  default Param<String> statisticsRouteCheck() {
    return nystromParams().statisticsRouteCheck;
  }

  /**
   * Why the fit took its statistics route: {@code requested}, {@code cost: …}, {@code a-priori
   * bound}, or the a-posteriori check's outcome with its estimates; null when unknown (older
   * models).
   */
  default String getStatisticsRouteCheck() {
    return isDefined(statisticsRouteCheck()) ? getOrDefault(statisticsRouteCheck()) : null;
  }

  /** Output of a fit: cond(K_mm) over the retained spectrum. */
  default DoubleParam landmarkConditionEstimate() {
    return nystromParams().landmarkConditionEstimate;
  }

  /**
   * cond(K_mm) = λ_1/λ_r over the retained spectrum, as the fit found it; NaN when unknown (older
   * models).
   */
  default double getLandmarkConditionEstimate() {
    return isDefined(landmarkConditionEstimate())
        ? (Double) getOrDefault(landmarkConditionEstimate())
        : Double.NaN;
  }

  default double getLandmarkTolerance() {
    return (Double) getOrDefault(landmarkTolerance());
  }

  default int getMaxLandmarks() {
    return (Integer) getOrDefault(maxLandmarks());
  }

  default int getLandmarkProbeSize() {
    return (Integer) getOrDefault(landmarkProbeSize());
  }

  default String getLandmarkTest() {
    return getOrDefault(landmarkTest());
  }

  default double getLandmarkAlpha() {
    return (Double) getOrDefault(landmarkAlpha());
  }

  /** The settings of residual growth these params give. */
  default io.github.sparkkpca.landmarks.ResidualGrowth.Settings residualGrowthSettings() {
    return new io.github.sparkkpca.landmarks.ResidualGrowth.Settings(
        getLandmarkTolerance(),
        getMaxLandmarks(),
        getLandmarkProbeSize(),
        io.github.sparkkpca.landmarks.ResidualGrowth.Test.parse(getLandmarkTest()),
        getLandmarkAlpha());
  }

  default double getLeverageRegularization() {
    return (Double) getOrDefault(leverageRegularization());
  }

  default int getKmeansMaxIter() {
    return (Integer) getOrDefault(kmeansMaxIter());
  }

  default LandmarkSampling getLandmarkSelection() {
    return LandmarkSampling.parse(getLandmarkSampling());
  }

  default int getNumLandmarks() {
    return (Integer) getOrDefault(numLandmarks());
  }

  default String getLandmarkSampling() {
    return getOrDefault(landmarkSampling());
  }

  default long getSeed() {
    return (Long) getOrDefault(seed());
  }

  default double getRcond() {
    return (Double) getOrDefault(rcond());
  }

  static void setDefaults(NystromKernelPCAParams owner) {
    FeaturePCAParams.setDefaults(owner);
    owner.setDefault(owner.numLandmarks(), 100);
    owner.setDefault(owner.landmarkSampling(), "uniform");
    owner.setDefault(owner.seed(), (long) NystromKernelPCA.class.getName().hashCode());
    owner.setDefault(owner.rcond(), 1e-12);
    owner.setDefault(owner.leverageRegularization(), 1e-3);
    owner.setDefault(owner.kmeansMaxIter(), 20);
    owner.setDefault(owner.landmarkTolerance(), 0.01);
    owner.setDefault(owner.maxLandmarks(), 1000);
    owner.setDefault(owner.landmarkProbeSize(), 256);
    owner.setDefault(owner.landmarkTest(), "tolerance");
    owner.setDefault(owner.landmarkAlpha(), 0.05);
    owner.setDefault(owner.statisticsRoute(), "auto");
    owner.setDefault(owner.topKTolerance(), 1e-6);
    owner.setDefault(owner.topKMaxPasses(), 40);
  }
}
