package io.github.sparkkpca.pca;

import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.HouseholderQr;
import io.github.sparkkpca.linalg.SymmetricEigen;
import java.io.Serializable;
import java.util.SplittableRandom;

/**
 * Oja's rule for the k leading principal directions of a stream of D-dimensional feature vectors
 * (RF-Oja of Ullah, Mianjy, Marinov and Arora, "Streaming Kernel PCA with Õ(√n) Random Features",
 * NeurIPS 2018, Appendix D.2, on random Fourier features z(x); the update is Allen-Zhu and Li's,
 * FOCS 2017).
 *
 * <p><b>Update.</b> For a mini-batch Z = [z_1 … z_b] (D×b) at step t, centred by the running mean
 * z̄ when centred (the paper's formulation is uncentred, z̄ := 0):
 *
 * <pre>  Q ← Q + (η_t / b) · Z_c (Z_cᵀ Q),   Z_c = Z − z̄1ᵀ</pre>
 *
 * and every {@code qrEvery} steps Q ← the orthonormal factor of its QR. Each step multiplies Q on
 * the left by I + (η_t/b)Z_cZ_cᵀ, so postponing the QR changes only the basis of span Q, not the
 * span (it only guards against overflow and loss of orthogonality). Cost: 4·D·k·b flops per step,
 * plus 2·D·k² per QR.
 *
 * <p><b>State</b>, O(D·k): the basis Q (D×k), the step count t, and for the total variance and
 * centring the row count n, the running mean z̄ (D) and Σ‖z‖².
 *
 * <p><b>Rayleigh–Ritz.</b> Oja's iterate fixes a subspace, not an ordered basis or eigenvalues. The
 * finishing step orthonormalises Q, accumulates S = Σ_i (Qᵀ(z_i − z̄))(Qᵀ(z_i − z̄))ᵀ (k×k) over a
 * set of rows ({@link #accumulateRitz}; k² + O(D·k) more memory), and rotates Q by the eigenvectors
 * of S/n_S ({@link #finishRitz}): the columns become the principal directions of the covariance of
 * those rows restricted to span Q, ordered by the returned eigenvalues, which are those of QᵀCQ.
 * The span does not change.
 *
 * <p><b>Over a whole stream</b> the k×k sum is carried from one Rayleigh–Ritz step to the next
 * instead of revisiting old rows ({@link #carriedRitz}): after the previous step S_prev =
 * n_prev·Λ_prev in the basis Q_prev, and in the new basis it becomes R S_prev Rᵀ with R = QᵀQ_prev
 * (O(D·k²)). This is exact while the span does not move (R orthogonal) and otherwise keeps the part
 * of the old rows' covariance that lies in both spans, so the eigenvalues estimate QᵀCQ over every
 * row seen, not only the newest ones.
 *
 * <p>Single-threaded and mutable: one instance per stream, on the driver.
 */
public final class OjaSubspace implements Serializable {

  private final int dim;
  private final int k;
  private final boolean centered;
  private final StepSchedule schedule;
  private final int qrEvery;
  private final double[] basis;
  private final double[] mean;
  private long steps;
  private long count;
  private double sumOfSquares;

  private OjaSubspace(
      int dim,
      int k,
      boolean centered,
      StepSchedule schedule,
      int qrEvery,
      double[] basis,
      double[] mean,
      long steps,
      long count,
      double sumOfSquares) {
    if (k < 1 || k > dim) {
      throw new IllegalArgumentException("Oja: k = " + k + " must be in [1, D = " + dim + "]");
    }
    if (qrEvery < 1) {
      throw new IllegalArgumentException("Oja: qrEvery must be >= 1, got " + qrEvery);
    }
    if (basis.length != (long) dim * k || mean.length != dim) {
      throw new IllegalArgumentException(
          "Oja: a basis of "
              + basis.length
              + " entries and a mean of "
              + mean.length
              + " for D = "
              + dim
              + ", k = "
              + k);
    }
    this.dim = dim;
    this.k = k;
    this.centered = centered;
    this.schedule = schedule;
    this.qrEvery = qrEvery;
    this.basis = basis;
    this.mean = mean;
    this.steps = steps;
    this.count = count;
    this.sumOfSquares = sumOfSquares;
  }

  /**
   * A start from a seeded Gaussian D×k matrix, orthonormalised (the usual initialisation of Oja's
   * rule).
   */
  public static OjaSubspace random(
      int dim, int k, boolean centered, StepSchedule schedule, int qrEvery, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    double[] q = new double[Math.multiplyExact(dim, k)];
    for (int i = 0; i < q.length; i++) {
      q[i] = random.nextGaussian();
    }
    OjaSubspace oja =
        new OjaSubspace(dim, k, centered, schedule, qrEvery, q, new double[dim], 0, 0, 0.0);
    oja.orthonormalize();
    return oja;
  }

  /**
   * A start from a given basis (a warm start, e.g. the components of a fitted model;
   * orthonormalised) or the restored state of a stream.
   *
   * @param basis D×k column-major (copied)
   * @param mean the running mean of the rows seen (zeros when none; copied)
   */
  public static OjaSubspace of(
      int dim,
      int k,
      boolean centered,
      StepSchedule schedule,
      int qrEvery,
      double[] basis,
      double[] mean,
      long steps,
      long count,
      double sumOfSquares) {
    OjaSubspace oja =
        new OjaSubspace(
            dim,
            k,
            centered,
            schedule,
            qrEvery,
            basis.clone(),
            mean.clone(),
            steps,
            count,
            sumOfSquares);
    oja.orthonormalize();
    return oja;
  }

  /**
   * One step on a mini-batch of b feature vectors, D×b column-major in {@code z} (not modified):
   * the row count, mean and Σ‖z‖² absorb the rows, then Q takes the Oja step with η_t, t the new
   * step count.
   */
  public void step(double[] z, int b) {
    if (b <= 0) {
      return;
    }
    double[] zc = java.util.Arrays.copyOf(z, dim * b);
    long n = count + b;
    for (int i = 0; i < b; i++) {
      int o = i * dim;
      for (int j = 0; j < dim; j++) {
        double v = zc[o + j];
        sumOfSquares += v * v;
        mean[j] += (v - mean[j]) / (count + i + 1);
      }
    }
    count = n;
    if (centered) {
      center(zc, b);
    }
    steps++;
    double eta = schedule.eta(steps);
    double[] p = new double[b * k];
    Blas.blas().dgemm("T", "N", b, k, dim, 1.0, zc, dim, basis, dim, 0.0, p, b);
    Blas.blas().dgemm("N", "N", dim, k, b, eta / b, zc, dim, p, b, 1.0, basis, dim);
    if (steps % qrEvery == 0) {
      orthonormalize();
    }
    for (double v : basis) {
      if (!Double.isFinite(v)) {
        throw new ArithmeticException(
            "Oja: the basis overflowed at step "
                + steps
                + " (eta = "
                + eta
                + "); lower the step size");
      }
    }
  }

  private void center(double[] zc, int b) {
    for (int i = 0; i < b; i++) {
      int o = i * dim;
      for (int j = 0; j < dim; j++) {
        zc[o + j] -= mean[j];
      }
    }
  }

  /** Replaces Q by the orthonormal factor of its QR (same span). */
  public void orthonormalize() {
    HouseholderQr.orthonormalize(basis, dim, k, new double[k], null);
  }

  /**
   * Adds Σ_i (Qᵀz_c,i)(Qᵀz_c,i)ᵀ over a block of b rows (D×b in {@code z}, not modified) to the k×k
   * {@code s}, centring by the current mean when centred. Call {@link #orthonormalize} before the
   * first block, and do not step in between.
   */
  public void accumulateRitz(double[] z, int b, double[] s) {
    if (b <= 0) {
      return;
    }
    double[] zc = java.util.Arrays.copyOf(z, dim * b);
    if (centered) {
      center(zc, b);
    }
    double[] p = new double[b * k];
    Blas.blas().dgemm("T", "N", b, k, dim, 1.0, zc, dim, basis, dim, 0.0, p, b);
    Blas.blas().dgemm("T", "N", k, k, b, 1.0, p, b, p, b, 1.0, s, k);
  }

  /**
   * The k×k Rayleigh–Ritz sum of earlier rows expressed in the current basis:
   * R·diag(n_prev·Λ_prev)·Rᵀ with R = QᵀQ_prev, to start {@link #accumulateRitz} from when the
   * earlier rows are not revisited. Call after {@link #orthonormalize}.
   *
   * @param previousBasis Q_prev, D×k column-major, orthonormal (the basis of the previous
   *     Rayleigh–Ritz step)
   * @param previousEigenvalues Λ_prev, the k eigenvalues that step returned
   * @param previousRows n_prev, the rows that step covered
   */
  public double[] carriedRitz(
      double[] previousBasis, double[] previousEigenvalues, long previousRows) {
    if (previousBasis.length != (long) dim * k
        || previousEigenvalues.length < k
        || previousRows < 0) {
      throw new IllegalArgumentException(
          "Rayleigh-Ritz carry: a basis of "
              + previousBasis.length
              + " entries, "
              + previousEigenvalues.length
              + " eigenvalues and "
              + previousRows
              + " rows for D = "
              + dim
              + ", k = "
              + k);
    }
    double[] r = new double[k * k];
    Blas.blas().dgemm("T", "N", k, k, dim, 1.0, basis, dim, previousBasis, dim, 0.0, r, k);
    double[] weighted = new double[k * k];
    for (int c = 0; c < k; c++) {
      double w = previousRows * previousEigenvalues[c];
      for (int i = 0; i < k; i++) {
        weighted[i + c * k] = r[i + c * k] * w;
      }
    }
    double[] s = new double[k * k];
    Blas.blas().dgemm("N", "T", k, k, k, 1.0, weighted, k, r, k, 0.0, s, k);
    return s;
  }

  /**
   * The Rayleigh–Ritz step: the eigenvalues of QᵀCQ = S/rows, descending, with Q rotated in place
   * onto their eigenvectors (signs fixed: each column's largest-magnitude entry positive).
   *
   * @param s the k×k sum from {@link #accumulateRitz}
   * @param rows the number of rows accumulated (≥ 1)
   */
  public double[] finishRitz(double[] s, long rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("Rayleigh-Ritz needs at least one row");
    }
    double[] c = new double[k * k];
    for (int i = 0; i < c.length; i++) {
      c[i] = s[i] / rows;
    }
    // Descending eigenvalues, their eigenvectors column by column.
    SymmetricEigen eigen = SymmetricEigen.of(c, k);
    double[] v = eigen.vectors();
    double[] sorted = new double[k];
    for (int j = 0; j < k; j++) {
      sorted[j] = Math.max(eigen.values()[j], 0.0);
    }
    double[] rotated = new double[dim * k];
    Blas.blas().dgemm("N", "N", dim, k, k, 1.0, basis, dim, v, k, 0.0, rotated, dim);
    SymmetricEigen.fixSigns(rotated, dim, k);
    System.arraycopy(rotated, 0, basis, 0, rotated.length);
    return sorted;
  }

  /** Q, D×k column-major (a copy). */
  public double[] basis() {
    return basis.clone();
  }

  /** z̄, the running mean of the rows seen (a copy). */
  public double[] mean() {
    return mean.clone();
  }

  /** t, the number of steps taken. */
  public long steps() {
    return steps;
  }

  /** n, the number of rows seen. */
  public long count() {
    return count;
  }

  /** Σ‖z‖² over the rows seen. */
  public double sumOfSquares() {
    return sumOfSquares;
  }

  public int dim() {
    return dim;
  }

  public int numComponents() {
    return k;
  }

  public boolean centered() {
    return centered;
  }

  public StepSchedule schedule() {
    return schedule;
  }

  public int qrEvery() {
    return qrEvery;
  }
}
