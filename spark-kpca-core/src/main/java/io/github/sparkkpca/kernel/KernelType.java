package io.github.sparkkpca.kernel;

import java.util.Arrays;
import java.util.Locale;

/**
 * The kernel families, with the names the {@code kernel} parameter accepts.
 *
 * <p>Definitions follow scikit-learn's {@code sklearn.metrics.pairwise} (and the Sterge et al.
 * paper for the Gaussian kernel), with γ the {@code gamma} parameter, c₀ the {@code coef0}
 * parameter and p the {@code degree} parameter:
 *
 * <ul>
 *   <li>{@link #RBF} (alias {@code gaussian}): k(x,y) = exp(−γ‖x−y‖²);
 *   <li>{@link #LAPLACIAN}: k(x,y) = exp(−γ‖x−y‖₁) (the L1 distance, as in scikit-learn);
 *   <li>{@link #POLYNOMIAL}: k(x,y) = (γ⟨x,y⟩ + c₀)^p; positive definite only for c₀ ≥ 0, so with
 *       c₀ &lt; 0 it is treated as the sigmoid kernel is ({@link Kernel#isPositiveDefinite()});
 *   <li>{@link #LINEAR}: k(x,y) = ⟨x,y⟩ (kernel PCA then equals ordinary PCA);
 *   <li>{@link #COSINE}: k(x,y) = ⟨x,y⟩ / (‖x‖‖y‖), and 0 when either vector is zero;
 *   <li>{@link #SIGMOID}: k(x,y) = tanh(γ⟨x,y⟩ + c₀). Not positive definite: accepted with a
 *       warning, negative eigenvalues of the landmark kernel matrix are dropped as rank.
 * </ul>
 */
public enum KernelType {
  RBF("rbf", true),
  LAPLACIAN("laplacian", true),
  POLYNOMIAL("polynomial", true),
  LINEAR("linear", true),
  COSINE("cosine", true),
  SIGMOID("sigmoid", false);

  /** Every name the {@code kernel} parameter accepts, aliases included. */
  public static final String[] NAMES = {
    "rbf", "gaussian", "laplacian", "polynomial", "poly", "linear", "cosine", "sigmoid"
  };

  private final String paramName;
  private final boolean positiveDefinite;

  KernelType(String paramName, boolean positiveDefinite) {
    this.paramName = paramName;
    this.positiveDefinite = positiveDefinite;
  }

  /** The canonical name, as stored in saved models. */
  public String paramName() {
    return paramName;
  }

  /**
   * Whether the family is positive semi-definite for its usual parameters (false only for sigmoid).
   * Whether a given kernel is can depend on its parameters too: see {@link
   * Kernel#isPositiveDefinite()}.
   */
  public boolean isPositiveDefinite() {
    return positiveDefinite;
  }

  /** Whether the kernel has a bandwidth/scale γ. */
  public boolean usesGamma() {
    return this != LINEAR && this != COSINE;
  }

  /** Whether the kernel has the offset c₀. */
  public boolean usesCoef0() {
    return this == POLYNOMIAL || this == SIGMOID;
  }

  /** Parses a kernel name (case-insensitive; {@code gaussian} = rbf, {@code poly} = polynomial). */
  public static KernelType parse(String name) {
    String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    return switch (n) {
      case "rbf", "gaussian" -> RBF;
      case "laplacian" -> LAPLACIAN;
      case "polynomial", "poly" -> POLYNOMIAL;
      case "linear" -> LINEAR;
      case "cosine" -> COSINE;
      case "sigmoid" -> SIGMOID;
      default ->
          throw new IllegalArgumentException(
              "Unknown kernel '" + name + "'; expected one of " + Arrays.toString(NAMES));
    };
  }
}
