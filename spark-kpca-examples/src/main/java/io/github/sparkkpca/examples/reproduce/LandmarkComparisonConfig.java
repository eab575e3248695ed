package io.github.sparkkpca.examples.reproduce;

import io.github.sparkkpca.examples.data.ImageData;
import io.github.sparkkpca.examples.data.MnistIdx;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

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
    return new LandmarkComparisonConfig(
        v,
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

  public LandmarkComparisonConfig withMs(List<Integer> v) {
    return new LandmarkComparisonConfig(
        datasets,
        v,
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

  public LandmarkComparisonConfig withElls(List<Integer> v) {
    return new LandmarkComparisonConfig(
        datasets,
        ms,
        v,
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

  public LandmarkComparisonConfig withMethods(List<String> v) {
    return new LandmarkComparisonConfig(
        datasets,
        ms,
        ells,
        v,
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

  public LandmarkComparisonConfig withReps(int v) {
    return new LandmarkComparisonConfig(
        datasets,
        ms,
        ells,
        methods,
        v,
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

  public LandmarkComparisonConfig withMnistGamma(double v) {
    return new LandmarkComparisonConfig(
        datasets,
        ms,
        ells,
        methods,
        reps,
        v,
        fashionGamma,
        limit,
        kmeansMaxIter,
        mnistDir,
        fashionDir,
        partitions,
        exactCache,
        out);
  }

  public LandmarkComparisonConfig withFashionGamma(Double v) {
    return new LandmarkComparisonConfig(
        datasets,
        ms,
        ells,
        methods,
        reps,
        mnistGamma,
        v,
        limit,
        kmeansMaxIter,
        mnistDir,
        fashionDir,
        partitions,
        exactCache,
        out);
  }

  public LandmarkComparisonConfig withLimit(int v) {
    return new LandmarkComparisonConfig(
        datasets,
        ms,
        ells,
        methods,
        reps,
        mnistGamma,
        fashionGamma,
        v,
        kmeansMaxIter,
        mnistDir,
        fashionDir,
        partitions,
        exactCache,
        out);
  }

  public LandmarkComparisonConfig withKmeansMaxIter(int v) {
    return new LandmarkComparisonConfig(
        datasets,
        ms,
        ells,
        methods,
        reps,
        mnistGamma,
        fashionGamma,
        limit,
        v,
        mnistDir,
        fashionDir,
        partitions,
        exactCache,
        out);
  }

  public LandmarkComparisonConfig withMnistDir(Path v) {
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
        v,
        fashionDir,
        partitions,
        exactCache,
        out);
  }

  public LandmarkComparisonConfig withFashionDir(Path v) {
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
        v,
        partitions,
        exactCache,
        out);
  }

  public LandmarkComparisonConfig withPartitions(int v) {
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
        v,
        exactCache,
        out);
  }

  public LandmarkComparisonConfig withExactCache(Path v) {
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
        v,
        out);
  }

  public LandmarkComparisonConfig withOut(Path v) {
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
        v);
  }
}
