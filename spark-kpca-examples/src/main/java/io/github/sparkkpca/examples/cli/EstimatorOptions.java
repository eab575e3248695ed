package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.feature.RandomFourierFeatureMap;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.landmarks.LandmarkSelection;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCA;
import java.util.Arrays;
import org.apache.spark.ml.Estimator;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The model options of {@code fit} and {@code stream} (a picocli mixin): k, the feature map (Nyström landmarks
 * or random Fourier features) and the kernel, checked before Spark starts and turned into the configured
 * estimator.
 */
public final class EstimatorOptions {

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(names = "--k", required = true, paramLabel = "K", description = "Number of principal components.")
  int k;

  @Option(names = "--landmarks", paramLabel = "M",
      description = "Number of Nyström landmarks m (k <= m <= n); with --feature-map nystrom, this or "
          + "--landmarks-from is required.")
  Integer landmarks;

  @Option(names = "--landmarks-from", paramLabel = "MODEL_DIR",
      description = "Use the landmarks and the kernel (gamma, degree, coef0) of a saved Nyström model instead of "
          + "sampling m landmarks: a fit on its rows and more equals that model updated with the more.")
  String landmarksFrom;

  @Option(names = "--feature-map", paramLabel = "MAP", defaultValue = "nystrom",
      description = "nystrom (landmarks: --landmarks) or rff (random Fourier features of the rbf or laplacian "
          + "kernel: --features or --feature-scale). Default: ${DEFAULT-VALUE}.")
  String featureMap;

  @Option(names = "--features", paramLabel = "D",
      description = "With --feature-map rff: the number of random Fourier features D >= k (default 1000).")
  Integer features;

  @Option(names = "--feature-scale", paramLabel = "C",
      description = "With --feature-map rff: D = ceil(C * sqrt(n) * ln(n)) for the n input rows, instead of "
          + "--features.")
  Double featureScale;

  @Option(names = "--kernel", paramLabel = "NAME", defaultValue = "rbf",
      description = "Kernel: rbf (gaussian), laplacian, polynomial (poly), linear, cosine, sigmoid. "
          + "Default: ${DEFAULT-VALUE}.")
  String kernel;

  @Option(names = "--gamma", paramLabel = "G",
      description = "Kernel scale gamma > 0. Default: rbf/laplacian the median heuristic over the landmarks, "
          + "polynomial/sigmoid 1/d.")
  Double gamma;

  @Option(names = "--degree", paramLabel = "P", description = "Polynomial degree (default 3).")
  Integer degree;

  @Option(names = "--coef0", paramLabel = "C", description = "Polynomial/sigmoid constant (default 1).")
  Double coef0;

  @Option(names = "--no-center", description = "Uncentred (second-moment) kernel PCA.")
  boolean noCenter;

  @Option(names = "--seed", paramLabel = "S", description = "Seed of the landmark sample (of the random "
      + "features with rff).")
  Long seed;

  @Option(names = "--landmark-sampling", paramLabel = "NAME", defaultValue = "uniform",
      description = "How the landmarks are chosen: uniform (m rows, no extra pass), leverage (m rows by "
          + "approximate ridge leverage scores, one extra pass) or kmeans (the centres of k-means with k = m, a "
          + "shuffle and --kmeans-max-iter passes). Default: ${DEFAULT-VALUE}.")
  String landmarkSampling;

  @Option(names = "--leverage-regularization", paramLabel = "L",
      description = "leverage: the ridge lambda of the leverage scores, relative to the mean k(x,x) (> 0; "
          + "smaller favours rarer directions). Default 1e-3.")
  Double leverageRegularization;

  @Option(names = "--kmeans-max-iter", paramLabel = "N",
      description = "kmeans: Lloyd iterations (>= 1). Default 20.")
  Integer kmeansMaxIter;

  boolean isRandomFeatures() {
    return featureMap.equals("rff");
  }

  /**
   * The estimator {@code --feature-map} asks for, configured; fails with the option's name on a bad value,
   * before Spark starts.
   */
  Estimator<? extends AbstractKernelPCAModel<?>> configuredEstimator() {
    SparkKpcaCli.require(spec, featureMap.equals("nystrom") || featureMap.equals("rff"),
        "--feature-map must be nystrom or rff, got '" + featureMap + "'");
    if (!isRandomFeatures()) {
      SparkKpcaCli.require(spec, features == null && featureScale == null, (features != null ? "--features"
          : "--feature-scale") + " applies to --feature-map rff; with nystrom use --landmarks");
      return estimator();
    }
    SparkKpcaCli.require(spec, landmarks == null, "--landmarks applies to --feature-map nystrom; with rff use "
        + "--features D or --feature-scale C");
    SparkKpcaCli.require(spec, landmarksFrom == null, "--landmarks-from applies to --feature-map nystrom");
    SparkKpcaCli.require(spec, landmarkSampling.equals("uniform") && leverageRegularization == null
        && kmeansMaxIter == null, "--landmark-sampling, --leverage-regularization and --kmeans-max-iter apply to "
        + "--feature-map nystrom; random features have no landmarks");
    SparkKpcaCli.require(spec, features == null || featureScale == null, "--features and --feature-scale are "
        + "alternatives; give one");
    SparkKpcaCli.require(spec, k >= 1, "--k must be >= 1, got " + k);
    SparkKpcaCli.require(spec, features == null || features >= 1, "--features must be >= 1, got " + features);
    SparkKpcaCli.require(spec, features == null || k <= features, "--k " + k + " exceeds --features " + features
        + "; k must be <= D");
    SparkKpcaCli.require(spec, featureScale == null || (featureScale > 0 && Double.isFinite(featureScale)),
        "--feature-scale must be finite and > 0, got " + featureScale);
    SparkKpcaCli.require(spec, gamma == null || (gamma > 0 && Double.isFinite(gamma)),
        "--gamma must be finite and > 0, got " + gamma);
    try {
      RandomFourierFeatureMap.requireSupported(KernelType.parse(kernel));
    } catch (IllegalArgumentException e) {
      throw SparkKpcaCli.usage(spec, "--kernel: " + e.getMessage());
    }
    RandomFeatureKernelPCA estimator = new RandomFeatureKernelPCA().setK(k).setKernel(kernel).setCentered(!noCenter);
    if (features != null) {
      estimator.setNumRandomFeatures(features);
    }
    if (featureScale != null) {
      estimator.setFeatureScale(featureScale);
    }
    if (gamma != null) {
      estimator.setGamma(gamma);
    }
    if (seed != null) {
      estimator.setSeed(seed);
    }
    return estimator;
  }

  /** Sets the landmarks and kernel of the {@code --landmarks-from} model, refusing a kernel that differs. */
  void useLandmarksOf(ManagedSession spark, NystromKernelPCA estimator) {
    TransformCommand.requireSavedModel(spark, landmarksFrom);
    AbstractKernelPCAModel<?> base = AbstractKernelPCAModel.loadAny(landmarksFrom);
    if (!base.hasLandmarks()) {
      throw SparkKpcaCli.usage(spec, "--landmarks-from " + landmarksFrom + " is a random feature model; it has no "
          + "landmarks");
    }
    if (base.fittedKernel().type() != KernelType.parse(kernel)) {
      throw SparkKpcaCli.usage(spec, "--landmarks-from " + landmarksFrom + " was fitted with the "
          + base.fittedKernel().type().paramName() + " kernel, not --kernel " + kernel);
    }
    if (k > base.numSupportPoints()) {
      throw SparkKpcaCli.usage(spec, "--k " + k + " exceeds the " + base.numSupportPoints() + " landmarks of "
          + landmarksFrom);
    }
    estimator.setLandmarksFrom(base);
    landmarks = base.numSupportPoints();
  }

  /** The configured Nyström estimator; fails with the option's name on a bad value, before Spark starts. */
  NystromKernelPCA estimator() {
    SparkKpcaCli.require(spec, k >= 1, "--k must be >= 1, got " + k);
    SparkKpcaCli.require(spec, landmarks != null || landmarksFrom != null,
        "--landmarks M is required with --feature-map nystrom (or --landmarks-from MODEL_DIR)");
    SparkKpcaCli.require(spec, landmarks == null || landmarksFrom == null,
        "--landmarks and --landmarks-from are alternatives; give one");
    SparkKpcaCli.require(spec, landmarksFrom == null || (gamma == null && degree == null && coef0 == null
        && landmarkSampling.equals("uniform")), "--landmarks-from takes the kernel and landmarks of the model; "
        + "--gamma, --degree, --coef0 and --landmark-sampling cannot be combined with it");
    SparkKpcaCli.require(spec, landmarks == null || landmarks >= 1, "--landmarks must be >= 1, got " + landmarks);
    SparkKpcaCli.require(spec, landmarks == null || k <= landmarks, "--k " + k + " exceeds --landmarks " + landmarks
        + "; k must be <= m");
    SparkKpcaCli.require(spec, gamma == null || (gamma > 0 && Double.isFinite(gamma)),
        "--gamma must be finite and > 0, got " + gamma);
    SparkKpcaCli.require(spec, degree == null || degree >= 1, "--degree must be >= 1, got " + degree);
    SparkKpcaCli.require(spec, coef0 == null || Double.isFinite(coef0), "--coef0 must be finite, got " + coef0);
    try {
      KernelType.parse(kernel);
    } catch (IllegalArgumentException e) {
      throw SparkKpcaCli.usage(spec, "--kernel: " + e.getMessage());
    }
    LandmarkSelection sampling = Arrays.stream(LandmarkSelection.values())
        .filter(s -> s.paramName().equalsIgnoreCase(landmarkSampling.trim())).findFirst()
        .orElseThrow(() -> SparkKpcaCli.usage(spec, "--landmark-sampling: expected one of "
            + String.join(", ", LandmarkSelection.NAMES) + ", got '" + landmarkSampling + "'"));
    SparkKpcaCli.require(spec, leverageRegularization == null || sampling == LandmarkSelection.LEVERAGE,
        "--leverage-regularization applies to --landmark-sampling leverage only");
    SparkKpcaCli.require(spec, leverageRegularization == null
        || (leverageRegularization > 0 && Double.isFinite(leverageRegularization)),
        "--leverage-regularization must be finite and > 0, got " + leverageRegularization);
    SparkKpcaCli.require(spec, kmeansMaxIter == null || sampling == LandmarkSelection.KMEANS,
        "--kmeans-max-iter applies to --landmark-sampling kmeans only");
    SparkKpcaCli.require(spec, kmeansMaxIter == null || kmeansMaxIter >= 1,
        "--kmeans-max-iter must be >= 1, got " + kmeansMaxIter);
    NystromKernelPCA estimator = new NystromKernelPCA().setK(k).setKernel(kernel).setCentered(!noCenter)
        .setLandmarkSampling(sampling.paramName());
    if (landmarks != null) {
      estimator.setNumLandmarks(landmarks);
    }
    if (leverageRegularization != null) {
      estimator.setLeverageRegularization(leverageRegularization);
    }
    if (kmeansMaxIter != null) {
      estimator.setKmeansMaxIter(kmeansMaxIter);
    }
    if (gamma != null) {
      estimator.setGamma(gamma);
    }
    if (degree != null) {
      estimator.setDegree(degree);
    }
    if (coef0 != null) {
      estimator.setCoef0(coef0);
    }
    if (seed != null) {
      estimator.setSeed(seed);
    }
    return estimator;
  }
}
