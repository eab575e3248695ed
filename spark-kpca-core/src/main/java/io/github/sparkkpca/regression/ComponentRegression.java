package io.github.sparkkpca.regression;

import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.pca.FeaturePCA;
import io.github.sparkkpca.pca.Projector;

/**
 * Kernel principal component regression (kPCR) on a fitted feature-space PCA: least squares of the
 * labels on the training scores of the leading components, with the coefficients of the labels in
 * the kernel PCA basis that Braun, Buhmann and Müller's relevant dimension estimate reads ({@link
 * RelevantDimension}).
 *
 * <p><b>Formulas.</b> The PCA of φ (Nyström: φ(x) = Wᵀk_x, W = K_mm^{-1/2}) has second moment
 * (uncentred, the default, as in Braun et al.) or covariance (centred, with an intercept, as in
 * Hallgren's thesis §6.7) C = UΣUᵀ. The training scores of component i are t_i = (u_iᵀ(φ(x_j) −
 * φ̄))_j (φ̄ := 0 uncentred) with t_iᵀt_k = nΣ_i δ_ik, so
 *
 * <pre>
 *   v_i = t_i / √(nΣ_i)               unit eigenvectors of the (Nyström) kernel matrix K̃ = K_nmK_mm⁻¹K_mn
 *                                     (centred: of HK̃H)
 *   s_i = v_iᵀY = u_iᵀ C_φy / √(nΣ_i)  C_φy = Σφ(x_j)y_jᵀ = WᵀK_mnY (uncentred), Σ(φ_j − φ̄)(y_j − ȳ)ᵀ (centred)
 *   β_i = (t_iᵀt_i)⁻¹ t_iᵀY = s_i / √(nΣ_i) = u_iᵀC_φy / (nΣ_i)
 *   ŷ(x) = [ȳ] + Σ_{i≤d} β_i u_iᵀ(φ(x) − φ̄)
 * </pre>
 *
 * This is Hallgren's Nyström KPCR β̂ = (W_dᵀW_d)⁻¹W_dᵀy′ with the 1/n his derivation drops (W_dᵀW_d
 * = nΛ̃_d). On the training rows ŷ = Σ_{i≤d} v_i s_i = π_d(Y), Braun et al.'s denoised labels. With
 * m = n landmarks K̃ = K, so everything is the exact kernel version.
 *
 * <p>Only components with Σ_i &gt; {@value #RELATIVE_CUTOFF}·Σ_1 (and at most N − 1 of them, N = n
 * uncentred, n − 1 centred) are used: below that, rounding in Σ_i dominates s_i.
 *
 * @param pca the feature PCA with its q leading components (centred iff an intercept is fitted)
 * @param statistics the labelled statistics it was solved from
 * @param q the number of usable components
 * @param coefficients s, q×c column-major
 * @param beta β, q×c column-major
 */
public record ComponentRegression(
    FeaturePCA pca, LabelledStatistics statistics, int q, double[] coefficients, double[] beta) {

  /** Components whose eigenvalue is at most this fraction of the largest one are not used. */
  public static final double RELATIVE_CUTOFF = 1e-10;

  /** The coefficients and least-squares weights of every usable component of {@code pca}. */
  public static ComponentRegression fit(FeaturePCA pca, LabelledStatistics statistics) {
    int k = pca.numComponents();
    int r = pca.map().outputDim();
    int c = statistics.labels();
    long n = statistics.count();
    double[] spectrum = pca.spectrum();
    int q = usableComponents(spectrum, k, coefficientCount(n, pca.centered()));
    if (q < 1) {
      throw new IllegalArgumentException(
          "no usable kernel principal component: the largest eigenvalue is "
              + spectrum[0]
              + " on "
              + n
              + " rows");
    }
    double[] g = new double[q * c];
    Blas.blas()
        .dgemm(
            "T",
            "N",
            q,
            c,
            r,
            1.0,
            pca.components(),
            r,
            statistics.cross(pca.centered()),
            r,
            0.0,
            g,
            q);
    double[] s = new double[q * c];
    double[] beta = new double[q * c];
    for (int j = 0; j < c; j++) {
      for (int i = 0; i < q; i++) {
        double scale = n * spectrum[i];
        s[i + j * q] = g[i + j * q] / Math.sqrt(scale);
        beta[i + j * q] = g[i + j * q] / scale;
      }
    }
    return new ComponentRegression(pca, statistics, q, s, beta);
  }

  /** The number of components with Σ_i above the cut-off, at most {@code k} and N − 1. */
  public static int usableComponents(double[] spectrum, int k, long count) {
    int q = 0;
    while (q < Math.min(k, count - 1) && spectrum[q] > RELATIVE_CUTOFF * spectrum[0]) {
      q++;
    }
    return q;
  }

  /** N: n coefficients uncentred, n − 1 centred (the centred eigenvectors are orthogonal to 1). */
  public static long coefficientCount(long n, boolean centred) {
    return centred ? n - 1 : n;
  }

  /** Whether an intercept ȳ is fitted (the PCA is centred). */
  public boolean intercept() {
    return pca.centered();
  }

  /** N. */
  public long count() {
    return coefficientCount(statistics.count(), intercept());
  }

  /** ‖Y‖² per label column (‖Y − ȳ‖² with an intercept). */
  public double[] labelSquares() {
    return statistics.labelSquares(intercept());
  }

  /** Braun et al.'s relevant dimension on these coefficients. */
  public RelevantDimension relevantDimension() {
    return RelevantDimension.of(coefficients, q, labelSquares(), count());
  }

  /** The same curve with σ₁², σ₂² read at d (0: at the minimum). */
  public RelevantDimension relevantDimension(int d) {
    return RelevantDimension.of(coefficients, q, labelSquares(), count(), d);
  }

  /**
   * The predictor with d components: ŷ_c(x) = Σ_{i≤d} β_ic u_iᵀ(φ(x) − φ̄) [+ ȳ_c], as a {@link
   * Projector} whose c "scores" are the predictions (a kernel expansion over the landmarks for
   * Nyström).
   */
  public Projector predictor(int d) {
    if (d < 1 || d > q) {
      throw new IllegalArgumentException(
          "dimension d = " + d + " must be in [1, " + q + "] (the usable components)");
    }
    int r = pca.map().outputDim();
    int c = statistics.labels();
    double[] direction = new double[r * c];
    double[] betaD = new double[d * c];
    for (int j = 0; j < c; j++) {
      System.arraycopy(beta, j * q, betaD, j * d, d);
    }
    Blas.blas().dgemm("N", "N", r, c, d, 1.0, pca.components(), r, betaD, d, 0.0, direction, r);
    double[] offset = new double[c];
    if (intercept()) {
      double[] mean = statistics.features().mean();
      double[] labelMean = statistics.labelMean();
      for (int j = 0; j < c; j++) {
        double o = 0;
        for (int i = 0; i < r; i++) {
          o += direction[i + j * r] * mean[i];
        }
        offset[j] = o - labelMean[j];
      }
    }
    return new Projector(pca.map().readout(direction, c), c, offset, 0.0);
  }

  /** n Σ_i for the q usable components: t_iᵀt_i. */
  public double[] scoreSquares() {
    double[] out = new double[q];
    for (int i = 0; i < q; i++) {
      out[i] = statistics.count() * pca.spectrum()[i];
    }
    return out;
  }
}
