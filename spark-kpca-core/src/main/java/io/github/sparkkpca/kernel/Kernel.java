package io.github.sparkkpca.kernel;

import dev.ludovic.netlib.blas.BLAS;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.FastExp;
import io.github.sparkkpca.linalg.SymmetricStorage;
import java.io.Serializable;
import java.util.Arrays;

/**
 * A positive-definite kernel k(x, y) on R^d, with its parameters fixed.
 *
 * <p>The hot path is {@link #block}: the kernel between a block of b rows and m landmarks, computed
 * from one GEMM of inner products (‖x−z‖² = ‖x‖² + ‖z‖² − 2⟨x,z⟩, clamped at 0 against rounding)
 * followed by an element-wise map (for rbf a vectorised exp, {@link FastExp}, within 3e−16 relative
 * of Math.exp). The Laplacian kernel needs L1 distances, which have no GEMM form; it is evaluated
 * directly at b·m·d operations.
 *
 * <p>The expansion of ‖x−z‖² loses about ε·(‖x‖² + ‖z‖²) to cancellation, which is everything when
 * the data lie far from the origin (rows 1e8 + N(0,1): ‖x‖² ≈ 1e16·d, distances ≈ 1). The rbf
 * kernel is shift-invariant, so {@link LandmarkKernel} passes rows and landmarks shifted by a
 * common centre (the landmark mean) to {@link #block}; the other GEMM kernels are not
 * shift-invariant and get raw rows.
 *
 * @param type the kernel family
 * @param gamma γ: scale of the inner product (polynomial, sigmoid) or inverse bandwidth (rbf,
 *     laplacian); ignored by the linear and cosine kernels
 * @param degree p: the polynomial degree (polynomial only)
 * @param coef0 c₀: the additive constant (polynomial and sigmoid only)
 */
public record Kernel(KernelType type, double gamma, int degree, double coef0)
    implements Serializable {

  public Kernel {
    if (type == null) {
      throw new IllegalArgumentException("kernel type must not be null");
    }
    if (type.usesGamma() && !(gamma > 0 && Double.isFinite(gamma))) {
      throw new IllegalArgumentException(
          "gamma must be finite and > 0 for the " + type.paramName() + " kernel, got " + gamma);
    }
    if (type == KernelType.POLYNOMIAL && degree < 1) {
      throw new IllegalArgumentException("degree must be >= 1, got " + degree);
    }
    if (!Double.isFinite(coef0)) {
      throw new IllegalArgumentException("coef0 must be finite, got " + coef0);
    }
  }

  /**
   * Whether both kernels are the same function: same family and equal values of the parameters that
   * family uses (γ, p and c₀ are ignored where they play no part).
   */
  public boolean sameFunction(Kernel other) {
    return type == other.type
        && (!type.usesGamma() || Double.compare(gamma, other.gamma) == 0)
        && (type != KernelType.POLYNOMIAL || degree == other.degree)
        && (!type.usesCoef0() || Double.compare(coef0, other.coef0) == 0);
  }

  /** The Gaussian kernel exp(−γ‖x−y‖²). */
  public static Kernel rbf(double gamma) {
    return new Kernel(KernelType.RBF, gamma, 3, 1.0);
  }

  /** The linear kernel ⟨x, y⟩. */
  public static Kernel linear() {
    return new Kernel(KernelType.LINEAR, 1.0, 3, 1.0);
  }

  /**
   * Whether every Gram matrix of this kernel is positive semi-definite. The sigmoid kernel never
   * is; the polynomial kernel (γ⟨x,y⟩ + c₀)^p is for c₀ ≥ 0 (a sum of the positive-definite ⟨x,y⟩^i
   * with non-negative coefficients) but not for c₀ &lt; 0: a point x with γ‖x‖² = −c₀ has k(x,x) =
   * 0 while k(x,0) = c₀^p ≠ 0, so the Gram matrix of {x, 0} has a negative determinant.
   */
  public boolean isPositiveDefinite() {
    return type.isPositiveDefinite() && !(type == KernelType.POLYNOMIAL && coef0 < 0);
  }

  /** Whether k(x−c, z−c) = k(x, z) for every shift c (rbf and laplacian). */
  public boolean isShiftInvariant() {
    return type == KernelType.RBF || type == KernelType.LAPLACIAN;
  }

  /**
   * k(x, y) for two vectors of equal length, evaluated directly (a reference, not the hot path).
   */
  public double apply(double[] x, double[] y) {
    if (x.length != y.length) {
      throw new IllegalArgumentException("vector sizes differ: " + x.length + " and " + y.length);
    }
    double dot = 0;
    double xx = 0;
    double yy = 0;
    double l1 = 0;
    double sq = 0;
    for (int i = 0; i < x.length; i++) {
      dot += x[i] * y[i];
      xx += x[i] * x[i];
      yy += y[i] * y[i];
      double diff = x[i] - y[i];
      l1 += Math.abs(diff);
      sq += diff * diff;
    }
    return switch (type) {
      case RBF -> Math.exp(-gamma * sq);
      case LAPLACIAN -> Math.exp(-gamma * l1);
      case LINEAR -> dot;
      case POLYNOMIAL -> Math.pow(gamma * dot + coef0, degree);
      case COSINE -> xx == 0 || yy == 0 ? 0.0 : dot / (Math.sqrt(xx) * Math.sqrt(yy));
      case SIGMOID -> Math.tanh(gamma * dot + coef0);
    };
  }

  /** k(x, x) from ‖x‖² alone. */
  public double diagonal(double sqNorm) {
    return switch (type) {
      case RBF, LAPLACIAN -> 1.0;
      case LINEAR -> sqNorm;
      case POLYNOMIAL -> Math.pow(gamma * sqNorm + coef0, degree);
      case COSINE -> sqNorm == 0 ? 0.0 : 1.0;
      case SIGMOID -> Math.tanh(gamma * sqNorm + coef0);
    };
  }

  /**
   * The kernel between b rows and m landmarks.
   *
   * @param rows b×d row-major block of rows
   * @param rowSqNorms ‖x_i‖², length ≥ b
   * @param b number of rows in the block
   * @param landmarks m×d row-major landmarks
   * @param landmarkSqNorms ‖z_j‖², length m
   * @param m number of landmarks
   * @param d dimension
   * @param out receives K as an m×b column-major matrix: out[i·m + j] = k(x_i, z_j), so each row's
   *     kernel vector k_x is contiguous; length ≥ m·b
   */
  public void block(
      double[] rows,
      double[] rowSqNorms,
      int b,
      double[] landmarks,
      double[] landmarkSqNorms,
      int m,
      int d,
      double[] out) {
    if (b == 0) {
      return;
    }
    if (type == KernelType.LAPLACIAN) {
      laplacianBlock(rows, b, landmarks, m, d, out);
      return;
    }
    // Column-major views: landmarks are d×m (lda = d), rows are d×b; out = Zᵀ X is m×b.
    BLAS blas = Blas.blas();
    blas.dgemm("T", "N", m, b, d, 1.0, landmarks, d, rows, d, 0.0, out, m);
    mapInnerProducts(out, rowSqNorms, b, landmarkSqNorms, m);
  }

  /**
   * The m×m kernel matrix of the points among themselves (K_mm), column-major in {@code out}: the
   * inner products by one SYRK (m²d flops, half of {@link #block}'s GEMM on the same points),
   * mirrored, then mapped as {@link #block} maps them; so K_mm is exactly symmetric.
   *
   * @param points m×d row-major
   * @param sqNorms ‖z_j‖², length m
   */
  public void gram(double[] points, double[] sqNorms, int m, int d, double[] out) {
    if (m == 0) {
      return;
    }
    if (type == KernelType.LAPLACIAN) {
      laplacianBlock(points, m, points, m, d, out);
      return;
    }
    Blas.blas().dsyrk("U", "T", m, d, 1.0, points, d, 0.0, out, m);
    SymmetricStorage.mirrorUpper(out, m);
    mapInnerProducts(out, sqNorms, m, sqNorms, m);
  }

  /** Turns inner products ⟨x_i, z_j⟩ (m×b column-major) into kernel values in place. */
  private void mapInnerProducts(
      double[] out, double[] rowSqNorms, int b, double[] landmarkSqNorms, int m) {
    switch (type) {
      case LINEAR -> {}
      case RBF -> {
        // Row by row (each row's kernel vector is contiguous) through C2-vectorised loops; FastExp
        // is about
        // 2.5× cheaper than Math.exp (see FastExp for its accuracy).
        FastExp exp = new FastExp(m);
        for (int i = 0; i < b; i++) {
          exp.gaussianInPlace(out, i * m, m, rowSqNorms[i], landmarkSqNorms, -gamma);
        }
      }
      case POLYNOMIAL -> {
        for (int i = 0, n = b * m; i < n; i++) {
          out[i] = powInt(gamma * out[i] + coef0, degree);
        }
      }
      case SIGMOID -> {
        for (int i = 0, n = b * m; i < n; i++) {
          out[i] = Math.tanh(gamma * out[i] + coef0);
        }
      }
      case COSINE -> {
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
      default -> throw new IllegalStateException("no inner-product form for " + type);
    }
  }

  private void laplacianBlock(
      double[] rows, int b, double[] landmarks, int m, int d, double[] out) {
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

  /**
   * The median heuristic for γ, computed on up to {@code maxPoints} of the given points (row-major,
   * m×d): rbf γ = 1 / (2·median ‖x−y‖²), i.e. bandwidth σ = median distance; laplacian γ = 1 /
   * median ‖x−y‖₁; polynomial and sigmoid γ = 1/d (scikit-learn's default); linear and cosine
   * ignore γ (1). Distances are summed from coordinate differences, never expanded through norms,
   * so they are exact up to rounding of the differences themselves wherever the points lie (the
   * same shift-invariant distances the kernel blocks see).
   *
   * @throws IllegalArgumentException when all sampled points coincide, so no bandwidth can be
   *     derived, or when the median distance overflows a double
   */
  public static double medianHeuristicGamma(
      KernelType type, double[] points, int m, int d, int maxPoints) {
    switch (type) {
      case POLYNOMIAL, SIGMOID -> {
        return 1.0 / d;
      }
      case LINEAR, COSINE -> {
        return 1.0;
      }
      default -> {}
    }
    int p = Math.min(m, maxPoints);
    double[] distances = new double[p * (p - 1) / 2];
    int c = 0;
    for (int i = 0; i < p; i++) {
      for (int j = i + 1; j < p; j++) {
        double s = 0;
        for (int t = 0; t < d; t++) {
          double diff = points[i * d + t] - points[j * d + t];
          s += type == KernelType.RBF ? diff * diff : Math.abs(diff);
        }
        distances[c++] = s;
      }
    }
    Arrays.sort(distances);
    double median =
        distances.length == 0
            ? 0.0
            : distances.length % 2 == 1
                ? distances[distances.length / 2]
                : 0.5 * (distances[distances.length / 2 - 1] + distances[distances.length / 2]);
    if (median == Double.POSITIVE_INFINITY) {
      throw new IllegalArgumentException(
          "Cannot choose gamma by the median heuristic: the median pairwise "
              + (type == KernelType.RBF ? "squared " : "")
              + "distance among "
              + p
              + " landmarks overflows a "
              + "double; rescale the data");
    }
    if (!(median > 0)) {
      throw new IllegalArgumentException(
          "Cannot choose gamma by the median heuristic: the median pairwise "
              + "distance among "
              + p
              + " landmarks is 0 (duplicated rows?); set gamma explicitly");
    }
    return type == KernelType.RBF ? 1.0 / (2.0 * median) : 1.0 / median;
  }
}
