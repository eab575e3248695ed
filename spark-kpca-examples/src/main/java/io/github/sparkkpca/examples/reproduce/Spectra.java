package io.github.sparkkpca.examples.reproduce;

import io.github.sparkkpca.examples.data.ImageData;
import io.github.sparkkpca.ml.KernelPCA;
import io.github.sparkkpca.ml.KernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.pca.SpectrumExtent;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Fits that the experiments share: the exact kernel PCA reference (optionally cached on disk) and
 * one Nyström fit, each reduced to its spectrum, total variance and wall time, plus the
 * reconstruction error R(ℓ) = total − Σ_{i≤ℓ} λ_i (Sterge et al. eqs. 18/19; constant beyond the
 * rank).
 */
public final class Spectra {

  private Spectra() {}

  /**
   * A fitted spectrum.
   *
   * @param eigenvalues the whole spectrum found, descending (eigenvalues of the covariance
   *     operator)
   * @param total total variance: (1/n) Σ k(x,x) uncentred; centred, exact for the exact fit and an
   *     upper bound for Nyström (the library's {@code totalVariance})
   * @param n rows
   * @param support support points: m for Nyström (effective), n for exact
   * @param rank numerical rank kept
   * @param dropped directions dropped as numerically zero
   * @param seconds wall time of the fit (for a cached exact spectrum: the time recorded when it was
   *     computed)
   * @param cached whether the spectrum was read from the cache instead of computed
   * @param selection how the landmarks were chosen
   */
  public record Spectrum(
      double[] eigenvalues,
      double total,
      long n,
      int support,
      int rank,
      int dropped,
      double seconds,
      boolean cached,
      String selection) {

    /** R(1..maxEll), unclamped (can be −rounding when everything is explained). */
    public double[] errors(int maxEll) {
      double[] out = new double[maxEll];
      double captured = 0;
      for (int l = 1; l <= maxEll; l++) {
        if (l <= eigenvalues.length) {
          captured += eigenvalues[l - 1];
        }
        out[l - 1] = total - captured;
      }
      return out;
    }

    /** Σ of the whole spectrum found. */
    public double spectrumSum() {
      double s = 0;
      for (double v : eigenvalues) {
        s += v;
      }
      return s;
    }
  }

  /** Clamps reconstruction errors at 0 for reporting. */
  static double[] clamp(double[] errors) {
    double[] out = errors.clone();
    for (int i = 0; i < out.length; i++) {
      out[i] = Math.max(0.0, out[i]);
    }
    return out;
  }

  /**
   * One Nyström fit of the rbf kernel with k = 1 (the spectrum does not depend on k) and its full
   * spectrum (the reconstruction errors sum eigenvalues up to ℓ = m).
   */
  public static Spectrum nystrom(
      ImageData data,
      int m,
      double gamma,
      boolean centred,
      String sampling,
      long seed,
      int kmeansMaxIter) {
    NystromKernelPCA estimator =
        new NystromKernelPCA()
            .setInputCol("features")
            .setK(1)
            .setNumLandmarks(m)
            .setKernel("rbf")
            .setGamma(gamma)
            .setCentered(centred)
            .setSeed(seed)
            .setLandmarkSampling(sampling)
            .setSpectrum(SpectrumExtent.FULL.paramName());
    if (kmeansMaxIter > 0) {
      estimator.setKmeansMaxIter(kmeansMaxIter);
    }
    long start = System.nanoTime();
    NystromKernelPCAModel model = estimator.fit(data.frame());
    double seconds = (System.nanoTime() - start) / 1e9;
    return new Spectrum(
        model.eigenvalues().toArray(),
        model.totalVariance(),
        model.numRows(),
        model.numSupportPoints(),
        model.rank(),
        model.droppedRank(),
        seconds,
        false,
        model.landmarkSelection());
  }

  /**
   * The exact kernel PCA spectrum (driver-side {@link KernelPCA}), read from {@code cacheDir} when
   * a file for the same images, γ and centring is there, else computed (and then stored there if a
   * cache is given).
   */
  public static Spectrum exact(
      ImageData data, double gamma, boolean centred, Path cacheDir, Consumer<String> progress) {
    Path file =
        cacheDir == null
            ? null
            : cacheDir.resolve(
                String.format(
                    Locale.ROOT,
                    "exact-%s-n%d-%016x-g%s-%s.txt",
                    data.spec().id(),
                    data.n(),
                    data.contentHash(),
                    Double.toString(gamma),
                    centred ? "centred" : "uncentred"));
    if (file != null && Files.isRegularFile(file)) {
      Spectrum cached = read(file);
      progress.accept(
          String.format(
              Locale.ROOT,
              "exact kernel PCA of %s (%s): read from the cache %s " + "(computed in %.1f s)",
              data.spec().describe(),
              centred ? "centred" : "uncentred",
              file,
              cached.seconds()));
      return cached;
    }
    progress.accept(
        String.format(
            Locale.ROOT,
            "exact kernel PCA of %s (%s, n = %d): %d x %d kernel matrix, full "
                + "eigendecomposition on the driver...",
            data.spec().describe(),
            centred ? "centred" : "uncentred",
            data.n(),
            data.n(),
            data.n()));
    long start = System.nanoTime();
    KernelPCAModel model =
        new KernelPCA()
            .setInputCol("features")
            .setK(1)
            .setKernel("rbf")
            .setGamma(gamma)
            .setCentered(centred)
            .setMaxRows(Math.max(10_000, data.n()))
            .fit(data.frame());
    double seconds = (System.nanoTime() - start) / 1e9;
    Spectrum s =
        new Spectrum(
            model.eigenvalues().toArray(),
            model.totalVariance(),
            model.numRows(),
            model.numSupportPoints(),
            model.rank(),
            model.droppedRank(),
            seconds,
            false,
            "exact");
    progress.accept(
        String.format(
            Locale.ROOT,
            "exact kernel PCA done in %.1f s (rank %d of %d)",
            seconds,
            s.rank(),
            data.n()));
    if (file != null) {
      write(file, s);
    }
    return s;
  }

  private static void write(Path file, Spectrum s) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
        w.write(
            "# exact kernel PCA spectrum (eigenvalues of K/n, or HKH/n when centred), one per line\n");
        w.write("total=" + s.total() + "\n");
        w.write("n=" + s.n() + "\n");
        w.write("rank=" + s.rank() + "\n");
        w.write("dropped=" + s.dropped() + "\n");
        w.write("seconds=" + s.seconds() + "\n");
        for (double v : s.eigenvalues()) {
          w.write(Double.toString(v));
          w.write('\n');
        }
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot write the exact-spectrum cache " + file + ": " + e.getMessage(), e);
    }
  }

  private static Spectrum read(Path file) {
    try {
      Map<String, String> header = new HashMap<>();
      List<Double> values = new ArrayList<>();
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (line.startsWith("#") || line.isBlank()) {
          continue;
        }
        int eq = line.indexOf('=');
        if (eq > 0) {
          header.put(line.substring(0, eq), line.substring(eq + 1));
        } else {
          values.add(Double.parseDouble(line));
        }
      }
      double[] eig = values.stream().mapToDouble(Double::doubleValue).toArray();
      long n = Long.parseLong(header.get("n"));
      return new Spectrum(
          eig,
          Double.parseDouble(header.get("total")),
          n,
          (int) n,
          Integer.parseInt(header.get("rank")),
          Integer.parseInt(header.get("dropped")),
          Double.parseDouble(header.get("seconds")),
          true,
          "exact");
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "The exact-spectrum cache file "
              + file
              + " is unreadable ("
              + e.getMessage()
              + "); delete it",
          e);
    }
  }
}
