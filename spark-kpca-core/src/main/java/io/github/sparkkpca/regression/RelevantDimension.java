package io.github.sparkkpca.regression;

/**
 * Braun, Buhmann and Müller's relevant dimension estimate ("Denoising and Dimension Reduction in
 * Feature Space", NIPS 2006, §3; JMLR 9, 2008): the coefficients s_i = u_iᵀY of the labels in the
 * kernel PCA basis (eigenvectors u_i of the kernel matrix in descending order) are modelled as two
 * zero-mean Gaussian groups, s_i ~ N(0, σ₁²) for i ≤ d (the label information) and s_i ~ N(0, σ₂²)
 * for i &gt; d (the noise floor). The relevant dimension minimises the negative log-likelihood, up
 * to constants (eq. 1):
 *
 * <pre>
 *   ℓ(d) = (d/N) log σ₁²(d) + ((N − d)/N) log σ₂²(d),
 *   σ₁²(d) = (1/d) Σ_{i≤d} s_i²,   σ₂²(d) = (‖Y‖² − Σ_{i≤d} s_i²)/(N − d),
 * </pre>
 *
 * where N is the number of coefficients (n, or n − 1 when the labels and the kernel are centred:
 * the centred eigenvectors span the complement of the constant vector). Σ_{i=1}^N s_i² = ‖Y‖²
 * because the eigenvectors are an orthonormal basis, so the curve needs only the leading
 * coefficients: with Nyström components (fewer than N) the label energy outside their span is still
 * counted in σ₂². σ₂² estimates the label noise variance E(Y − E(Y|X))².
 *
 * <p>For c label columns (one-vs-rest classes) the columns share d and ℓ is the sum of their curves
 * (an extension: the paper treats one ±1 label). Variances are floored at 10⁻¹² ‖Y‖²/N so that a
 * coefficient that is exactly 0 gives a finite ℓ.
 *
 * @param logLikelihood ℓ(d) for d = 1..q (index d − 1)
 * @param dimension the d minimising ℓ (the smallest one on ties)
 * @param signalVariance σ₁²(d) at that d, per label column
 * @param noiseVariance σ₂²(d) at that d, per label column
 */
public record RelevantDimension(
    double[] logLikelihood, int dimension, double[] signalVariance, double[] noiseVariance) {

  private static final double FLOOR = 1e-12;

  /**
   * Evaluates ℓ(1..q) and its minimum.
   *
   * @param coefficients s, q×c column-major (q leading coefficients per label column)
   * @param labelSquares ‖Y‖² per label column (the same centring as s)
   * @param count N, the number of coefficients in all (q ≤ N − 1)
   */
  public static RelevantDimension of(
      double[] coefficients, int q, double[] labelSquares, long count) {
    return of(coefficients, q, labelSquares, count, 0);
  }

  /**
   * The curve ℓ(1..q), with σ₁² and σ₂² read at a given d instead of the minimum.
   *
   * @param fixed d in [1, q], or 0 for the argmin
   */
  public static RelevantDimension of(
      double[] coefficients, int q, double[] labelSquares, long count, int fixed) {
    int c = labelSquares.length;
    if (q < 1 || q > count - 1 || coefficients.length != (long) q * c) {
      throw new IllegalArgumentException(
          "relevant dimension: q = "
              + q
              + " coefficients of "
              + c
              + " label columns for N = "
              + count
              + " (need 1 <= q <= N - 1, "
              + coefficients.length
              + " given)");
    }
    double[] curve = new double[q];
    double[] prefix = new double[c];
    int best = 1;
    for (int d = 1; d <= q; d++) {
      double l = 0;
      for (int j = 0; j < c; j++) {
        double s = coefficients[d - 1 + j * q];
        prefix[j] += s * s;
        l += term(prefix[j], labelSquares[j], d, count);
      }
      curve[d - 1] = l;
      if (l < curve[best - 1]) {
        best = d;
      }
    }
    if (fixed < 0 || fixed > q) {
      throw new IllegalArgumentException("dimension " + fixed + " is not in [1, " + q + "]");
    }
    best = fixed > 0 ? fixed : best;
    double[] signal = new double[c];
    double[] noise = new double[c];
    for (int j = 0; j < c; j++) {
      double p = 0;
      for (int i = 0; i < best; i++) {
        double s = coefficients[i + j * q];
        p += s * s;
      }
      signal[j] = variance(p / best, labelSquares[j], count);
      noise[j] = variance((labelSquares[j] - p) / (count - best), labelSquares[j], count);
    }
    return new RelevantDimension(curve, best, signal, noise);
  }

  /** (d/N) log σ₁² + ((N − d)/N) log σ₂² for one label column with Σ_{i≤d} s_i² = prefix. */
  private static double term(double prefix, double labelSquares, int d, long count) {
    double sigma1 = variance(prefix / d, labelSquares, count);
    double sigma2 = variance((labelSquares - prefix) / (count - d), labelSquares, count);
    return ((double) d / count) * Math.log(sigma1)
        + ((double) (count - d) / count) * Math.log(sigma2);
  }

  private static double variance(double value, double labelSquares, long count) {
    return Math.max(value, FLOOR * Math.max(labelSquares, Double.MIN_NORMAL) / count);
  }

  /** min_d ℓ(d), the criterion that chooses the kernel among several. */
  public double minimum() {
    return logLikelihood[dimension - 1];
  }
}
