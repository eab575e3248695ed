package io.github.sparkkpca.pca;

import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.BlockKrylovEigen;
import io.github.sparkkpca.linalg.SymmetricEigen;
import java.util.Random;

/**
 * The k leading eigenpairs of a symmetric positive semi-definite r×r operator C known only through
 * products C·X (one distributed pass each in the top-k statistics route), by block Krylov with
 * Rayleigh–Ritz (Musco and Musco 2015), the basis and the products kept on the driver.
 *
 * <p><b>Method.</b> The basis V starts from a seeded Gaussian r×l block, l = k + oversampling, made
 * orthonormal; each pass multiplies the newest block X_j by C, appends X_j and C X_j to V and CV,
 * and orthonormalises C X_j against V ({@link BlockKrylovEigen#orthonormalise}) for the next block,
 * so V spans the block Krylov space {X_0, C X_0, …, C^j X_0}. The Rayleigh quotient H = Vᵀ(CV) and
 * its eigenpairs (θ_i, y_i) give the Ritz pairs (θ_i, u_i = V y_i) with C u_i = (CV) y_i, so the
 * residuals ρ_i = ‖C u_i − θ_i u_i‖ come from the products already made: no extra pass. It stops
 * when every one of the k leading pairs has ρ_i ≤ tol·θ_1, or when V spans all r dimensions (then
 * the Ritz pairs are exact up to rounding), or after {@code maxPasses} products; the result says
 * which. Driver memory: V and CV, 2·r·(passes·l) doubles in one r×l block per pass, and H.
 *
 * <p><b>What the tolerance guarantees.</b> For a symmetric C a residual ρ_i puts an eigenvalue
 * within ρ_i of θ_i, and within ρ_i²/δ_i when θ_i is separated from the rest of the spectrum by δ_i
 * (Kato–Temple); the angle between span{u_1..u_k} and the leading eigenspace is at most
 * ‖[ρ_1..ρ_k]‖ / (θ_k − λ_{k+1}) (Davis–Kahan). At a cluster of eigenvalues straddling the k-th the
 * individual vectors of the cluster are not determined (any basis of it has small residuals), but
 * the eigenvalues still are, within ρ_i.
 */
public final class TopKEigen {

  /** C·X for an r×columns column-major X; returns a new r×columns array. */
  @FunctionalInterface
  public interface Operator {
    double[] apply(double[] x, int columns);
  }

  /**
   * The outcome.
   *
   * @param values θ_1 ≥ … ≥ θ_k
   * @param vectors u_1..u_k, r×k column-major, orthonormal
   * @param passes the products made with C
   * @param residuals ρ_i = ‖C u_i − θ_i u_i‖, absolute
   * @param converged whether every ρ_i ≤ tol·θ_1 (or the basis spans the whole space)
   */
  public record Result(
      double[] values, double[] vectors, int passes, double[] residuals, boolean converged) {

    /** max ρ_i / θ_1 (∞ when θ_1 ≤ 0). */
    public double largestRelativeResidual() {
      double worst = 0;
      for (double rho : residuals) {
        worst = Math.max(worst, rho);
      }
      return values[0] > 0 ? worst / values[0] : Double.POSITIVE_INFINITY;
    }
  }

  private TopKEigen() {}

  /**
   * @param r the order of C
   * @param k the pairs wanted, 1 ≤ k ≤ r
   * @param oversampling l − k, the extra columns per block
   * @param tolerance ρ_i ≤ tolerance·θ_1 for every i ≤ k
   * @param maxPasses the most products with C
   */
  public static Result solve(
      Operator c, int r, int k, int oversampling, double tolerance, int maxPasses, long seed) {
    if (k < 1 || k > r) {
      throw new IllegalArgumentException("k must be in [1, " + r + "], got " + k);
    }
    int l = Math.min(r, k + oversampling);
    int capacity = (int) Math.min(r, (long) maxPasses * l);
    Random random = new Random(seed);
    // V and CV as one block per pass (r×width each), never one r×capacity array: at r = 50,000 that
    // would be a gigabyte in one object, which a heap mostly taken by K_mm's tiles cannot place.
    double[][] v = new double[maxPasses][];
    double[][] cv = new double[maxPasses][];
    int[] widths = new int[maxPasses];
    int count = 0;
    double[] h = new double[capacity * capacity];
    double[] block = new double[r * l];
    for (int i = 0; i < block.length; i++) {
      block[i] = random.nextGaussian();
    }
    double[] factor = new double[l * l];
    BlockKrylovEigen.orthonormalise(block, r, l, v, widths, 0, null, random, factor);
    int width = l;
    int cols = 0;
    int passes = 0;
    while (true) {
      double[] product = c.apply(block, width);
      passes++;
      v[count] = block;
      cv[count] = product;
      widths[count] = width;
      count++;
      int total = cols + width;
      double[] fresh = new double[total * width];
      BlockKrylovEigen.transposeTimes(v, widths, count, product, r, width, fresh, total);
      for (int j = 0; j < width; j++) {
        for (int i = 0; i < total; i++) {
          double value = fresh[i + j * total];
          if (!Double.isFinite(value)) {
            throw new ArithmeticException(
                "the top-k iteration met a non-finite product in pass " + passes);
          }
          h[i + (cols + j) * capacity] = value;
          h[(cols + j) + i * capacity] = value;
        }
      }
      cols = total;
      double[] hc = new double[cols * cols];
      for (int j = 0; j < cols; j++) {
        System.arraycopy(h, j * capacity, hc, j * cols, cols);
      }
      SymmetricEigen ritz = SymmetricEigen.leading(hc, cols, k);
      double[] values = java.util.Arrays.copyOf(ritz.values(), k);
      double[] y = ritz.vectors();
      double[] u = new double[r * k];
      double[] cu = new double[r * k];
      BlockKrylovEigen.times(v, widths, count, y, cols, r, k, 1.0, 0.0, u);
      BlockKrylovEigen.times(cv, widths, count, y, cols, r, k, 1.0, 0.0, cu);
      double[] residuals = new double[k];
      double worst = 0;
      for (int i = 0; i < k; i++) {
        Blas.blas().daxpy(r, -values[i], u, i * r, 1, cu, i * r, 1);
        residuals[i] = Blas.blas().dnrm2(r, cu, i * r, 1);
        worst = Math.max(worst, residuals[i]);
      }
      boolean spansAll = cols >= r;
      boolean converged = values[0] > 0 && worst <= tolerance * values[0];
      if (converged || spansAll || passes >= maxPasses || cols >= capacity) {
        return new Result(values, u, passes, residuals, converged || spansAll);
      }
      int next = Math.min(l, capacity - cols);
      double[] x = java.util.Arrays.copyOf(product, r * next);
      double[] known = null;
      if (next == width) {
        known = fresh;
      }
      BlockKrylovEigen.orthonormalise(
          x, r, next, v, widths, count, known, random, new double[next * next]);
      block = x;
      width = next;
    }
  }
}
