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
 * iterate after the first is x_t = Σ_l w_l z_l / Σ_l w_l = Zᵀa_t with w_l = γ_l k(z_l, x_{t−1}), an
 * affine combination (Σa = 1).
 *
 * <p><b>Distances, not inner products.</b> Expanded around the origin (‖x‖² − 2aᵀZx + aᵀZZᵀa), the
 * error cancels: its rounding is about ε·‖x‖², larger than the error itself for rows offset from
 * the origin (rows 10⁸ + N(0,1): 72.6 for a mean error of 0.43). Written with squared distances,
 * which do not depend on where the origin is,
 *
 * <pre>
 *   ‖x − Zᵀa‖² = Σ_l a_l D_l − ½ aᵀ D a − s·(‖x‖² − Σ_l a_l ‖z_l‖²),   s = Σa − 1,
 *   ‖Zᵀa − z_l‖² = (D a)_l − ½ aᵀ D a                                    (Σa = 1),
 * </pre>
 *
 * with D_l = ‖x − z_l‖² and D the landmarks' m×m squared distances, each to a relative 1e-12 at any
 * offset ({@link LandmarkKernel#squaredDistances}: the rbf blocks' expansion around the kernel's
 * centre, at its cost, Σ_{t∈nz(x)} nnz(Z[:,t]) multiply-adds for a sparse row, with the pairs it
 * cannot vouch for recomputed from coordinate differences). The first identity (a_l(x − z_l)
 * summed, minus s·x) rounds to about ε·(Σ|a_l|D_l + |a|ᵀD|a|), the spread of the data around x̂,
 * plus ε·|s|·(‖x‖² + Σ|a_l|‖z_l‖²) for the ridge map's s ≠ 0 (the fixed point's s is 0 exactly: its
 * pre-image is an affine combination, whatever the rounding of a). So a fixed-point iteration costs
 * one m×m product per row (the kernel values of the iterate from the second identity), and the
 * first iteration starts from x itself through the model's kernel values, as {@link Preimage} does.
 * The iteration, its convergence test (‖x_{t+1} − x_t‖ ≤ 10⁻⁸‖x_{t+1}‖, with ‖x_{t+1} − x_t‖² =
 * −½ΔaᵀDΔa, ΣΔa = 0, and ‖x_{t+1}‖² = Σ a_l‖z_l‖² − ½aᵀDa) and its stop on a vanishing denominator
 * are those of {@link Preimage}; a row whose first denominator vanishes keeps x (e = 0). Per row:
 * O(Σ_{t∈nz(x)} nnz(Z[:,t]) + m·k + iterations·m²) flops; memory: D (and the ridge's (K_YY +
 * αI)⁻¹), 8m² bytes each, and the landmarks in the projector's form.
 */
public final class PreimageError implements Serializable {

  private final Preimage.Method method;
  private final Projector projector;
  private final int maxIter;

  /** The ridge map's score kernel; null for the fixed point. */
  private final LandmarkKernel scoreKernel;

  /** (K_YY + αI)⁻¹, m×m column-major; null for the fixed point. */
  private final double[] ridgeInverse;

  /** The rbf kernel on the landmarks: a row's squared distances D_l on the landmarks' path. */
  private final LandmarkKernel distances;

  /** D = (‖z_i − z_j‖²), m×m column-major. */
  private final double[] landmarkDistances;

  /** ‖z_l‖². */
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
    this.distances = new LandmarkKernel(Kernel.rbf(1.0), support.points());
    this.landmarkDistances = distances.landmarkSquaredDistances();
    this.landmarkSqNorms = support.points().sqNorms();
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
    double[] dist = new double[m * b];
    distances.squaredDistances(block, dist);
    double[] a = new double[m * b];
    double[] da = new double[m * b];
    boolean[] identity = new boolean[b];
    boolean ridge = method == Preimage.Method.RIDGE;
    if (ridge) {
      int k = scoreKernel.dim();
      RowBlock scoreBlock = new RowBlock(b, k);
      scoreBlock.fill(scores, b); // k×b column-major: each row's k scores contiguous
      double[] ky = new double[m * b];
      scoreKernel.compute(scoreBlock, ky);
      Blas.blas().dgemm("N", "N", m, b, m, 1.0, ridgeInverse, m, ky, m, 0.0, a, m);
      Blas.blas().dgemm("N", "N", m, b, m, 1.0, landmarkDistances, m, a, m, 0.0, da, m);
    } else {
      fixedPoint(block, scores, dist, a, da, identity);
    }
    double[] sq = block.sqNorms();
    for (int i = 0; i < b; i++) {
      if (identity[i]) {
        out[i] = 0.0;
        continue;
      }
      double toRow = 0;
      double quadratic = 0;
      double sum = 0;
      double landmarkNorms = 0;
      for (int l = i * m, end = l + m; l < end; l++) {
        toRow += a[l] * dist[l];
        quadratic += a[l] * da[l];
        sum += a[l];
        landmarkNorms += a[l] * landmarkSqNorms[l - i * m];
      }
      double e = toRow - 0.5 * quadratic;
      if (ridge) {
        e -= (sum - 1) * (sq[i] - landmarkNorms);
      }
      out[i] = Math.max(e, 0.0);
    }
  }

  /**
   * The fixed-point iteration in coefficient space: leaves the final a (m×b) and D·a, or marks the
   * rows whose first denominator vanished (their pre-image is x itself).
   */
  private void fixedPoint(
      RowBlock block, double[] scores, double[] dist, double[] a, double[] da, boolean[] identity) {
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
    Blas.blas().dgemm("N", "N", m, b, m, 1.0, landmarkDistances, m, a, m, 0.0, da, m);
    boolean all = true;
    for (int i = 0; i < b; i++) {
      if (done[i]) {
        continue;
      }
      // ‖x_1 − x‖² = Σ a_l D_l − ½aᵀDa, against ‖x_1‖² = Σ a_l‖z_l‖² − ½aᵀDa.
      double toRow = 0;
      double half = 0;
      double norms = 0;
      for (int l = i * m, end = l + m; l < end; l++) {
        toRow += a[l] * dist[l];
        half += 0.5 * a[l] * da[l];
        norms += a[l] * landmarkSqNorms[l - i * m];
      }
      done[i] = converged(toRow - half, norms - half);
      all &= done[i];
    }
    double[] next = new double[m * b];
    double[] dNext = new double[m * b];
    double[] minusHalf = new double[b];
    double[] zeros = new double[m];
    for (int iter = 1; iter < maxIter && !all; iter++) {
      // k(z_l, x_t) from ‖x_t − z_l‖² = (Da)_l − ½aᵀDa through the kernel's own map, whose
      // argument is s_i + q_l − 2·w_il: s_i = −½aᵀDa, q = 0, w = −½Da.
      for (int i = 0; i < b; i++) {
        double s = 0;
        for (int l = i * m, end = l + m; l < end; l++) {
          s += a[l] * da[l];
          w[l] = -0.5 * da[l];
        }
        minusHalf[i] = -0.5 * s;
      }
      kernel.type().mapInnerProducts(kernel, w, minusHalf, b, zeros, m);
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
      Blas.blas().dgemm("N", "N", m, b, m, 1.0, landmarkDistances, m, next, m, 0.0, dNext, m);
      all = true;
      for (int i = 0; i < b; i++) {
        if (done[i]) {
          continue;
        }
        // ‖x_{t+1} − x_t‖² = −½Δaᵀ(D a_{t+1} − D a_t) (ΣΔa = 0): no cancellation against ‖x‖².
        double change = 0;
        double half = 0;
        double norms = 0;
        for (int l = i * m, end = l + m; l < end; l++) {
          change -= 0.5 * (next[l] - a[l]) * (dNext[l] - da[l]);
          half += 0.5 * next[l] * dNext[l];
          norms += next[l] * landmarkSqNorms[l - i * m];
        }
        done[i] = converged(change, norms - half);
        all &= done[i];
      }
      System.arraycopy(next, 0, a, 0, m * b);
      System.arraycopy(dNext, 0, da, 0, m * b);
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
