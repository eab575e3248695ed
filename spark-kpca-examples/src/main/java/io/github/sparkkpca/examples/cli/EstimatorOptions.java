package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.evaluation.NystromConfidenceBound;
import io.github.sparkkpca.execution.FitMemory;
import io.github.sparkkpca.execution.TopKFit;
import io.github.sparkkpca.feature.RandomFourierFeatureMap;
import io.github.sparkkpca.feature.StatisticsRoute;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.landmarks.LandmarkSampling;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCA;
import io.github.sparkkpca.pca.SpectrumExtent;
import io.github.sparkkpca.persistence.ModelKind;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.spark.ml.Estimator;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The model options of {@code fit} and {@code stream} (a picocli mixin): k, the feature map
 * (Nyström landmarks or random Fourier features) and the kernel, checked before Spark starts and
 * turned into the configured estimator.
 */
public final class EstimatorOptions {

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(
      names = "--k",
      required = true,
      paramLabel = "K",
      description = "Number of principal components.")
  int k;

  @Option(
      names = "--landmarks",
      paramLabel = "M|auto",
      description =
          "Number of Nyström landmarks m (k <= m <= n), or auto: grow the landmarks over a seeded random "
              + "order of the rows until held-out probe rows are explained (--landmark-tolerance, --landmark-test, "
              + "--max-landmarks). With --feature-map nystrom, this, --landmarks-from or --landmarks-file is required.")
  String landmarksText;

  /** m when given as a number (or taken from --landmarks-from / --landmarks-file). */
  Integer landmarks;

  /** --landmarks auto. */
  boolean autoLandmarks;

  @Mixin LandmarkGrowthOptions growth;

  @Option(
      names = "--landmarks-from",
      paramLabel = "MODEL_DIR",
      description =
          "Use the landmarks and the kernel (gamma, degree, coef0) of a saved Nyström model (or a stream "
              + "directory's newest version) instead of "
              + "sampling m landmarks: a fit on its rows and more equals that model updated with the more.")
  String landmarksFrom;

  @Option(
      names = "--landmarks-file",
      paramLabel = "FILE.csv",
      description =
          "Use the landmarks in this local CSV file (headerless, one landmark per line, the input's "
              + "dimension) instead of sampling them.")
  Path landmarksFile;

  @Option(
      names = "--confidence",
      paramLabel = "C",
      description =
          "Add to the summary Theorem 4's bound (Hallgren 2021) on the excess reconstruction error over "
              + "exact kernel PCA for d = 1..k, holding with this probability in (0, 1), e.g. 0.9. Needs --no-center, a "
              + "bounded kernel (rbf, laplacian, cosine) and landmarks sampled from the rows (uniform or leverage).")
  Double confidence;

  @Option(
      names = "--feature-map",
      paramLabel = "MAP",
      defaultValue = "nystrom",
      description =
          "nystrom (landmarks: --landmarks) or rff (random Fourier features of the rbf or laplacian "
              + "kernel: --features or --feature-scale). Default: ${DEFAULT-VALUE}.")
  String featureMap;

  @Option(
      names = "--features",
      paramLabel = "D",
      description =
          "With --feature-map rff: the number of random Fourier features D >= k (default 1000).")
  Integer features;

  @Option(
      names = "--feature-scale",
      paramLabel = "C",
      description =
          "With --feature-map rff: D = ceil(C * sqrt(n) * ln(n)) for the n input rows, instead of "
              + "--features.")
  Double featureScale;

  @Mixin KernelOptions kernelOptions;

  @Option(names = "--no-center", description = "Uncentred (second-moment) kernel PCA.")
  boolean noCenter;

  @Option(
      names = "--seed",
      paramLabel = "S",
      description = "Seed of the landmark sample (of the random " + "features with rff).")
  Long seed;

  @Option(
      names = "--landmark-sampling",
      paramLabel = "NAME",
      defaultValue = "uniform",
      description =
          "How the landmarks are chosen: uniform (m rows, no extra pass), leverage (m rows by "
              + "approximate ridge leverage scores, one extra pass) or kmeans (the centres of k-means with k = m, a "
              + "shuffle and --kmeans-max-iter passes). Default: ${DEFAULT-VALUE}.")
  String landmarkSampling;

  @Option(
      names = "--leverage-regularization",
      paramLabel = "L",
      description =
          "leverage: the ridge lambda of the leverage scores, relative to the mean k(x,x) (> 0; "
              + "smaller favours rarer directions). Default 1e-3.")
  Double leverageRegularization;

  @Option(
      names = "--kmeans-max-iter",
      paramLabel = "N",
      description = "kmeans: Lloyd iterations (>= 1). Default 20.")
  Integer kmeansMaxIter;

  @Option(
      names = "--spectrum",
      paramLabel = "EXTENT",
      defaultValue = "leading",
      description =
          "How much of the covariance spectrum to compute: leading (the min(r, max(k, 50)) leading "
              + "eigenvalues by block Krylov iteration; the total variance from the trace) or full (all r, for "
              + "scree plots and errors beyond them; the dense solver, 4r^3/3 flops). Default: ${DEFAULT-VALUE}.")
  String spectrum;

  @Option(
      names = "--statistics-route",
      paramLabel = "ROUTE",
      description =
          "nystrom: how the statistics pass forms the feature covariance: whitened (each row whitened, "
              + "phi = W'k_x, 2md + 2m^2 flops per row), gram (the scatter of k_x accumulated and whitened once on the "
              + "driver, 2md + m^2 flops per row, rounding error ~ cond(K_mm)), gram-checked (gram, then an "
              + "a-posteriori check of the components' estimated errors and a whitened pass if it fails) or auto "
              + "(gram when it pays off on this cluster and its a-priori error bound stays within 5e-12 of lambda_1, "
              + "gram-checked when the bound is within 10 times that, else whitened; see docs/gram-route.md), or "
              + "top-k (no m x m statistic: the k leading pairs by block Krylov, passes of 2md + 4ml flops per row "
              + "until every residual is <= --top-k-tolerance of lambda_1; see docs/gram-route.md). Default auto.")
  String statisticsRoute;

  @Option(
      names = "--top-k-tolerance",
      paramLabel = "T",
      description =
          "With --statistics-route top-k: stop when every residual ||C u - theta u|| is <= T x theta_1, in"
              + " (0, 1). Default 1e-6.")
  Double topKTolerance;

  @Option(
      names = "--top-k-max-passes",
      paramLabel = "P",
      description =
          "With --statistics-route top-k: the most passes; a fit that has not met the tolerance by then"
              + " fails (exit 1), naming its residual. Default 40.")
  Integer topKMaxPasses;

  boolean isRandomFeatures() {
    return featureMap.equals("rff");
  }

  /**
   * The estimator {@code --feature-map} asks for, configured; fails with the option's name on a bad
   * value, before Spark starts.
   */
  Estimator<? extends AbstractKernelPCAModel<?>> configuredEstimator() {
    SparkKpcaCli.require(
        spec,
        java.util.Arrays.asList(ModelKind.FEATURE_MAP_NAMES).contains(featureMap),
        "--feature-map must be "
            + SparkKpcaCli.alternatives(java.util.Arrays.asList(ModelKind.FEATURE_MAP_NAMES))
            + ", got '"
            + featureMap
            + "'");
    if (!isRandomFeatures()) {
      SparkKpcaCli.require(
          spec,
          features == null && featureScale == null,
          (features != null ? "--features" : "--feature-scale")
              + " applies to --feature-map rff; with nystrom use --landmarks");
      return estimator();
    }
    SparkKpcaCli.require(
        spec, statisticsRoute == null, "--statistics-route applies to --feature-map nystrom");
    SparkKpcaCli.require(
        spec,
        landmarksText == null,
        "--landmarks applies to --feature-map nystrom; with rff use "
            + "--features D or --feature-scale C");
    SparkKpcaCli.require(
        spec,
        landmarksFrom == null && landmarksFile == null,
        (landmarksFrom != null ? "--landmarks-from" : "--landmarks-file")
            + " applies to --feature-map nystrom");
    SparkKpcaCli.require(
        spec,
        confidence == null,
        "--confidence applies to --feature-map nystrom: Theorem 4 " + "bounds Nyström kernel PCA");
    SparkKpcaCli.require(
        spec,
        landmarkSampling.equals("uniform")
            && leverageRegularization == null
            && kmeansMaxIter == null,
        "--landmark-sampling, --leverage-regularization and --kmeans-max-iter apply to "
            + "--feature-map nystrom; random features have no landmarks");
    SparkKpcaCli.require(
        spec,
        features == null || featureScale == null,
        "--features and --feature-scale are " + "alternatives; give one");
    SparkKpcaCli.require(spec, k >= 1, "--k must be >= 1, got " + k);
    SparkKpcaCli.require(
        spec, features == null || features >= 1, "--features must be >= 1, got " + features);
    SparkKpcaCli.require(
        spec,
        features == null || k <= features,
        "--k " + k + " exceeds --features " + features + "; k must be <= D");
    SparkKpcaCli.require(
        spec,
        featureScale == null || (featureScale > 0 && Double.isFinite(featureScale)),
        "--feature-scale must be finite and > 0, got " + featureScale);
    SparkKpcaCli.require(
        spec,
        kernelOptions.gamma == null
            || (kernelOptions.gamma > 0 && Double.isFinite(kernelOptions.gamma)),
        "--gamma must be finite and > 0, got " + kernelOptions.gamma);
    try {
      RandomFourierFeatureMap.requireSupported(kernelOptions.type(spec));
    } catch (IllegalArgumentException e) {
      throw SparkKpcaCli.usage(spec, "--kernel: " + e.getMessage());
    }
    RandomFeatureKernelPCA estimator =
        new RandomFeatureKernelPCA()
            .setK(k)
            .setKernel(kernelOptions.name)
            .setCentered(!noCenter)
            .setSpectrum(spectrumExtent().paramName());
    if (features != null) {
      estimator.setNumRandomFeatures(features);
    }
    if (featureScale != null) {
      estimator.setFeatureScale(featureScale);
    }
    if (kernelOptions.gamma != null) {
      estimator.setGamma(kernelOptions.gamma);
    }
    if (seed != null) {
      estimator.setSeed(seed);
    }
    return estimator;
  }

  /** The kernel name given to {@code --kernel}. */
  String kernel() {
    return kernelOptions.name;
  }

  /**
   * Sets the landmarks and kernel of the {@code --landmarks-from} model (a saved model or a stream
   * directory, {@link SavedModels}), refusing a kernel that differs.
   */
  void useLandmarksOf(ManagedSession spark, NystromKernelPCA estimator, PrintWriter out) {
    // A saved model, or a stream directory's newest version (said on out).
    AbstractKernelPCAModel<?> base =
        SavedModels.load(spark, "--landmarks-from", landmarksFrom, out);
    if (!base.hasLandmarks()) {
      throw SparkKpcaCli.usage(
          spec,
          "--landmarks-from "
              + landmarksFrom
              + " is a random feature model; it has no "
              + "landmarks");
    }
    if (base.fittedKernel().type() != kernelOptions.type(spec)) {
      throw SparkKpcaCli.usage(
          spec,
          "--landmarks-from "
              + landmarksFrom
              + " was fitted with the "
              + base.fittedKernel().type().paramName()
              + " kernel, not --kernel "
              + kernelOptions.name);
    }
    if (k > base.numSupportPoints()) {
      throw SparkKpcaCli.usage(
          spec,
          "--k "
              + k
              + " exceeds the "
              + base.numSupportPoints()
              + " landmarks of "
              + landmarksFrom);
    }
    estimator.setLandmarksFrom(base);
    landmarks = base.numSupportPoints();
  }

  /** Reads {@code --landmarks M|auto} and checks the options of residual growth. */
  private void parseLandmarks() {
    if (landmarksText != null) {
      if (landmarksText.trim().equalsIgnoreCase("auto")) {
        autoLandmarks = true;
      } else {
        try {
          landmarks = Integer.parseInt(landmarksText.trim());
        } catch (NumberFormatException e) {
          throw SparkKpcaCli.usage(
              spec,
              "--landmarks must be a number of landmarks or auto, got '" + landmarksText + "'");
        }
      }
    }
    growth.validate(spec, autoLandmarks, k);
  }

  /**
   * Refuses {@code --confidence} where Theorem 4 does not apply, before Spark starts: a centred fit
   * (the thesis leaves it open), an unbounded kernel, landmarks that are not rows of the training
   * data, or k ≥ m.
   */
  private void requireBoundable() {
    if (confidence == null) {
      return;
    }
    SparkKpcaCli.require(
        spec,
        confidence > 0 && confidence < 1,
        "--confidence must be in (0, 1), got " + confidence);
    SparkKpcaCli.require(
        spec,
        noCenter,
        "--confidence needs --no-center: Theorem 4's bound holds for uncentred "
            + "kernel PCA; the thesis leaves the centred case open");
    try {
      NystromConfidenceBound.kernelBound(new Kernel(kernelOptions.type(spec), 1.0, 3, 1.0));
    } catch (IllegalArgumentException e) {
      throw SparkKpcaCli.usage(spec, "--confidence: " + e.getMessage());
    }
    SparkKpcaCli.require(
        spec,
        landmarksFrom == null && landmarksFile == null,
        "--confidence needs landmarks "
            + "sampled from the training rows; it cannot be combined with --landmarks-from or --landmarks-file");
    SparkKpcaCli.require(
        spec,
        !landmarkSampling.trim().equalsIgnoreCase("kmeans"),
        "--confidence needs "
            + "landmarks sampled from the training rows: --landmark-sampling kmeans builds new points; use uniform or "
            + "leverage");
    SparkKpcaCli.require(
        spec,
        landmarks == null || k < landmarks,
        "--confidence: the bound covers d = 1..m - 1, "
            + "so --k "
            + k
            + " must be < --landmarks "
            + landmarks);
  }

  /**
   * The configured Nyström estimator; fails with the option's name on a bad value, before Spark
   * starts.
   */
  NystromKernelPCA estimator() {
    SparkKpcaCli.require(spec, k >= 1, "--k must be >= 1, got " + k);
    parseLandmarks();
    int landmarkSources =
        (landmarksText != null ? 1 : 0)
            + (landmarksFrom != null ? 1 : 0)
            + (landmarksFile != null ? 1 : 0);
    SparkKpcaCli.require(
        spec,
        landmarkSources >= 1,
        "--landmarks M is required with --feature-map nystrom (or "
            + "--landmarks-from MODEL_DIR, or --landmarks-file FILE.csv)");
    SparkKpcaCli.require(
        spec,
        landmarkSources == 1,
        "--landmarks and --landmarks-from are alternatives (as is --landmarks-file); give one");
    SparkKpcaCli.require(
        spec,
        !autoLandmarks || landmarkSampling.equals("uniform"),
        "--landmarks auto chooses "
            + "the landmarks by residual growth; --landmark-sampling cannot be combined with it");
    SparkKpcaCli.require(
        spec,
        landmarksFile == null || landmarkSampling.equals("uniform"),
        "--landmark-sampling cannot be combined with --landmarks-file, whose rows are the landmarks");
    SparkKpcaCli.require(
        spec,
        landmarksFrom == null
            || (kernelOptions.gamma == null
                && kernelOptions.degree == null
                && kernelOptions.coef0 == null
                && landmarkSampling.equals("uniform")),
        "--landmarks-from takes the kernel and landmarks of the model; "
            + "--gamma, --degree, --coef0 and --landmark-sampling cannot be combined with it");
    SparkKpcaCli.require(
        spec, landmarks == null || landmarks >= 1, "--landmarks must be >= 1, got " + landmarks);
    if (!takesTopKFactor()) {
      requireArrayLimit(spec, "--landmarks", landmarks);
    }
    SparkKpcaCli.require(
        spec,
        landmarks == null || k <= landmarks,
        "--k " + k + " exceeds --landmarks " + landmarks + "; k must be <= m");
    kernelOptions.validate(spec);
    requireBoundable();
    LandmarkSampling sampling =
        Arrays.stream(LandmarkSampling.values())
            .filter(s -> s.paramName().equalsIgnoreCase(landmarkSampling.trim()))
            .findFirst()
            .orElseThrow(
                () ->
                    SparkKpcaCli.usage(
                        spec,
                        "--landmark-sampling: expected one of "
                            + String.join(", ", LandmarkSampling.NAMES)
                            + ", got '"
                            + landmarkSampling
                            + "'"));
    SparkKpcaCli.require(
        spec,
        leverageRegularization == null || sampling == LandmarkSampling.LEVERAGE,
        "--leverage-regularization applies to --landmark-sampling leverage only");
    SparkKpcaCli.require(
        spec,
        leverageRegularization == null
            || (leverageRegularization > 0 && Double.isFinite(leverageRegularization)),
        "--leverage-regularization must be finite and > 0, got " + leverageRegularization);
    SparkKpcaCli.require(
        spec,
        kmeansMaxIter == null || sampling == LandmarkSampling.KMEANS,
        "--kmeans-max-iter applies to --landmark-sampling kmeans only");
    SparkKpcaCli.require(
        spec,
        kmeansMaxIter == null || kmeansMaxIter >= 1,
        "--kmeans-max-iter must be >= 1, got " + kmeansMaxIter);
    NystromKernelPCA estimator =
        new NystromKernelPCA()
            .setK(k)
            .setKernel(kernelOptions.name)
            .setCentered(!noCenter)
            .setLandmarkSampling(
                autoLandmarks ? LandmarkSampling.RESIDUAL.paramName() : sampling.paramName())
            .setSpectrum(spectrumExtent().paramName());
    if (landmarks != null) {
      estimator.setNumLandmarks(landmarks);
    }
    if (statisticsRoute != null) {
      try {
        estimator.setStatisticsRoute(StatisticsRoute.parse(statisticsRoute.trim()).paramName());
      } catch (IllegalArgumentException e) {
        throw SparkKpcaCli.usage(
            spec,
            "--statistics-route: expected one of "
                + String.join(", ", StatisticsRoute.NAMES)
                + ", got '"
                + statisticsRoute
                + "'");
      }
    }
    growth.applyTo(estimator);
    SparkKpcaCli.require(
        spec,
        topKTolerance == null || (topKTolerance > 0 && topKTolerance < 1),
        "--top-k-tolerance must be in (0, 1), got " + topKTolerance);
    SparkKpcaCli.require(
        spec,
        topKMaxPasses == null || topKMaxPasses >= 1,
        "--top-k-max-passes must be >= 1, got " + topKMaxPasses);
    if (topKTolerance != null) {
      estimator.setTopKTolerance(topKTolerance);
    }
    if (topKMaxPasses != null) {
      estimator.setTopKMaxPasses(topKMaxPasses);
    }
    if (leverageRegularization != null) {
      estimator.setLeverageRegularization(leverageRegularization);
    }
    if (kmeansMaxIter != null) {
      estimator.setKmeansMaxIter(kmeansMaxIter);
    }
    if (kernelOptions.gamma != null) {
      estimator.setGamma(kernelOptions.gamma);
    }
    if (kernelOptions.degree != null) {
      estimator.setDegree(kernelOptions.degree);
    }
    if (kernelOptions.coef0 != null) {
      estimator.setCoef0(kernelOptions.coef0);
    }
    if (seed != null) {
      estimator.setSeed(seed);
    }
    return estimator;
  }

  /**
   * Whether a Nyström fit of these options may take the top-k route's whitening with no m×m array
   * (--statistics-route top-k, or auto, the default): then m above 46,340 and m×m matrices beyond
   * the driver are the fit's to check, before any pass, with the bounds of the route it takes.
   */
  private boolean takesTopKFactor() {
    if (isRandomFeatures() || autoLandmarks) {
      return false;
    }
    if (statisticsRoute == null) {
      return true;
    }
    try {
      StatisticsRoute route = StatisticsRoute.parse(statisticsRoute.trim());
      return route == StatisticsRoute.TOP_K || route == StatisticsRoute.AUTO;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * Refuses, before Spark starts, a number of landmarks whose m×m matrices no Java array holds (m
   * &gt; {@value FitMemory#MAX_LANDMARKS}).
   */
  static void requireArrayLimit(CommandSpec spec, String option, Integer m) {
    SparkKpcaCli.require(
        spec,
        m == null || m <= FitMemory.MAX_LANDMARKS,
        option
            + " must be <= "
            + FitMemory.MAX_LANDMARKS
            + ", got "
            + m
            + ": an m x m matrix of doubles holds more entries than a Java array above it");
  }

  /**
   * Refuses, once Spark runs and before the input is read, landmarks (or random features) whose m×m
   * matrices alone exceed the driver's memory ({@link FitMemory#checkLandmarks}): the fit itself
   * would refuse them only after the pass that loads the input.
   */
  void checkSupportMemory(ManagedSession spark) {
    Integer size;
    String option;
    if (isRandomFeatures()) {
      size = features;
      option = "--features D";
    } else if (autoLandmarks) {
      size = growth.maxLandmarks;
      option = "--max-landmarks";
    } else {
      size = landmarks;
      option =
          landmarksFile != null
              ? "the landmarks of --landmarks-file, m"
              : landmarksFrom != null ? "the landmarks of --landmarks-from, m" : "--landmarks m";
    }
    if (size != null && takesTopKFactor()) {
      TopKFit.Settings topK =
          TopKFit.Settings.of(
                  topKTolerance == null ? 1e-6 : topKTolerance,
                  topKMaxPasses == null ? 40 : topKMaxPasses)
              .withSession(spark.session());
      FitMemory.checkLandmarks(
          spark.session().sparkContext(),
          size,
          option,
          topK,
          Math.min(size, k + topK.oversampling()),
          statisticsRoute == null
              || StatisticsRoute.parse(statisticsRoute.trim()) == StatisticsRoute.AUTO);
    } else if (size != null) {
      FitMemory.checkLandmarks(spark.session().sparkContext(), size, option);
    }
  }

  private SpectrumExtent spectrumExtent() {
    try {
      return SpectrumExtent.parse(spectrum);
    } catch (IllegalArgumentException e) {
      throw SparkKpcaCli.usage(
          spec,
          "--spectrum: expected one of "
              + String.join(", ", SpectrumExtent.NAMES)
              + ", got '"
              + spectrum
              + "'");
    }
  }
}
