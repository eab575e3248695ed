package io.github.sparkkpca.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.feature.FeatureMap;
import io.github.sparkkpca.feature.NystromFeatureMap;
import io.github.sparkkpca.feature.RandomFourierFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.linalg.RowSet;
import io.github.sparkkpca.persistence.ModelChecks.Sizes;
import java.util.Arrays;
import java.util.Locale;

/**
 * Cross-checks of the numbers a saved model stores in more than one place, made on load after the
 * sizes: what the {@link Manifest} cannot prove for a model saved without one, or written by hand.
 * Each check allows for rounding only; a refusal names both files and both values.
 */
final class StoredNumbers {

  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(StoredNumbers.class);

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
   * The metadata's {@code k} param (when set) against the summary's numComponents: a model reports
   * the number of components it scores, so another k would misreport it.
   */
  static void components(JsonNode metadata, int numComponents, String what) {
    JsonNode k = metadata.path("paramMap").path("k");
    if (k.isInt() && k.asInt() != numComponents) {
      throw new IllegalArgumentException(
          what
              + "its metadata records k = "
              + k.asInt()
              + " but data/summary records numComponents = "
              + numComponents);
    }
  }

  /**
   * A feature-map model's score offset o = U_kᵀφ̄ and ‖φ̄‖² (zero when uncentred), stored in the
   * summary, against those its components and its statistics' mean give now ({@code derived}, the
   * restored projector's): the scores are U_kᵀφ(x) − o, so an edited mean, component or offset that
   * moves a score moves o_c by as much. The allowance is the rounding of an r-term dot product,
   * {@value Plausibility#MARGIN}·r·u·‖φ̄‖ (‖u_c‖ = 1). O(k) on top of the restore's O(r·k).
   */
  static void offset(
      double[] storedOffset,
      double storedMeanSqNorm,
      io.github.sparkkpca.pca.Projector derived,
      int r,
      String what) {
    double[] offset = derived.offset();
    Sizes.equal(offset.length, "numComponents", storedOffset.length, "entries in its offset");
    double meanSqNorm = derived.meanSqNorm();
    double rounding = Plausibility.MARGIN * r * Math.ulp(1.0);
    double allowance = rounding * Math.sqrt(meanSqNorm) + Double.MIN_NORMAL;
    for (int c = 0; c < offset.length; c++) {
      if (!(Math.abs(storedOffset[c] - offset[c]) <= allowance)) {
        throw new IllegalArgumentException(
            what
                + String.format(
                    Locale.ROOT,
                    "data/summary: offset entry %d = %.17g, but data/components and"
                        + " data/statistics' mean give u_%d'mean = %.17g (within %.2g): the mean,"
                        + " the components or the offset were edited",
                    c,
                    storedOffset[c],
                    c,
                    offset[c],
                    allowance));
      }
    }
    if (!(Math.abs(storedMeanSqNorm - meanSqNorm) <= rounding * meanSqNorm + Double.MIN_NORMAL)) {
      throw new IllegalArgumentException(
          what
              + String.format(
                  Locale.ROOT,
                  "data/summary: meanSqNorm = %.17g, but data/statistics' mean gives ||mean||^2 ="
                      + " %.17g: the mean or meanSqNorm were edited",
                  storedMeanSqNorm,
                  meanSqNorm));
    }
  }

  /**
   * The relative difference a regenerated random feature may show: the draw's {@code log}, {@code
   * exp} and {@code tan} may round differently by an ulp or two between JVMs and JIT compilers.
   */
  static final double REDRAW_TOLERANCE = 1e-12;

  /**
   * The metadata field recording the seed a random Fourier map was drawn from, written with the map
   * ({@link ModelData#metadataFields}) so that a load can draw it again whatever the params say (a
   * warm-started stream keeps an earlier model's map under its own seed param).
   */
  static final String DRAW_SEED = "randomFeatureSeed";

  /**
   * A random Fourier map against the draw its metadata determines: the frequencies and phases are
   * drawn on the driver from the seed alone, in a fixed order ({@link
   * RandomFourierFeatureMap#draw}), with the fitted kernel's spectral density, so the metadata's
   * kernel, γ and draw seed ({@value #DRAW_SEED}) reproduce every stored value. An edited frequency
   * or phase, or an edited kernel, γ or seed (with which the model would misreport itself), is
   * refused naming the row. A model saved before the draw seed was recorded is drawn again from its
   * {@code seed} param (set or default), and only a warning says when that does not reproduce it (a
   * warm-started stream's model records another seed param than its map's). Cost: D·(d + 1) draws,
   * the order of reading the table.
   *
   * @return the map, recording its draw seed once checked
   */
  static FeatureMap randomFeatures(FeatureMap map, JsonNode metadata, String what) {
    if (!(map instanceof RandomFourierFeatureMap rff)) {
      return map;
    }
    JsonNode seed = metadata.path(DRAW_SEED);
    boolean recorded = seed.isIntegralNumber();
    if (!recorded) {
      seed = metadata.path("paramMap").path("seed");
      if (!seed.isIntegralNumber()) {
        seed = metadata.path("defaultParamMap").path("seed");
      }
    }
    if (!seed.isIntegralNumber()) {
      return map;
    }
    RandomFourierFeatureMap.DrawDifference diff =
        rff.differenceFromDraw(seed.asLong(), REDRAW_TOLERANCE);
    if (diff == null) {
      return rff.withDrawSeed(seed.asLong());
    }
    String line =
        String.format(
            Locale.ROOT,
            "data/frequencies row %d: %s = %.17g, but seed %d draws %.17g with the metadata's"
                + " kernel %s (gamma %s): the frequencies, the phases, the kernel or the seed were"
                + " edited",
            diff.feature(),
            diff.coordinate() < 0 ? "the phase" : "frequency entry " + diff.coordinate(),
            diff.stored(),
            seed.asLong(),
            diff.drawn(),
            rff.kernel().type().paramName(),
            rff.kernel().gamma());
    if (recorded) {
      throw new IllegalArgumentException(what + line);
    }
    LOG.warn(
        "{}{} (or the model was saved before its draw seed was recorded and its seed param is not"
            + " that of its features; save it again to record it)",
        what.replaceFirst("^Cannot load", "Cannot verify"),
        line);
    return map;
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
   * #LANDMARK_PROBES} landmarks, and between two of them φ(z_i)ᵀφ(z_j) = k_iᵀK_mm⁺k_j = k(z_i,z_j).
   * Another kernel or γ than the weights were computed with breaks this (K_mm⁺ then whitens another
   * matrix): a γ moved by δ moves k(z_i,z_j) by O(δ) and the features' product by twice that, while
   * on the diagonal (k(z,z) = 1 for rbf whatever γ) only O(δ²) shows. Unlike the whitening check
   * ({@link Plausibility#whitening}), whose rounding grows with κ(K_mm), the features' products are
   * exact to O(m·u·‖K‖ + (m·u·‖K‖)²/λ_min), so the check decides on ill-conditioned landmarks too.
   *
   * <p>Made on the landmarks as stored, through the map's own kernel block ({@link
   * LandmarkKernel#compute} on one block of the p probes): nothing of size m×d is built for sparse
   * landmarks. Cost: the k(z,z) from the stored squared norms (O(nnz(Z)), or O(m·d) for landmarks
   * held dense), the m×p kernel block (on the sparse path Σ_{t ∈ nz(probes)} nnz(Z[:,t]) ≤ p·m·max
   * nnz(z) multiply-adds, on the dense path 2·p·m·d flops), then p·m·r for the features and p²·r
   * for their products; memory 8·(m + r)·p bytes and the probes' stored entries.
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
    double[] features = new double[Math.multiplyExact(r, probes)];
    double tolerance = LANDMARK_TOLERANCE * Math.max(largest, Double.MIN_NORMAL);
    for (int p = 0; p < probes; p++) {
      int j = probe[p];
      int o = p * m;
      double norm = 0;
      for (int c = 0; c < r; c++) {
        double phi = 0;
        for (int i = 0; i < (nystrom.isTriangular() ? c + 1 : m); i++) {
          phi += w[i + c * m] * columns[o + i];
        }
        features[c + p * r] = phi;
        norm += phi * phi;
      }
      for (int q = 0; q < p; q++) {
        double product = 0;
        for (int c = 0; c < r; c++) {
          product += features[c + p * r] * features[c + q * r];
        }
        double value = columns[o + probe[q]];
        if (!(Math.abs(product - value) <= tolerance)) {
          throw new IllegalArgumentException(
              what
                  + String.format(
                      Locale.ROOT,
                      "data/landmarks rows %d and %d: their features give phi(z_i)'phi(z_j) = %.6g"
                          + " where the metadata's kernel %s gives k(z_i,z_j) = %.6g: the weights"
                          + " were computed with another kernel or gamma, or from kernel values that"
                          + " lost their precision",
                      probe[q],
                      j,
                      product,
                      kernel.type().paramName(),
                      value));
        }
      }
      double exact = kernel.diagonal(sqNorms[j]);
      if (!(Math.abs(norm - exact) <= tolerance)) {
        throw new IllegalArgumentException(
            what
                + String.format(
                    Locale.ROOT,
                    "data/landmarks row %d: its weights give the landmark ||phi(z)||^2 = %.6g where "
                        + "the metadata's kernel %s gives k(z,z) = %.6g: the weights were computed "
                        + "with another kernel or gamma, or from kernel values that lost their "
                        + "precision",
                    j,
                    norm,
                    kernel.type().paramName(),
                    exact));
      }
    }
  }
}
