package io.github.sparkkpca.persistence;

import io.github.sparkkpca.feature.KernelExpansion;
import io.github.sparkkpca.feature.NystromFeatureMap;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.RowBlock;
import java.util.Locale;

/**
 * The checks, made on load, of what the numbers of a valid model satisfy whatever their values: an
 * edit that the {@link Manifest} cannot reveal (a model saved before manifests, or one edited and
 * its manifest recomputed) and that would change scores is refused, naming the file, the entry and
 * both values. {@link StoredNumbers} compares numbers stored twice; these compare numbers with the
 * mathematics that produced them. Every check costs at most O(r²·k + P·m·(r + c)) for r features, k
 * components, m landmarks, P ≤ {@value #PROBES} probes and c the cost of one kernel value (the
 * non-zeros of a sparse landmark, never d), independent of n:
 *
 * <ul>
 *   <li>{@link #spectrum}: eigenvalues of a covariance are ≥ 0 and stored in descending order (so
 *       with Σλ ≤ total variance, checked by {@link StoredNumbers#spectrum}, every explained ratio
 *       lies in [0, 1]);
 *   <li>{@link #components}: U_kᵀU_k = I and C u_c = λ_c u_c, C the covariance the statistics give,
 *       O(r²·k);
 *   <li>{@link #whitening}: the Nyström W whitens the kernel matrix of the landmarks, W Wᵀ K_mm = Π
 *       the orthogonal projector on its kept eigenvectors (I at full rank), on probe columns of
 *       K_mm, for positive definite and indefinite kernels alike; and the triangular W = R⁻¹ has a
 *       positive diagonal;
 *   <li>{@link #exactExpansion}: the coefficients of exact kernel PCA are α_c = v_c/√(nλ_c), v_c
 *       orthonormal, so n·√(λ_cλ_e)·α_cᵀα_e = δ_ce, O(m·k²).
 * </ul>
 *
 * <p><b>Tolerances</b> are rounding bounds, derived from the computation that produced the numbers
 * with a margin of {@value #MARGIN} on the constants: u = 2⁻⁵³ the unit roundoff, a symmetric
 * eigensolver of an r×r matrix returns vectors orthonormal to O(r·u) and residuals ‖C u − λu‖ of
 * O(r·u·‖C‖) (the block Krylov solver stops at ‖C u − λu‖ ≤ {@value #KRYLOV_TOLERANCE}·λ_1, which
 * is added); a whitening of a matrix with condition κ is exact for a matrix within O(m·u·‖K‖), so W
 * Wᵀ K_mm differs from a projector by O(m·u·‖W‖²·‖K‖) ≥ O(m·u·κ). An edit that changes a score by
 * more than rounding moves the checked quantities by as much; only an edit within rounding passes.
 * A check that rounding makes undecidable (an ill-conditioned whitening whose bound exceeds 1)
 * passes rather than refusing a genuine model.
 *
 * <p><b>What no check can see.</b> The sign of an eigenvector is a convention: flipping a column of
 * a non-triangular W (an eigenvector of K_mm, sign arbitrary) gives another valid whitening and
 * breaks only its relation to the mean and scatter, which were accumulated from the training rows
 * that the model does not keep. Feature names swapped remain distinct names.
 */
final class Plausibility {

  /** Safety factor on the constants of the rounding bounds. */
  static final double MARGIN = 64;

  /** The block Krylov solver's residual tolerance relative to λ_1, the largest it accepts. */
  static final double KRYLOV_TOLERANCE = 1e-12;

  /** Landmarks whose kernel column is compared with the whitening ({@link #whitening}). */
  static final int PROBES = 16;

  private static final double U = Math.ulp(1.0) / 2;

  private Plausibility() {}

  /**
   * The spectrum is in descending order (within rounding of its largest value) and, when {@code
   * nonNegative}, every entry is ≥ 0. Feature-map models store eigenvalues of a covariance or
   * second moment of real features, positive semi-definite for every kernel (an indefinite kernel's
   * model is the PCA of its positive-part surrogate), and exact models only the positive
   * eigenvalues of the kernel matrix; so {@code nonNegative} is false only for format-1 models of
   * an indefinite kernel.
   *
   * @param dim the order of the matrix the eigenvalues are of (its rounding scales with it)
   */
  static void spectrum(double[] spectrum, int dim, boolean nonNegative, String what) {
    double scale = 0;
    for (double v : spectrum) {
      scale = Math.max(scale, Math.abs(v));
    }
    for (int i = 0; i < spectrum.length; i++) {
      if (nonNegative && spectrum[i] < 0) {
        throw new IllegalArgumentException(
            what
                + String.format(
                    Locale.ROOT,
                    "data/summary: spectrum entry %d = %.17g is negative, but the eigenvalues of a"
                        + " covariance are >= 0",
                    i,
                    spectrum[i]));
      }
      double allowance = MARGIN * dim * U * scale;
      if (i > 0 && !(spectrum[i] <= spectrum[i - 1] + allowance)) {
        throw new IllegalArgumentException(
            what
                + String.format(
                    Locale.ROOT,
                    "data/summary: spectrum entry %d = %.17g exceeds entry %d = %.17g, but the"
                        + " eigenvalues are stored in descending order",
                    i,
                    spectrum[i],
                    i - 1,
                    spectrum[i - 1]));
      }
    }
  }

  /**
   * The components U_k (r×k column-major) are orthonormal, and, when the scatter M is given, they
   * are eigenvectors of the covariance C = M/n (centred) or C = M/n + φ̄φ̄ᵀ (uncentred) with the
   * eigenvalues of the spectrum: ‖C u_c − λ_c u_c‖ within rounding of ‖C‖ (estimated by max_c ‖C
   * u_c‖ = λ_1 for unit eigenvectors). O(r²·k) flops, no r×r copy.
   *
   * @param scatter M as stored (r×r column-major, the upper triangle read), or null for statistics
   *     kept without it (RF-Oja)
   */
  static void components(
      double[] u,
      int r,
      int k,
      double[] scatter,
      long count,
      double[] mean,
      boolean centered,
      double[] spectrum,
      String what) {
    double orthonormal = MARGIN * r * U;
    for (int c = 0; c < k; c++) {
      for (int e = 0; e <= c; e++) {
        double dot = Blas.blas().ddot(r, u, c * r, 1, u, e * r, 1);
        double expected = c == e ? 1 : 0;
        if (!(Math.abs(dot - expected) <= orthonormal)) {
          throw new IllegalArgumentException(
              what
                  + String.format(
                      Locale.ROOT,
                      "data/components columns %d and %d: u_%d'u_%d = %.17g, but orthonormal"
                          + " components give %d (within %.2g)",
                      e,
                      c,
                      e,
                      c,
                      dot,
                      (int) expected,
                      orthonormal));
        }
      }
    }
    if (scatter == null) {
      return;
    }
    double[] product = new double[r * k];
    Blas.blas().dsymm("L", "U", r, k, 1.0 / count, scatter, r, u, r, 0.0, product, r);
    if (!centered) {
      for (int c = 0; c < k; c++) {
        double along = Blas.blas().ddot(r, mean, 0, 1, u, c * r, 1);
        Blas.blas().daxpy(r, along, mean, 0, 1, product, c * r, 1);
      }
    }
    double norm = 0;
    for (int c = 0; c < k; c++) {
      norm = Math.max(norm, Blas.blas().dnrm2(r, product, c * r, 1));
    }
    double allowance = (KRYLOV_TOLERANCE + MARGIN * r * U) * norm + Double.MIN_NORMAL;
    for (int c = 0; c < k; c++) {
      double residual = 0;
      for (int i = 0; i < r; i++) {
        double v = product[i + c * r] - spectrum[c] * u[i + c * r];
        residual += v * v;
      }
      residual = Math.sqrt(residual);
      if (!(residual <= allowance)) {
        throw new IllegalArgumentException(
            what
                + String.format(
                    Locale.ROOT,
                    "data/components column %d is not an eigenvector of the covariance of"
                        + " data/statistics and data/scatter with data/summary's spectrum entry %d"
                        + " = %.17g: ||C u - lambda u|| = %.6g where rounding allows %.2g",
                    c,
                    c,
                    spectrum[c],
                    residual,
                    allowance));
      }
    }
  }

  /**
   * The Nyström weights against the metadata's kernel on the landmarks. W = R⁻¹ (triangular, full
   * rank) has the positive diagonal 1/R_jj of the Cholesky factor. For evenly spread probes j (at
   * most {@value #PROBES}), with k_j the column j of K_mm computed now, g = W Wᵀ k_j is column j of
   * W Wᵀ K_mm = V₊V₊ᵀ, the orthogonal projector Π on the kept eigenvectors of K_mm (those of the
   * positive eigenvalues above rcond·max|λ|, for positive definite and indefinite kernels alike): g
   * = e_j at full rank, and else g_j = e_jᵀΠe_j = ‖Πe_j‖² = ‖g‖², and g⁽ⁱ⁾_j = g⁽ʲ⁾_i between
   * probes (Π symmetric). Another kernel or γ than W was computed with, or an edited weight, breaks
   * these. The rounding allowance is {@value #MARGIN}·m·u·‖W‖_F²·‖K_mm‖, ‖W‖_F² ≥ ‖W‖₂² and ‖K_mm‖
   * estimated by √(m/P·Σ_probes ‖k_j‖²) (its Frobenius norm, exact when every landmark is a probe).
   * Cost P kernel columns and 4·P·m·r flops.
   */
  static void whitening(NystromFeatureMap map, String what) {
    LandmarkKernel landmarks = map.landmarkKernel();
    int m = landmarks.numLandmarks();
    int r = map.rank();
    double[] w = map.weights();
    if (map.isTriangular()) {
      for (int j = 0; j < m; j++) {
        if (!(w[j + j * m] > 0)) {
          throw new IllegalArgumentException(
              what
                  + String.format(
                      Locale.ROOT,
                      "data/landmarks row %d: weight %d = %.17g, but the triangular whitening W ="
                          + " R^-1 of the Cholesky factor R has a positive diagonal",
                      j,
                      j,
                      w[j + j * m]));
        }
      }
    }
    int probes = Math.min(m, PROBES);
    int[] at = new int[probes];
    RowBlock block = landmarks.newBlock(probes);
    for (int p = 0; p < probes; p++) {
      at[p] = (int) ((long) p * m / probes);
      block.add(landmarks.landmark(at[p]), "landmarks");
    }
    double[] columns = new double[m * probes];
    landmarks.compute(block, columns);
    double kernelSq = 0;
    for (double v : columns) {
      kernelSq += v * v;
    }
    double weightSq = 0;
    for (double v : w) {
      weightSq += v * v;
    }
    double allowance = MARGIN * m * U * weightSq * Math.sqrt(kernelSq * m / probes);
    if (!(allowance < 1)) {
      return; // rounding could explain any value: undecidable, not refused
    }
    double[] features = new double[r * probes];
    Blas.blas().dgemm("T", "N", r, probes, m, 1.0, w, m, columns, m, 0.0, features, r);
    double[] g = new double[m * probes];
    Blas.blas().dgemm("N", "N", m, probes, r, 1.0, w, m, features, r, 0.0, g, m);
    for (int p = 0; p < probes; p++) {
      int j = at[p];
      int o = p * m;
      double sq = Blas.blas().ddot(m, g, o, 1, g, o, 1);
      if (r == m) {
        for (int i = 0; i < m; i++) {
          double expected = i == j ? 1 : 0;
          if (!(Math.abs(g[o + i] - expected) <= allowance)) {
            throw whiteningRefusal(
                what, j, "entry " + i + " of W W' k_j", g[o + i], expected, allowance, map);
          }
        }
      } else if (!(Math.abs(g[o + j] - sq) <= 3 * allowance)) {
        throw whiteningRefusal(what, j, "entry j of W W' k_j", g[o + j], sq, allowance, map);
      }
      for (int q = 0; q < p; q++) {
        double ij = g[q * m + j];
        double ji = g[o + at[q]];
        if (!(Math.abs(ij - ji) <= 2 * allowance)) {
          throw whiteningRefusal(
              what,
              j,
              "entry " + j + " of W W' k_" + at[q] + " against entry " + at[q] + " of W W' k_j",
              ij,
              ji,
              allowance,
              map);
        }
      }
    }
  }

  private static IllegalArgumentException whiteningRefusal(
      String what,
      int j,
      String entry,
      double value,
      double expected,
      double allowance,
      NystromFeatureMap map) {
    return new IllegalArgumentException(
        what
            + String.format(
                Locale.ROOT,
                "data/landmarks row %d: with the metadata's kernel %s (k_j its kernel column),"
                    + " %s = %.10g where a whitening of the landmarks' kernel matrix gives %.10g"
                    + " (within %.2g): the weights were edited or computed with another kernel or"
                    + " gamma, or from kernel values that lost their precision",
                j,
                map.kernel().type().paramName(),
                entry,
                value,
                expected,
                allowance));
  }

  /**
   * Exact kernel PCA on n rows stores α_c = v_c/√(nλ_c), v_c orthonormal eigenvectors of the
   * (centred) kernel matrix and λ_c = μ_c/n the spectrum: n·√(λ_cλ_e)·α_cᵀα_e = v_cᵀv_e = δ_ce. The
   * rounding allowance grows with λ_1/λ_c: an eigenvector of a small eigenvalue is resolved to
   * O(n·u·λ_1/λ_c) (and, centred, loses that much of its component along 1). O(n·k²) flops. The
   * support points are the n training rows (the caller checks that their count is numRows).
   */
  static void exactExpansion(KernelExpansion expansion, int k, double[] spectrum, String what) {
    int n = expansion.support().numLandmarks();
    double[] alpha = expansion.coefficients();
    for (int c = 0; c < k; c++) {
      if (!(spectrum[c] > 0)) {
        throw new IllegalArgumentException(
            what
                + String.format(
                    Locale.ROOT,
                    "data/summary: spectrum entry %d = %.17g, but exact kernel PCA keeps"
                        + " components of positive eigenvalues only",
                    c,
                    spectrum[c]));
      }
      for (int e = 0; e <= c; e++) {
        double dot = Blas.blas().ddot(n, alpha, c * n, 1, alpha, e * n, 1);
        double normalised = n * Math.sqrt(spectrum[c] * spectrum[e]) * dot;
        double expected = c == e ? 1 : 0;
        double allowance = MARGIN * n * U * spectrum[0] / spectrum[c];
        if (!(Math.abs(normalised - expected) <= allowance)) {
          throw new IllegalArgumentException(
              what
                  + String.format(
                      Locale.ROOT,
                      "data/support coefficient columns %d and %d with data/summary's spectrum"
                          + " entries %d and %d: n sqrt(lambda_%d lambda_%d) alpha_%d'alpha_%d ="
                          + " %.17g, but exact kernel PCA gives %d (within %.2g)",
                      e,
                      c,
                      e,
                      c,
                      e,
                      c,
                      e,
                      c,
                      normalised,
                      (int) expected,
                      allowance));
        }
      }
    }
  }
}
