package io.github.sparkkpca.kernel;

import io.github.sparkkpca.linalg.FastExp;
import io.github.sparkkpca.linalg.RowSet;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The built-in kernel families, each constant its whole {@linkplain KernelFamily definition}.
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
 *
 * <p>For a kernel that is not positive definite the model is the PCA of the positive-part surrogate
 * k̃(x,y) = ⟨φ(x),φ(y)⟩ and reports its variances; the quantities that need k(x,x) to be a squared
 * norm are refused ({@link Kernel#requirePositiveDefinite}). docs/kernels.md tabulates both.
 *
 * <p>Adding a built-in kernel is adding a constant here (see docs/design.md, "Adding a kernel").
 */
public enum KernelType implements KernelFamily {
  RBF("rbf", "exp(-gamma*||x-y||^2)") {
    @Override
    public List<String> aliases() {
      return List.of("gaussian");
    }

    @Override
    public boolean isShiftInvariant() {
      return true;
    }

    @Override
    public double apply(Kernel k, double[] x, double[] y) {
      return Math.exp(-k.gamma() * Distances.squaredEuclidean(x, y));
    }

    @Override
    public double diagonal(Kernel k, double sqNorm) {
      return 1.0;
    }

    @Override
    public void mapInnerProducts(
        Kernel k, double[] out, double[] rowSqNorms, int b, double[] landmarkSqNorms, int m) {
      // Row by row (each row's kernel vector is contiguous) through C2-vectorised loops; FastExp
      // is about 2.5× cheaper than Math.exp (see FastExp for its accuracy).
      FastExp exp = new FastExp(m);
      for (int i = 0; i < b; i++) {
        exp.gaussianInPlace(out, i * m, m, rowSqNorms[i], landmarkSqNorms, -k.gamma());
      }
    }

    @Override
    public double medianHeuristicGamma(double[] points, int m, int d, int maxPoints) {
      return 1.0 / (2.0 * PairwiseMedian.of(points, m, d, maxPoints, true));
    }

    @Override
    public double medianHeuristicGamma(RowSet points, int maxPoints) {
      return 1.0 / (2.0 * PairwiseMedian.of(points, maxPoints, true));
    }

    @Override
    public String gammaDefault() {
      return "1/(2*median ||x-y||^2)";
    }

    @Override
    public double diagonalBound() {
      return 1.0;
    }

    @Override
    public boolean hasSpectralDensity() {
      return true;
    }

    @Override
    public double sampleFrequency(double gamma, SplittableRandom random) {
      return Math.sqrt(2 * gamma) * random.nextGaussian();
    }
  },

  LAPLACIAN("laplacian", "exp(-gamma*||x-y||_1)") {
    @Override
    public boolean isShiftInvariant() {
      return true;
    }

    @Override
    public double apply(Kernel k, double[] x, double[] y) {
      return Math.exp(-k.gamma() * Distances.l1(x, y));
    }

    @Override
    public double diagonal(Kernel k, double sqNorm) {
      return 1.0;
    }

    @Override
    public boolean hasInnerProductForm() {
      return false;
    }

    @Override
    public boolean hasL1Form() {
      return true;
    }

    @Override
    public void mapL1Distances(Kernel k, double[] out, int n) {
      double gamma = k.gamma();
      for (int i = 0; i < n; i++) {
        out[i] = Math.exp(-gamma * out[i]);
      }
    }

    @Override
    public void directBlock(
        Kernel k, double[] rows, int b, double[] landmarks, int m, int d, double[] out) {
      double gamma = k.gamma();
      for (int i = 0; i < b; i++) {
        int xo = i * d;
        for (int j = 0; j < m; j++) {
          int zo = j * d;
          double l1 = 0;
          for (int t = 0; t < d; t++) {
            l1 += Math.abs(rows[xo + t] - landmarks[zo + t]);
          }
          out[i * m + j] = Math.exp(-gamma * l1);
        }
      }
    }

    @Override
    public double medianHeuristicGamma(double[] points, int m, int d, int maxPoints) {
      return 1.0 / PairwiseMedian.of(points, m, d, maxPoints, false);
    }

    @Override
    public double medianHeuristicGamma(RowSet points, int maxPoints) {
      return 1.0 / PairwiseMedian.of(points, maxPoints, false);
    }

    @Override
    public String gammaDefault() {
      return "1/median ||x-y||_1";
    }

    @Override
    public double diagonalBound() {
      return 1.0;
    }

    @Override
    public boolean hasSpectralDensity() {
      return true;
    }

    @Override
    public double sampleFrequency(double gamma, SplittableRandom random) {
      return gamma * Math.tan(Math.PI * (random.nextDouble() - 0.5));
    }
  },

  POLYNOMIAL("polynomial", "(gamma*<x,y>+coef0)^degree") {
    @Override
    public List<String> aliases() {
      return List.of("poly");
    }

    /**
     * (γ⟨x,y⟩ + c₀)^p is positive definite for c₀ ≥ 0 (a sum of the positive-definite ⟨x,y⟩^i with
     * non-negative coefficients) but not for c₀ &lt; 0: a point x with γ‖x‖² = −c₀ has k(x,x) = 0
     * while k(x,0) = c₀^p ≠ 0, so the Gram matrix of {x, 0} has a negative determinant.
     */
    @Override
    public boolean isPositiveDefinite(Kernel k) {
      return k.coef0() >= 0;
    }

    @Override
    public boolean usesCoef0() {
      return true;
    }

    @Override
    public boolean usesDegree() {
      return true;
    }

    @Override
    public double apply(Kernel k, double[] x, double[] y) {
      return Math.pow(k.gamma() * Distances.dot(x, y) + k.coef0(), k.degree());
    }

    @Override
    public double diagonal(Kernel k, double sqNorm) {
      return Math.pow(k.gamma() * sqNorm + k.coef0(), k.degree());
    }

    @Override
    public void mapInnerProducts(
        Kernel k, double[] out, double[] rowSqNorms, int b, double[] landmarkSqNorms, int m) {
      for (int i = 0, n = b * m; i < n; i++) {
        out[i] = powInt(k.gamma() * out[i] + k.coef0(), k.degree());
      }
    }

    @Override
    public double medianHeuristicGamma(double[] points, int m, int d, int maxPoints) {
      return 1.0 / d;
    }

    @Override
    public double medianHeuristicGamma(RowSet points, int maxPoints) {
      return 1.0 / points.dim();
    }
  },

  LINEAR("linear", "<x,y>") {
    @Override
    public boolean usesGamma() {
      return false;
    }

    @Override
    public double apply(Kernel k, double[] x, double[] y) {
      return Distances.dot(x, y);
    }

    @Override
    public double diagonal(Kernel k, double sqNorm) {
      return sqNorm;
    }

    @Override
    public void mapInnerProducts(
        Kernel k, double[] out, double[] rowSqNorms, int b, double[] landmarkSqNorms, int m) {}

    @Override
    public double medianHeuristicGamma(double[] points, int m, int d, int maxPoints) {
      return 1.0;
    }

    @Override
    public double medianHeuristicGamma(RowSet points, int maxPoints) {
      return 1.0;
    }
  },

  COSINE("cosine", "<x,y>/(||x|| ||y||)") {
    @Override
    public boolean usesGamma() {
      return false;
    }

    @Override
    public double apply(Kernel k, double[] x, double[] y) {
      double xx = Distances.dot(x, x);
      double yy = Distances.dot(y, y);
      return xx == 0 || yy == 0 ? 0.0 : Distances.dot(x, y) / (Math.sqrt(xx) * Math.sqrt(yy));
    }

    @Override
    public double diagonal(Kernel k, double sqNorm) {
      return sqNorm == 0 ? 0.0 : 1.0;
    }

    @Override
    public void mapInnerProducts(
        Kernel k, double[] out, double[] rowSqNorms, int b, double[] landmarkSqNorms, int m) {
      // ‖x‖·‖z‖ as √‖x‖²·√‖z‖², not √(‖x‖²‖z‖²): the product of the squared norms overflows from
      // ‖x‖‖z‖ ≈ 1e154 and underflows below 1e−154, where the cosine is still well defined.
      double[] landmarkNorms = new double[m];
      for (int j = 0; j < m; j++) {
        landmarkNorms[j] = Math.sqrt(landmarkSqNorms[j]);
      }
      for (int i = 0; i < b; i++) {
        double xNorm = Math.sqrt(rowSqNorms[i]);
        int base = i * m;
        for (int j = 0; j < m; j++) {
          double denominator = xNorm * landmarkNorms[j];
          out[base + j] = denominator == 0 ? 0.0 : out[base + j] / denominator;
        }
      }
    }

    @Override
    public double medianHeuristicGamma(double[] points, int m, int d, int maxPoints) {
      return 1.0;
    }

    @Override
    public double medianHeuristicGamma(RowSet points, int maxPoints) {
      return 1.0;
    }

    @Override
    public double diagonalBound() {
      return 1.0;
    }
  },

  SIGMOID("sigmoid", "tanh(gamma*<x,y>+coef0)") {
    @Override
    public boolean isPositiveDefinite() {
      return false;
    }

    @Override
    public boolean usesCoef0() {
      return true;
    }

    @Override
    public double apply(Kernel k, double[] x, double[] y) {
      return Math.tanh(k.gamma() * Distances.dot(x, y) + k.coef0());
    }

    @Override
    public double diagonal(Kernel k, double sqNorm) {
      return Math.tanh(k.gamma() * sqNorm + k.coef0());
    }

    @Override
    public void mapInnerProducts(
        Kernel k, double[] out, double[] rowSqNorms, int b, double[] landmarkSqNorms, int m) {
      for (int i = 0, n = b * m; i < n; i++) {
        out[i] = Math.tanh(k.gamma() * out[i] + k.coef0());
      }
    }

    @Override
    public double medianHeuristicGamma(double[] points, int m, int d, int maxPoints) {
      return 1.0 / d;
    }

    @Override
    public double medianHeuristicGamma(RowSet points, int maxPoints) {
      return 1.0 / points.dim();
    }
  };

  private final String paramName;
  private final String formula;

  KernelType(String paramName, String formula) {
    this.paramName = paramName;
    this.formula = formula;
  }

  @Override
  public String paramName() {
    return paramName;
  }

  @Override
  public String formula() {
    return formula;
  }

  /** Every name the {@code kernel} parameter accepts, aliases included ({@link KernelFamilies}). */
  public static List<String> names() {
    return KernelFamilies.names();
  }

  /**
   * Parses the name of a built-in kernel (case-insensitive; {@code gaussian} = rbf, {@code poly} =
   * polynomial). {@link KernelFamilies#parse} also knows the families registered elsewhere.
   */
  public static KernelType parse(String name) {
    KernelFamily family = KernelFamilies.parse(name);
    if (family instanceof KernelType type) {
      return type;
    }
    throw new IllegalArgumentException(
        "kernel '" + name + "' is not a built-in kernel; use KernelFamilies.parse");
  }

  private static double powInt(double base, int exponent) {
    double result = 1.0;
    double x = base;
    int e = exponent;
    while (e > 0) {
      if ((e & 1) == 1) {
        result *= x;
      }
      x *= x;
      e >>= 1;
    }
    return result;
  }
}
