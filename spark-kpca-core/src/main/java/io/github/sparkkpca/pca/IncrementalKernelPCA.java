package io.github.sparkkpca.pca;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.IncrementalCenteredEigen;
import io.github.sparkkpca.linalg.IncrementalEigen;
import io.github.sparkkpca.linalg.SymmetricEigen;
import java.util.Arrays;

/**
 * Exact kernel PCA of a point set that grows and shrinks one point at a time, on the driver
 * (Hallgren, <i>Kernel PCA and the Nyström method</i>, PhD thesis, UCL 2021, §3.1–3.2): the
 * eigendecomposition of the n×n kernel matrix K (uncentred, Algorithms 1 and 3) or of the centred
 * K' = (I − 𝟙)K(I − 𝟙) (Algorithms 2 and 4, the mean adjustment of §3.1.2) is updated by rank-one
 * modifications instead of being recomputed, O(n²) kernel evaluations and 4n³ (uncentred) or 8n³
 * (centred) flops per point.
 *
 * <p>With the eigenpairs (λ_c, q_c) of K (or K'), the results are those of {@code KernelPCA}:
 * variances λ_c/n, training scores √λ_c·q_c, and for a new point y_c(x) = q_cᵀκ(x)/√λ_c with κ(x)_i
 * = k(x_i, x) (uncentred) or, centred, κ'(x)_i = k(x_i, x) − (1/n)Σ_l k(x_l, x) − (1/n)Σ_l k(x_i,
 * x_l) + (1/n²)Σ_{l,l'} k(x_l, x_{l'}) (thesis eq. 6.2). Signs are fixed as {@code KernelPCA} fixes
 * them (the largest-magnitude coefficient of each component is positive).
 */
public final class IncrementalKernelPCA {

  private final Kernel kernel;
  private final int dim;
  private final boolean centered;
  private final IncrementalEigen uncentred;
  private final IncrementalCenteredEigen centred;
  private double[] points = new double[0];
  private int n;

  private IncrementalKernelPCA(
      Kernel kernel, int dim, boolean centered, IncrementalEigen.Monitoring monitoring) {
    if (dim < 1) {
      throw new IllegalArgumentException(
          "incremental kernel PCA: the input dimension must be >= 1, got " + dim);
    }
    this.kernel = kernel;
    this.dim = dim;
    this.centered = centered;
    this.uncentred =
        centered
            ? null
            : IncrementalEigen.empty(monitoring)
                .withExactMatrix(
                    () ->
                        new LandmarkKernel(kernel, Arrays.copyOf(points, n * dim), n, dim).gram());
    this.centred = centered ? new IncrementalCenteredEigen(monitoring) : null;
  }

  /** An empty model for points of length {@code dim}. */
  public static IncrementalKernelPCA create(
      Kernel kernel, int dim, boolean centered, IncrementalEigen.Monitoring monitoring) {
    return new IncrementalKernelPCA(kernel, dim, centered, monitoring);
  }

  /** Adds a point (its kernel column against the current points, then Algorithm 1 or 2). */
  public void add(double[] x) {
    if (x.length != dim) {
      throw new IllegalArgumentException(
          "incremental kernel PCA: point of length " + x.length + ", expected " + dim);
    }
    for (int t = 0; t < dim; t++) {
      if (!Double.isFinite(x[t])) {
        throw new IllegalArgumentException(
            "incremental kernel PCA: point entry " + t + " is not finite: " + x[t]);
      }
    }
    double[] a = kernelColumn(x);
    double c = kernel.apply(x, x);
    if (points.length < (n + 1) * dim) {
      points = Arrays.copyOf(points, Math.max(2 * points.length, (n + 1) * dim));
    }
    System.arraycopy(x, 0, points, n * dim, dim);
    n++;
    if (centered) {
      centred.add(a, c);
    } else {
      uncentred.expand(a, c);
    }
  }

  /** Deletes point i (Algorithm 3 or 4); the later points move down by one. */
  public void remove(int i) {
    if (i < 0 || i >= n) {
      throw new IllegalArgumentException("incremental kernel PCA: no point " + i + " among " + n);
    }
    double[] column = kernelColumn(Arrays.copyOfRange(points, i * dim, (i + 1) * dim));
    if (centered) {
      centred.remove(i, column);
    } else {
      uncentred.remove(i, column);
    }
    System.arraycopy(points, (i + 1) * dim, points, i * dim, (n - i - 1) * dim);
    n--;
  }

  private double[] kernelColumn(double[] x) {
    double[] out = new double[n];
    double[] p = new double[dim];
    for (int j = 0; j < n; j++) {
      System.arraycopy(points, j * dim, p, 0, dim);
      out[j] = kernel.apply(p, x);
    }
    return out;
  }

  /** The number of points n. */
  public int size() {
    return n;
  }

  /** The current eigendecomposition of K (or K'), descending. */
  public SymmetricEigen eigen() {
    return centered ? centred.toSymmetricEigen() : uncentred.toSymmetricEigen();
  }

  /** What the rank-one updates did (deflations, rotations, orthogonality, recomputations). */
  public IncrementalEigen.Stats stats() {
    return centered ? centred.stats() : uncentred.stats();
  }

  /** The variances λ_c/n of the first k components. */
  public double[] variances(int k) {
    SymmetricEigen eig = eigen();
    checkK(k, eig);
    double[] out = new double[k];
    for (int c = 0; c < k; c++) {
      out[c] = eig.values()[c] / n;
    }
    return out;
  }

  /** The training scores, n×k column-major: column c is √λ_c·q_c (signs fixed). */
  public double[] scores(int k) {
    SymmetricEigen eig = eigen();
    checkK(k, eig);
    double[] q = signFixed(eig, k);
    for (int c = 0; c < k; c++) {
      double s = Math.sqrt(eig.values()[c]);
      for (int i = 0; i < n; i++) {
        q[i + c * n] *= s;
      }
    }
    return q;
  }

  /** The scores of a new point on the first k components. */
  public double[] transform(double[] x, int k) {
    SymmetricEigen eig = eigen();
    checkK(k, eig);
    double[] kappa = kernelColumn(x);
    if (centered) {
      double[] rowSums = centred.rowSums();
      double mean = 0;
      for (double v : kappa) {
        mean += v / n;
      }
      double grand = centred.total() / ((double) n * n);
      for (int i = 0; i < n; i++) {
        kappa[i] += grand - mean - rowSums[i] / n;
      }
    }
    double[] q = signFixed(eig, k);
    double[] y = new double[k];
    for (int c = 0; c < k; c++) {
      double s = 0;
      for (int i = 0; i < n; i++) {
        s += q[i + c * n] * kappa[i];
      }
      y[c] = s / Math.sqrt(eig.values()[c]);
    }
    return y;
  }

  private double[] signFixed(SymmetricEigen eig, int k) {
    double[] q = Arrays.copyOf(eig.vectors(), n * k);
    SymmetricEigen.fixSigns(q, n, k);
    return q;
  }

  private void checkK(int k, SymmetricEigen eig) {
    if (k < 1 || k > n || !(eig.values()[k - 1] > 0)) {
      throw new IllegalArgumentException(
          "incremental kernel PCA: k = "
              + k
              + " needs "
              + k
              + " positive "
              + "eigenvalues of the "
              + (centered ? "centred " : "")
              + "kernel matrix of n = "
              + n
              + " points");
    }
  }
}
