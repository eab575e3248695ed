package io.github.sparkkpca.execution;

import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.feature.RandomFourierFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.pca.FeaturePCA;
import io.github.sparkkpca.pca.SpectrumExtent;
import java.util.Locale;

/**
 * The random-feature steps of {@link KernelPcaFit}: D random Fourier features (D set, or ⌈c·√n·ln
 * n⌉ from n), one statistics pass, linear PCA of the features.
 */
public final class RandomFeatureFit
    implements KernelPcaFit.Steps<RandomFourierFeatureMap, RandomFeatureFit.Result> {

  /** The fit: linear PCA of the features and how the features were drawn, in words. */
  public record Result(FeaturePCA fitted, RandomFourierFeatureMap map, String description) {}

  private final KernelPcaFit.Settings settings;
  private final int numRandomFeatures;
  private final double featureScale;
  private final SpectrumExtent spectrum;
  private int features;

  /**
   * @param numRandomFeatures D, used when {@code featureScale} is NaN
   * @param featureScale c of D = ⌈c·√n·ln n⌉, or NaN
   */
  public RandomFeatureFit(
      KernelPcaFit.Settings settings,
      int numRandomFeatures,
      double featureScale,
      SpectrumExtent spectrum) {
    this.settings = settings;
    this.numRandomFeatures = numRandomFeatures;
    this.featureScale = featureScale;
    this.spectrum = spectrum;
    this.features = numRandomFeatures;
  }

  private boolean byRate() {
    return !Double.isNaN(featureScale);
  }

  /**
   * D = ⌈c·√n·ln n⌉ for n rows.
   *
   * @throws IllegalArgumentException when D is below k, or larger than an int
   */
  public static int featuresForRows(double c, long n, int k) {
    double exact = Math.ceil(c * Math.sqrt(n) * Math.log(n));
    if (!(exact >= k)) {
      throw new IllegalArgumentException(
          "featureScale c = "
              + c
              + " gives D = ceil(c sqrt(n) ln n) = "
              + (long) Math.max(exact, 0)
              + " random features for n = "
              + n
              + " rows, fewer than k = "
              + k
              + "; raise featureScale or set numRandomFeatures instead");
    }
    if (exact > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "featureScale c = "
              + c
              + " gives D = ceil(c sqrt(n) ln n) = "
              + String.format(Locale.ROOT, "%.3g", exact)
              + " random features for n = "
              + n
              + " rows: too many; lower featureScale");
    }
    return (int) exact;
  }

  /**
   * The D×d frequencies are dense whatever the rows: refused before the scan when no array holds
   * them or the heap cannot (d = 2²² and D = 1000 are 4·10⁹ entries).
   */
  @Override
  public void checkDimension(int d) {
    if (!byRate()) {
      RandomFourierFeatureMap.requireAllocatable(numRandomFeatures, d, 1);
    }
  }

  @Override
  public KernelPcaFit.Need memoryBeforeScan(int d) {
    return byRate() ? null : new KernelPcaFit.Need(numRandomFeatures, "numRandomFeatures D");
  }

  @Override
  public KernelPcaFit.Need memoryForRows(long n, int d) {
    if (!byRate()) {
      return null;
    }
    features = featuresForRows(featureScale, n, settings.k());
    return new KernelPcaFit.Need(
        features, "the number of random " + "features D (from featureScale)");
  }

  /**
   * Rows of the scan's sample on which the exact kernel is tested for degeneracy ({@link
   * KernelPcaFit.Context#degeneracy}): 256² kernel values, next to nothing beside the pass.
   */
  public static final int DEGENERACY_ROWS = 256;

  @Override
  public int sampleCapacity(boolean gammaSet) {
    return gammaSet ? DEGENERACY_ROWS : Kernel.MEDIAN_HEURISTIC_POINTS;
  }

  /**
   * The D frequencies, once the exact kernel they approximate is tested on a sample of the rows: a
   * γ far from the data's scale makes it the identity or a constant there, and the features then
   * hold noise or one direction.
   */
  @Override
  public RandomFourierFeatureMap support(KernelPcaFit.Context c) {
    testKernelOnSample(c);
    return RandomFourierFeatureMap.draw(c.kernel(), features, c.d(), settings.seed());
  }

  /**
   * The degeneracy test of the exact kernel on up to {@link #DEGENERACY_ROWS} rows of the scan's
   * sample, with its WARN line: for fits whose features approximate the kernel (no K_mm to test).
   */
  public static void testKernelOnSample(KernelPcaFit.Context c) {
    io.github.sparkkpca.linalg.RowSet sample = c.scanned().scan().sampleRows();
    int rows = Math.min(sample.count(), DEGENERACY_ROWS);
    if (rows >= 2) {
      double[] gram =
          new io.github.sparkkpca.kernel.LandmarkKernel(c.kernel(), sample.head(rows)).gram();
      c.degeneracy(gram, rows, c.kernel(), rows + " rows sampled from the input");
    }
  }

  @Override
  public KernelPcaFit.Rank rank(RandomFourierFeatureMap map, KernelPcaFit.Context c) {
    return new KernelPcaFit.Rank(
        features, "D = " + features + " random features", "allow", "; lower k");
  }

  @Override
  public Result solve(RandomFourierFeatureMap map, KernelPcaFit.Context c) {
    long n = c.n();
    settings
        .log()
        .info(
            "{}: n = {}, d = {}, D = {}, kernel = {}, BLAS = {}",
            settings.stage(),
            n,
            c.d(),
            features,
            c.kernel(),
            Blas.implementation());
    FeatureStatistics stats =
        FeaturePasses.statistics(
            c.scanned().vectors(), map, c.blockSize(map), settings.column(), settings.jobs());
    FeaturePCA fitted = FeaturePCA.solve(map, stats, settings.k(), settings.centered(), spectrum);
    String description =
        "none: "
            + features
            + " random Fourier features of the "
            + settings.family().paramName()
            + " kernel"
            + (byRate() ? " (D = ceil(" + featureScale + " sqrt(n) ln n), n = " + n + ")" : "")
            + ", seed "
            + settings.seed();
    return new Result(fitted, map, description);
  }
}
