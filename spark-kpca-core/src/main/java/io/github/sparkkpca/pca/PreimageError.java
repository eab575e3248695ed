package io.github.sparkkpca.pca;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.RowBlock;
import java.io.Serializable;

/**
 * The squared input-space distance e(x) = ‖x − x̂‖² from each row to the pre-image x̂ of its scores
 * ({@link Preimage}, same method and settings), computed without forming x̂: at sparse cost for
 * sparse rows, so that pre-image errors of rows too wide for dense pre-images (text hashed to 2^18
 * columns) can tune γ and the kernel.
 *
 * <p><b>Coefficient space.</b> Both pre-images lie in the span of the landmarks z_1..z_m (rows of
 * Z): the ridge map gives x̂ = Cᵀk_y = Zᵀa with a = (K_YY + αI)⁻¹ k_y, and every fixed-point
 * iterate after the first is x_t = Σ_l w_l z_l / Σ_l w_l = Zᵀa_t with w_l = γ_l k(z_l, x_{t−1}).
 * With the landmarks' Gram matrix G = ZZᵀ (m×m, computed once from the stored landmarks at O(Σ nnz)
 * pair-sum cost) and the row's inner products Zx (the linear kernel's block, Σ_{t∈nz(x)}
 * nnz(Z[:,t]) multiply-adds for a sparse row),
 *
 * <pre>
 *   ‖x − Zᵀa‖² = ‖x‖² − 2 aᵀ(Zx) + aᵀGa,      ‖Zᵀa − z_l‖² = aᵀGa − 2 (Ga)_l + G_ll,
 * </pre>
 *
 * so a fixed-point iteration costs one m×m product per row (the kernel values of the iterate come
 * from the second identity), and the first iteration starts from x itself through Zx, as {@link
 * Preimage} does. The iteration, its convergence test (‖x_{t+1} − x_t‖ ≤ 10⁻⁸‖x_{t+1}‖, with
 * ‖x_{t+1} − x_t‖² = Δaᵀ(G a_{t+1} − G a_t)) and its stop on a vanishing denominator are those of
 * {@link Preimage}; a row whose first denominator vanishes keeps x (e = 0). Per row: O(Σ_{t∈nz(x)}
 * nnz(Z[:,t]) + m·k + iterations·m²) flops; memory: G (and the ridge's (K_YY + αI)⁻¹), 8m² bytes
 * each, and the landmarks in the projector's form.
 *
 * <p><b>Rounding.</b> The expansion of ‖x − x̂‖² cancels: its error is about ε(‖x‖² + ‖x̂‖²), not
 * ε‖x − x̂‖². Tuning compares errors of the order of the rows' variance, far above that, on data
 * near the origin (sparse rows are). Dense data far from the origin (rows 10⁸ + N(0,1)) need their
 * mean subtracted first.
 */
public final class PreimageError implements Serializable {

  private final Preimage.Method method;
  private final Projector projector;
  private final int maxIter;

  /** The ridge map's score kernel; null for the fixed point. */
  private final LandmarkKernel scoreKernel;

  /** (K_YY + αI)⁻¹, m×m column-major; null for the fixed point. */
  private final double[] ridgeInverse;

  /** The linear kernel on the landmarks: a row's inner products Zx on the landmarks' own path. */
  private final LandmarkKernel innerProducts;

  /** G = ZZᵀ, m×m column-major. */
  private final double[] gram;

  /** G_ll = ‖z_l‖². */
  private final double[] landmarkSqNorms;

  private PreimageError(
      Preimage.Method method,
      Projector projector,
      int maxIter,
      LandmarkKernel scoreKernel,
      double[] ridgeInverse) {
    this.method = method;
    this.projector = projector;
    this.maxIter = maxIter;
    this.scoreKernel = scoreKernel;
    this.ridgeInverse = ridgeInverse;
    LandmarkKernel support = projector.kernelExpansion().support();
    this.innerProducts = new LandmarkKernel(Kernel.linear(), support.points());
    this.gram = innerProducts.gram();
    int m = support.numLandmarks();
    this.landmarkSqNorms = new double[m];
    for (int l = 0; l < m; l++) {
      landmarkSqNorms[l] = gram[l + l * m];
    }
  }

  /** The errors of {@link Preimage#fixedPoint} pre-images (rbf only). */
  public static PreimageError fixedPoint(Projector projector, int maxIter) {
    Preimage.fixedPoint(projector, maxIter); // the same refusal for other kernels
    return new PreimageError(Preimage.Method.FIXED_POINT, projector, maxIter, null, null);
  }

  /** The errors of {@link Preimage#ridge} pre-images, O(m²k + m³) to set up. */
  public static PreimageError ridge(Projector projector, double alpha) {
    LandmarkKernel scoreKernel = Preimage.ridgeScoreKernel(projector);
    int m = scoreKernel.numLandmarks();
    double[] inverse = new double[m * m];
    for (int j = 0; j < m; j++) {
      inverse[j + j * m] = 1.0;
    }
    Preimage.solveRidge(scoreKernel, alpha, inverse, m);
    return new PreimageError(Preimage.Method.RIDGE, projector, 0, scoreKernel, inverse);
  }

  public Preimage.Method method() {
    return method;
  }

  /**
   * Writes e(x_i) = ‖x_i − x̂_i‖² of the block's rows, whose scores are {@code scores} (k×b
   * column-major), into {@code out[0..b)}. The block is in the projector's form ({@link
   * Projector#newBlock}).
   */
  public void squaredErrors(RowBlock block, double[] scores, double[] out) {
    int b = block.size();
    if (b == 0) {
      return;
    }
    int m = landmarkSqNorms.length;
    double[] zx = new double[m * b];
    innerProducts.compute(block, zx);
    double[] sq = block.sqNorms();
    double[] a = new double[m * b];
    double[] ga = new double[m * b];
    boolean[] identity = new boolean[b];
    if (method == Preimage.Method.RIDGE) {
      int k = scoreKernel.dim();
      RowBlock scoreBlock = new RowBlock(b, k);
      scoreBlock.fill(scores, b); // k×b column-major: each row's k scores contiguous
      double[] ky = new double[m * b];
      scoreKernel.compute(scoreBlock, ky);
      Blas.blas().dgemm("N", "N", m, b, m, 1.0, ridgeInverse, m, ky, m, 0.0, a, m);
      Blas.blas().dgemm("N", "N", m, b, m, 1.0, gram, m, a, m, 0.0, ga, m);
    } else {
      fixedPoint(block, scores, zx, sq, a, ga, identity);
    }
    for (int i = 0; i < b; i++) {
      if (identity[i]) {
        out[i] = 0.0;
        continue;
      }
      double cross = 0;
      double quadratic = 0;
      for (int l = i * m, end = l + m; l < end; l++) {
        cross += a[l] * zx[l];
        quadratic += a[l] * ga[l];
      }
      out[i] = Math.max(sq[i] - 2 * cross + quadratic, 0.0);
    }
  }

  /**
   * The fixed-point iteration in coefficient space: leaves the final a (m×b) and G·a, or marks the
   * rows whose first denominator vanished (their pre-image is x itself).
   */
  private void fixedPoint(
      RowBlock block,
      double[] scores,
      double[] zx,
      double[] sq,
      double[] a,
      double[] ga,
      boolean[] identity) {
    int m = landmarkSqNorms.length;
    int b = block.size();
    Kernel kernel = projector.kernel();
    double[] weights = Preimage.landmarkWeights(projector, scores, b);
    double[] w = new double[m * b];
    // Iteration 1 starts from x: the model's own kernel values of the rows.
    projector.kernelExpansion().support().compute(block, w);
    boolean[] done = new boolean[b];
    for (int i = 0; i < b; i++) {
      double denominator = weigh(w, weights, i, m);
      if (Preimage.vanishes(denominator)) {
        identity[i] = true;
        done[i] = true;
        continue;
      }
      for (int l = i * m, end = l + m; l < end; l++) {
        a[l] = w[l] / denominator;
      }
    }
    Blas.blas().dgemm("N", "N", m, b, m, 1.0, gram, m, a, m, 0.0, ga, m);
    boolean all = true;
    for (int i = 0; i < b; i++) {
      if (done[i]) {
        continue;
      }
      // ‖x_1 − x‖² = ‖x‖² − 2 a_1ᵀ(Zx) + a_1ᵀGa_1, against ‖x_1‖² = a_1ᵀGa_1.
      double cross = 0;
      double norm = 0;
      for (int l = i * m, end = l + m; l < end; l++) {
        cross += a[l] * zx[l];
        norm += a[l] * ga[l];
      }
      done[i] = converged(sq[i] - 2 * cross + norm, norm);
      all &= done[i];
    }
    double[] next = new double[m * b];
    double[] gNext = new double[m * b];
    double[] iterateSq = new double[b];
    for (int iter = 1; iter < maxIter && !all; iter++) {
      // k(z_l, x_t) from ‖x_t − z_l‖² = aᵀGa − 2(Ga)_l + G_ll: the kernel's own map.
      System.arraycopy(ga, 0, w, 0, m * b);
      for (int i = 0; i < b; i++) {
        double s = 0;
        for (int l = i * m, end = l + m; l < end; l++) {
          s += a[l] * ga[l];
        }
        iterateSq[i] = s;
      }
      kernel.type().mapInnerProducts(kernel, w, iterateSq, b, landmarkSqNorms, m);
      System.arraycopy(a, 0, next, 0, m * b);
      for (int i = 0; i < b; i++) {
        if (done[i]) {
          continue;
        }
        double denominator = weigh(w, weights, i, m);
        if (Preimage.vanishes(denominator)) {
          done[i] = true;
          continue;
        }
        for (int l = i * m, end = l + m; l < end; l++) {
          next[l] = w[l] / denominator;
        }
      }
      Blas.blas().dgemm("N", "N", m, b, m, 1.0, gram, m, next, m, 0.0, gNext, m);
      all = true;
      for (int i = 0; i < b; i++) {
        if (done[i]) {
          continue;
        }
        // ‖x_{t+1} − x_t‖² = Δaᵀ(G a_{t+1} − G a_t): no cancellation against ‖x‖².
        double change = 0;
        double norm = 0;
        for (int l = i * m, end = l + m; l < end; l++) {
          change += (next[l] - a[l]) * (gNext[l] - ga[l]);
          norm += next[l] * gNext[l];
        }
        done[i] = converged(change, norm);
        all &= done[i];
      }
      System.arraycopy(next, 0, a, 0, m * b);
      System.arraycopy(gNext, 0, ga, 0, m * b);
    }
  }

  /** w ← Γ∘K for row i; returns its denominator Σ_l w_l. */
  private static double weigh(double[] w, double[] weights, int i, int m) {
    double denominator = 0;
    for (int l = i * m, end = l + m; l < end; l++) {
      w[l] *= weights[l];
      denominator += w[l];
    }
    return denominator;
  }

  /** {@link Preimage}'s test: ‖Δx‖² ≤ tol²·max(‖x_{t+1}‖², 1e-300). */
  private static boolean converged(double change, double norm) {
    return change <= Preimage.TOLERANCE * Preimage.TOLERANCE * Math.max(norm, 1e-300);
  }
}
