package io.github.sparkkpca.pca;

import java.util.Arrays;
import java.util.Locale;

/**
 * How much of the spectrum of the r×r feature covariance C a fit computes and keeps.
 *
 * <ul>
 *   <li>{@link #LEADING} (the default): the p = min(r, max(k, 50)) leading eigenvalues ({@link
 *       LinearPCA#leadingNumEigenvalues}) by {@link io.github.sparkkpca.linalg.BlockKrylovEigen}: a
 *       few dozen GEMMs with C instead of its 4r³/3-flop tridiagonalisation. The total variance
 *       needs no further eigenvalue: tr C is the sum of all r of them.
 *   <li>{@link #FULL}: all r eigenvalues (dense {@code dsytrd} + {@code dsterf}), for scree plots
 *       and partial sums Σ_{i≤ℓ} λ_i beyond p (e.g. reconstruction errors up to ℓ = m).
 * </ul>
 *
 * The k components are the same to the solvers' accuracy (residual ≤ 1e-12·λ_1) either way.
 */
public enum SpectrumExtent {
  LEADING,
  FULL;

  /** The parameter values, lower case. */
  public static final String[] NAMES =
      Arrays.stream(values()).map(SpectrumExtent::paramName).toArray(String[]::new);

  public String paramName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** p, the number of eigenvalues this extent computes for r features and k components. */
  public int numEigenvalues(int r, int k) {
    return this == FULL ? r : LinearPCA.leadingNumEigenvalues(r, k);
  }

  public static SpectrumExtent parse(String name) {
    for (SpectrumExtent s : values()) {
      if (s.paramName().equalsIgnoreCase(name)) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "Unknown spectrum '" + name + "'; expected one of " + Arrays.toString(NAMES));
  }
}
