package io.github.sparkkpca.pca;

import io.github.sparkkpca.feature.FeatureMap;
import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.feature.KernelExpansion;
import io.github.sparkkpca.feature.LinearReadout;
import io.github.sparkkpca.linalg.SymmetricEigen;

/**
 * A fitted "feature map + linear PCA": every kernel PCA of this library that can grow. It keeps the
 * sufficient statistics of its features, so more rows are absorbed exactly ({@link #update}):
 * merging the statistics of new rows and solving the r×r eigenproblem again gives the model a fit
 * on all rows would give, to rounding.
 *
 * <p>With C = U Σ Uᵀ the covariance (centred) or second moment (uncentred) of φ, the k components
 * are the leading columns U_k, the scores y(x) = U_kᵀ(φ(x) − φ̄) (φ̄ = 0 uncentred), and each
 * component's sign is fixed so that its largest-magnitude readout coefficient (landmark weight for
 * Nyström) is positive.
 *
 * <p><b>Total variance</b> (what ratios and reconstruction errors refer to), for a positive
 * definite kernel: uncentred (1/n)Σ‖φ_full(x_i)‖² (exact: (1/n)Σk(x_i,x_i)); centred that minus
 * ‖φ̄‖², clamped at the sum of the eigenvalues found. For Nyström, ‖φ̄‖² ≤ ‖μ‖² (φ̄ is the mean
 * embedding μ projected on the landmarks' span), so the centred value is an upper bound of the true
 * one, exact when μ lies in the span (m = n). For a kernel that is not positive definite k(x,x) is
 * no variance: the model is the PCA of the positive-part surrogate k̃(x,y) = ⟨φ(x),φ(y)⟩ (see
 * {@link io.github.sparkkpca.feature.NystromFeatureMap}), and the total is that surrogate's, tr C =
 * (1/n)Σ‖φ(x_i)‖² − ‖φ̄‖² (uncentred (1/n)Σ‖φ(x_i)‖²), which bounds the sum of the eigenvalues; the
 * method string gives (1/n)Σ‖φ(x_i)‖² next to (1/n)Σk(x_i,x_i), which it may exceed.
 *
 * @param map the feature map φ
 * @param statistics n, φ̄, the centred scatter and Σ‖φ_full‖² of the training rows
 * @param centered covariance (true) or second moment (false)
 * @param spectrum the leading eigenvalues Σ_1 ≥ … ≥ Σ_p ≥ 0 of C found (p ≥ k; all r of them for
 *     {@link SpectrumExtent#FULL})
 * @param components U_k, r×k column-major, signs fixed
 * @param projector scores and residuals of new rows
 * @param totalVariance see above
 * @param totalVarianceMethod how {@code totalVariance} was obtained, in words
 */
public record FeaturePCA(
    FeatureMap map,
    FeatureStatistics statistics,
    boolean centered,
    double[] spectrum,
    double[] components,
    Projector projector,
    double totalVariance,
    String totalVarianceMethod) {

  /**
   * The total-variance method of a centred landmark model: (1/n)Σk(x,x) − ‖φ̄‖², an upper bound of
   * the centred variance (the name a model records, whichever route fitted it).
   */
  public static final String NYSTROM_MEAN_METHOD =
      "nystrom-mean: (1/n) sum k(x,x) - ||projected mean||^2, an upper bound of the centred variance";

  /** The total-variance method of an uncentred landmark model: (1/n)Σk(x,x), exact. */
  public static final String KERNEL_DIAGONAL_METHOD = "exact: (1/n) sum k(x,x)";

  /**
   * Solves linear PCA of the features for k components (driver side): the k components and the
   * leading eigenvalues {@code extent} asks for.
   */
  public static FeaturePCA solve(
      FeatureMap map,
      FeatureStatistics statistics,
      int k,
      boolean centered,
      SpectrumExtent extent) {
    return solve(map, statistics, k, centered, extent.numEigenvalues(statistics.dim(), k));
  }

  /**
   * {@link #solve(FeatureMap, FeatureStatistics, int, boolean, SpectrumExtent)} for p leading
   * eigenvalues.
   */
  public static FeaturePCA solve(
      FeatureMap map, FeatureStatistics statistics, int k, boolean centered, int numEigenvalues) {
    LinearPCA pca = LinearPCA.fit(statistics, k, centered, numEigenvalues);
    int r = map.outputDim();
    double[] readoutMatrix = readoutMatrix(pca.components(), statistics, r, k, centered);
    LinearReadout readout = map.readout(readoutMatrix, readoutMatrix.length / r);
    double[] signs =
        readout instanceof KernelExpansion expansion
            ? SymmetricEigen.fixSigns(
                expansion.coefficients(), expansion.support().numLandmarks(), k)
            : SymmetricEigen.fixSigns(readoutMatrix, r, k);
    double[] components = pca.components().clone();
    for (int c = 0; c < k; c++) {
      for (int i = 0; i < r; i++) {
        components[i + c * r] *= signs[c];
      }
    }
    return assemble(map, statistics, centered, pca.variances(), components, readout, k);
  }

  /**
   * A solved model from its persisted parts: the components as solved (signs fixed). The readout is
   * built from them as {@link #solve} built it, so the restored model scores bit for bit as the
   * saved one.
   */
  public static FeaturePCA restore(
      FeatureMap map,
      FeatureStatistics statistics,
      boolean centered,
      double[] spectrum,
      double[] components,
      int k) {
    int r = map.outputDim();
    if (components.length != (long) r * k || spectrum.length < k) {
      throw new IllegalArgumentException(
          "feature PCA: "
              + components.length
              + " component entries and "
              + spectrum.length
              + " eigenvalues for r = "
              + r
              + ", k = "
              + k);
    }
    double[] readoutMatrix = readoutMatrix(components, statistics, r, k, centered);
    return assemble(
        map,
        statistics,
        centered,
        spectrum,
        components,
        map.readout(readoutMatrix, readoutMatrix.length / r),
        k);
  }

  /**
   * The rounding noise of the centred covariance's eigenvalues on rows that are all equal: the
   * scatter is accumulated from rows centred on block means, and a mean of up to n equal rows is
   * off by at most n·ε·‖φ‖ per feature, so the rows' deviations and the merges of blocks (Chan et
   * al.) leave a scatter of at most about 5·n·(n·ε)²·‖φ‖² in all: eigenvalues of M/n up to
   * 5·(n·ε)²·‖φ‖² summed over the r features; (1/n)Σk(x,x) stands for ‖φ‖², which it bounds. Twice
   * that bound. A real spread is far above it (its eigenvalues are resolved to O(ε·√(λ·‖φ‖²))).
   */
  static double noiseFloor(FeatureStatistics statistics, int r) {
    double nEps = Math.max(statistics.count(), 1) * Math.ulp(1.0);
    double scale = Math.abs(statistics.diagonalSum()) / Math.max(statistics.count(), 1);
    return 10.0 * r * nEps * nEps * scale + Double.MIN_NORMAL;
  }

  /**
   * The centred spectrum with the eigenvalues within the rounding noise ({@link #noiseFloor}) set
   * to exactly 0, so that constant rows report no variance; uncentred spectra are left as they are.
   */
  private static double[] withoutRoundingNoise(
      double[] spectrum, FeatureStatistics statistics, boolean centered, int r) {
    if (!centered || statistics.count() == 0) {
      return spectrum;
    }
    double floor = noiseFloor(statistics, r);
    double[] out = spectrum.clone();
    for (int i = 0; i < out.length; i++) {
      if (Math.abs(out[i]) <= floor) {
        out[i] = 0;
      }
    }
    return out;
  }

  /** [U_k | φ̄] (centred) or U_k, r×c column-major. */
  private static double[] readoutMatrix(
      double[] components, FeatureStatistics statistics, int r, int k, boolean centered) {
    double[] matrix = new double[r * (centered ? k + 1 : k)];
    System.arraycopy(components, 0, matrix, 0, r * k);
    if (centered) {
      System.arraycopy(statistics.mean(), 0, matrix, r * k, r);
    }
    return matrix;
  }

  private static FeaturePCA assemble(
      FeatureMap map,
      FeatureStatistics statistics,
      boolean centered,
      double[] spectrum,
      double[] components,
      LinearReadout readout,
      int k) {
    int r = map.outputDim();
    spectrum = withoutRoundingNoise(spectrum, statistics, centered, r);
    double[] mean = centered ? statistics.mean() : new double[r];
    double[] offset = new double[k];
    for (int c = 0; c < k; c++) {
      double o = 0;
      for (int i = 0; i < r; i++) {
        o += components[i + c * r] * mean[i];
      }
      offset[c] = o;
    }
    double meanSqNorm = 0;
    for (double v : mean) {
      meanSqNorm += v * v;
    }
    double diagonalMean = statistics.diagonalSum() / statistics.count();
    // The sum of all r eigenvalues: summed when all were found (as before partial spectra), else tr
    // C.
    double found = 0;
    if (spectrum.length == r) {
      for (double v : spectrum) {
        found += v;
      }
    } else {
      found = statistics.trace(centered);
    }
    double total;
    String method;
    if (!map.kernel().isPositiveDefinite()) {
      // The variance of the surrogate k~(x,y) = phi(x)'phi(y) itself: tr C, with the sum of the
      // eigenvalues found as its floor against rounding (ratios stay <= 1).
      total = Math.max(statistics.trace(centered), found);
      method =
          String.format(
              java.util.Locale.ROOT,
              "positive-part surrogate: %s of k~(x,y) = phi(x)'phi(y), the kernel being not positive"
                  + " definite; (1/n) sum ||phi(x)||^2 = %.6g against (1/n) sum k(x,x) = %.6g",
              centered ? "(1/n) sum ||phi(x)||^2 - ||mean phi||^2" : "(1/n) sum ||phi(x)||^2",
              statistics.trace(false),
              diagonalMean);
    } else if (centered
        && java.util.Arrays.stream(spectrum).allMatch(v -> v == 0)
        && diagonalMean - meanSqNorm
            <= 2.0 * (statistics.count() + r) * Math.ulp(1.0) * Math.abs(diagonalMean)) {
      // Constant rows: no eigenvalue beyond rounding, and (1/n) sum k(x,x) - ||mean||^2 within the
      // rounding of its sums: no variance, so none to explain (ratios 0).
      total = 0;
      method =
          map.isExplicit()
              ? "exact: (1/n) sum ||phi(x)||^2 - ||mean feature||^2"
              : NYSTROM_MEAN_METHOD;
    } else if (centered) {
      // Clamped at the variance found, which it bounds in exact arithmetic: rounding must not leave
      // it
      // below (ratios above 1) or negative (constant data: 0, and ratios 0).
      total = Math.max(diagonalMean - meanSqNorm, found);
      method =
          map.isExplicit()
              ? "exact: (1/n) sum ||phi(x)||^2 - ||mean feature||^2"
              : NYSTROM_MEAN_METHOD;
    } else {
      total = diagonalMean;
      method = map.isExplicit() ? "exact: (1/n) sum ||phi(x)||^2" : KERNEL_DIAGONAL_METHOD;
    }
    Projector projector = new Projector(readout, k, offset, meanSqNorm);
    return new FeaturePCA(
        map, statistics, centered, spectrum, components, projector, total, method);
  }

  /**
   * This model with more rows absorbed: their statistics merged into a copy of this model's and the
   * components solved again (same map, k and centring).
   */
  public FeaturePCA update(FeatureStatistics more, SpectrumExtent extent) {
    FeatureStatistics merged = statistics.copy().merge(more);
    return solve(map, merged, numComponents(), centered, extent);
  }

  /** This model keeping only the p leading eigenvalues found (p ≥ k); everything else is shared. */
  public FeaturePCA withLeadingEigenvalues(int p) {
    if (p < numComponents() || p > spectrum.length) {
      throw new IllegalArgumentException(
          "keep " + p + " eigenvalues of " + spectrum.length + " with k = " + numComponents());
    }
    return p == spectrum.length
        ? this
        : new FeaturePCA(
            map,
            statistics,
            centered,
            java.util.Arrays.copyOf(spectrum, p),
            components,
            projector,
            totalVariance,
            totalVarianceMethod);
  }

  /** k. */
  public int numComponents() {
    return projector.numComponents();
  }

  /** n, the number of rows the statistics hold. */
  public long count() {
    return statistics.count();
  }
}
