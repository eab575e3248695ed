package io.github.sparkkpca.examples.reproduce;

import io.github.sparkkpca.examples.data.ImageData;
import io.github.sparkkpca.examples.data.MnistIdx;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What {@link LandmarkComparison} runs.
 *
 * @param datasets data-set specs (see {@link ImageData}), e.g. {@code mnist:5}, {@code
 *     fashion:random:6000}
 * @param ms numbers of landmarks
 * @param ells numbers of components at which R(ℓ) is reported (only ℓ ≤ m are used)
 * @param methods landmark strategies
 * @param reps seeds 1..reps
 * @param mnistGamma γ for MNIST data sets
 * @param fashionGamma γ for Fashion-MNIST data sets, or null for the median heuristic
 * @param limit keep only the first {@code limit} images of each data set (0: all)
 * @param kmeansMaxIter Lloyd iterations of {@code kmeans} (0: the library default, 20)
 * @param mnistDir MNIST IDX directory
 * @param fashionDir Fashion-MNIST IDX directory
 * @param partitions partitions of the cached data (0: Spark's default parallelism)
 * @param exactCache directory caching exact spectra between runs, or null
 * @param out output directory, or null to write nothing
 */
public record LandmarkComparisonConfig(
    List<String> datasets,
    List<Integer> ms,
    List<Integer> ells,
    List<String> methods,
    int reps,
    double mnistGamma,
    Double fashionGamma,
    int limit,
    int kmeansMaxIter,
    Path mnistDir,
    Path fashionDir,
    int partitions,
    Path exactCache,
    Path out) {

  public LandmarkComparisonConfig {
    datasets = List.copyOf(datasets);
    ms = ms.stream().sorted().distinct().toList();
    ells = ells.stream().sorted().distinct().toList();
    methods = List.copyOf(methods);
    Objects.requireNonNull(mnistDir, "mnistDir");
    Objects.requireNonNull(fashionDir, "fashionDir");
    if (datasets.isEmpty() || ms.isEmpty() || ells.isEmpty() || methods.isEmpty()) {
      throw new IllegalArgumentException(
          "data sets, m values, l values and methods must not be empty");
    }
    for (String d : datasets) {
      ImageData.Spec.parse(d, limit);
    }
    for (String method : methods) {
      if (!LandmarkComparison.METHODS.contains(method)) {
        throw new IllegalArgumentException(
            "landmark method '" + method + "': expected one of " + LandmarkComparison.METHODS);
      }
    }
    for (int m : ms) {
      if (m < 1) {
        throw new IllegalArgumentException("m must be >= 1, got " + m);
      }
    }
    for (int l : ells) {
      if (l < 1) {
        throw new IllegalArgumentException("l must be >= 1, got " + l);
      }
    }
    if (ells.get(0) > ms.get(ms.size() - 1)) {
      throw new IllegalArgumentException("every l exceeds every m: nothing to compare");
    }
    if (reps < 1) {
      throw new IllegalArgumentException("reps must be >= 1, got " + reps);
    }
    if (!(mnistGamma > 0)
        || !Double.isFinite(mnistGamma)
        || (fashionGamma != null && (!(fashionGamma > 0) || !Double.isFinite(fashionGamma)))) {
      throw new IllegalArgumentException("gamma must be finite and > 0");
    }
    if (limit < 0 || kmeansMaxIter < 0) {
      throw new IllegalArgumentException("limit and kmeansMaxIter must be >= 0");
    }
  }

  /**
   * MNIST digits 5 and 2 and 6000 random Fashion-MNIST training images; m 100, 500; ℓ 10, 50, 100;
   * 5 seeds.
   */
  public static LandmarkComparisonConfig defaults() {
    return new LandmarkComparisonConfig(
        List.of("mnist:5", "mnist:2", "fashion:random:6000"),
        List.of(100, 500),
        List.of(10, 50, 100),
        LandmarkComparison.METHODS,
        5,
        1e-7,
        null,
        0,
        0,
        MnistIdx.defaultDirectory(),
        ImageData.defaultFashionDirectory(),
        0,
        null,
        null);
  }

  public LandmarkComparisonConfig withDatasets(List<String> v) {
    return with(f -> f.datasets = v);
  }

  public LandmarkComparisonConfig withMs(List<Integer> v) {
    return with(f -> f.ms = v);
  }

  public LandmarkComparisonConfig withElls(List<Integer> v) {
    return with(f -> f.ells = v);
  }

  public LandmarkComparisonConfig withMethods(List<String> v) {
    return with(f -> f.methods = v);
  }

  public LandmarkComparisonConfig withReps(int v) {
    return with(f -> f.reps = v);
  }

  public LandmarkComparisonConfig withMnistGamma(double v) {
    return with(f -> f.mnistGamma = v);
  }

  public LandmarkComparisonConfig withFashionGamma(Double v) {
    return with(f -> f.fashionGamma = v);
  }

  public LandmarkComparisonConfig withLimit(int v) {
    return with(f -> f.limit = v);
  }

  public LandmarkComparisonConfig withKmeansMaxIter(int v) {
    return with(f -> f.kmeansMaxIter = v);
  }

  public LandmarkComparisonConfig withMnistDir(Path v) {
    return with(f -> f.mnistDir = v);
  }

  public LandmarkComparisonConfig withFashionDir(Path v) {
    return with(f -> f.fashionDir = v);
  }

  public LandmarkComparisonConfig withPartitions(int v) {
    return with(f -> f.partitions = v);
  }

  public LandmarkComparisonConfig withExactCache(Path v) {
    return with(f -> f.exactCache = v);
  }

  public LandmarkComparisonConfig withOut(Path v) {
    return with(f -> f.out = v);
  }

  /** This configuration with the settings {@code change} sets; the record's checks run again. */
  private LandmarkComparisonConfig with(Consumer<Settings> change) {
    Settings settings = new Settings(this);
    change.accept(settings);
    return settings.build();
  }

  /** The settings of a configuration, to change some of them ({@link #with}). */
  private static final class Settings {
    List<String> datasets;
    List<Integer> ms;
    List<Integer> ells;
    List<String> methods;
    int reps;
    double mnistGamma;
    Double fashionGamma;
    int limit;
    int kmeansMaxIter;
    Path mnistDir;
    Path fashionDir;
    int partitions;
    Path exactCache;
    Path out;

    Settings(LandmarkComparisonConfig c) {
      datasets = c.datasets;
      ms = c.ms;
      ells = c.ells;
      methods = c.methods;
      reps = c.reps;
      mnistGamma = c.mnistGamma;
      fashionGamma = c.fashionGamma;
      limit = c.limit;
      kmeansMaxIter = c.kmeansMaxIter;
      mnistDir = c.mnistDir;
      fashionDir = c.fashionDir;
      partitions = c.partitions;
      exactCache = c.exactCache;
      out = c.out;
    }

    LandmarkComparisonConfig build() {
      return new LandmarkComparisonConfig(
          datasets,
          ms,
          ells,
          methods,
          reps,
          mnistGamma,
          fashionGamma,
          limit,
          kmeansMaxIter,
          mnistDir,
          fashionDir,
          partitions,
          exactCache,
          out);
    }
  }
}
