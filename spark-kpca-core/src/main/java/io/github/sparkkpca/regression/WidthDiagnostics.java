package io.github.sparkkpca.regression;

/**
 * What the fit found at one kernel width, for d = 1..q (index d − 1): the curves behind Braun,
 * Buhmann and Müller's Figure 2.
 *
 * @param gamma the kernel scale γ
 * @param eigenvalues Σ_1 ≥ … ≥ Σ_q, the eigenvalues of the (Nyström) kernel matrix divided by n
 * @param coefficients s_i = u_iᵀY, q×c column-major (c label columns)
 * @param columns c
 * @param logLikelihood ℓ(d) ({@link RelevantDimension})
 * @param dimension argmin_d ℓ(d)
 * @param leaveOneOut the mean squared leave-one-out residual of the d-component fit (summed over
 *     columns)
 * @param trainingLoss the training misclassification rate (or mean squared residual, real labels)
 *     of it
 */
public record WidthDiagnostics(
    double gamma,
    double[] eigenvalues,
    double[] coefficients,
    int columns,
    double[] logLikelihood,
    int dimension,
    double[] leaveOneOut,
    double[] trainingLoss) {

  public WidthDiagnostics {
    int q = eigenvalues.length;
    if (coefficients.length != (long) q * columns
        || logLikelihood.length != q
        || leaveOneOut.length != q
        || trainingLoss.length != q
        || dimension < 1
        || dimension > q) {
      throw new IllegalArgumentException(
          "width diagnostics: inconsistent lengths for q = " + q + ", c = " + columns);
    }
  }

  /** q, the number of components evaluated. */
  public int numComponents() {
    return eigenvalues.length;
  }

  /** min_d ℓ(d). */
  public double minimumLogLikelihood() {
    return logLikelihood[dimension - 1];
  }

  /** argmin_d of the leave-one-out error ("dim (cv)"). */
  public int dimensionCv() {
    int best = 0;
    for (int d = 1; d < leaveOneOut.length; d++) {
      if (leaveOneOut[d] < leaveOneOut[best]) {
        best = d;
      }
    }
    return best + 1;
  }

  /**
   * The contribution of each component, |s_i| / ‖Y‖ (Braun et al.'s normalisation, at most 1; the
   * root of the sum of squares over label columns).
   */
  public double[] contributions(double[] labelSquares) {
    int q = numComponents();
    double total = 0;
    for (double v : labelSquares) {
      total += v;
    }
    double[] out = new double[q];
    for (int i = 0; i < q; i++) {
      double s = 0;
      for (int j = 0; j < columns; j++) {
        s += coefficients[i + j * q] * coefficients[i + j * q];
      }
      out[i] = total > 0 ? Math.sqrt(s / total) : 0.0;
    }
    return out;
  }
}
