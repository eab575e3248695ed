package io.github.sparkkpca.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.feature.FeatureMap;
import io.github.sparkkpca.feature.NystromFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.linalg.RowSet;
import java.util.Arrays;
import java.util.Locale;

/**
 * Cross-checks of the numbers a saved model stores in more than one place, made on load after the
 * sizes: what the {@link Manifest} cannot prove for a model saved without one, or written by hand.
 * Each check allows for rounding only; a refusal names both files and both values.
 */
final class StoredNumbers {

  /**
   * Relative rounding allowance of sums over the r features or n rows (far above the O(r·ε) and
   * O(√n·ε) of the sums, far below any edit that changes a score).
   */
  static final double ROUNDING = 1e-9;

  /** Landmarks whose Nyström features are compared with the kernel ({@link #landmarkKernel}). */
  static final int LANDMARK_PROBES = 32;

  /**
   * Allowance of ‖φ(z)‖² against k(z,z) on a landmark, relative to the largest k(z,z): the dropped
   * directions (below rcond·λ_max) and the rounding of a whitening with condition up to 1/rcond.
   */
  static final double LANDMARK_TOLERANCE = 1e-5;

  private StoredNumbers() {}

  /** The metadata's {@code centered} param (set, else its default) against the summary's. */
  static void centering(JsonNode metadata, boolean centered, String what) {
    JsonNode param = metadata.path("paramMap").path("centered");
    if (!param.isBoolean()) {
      param = metadata.path("defaultParamMap").path("centered");
    }
    if (param.isBoolean() && param.asBoolean() != centered) {
      throw new IllegalArgumentException(
          what
              + "its metadata records centered = "
              + param.asBoolean()
              + " but data/summary records centered = "
              + centered);
    }
  }

  /**
   * A feature-map model: the statistics' count against the summary's numRows, the total variance
   * the statistics give against the summary's, and the spectrum against the most it can sum to.
   *
   * @param bound what the positive eigenvalues sum to at most: (1/n)Σk(x,x) − ‖φ̄‖² (centred) or
   *     (1/n)Σk(x,x) for a positive definite kernel (‖φ(x)‖² ≤ k(x,x)), the trace of the features'
   *     covariance for the surrogate of an indefinite one
   * @param scale the magnitude the sums are rounded against
   */
  static void featureModel(
      long count,
      long numRows,
      double storedTotal,
      double total,
      double[] spectrum,
      double bound,
      double scale,
      String what) {
    if (count != numRows) {
      throw new IllegalArgumentException(
          what
              + "data/statistics records count = "
              + count
              + " but data/summary records numRows = "
              + numRows);
    }
    if (!(Math.abs(storedTotal - total) <= ROUNDING * scale)) {
      throw new IllegalArgumentException(
          what
              + "data/summary records totalVariance = "
              + storedTotal
              + " but data/statistics give "
              + total);
    }
    spectrum(spectrum, bound, scale, what);
  }

  /** The positive eigenvalues sum to at most {@code bound}, within rounding of {@code scale}. */
  static void spectrum(double[] spectrum, double bound, double scale, String what) {
    double sum = 0;
    for (double value : spectrum) {
      sum += Math.max(value, 0.0);
    }
    if (!(sum <= bound + ROUNDING * scale)) {
      throw new IllegalArgumentException(
          what
              + String.format(
                  Locale.ROOT,
                  "data/summary: the spectrum's eigenvalues sum to %.17g, more than the total "
                      + "variance %.17g",
                  sum,
                  bound));
    }
  }

  /** An uncentred expansion model has a zero offset and mean norm. */
  static void uncentredOffset(boolean centered, double[] offset, double meanSqNorm, String what) {
    if (centered) {
      return;
    }
    boolean zero = meanSqNorm == 0;
    for (double o : offset) {
      zero &= o == 0;
    }
    if (!zero) {
      throw new IllegalArgumentException(
          what
              + "data/summary records centered = false but an offset "
              + Arrays.toString(offset)
              + " and meanSqNorm = "
              + meanSqNorm
              + " (zero when uncentred)");
    }
  }

  /**
   * The metadata's kernel against the Nyström map's weights: for a positive definite kernel the
   * features of a landmark z reproduce the kernel there, ‖φ(z)‖² = k_zᵀ K_mm⁺ k_z = k(z,z) (up to
   * the directions dropped below rcond), for an evenly spread set of at most {@value
   * #LANDMARK_PROBES} landmarks. Another kernel or γ than the weights were computed with breaks
   * this (K_mm⁺ then whitens another matrix).
   *
   * <p>Made on the landmarks as stored, through the map's own kernel block ({@link
   * LandmarkKernel#compute} on one block of the p probes): nothing of size m×d is built for sparse
   * landmarks. Cost: the k(z,z) from the stored squared norms (O(nnz(Z)), or O(m·d) for landmarks
   * held dense), the m×p kernel block (on the sparse path Σ_{t ∈ nz(probes)} nnz(Z[:,t]) ≤ p·m·max
   * nnz(z) multiply-adds, on the dense path 2·p·m·d flops), then p·m·r for the features; memory
   * 8·m·p bytes and the probes' stored entries.
   */
  static void landmarkKernel(FeatureMap map, Kernel kernel, String what) {
    if (!(map instanceof NystromFeatureMap nystrom) || !kernel.isPositiveDefinite()) {
      return;
    }
    // The map's kernel block when it binds the metadata's kernel (as a loaded map does), else the
    // metadata's kernel bound to the same stored landmarks.
    LandmarkKernel landmarks =
        nystrom.landmarkKernel().kernel().sameFunction(kernel)
            ? nystrom.landmarkKernel()
            : new LandmarkKernel(kernel, nystrom.landmarkKernel().points());
    int m = landmarks.numLandmarks();
    int r = nystrom.rank();
    if (m == 0) {
      return;
    }
    RowSet points = landmarks.points();
    double[] sqNorms = points.sqNorms();
    double[] w = nystrom.weights();
    double largest = 0;
    for (int j = 0; j < m; j++) {
      largest = Math.max(largest, Math.abs(kernel.diagonal(sqNorms[j])));
    }
    int probes = Math.min(m, LANDMARK_PROBES);
    int[] probe = new int[probes];
    RowBlock block = landmarks.newBlock(probes);
    for (int p = 0; p < probes; p++) {
      probe[p] = (int) ((long) p * m / probes);
      block.add(points.row(probe[p]), "data/landmarks");
    }
    double[] columns = new double[Math.multiplyExact(m, probes)];
    landmarks.compute(block, columns);
    for (int p = 0; p < probes; p++) {
      int j = probe[p];
      int o = p * m;
      double norm = 0;
      for (int c = 0; c < r; c++) {
        double phi = 0;
        for (int i = 0; i < (nystrom.isTriangular() ? c + 1 : m); i++) {
          phi += w[i + c * m] * columns[o + i];
        }
        norm += phi * phi;
      }
      double exact = kernel.diagonal(sqNorms[j]);
      if (!(Math.abs(norm - exact) <= LANDMARK_TOLERANCE * Math.max(largest, Double.MIN_NORMAL))) {
        throw new IllegalArgumentException(
            what
                + String.format(
                    Locale.ROOT,
                    "data/landmarks row %d: its weights give the landmark ||phi(z)||^2 = %.6g where "
                        + "the metadata's kernel %s gives k(z,z) = %.6g: the weights do not whiten "
                        + "this kernel on these landmarks (computed with another kernel or gamma, "
                        + "or from kernel values that lost their precision)",
                    j,
                    norm,
                    kernel.type().paramName(),
                    exact));
      }
    }
  }
}
