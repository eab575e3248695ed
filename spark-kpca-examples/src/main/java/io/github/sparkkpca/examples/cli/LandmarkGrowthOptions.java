package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.ml.NystromKernelPCA;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The options of {@code --landmarks auto}'s residual growth (a picocli mixin of {@link
 * EstimatorOptions}): when it stops ({@code --landmark-tolerance}, or the experimental F-test with
 * {@code --alpha}), the most landmarks and the held-out probe rows; checked before Spark starts and
 * set on the Nyström estimator.
 */
public final class LandmarkGrowthOptions {

  @Option(
      names = "--landmark-tolerance",
      paramLabel = "T",
      description =
          "With --landmarks auto: stop when the mean residual k(x,x) - u'K_mm^-1 u of the probe rows is "
              + "<= T x their mean k(x,x), in (0, 1). Default 0.01.")
  Double landmarkTolerance;

  @Option(
      names = "--max-landmarks",
      paramLabel = "M",
      description = "With --landmarks auto: the most landmarks (>= k). Default 1000.")
  Integer maxLandmarks;

  @Option(
      names = "--landmark-probe-size",
      paramLabel = "P",
      description = "With --landmarks auto: the held-out probe rows (>= 2). Default 256.")
  Integer landmarkProbeSize;

  @Option(
      names = "--landmark-test",
      paramLabel = "TEST",
      description =
          "With --landmarks auto: tolerance (default) or f, the EXPERIMENTAL F-test of Hallgren's thesis "
              + "ch. 4 (--alpha).")
  String landmarkTest;

  @Option(
      names = "--alpha",
      paramLabel = "A",
      description = "With --landmark-test f: the level of the F-test, in (0, 1). Default 0.05.")
  Double alpha;

  /**
   * Refuses a growth option without {@code --landmarks auto} and a value out of range, naming the
   * option.
   */
  void validate(CommandSpec spec, boolean autoLandmarks, int k) {
    String growthOption =
        landmarkTolerance != null
            ? "--landmark-tolerance"
            : maxLandmarks != null
                ? "--max-landmarks"
                : landmarkProbeSize != null
                    ? "--landmark-probe-size"
                    : landmarkTest != null ? "--landmark-test" : alpha != null ? "--alpha" : null;
    SparkKpcaCli.require(
        spec, growthOption == null || autoLandmarks, growthOption + " applies to --landmarks auto");
    SparkKpcaCli.require(
        spec,
        landmarkTolerance == null || (landmarkTolerance > 0 && landmarkTolerance < 1),
        "--landmark-tolerance must be in (0, 1), got " + landmarkTolerance);
    SparkKpcaCli.require(
        spec,
        maxLandmarks == null || maxLandmarks >= k,
        "--max-landmarks must be >= --k " + k + ", got " + maxLandmarks);
    SparkKpcaCli.require(
        spec,
        landmarkProbeSize == null || landmarkProbeSize >= 2,
        "--landmark-probe-size must be >= 2, got " + landmarkProbeSize);
    SparkKpcaCli.require(
        spec,
        landmarkTest == null
            || landmarkTest.trim().equalsIgnoreCase("tolerance")
            || landmarkTest.trim().equalsIgnoreCase("f"),
        "--landmark-test must be tolerance or f, got '" + landmarkTest + "'");
    SparkKpcaCli.require(
        spec,
        alpha == null || landmarkTest != null && landmarkTest.trim().equalsIgnoreCase("f"),
        "--alpha applies to --landmark-test f");
    SparkKpcaCli.require(
        spec, alpha == null || (alpha > 0 && alpha < 1), "--alpha must be in (0, 1), got " + alpha);
    SparkKpcaCli.require(
        spec,
        landmarkTolerance == null
            || landmarkTest == null
            || landmarkTest.trim().equalsIgnoreCase("tolerance"),
        "--landmark-tolerance applies to --landmark-test "
            + "tolerance; the F-test stops by --alpha");
    EstimatorOptions.requireArrayLimit(spec, "--max-landmarks", maxLandmarks);
  }

  /** Sets the options given on the estimator (the others keep its defaults). */
  void applyTo(NystromKernelPCA estimator) {
    if (landmarkTolerance != null) {
      estimator.setLandmarkTolerance(landmarkTolerance);
    }
    if (maxLandmarks != null) {
      estimator.setMaxLandmarks(maxLandmarks);
    }
    if (landmarkProbeSize != null) {
      estimator.setLandmarkProbeSize(landmarkProbeSize);
    }
    if (landmarkTest != null) {
      estimator.setLandmarkTest(landmarkTest.trim().toLowerCase(Locale.ROOT));
    }
    if (alpha != null) {
      estimator.setLandmarkAlpha(alpha);
    }
  }
}
