package io.github.sparkkpca.kernel;

import java.util.Locale;
import java.util.function.DoubleSupplier;

/**
 * Whether a kernel is numerically the identity or a constant on a set of points, read from their
 * m×m kernel matrix: K_mm of a Nyström fit's landmarks (computed anyway: no pass, m²/2 operations),
 * K of an exact fit's rows, or the kernel on a random-feature fit's sample of rows (the exact
 * kernel the features approximate, on the rows sampled by the validating scan). Both are the
 * signature of a γ far from the data's scale, which fits without error and gives a useless model: γ
 * far above it makes every pair of rows look unrelated, γ far below makes every pair look alike.
 *
 * <p>The test reads the normalised off-diagonal entries c_ij = K_ij / √(K_ii·K_jj) (K_ij itself for
 * rbf, laplacian and cosine, whose diagonal is 1):
 *
 * <ul>
 *   <li><b>identity</b> when every off-diagonal row sum Σ_{j≠i} |c_ij| &lt; {@value
 *       #IDENTITY_BELOW}: by Gershgorin every eigenvalue of the normalised K_mm then lies within 1%
 *       of 1 (cond ≤ 1.02), so the whitening is nearly the identity, a row's features are its
 *       kernel values to the landmarks (≈ 0 unless the row is a landmark) and the explained
 *       variance shows equal eigenvalues of about 1/n. A row sum, not the largest entry, so that
 *       one close pair among many far ones does not hide a flat spectrum, and so that a large m
 *       with real overlap (row sums grow with m) is never flagged; at the median heuristic the row
 *       sums are of order m·e^{-1/2}, at 1000 times it they fell to 5·10⁻⁴ on clustered data;
 *   <li><b>constant</b> when every c_ij &gt; 1 − {@value #CONSTANT_ABOVE}: the rbf kernel exp(−t)
 *       at t ≤ 10⁻⁶ equals 1 − t to within t²/2 ≤ 5·10⁻¹³, so the kernel PCA is linear PCA with six
 *       of its sixteen digits spent on the constant, and an uncentred fit puts nearly all the
 *       variance in one component.
 * </ul>
 *
 * Well-scaled kernels are far from both: at the median heuristic half the pairs have k ≈ e^{-1/2}
 * (rbf), and clustered data have large entries within clusters.
 *
 * @param kind {@code identity}, {@code constant} or {@code none}
 * @param largest the largest off-diagonal row sum max_i Σ_{j≠i} |c_ij| (0 when m &lt; 2)
 * @param smallest the smallest c_ij over i ≠ j (1 when m &lt; 2)
 */
public record KernelDegeneracy(String kind, double largest, double smallest) {

  /** Off-diagonal row sums all below this (relative to the diagonal): the identity. */
  public static final double IDENTITY_BELOW = 0.01;

  /** Off-diagonal entries all above 1 minus this (relative to the diagonal): a constant. */
  public static final double CONSTANT_ABOVE = 1e-6;

  /**
   * The key of a model's output columns' metadata that holds the fit's warning when its kernel is
   * degenerate: {@code ReconstructionErrorEvaluator} repeats it for each such model it evaluates.
   */
  public static final String METADATA_KEY = "spark-kpca.kernelDegenerate";

  public static final String NONE = "none";
  public static final String IDENTITY = "identity";
  public static final String CONSTANT = "constant";

  /** The test on K_mm (column-major, m×m, symmetric). */
  public static KernelDegeneracy of(double[] gram, int m) {
    double[] rowSums = new double[m];
    double smallest = 1;
    int pairs = 0;
    for (int j = 1; j < m; j++) {
      double djj = gram[j + j * m];
      if (!(djj > 0)) {
        continue;
      }
      for (int i = 0; i < j; i++) {
        double dii = gram[i + i * m];
        if (!(dii > 0)) {
          continue;
        }
        double c = gram[i + j * m] / Math.sqrt(dii * djj);
        rowSums[i] += Math.abs(c);
        rowSums[j] += Math.abs(c);
        smallest = Math.min(smallest, c);
        pairs++;
      }
    }
    double largest = 0;
    for (double sum : rowSums) {
      largest = Math.max(largest, sum);
    }
    String kind =
        pairs == 0
            ? NONE
            : largest < IDENTITY_BELOW ? IDENTITY : smallest > 1 - CONSTANT_ABOVE ? CONSTANT : NONE;
    return new KernelDegeneracy(kind, largest, smallest);
  }

  /**
   * The test on {@code gram} (m×m, {@code kernel} on {@code points}) and, when the kernel is
   * degenerate there, its {@link #message}; {@link #NONE} otherwise. {@code medianGamma} is asked
   * only for a degenerate kernel.
   */
  public static String warning(
      double[] gram, int m, Kernel kernel, String points, DoubleSupplier medianGamma) {
    KernelDegeneracy test = of(gram, m);
    return test.degenerate() ? test.message(kernel, points, medianGamma.getAsDouble()) : NONE;
  }

  /** Whether the kernel is the identity or a constant on the landmarks. */
  public boolean degenerate() {
    return !kind.equals(NONE);
  }

  /**
   * One line saying what is wrong, what the fit will show and what to do, beginning with the kind
   * ("identity: …"), for the WARN log and the model's {@code kernelDegenerate} param.
   *
   * @param kernel the fitted kernel
   * @param points the points of the test, e.g. "the m = 20 landmarks" or "256 sampled rows"
   * @param medianGamma the median heuristic's γ for the fit's rows, or NaN when unknown or the
   *     family has no γ
   */
  public String message(Kernel kernel, String points, double medianGamma) {
    KernelFamily family = kernel.type();
    boolean bandwidth = family.usesGamma();
    String name =
        "the "
            + family.paramName()
            + " kernel"
            + (bandwidth ? String.format(Locale.ROOT, " with gamma = %.4g", kernel.gamma()) : "");
    String heuristic =
        Double.isFinite(medianGamma)
            ? String.format(
                Locale.ROOT,
                "; the median heuristic gives gamma = %.4g for these rows (%.3gx the gamma used)",
                medianGamma,
                medianGamma / kernel.gamma())
            : "";
    String advice =
        bandwidth
            ? ": leave gamma unset to use the median heuristic, or search a grid around its value"
                + " (e.g. 0.1x to 10x); L2-normalise text rows (Normalizer) first"
            : kind.equals(IDENTITY)
                ? ": the rows are (nearly) orthogonal, sharing almost no non-zero coordinates; use"
                    + " a kernel with a bandwidth (rbf, gamma unset)"
                : ": the rows all point (nearly) the same way; centre or standardise the columns"
                    + " first";
    if (kind.equals(IDENTITY)) {
      return String.format(
          Locale.ROOT,
          "identity: %s is numerically the identity on %s (off-diagonal row"
              + " sums of k(z_i,z_j)/k(z,z) at most %.2g < %.2g, so every eigenvalue of their K is"
              + " within 1%% of 1): every row looks unrelated to every other, the"
              + " scores of rows that are not landmarks are ~0 and the explained variance shows"
              + " equal eigenvalues of about 1/n%s%s",
          name,
          points,
          largest,
          IDENTITY_BELOW,
          heuristic,
          advice);
    }
    if (kind.equals(CONSTANT)) {
      return String.format(
          Locale.ROOT,
          "constant: %s is numerically constant on %s (smallest off-diagonal"
              + " k(z_i,z_j)/k(z,z) = %.10f > 1 - %.0e): every row looks alike, the kernel PCA is"
              + " at best linear PCA with six digits lost and the explained variance shows one"
              + " component holding almost all of it (uncentred) or vanishing eigenvalues"
              + " (centred)%s%s",
          name,
          points,
          smallest,
          CONSTANT_ABOVE,
          heuristic,
          advice);
    }
    return NONE;
  }
}
