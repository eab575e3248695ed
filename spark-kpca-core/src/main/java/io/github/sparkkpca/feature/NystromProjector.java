package io.github.sparkkpca.feature;

import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.RowBlock;
import java.io.Serializable;

/**
 * The fitted Nyström kernel PCA map applied to new rows: y(x) = Pᵀ k_x − o, one GEMM for K_bm and one for
 * Pᵀ K_bm per block, and optionally the feature-space residual
 * e(x) = k(x,x) − 2 k_xᵀ w̄ + ‖φ̄‖² − ‖y(x)‖², where w̄ = Wφ̄ (zero when uncentred).
 *
 * <p>e(x) is the squared distance from k(·,x) − μ̂ to the k-dimensional principal subspace, with μ̂ the
 * Nyström mean: the distance of k(·,x) to H_m plus the in-subspace residual ‖φ(x) − φ̄‖² − ‖y(x)‖².
 * It is clamped at 0 against rounding.
 */
public final class NystromProjector implements Serializable {

  private final LandmarkKernel landmarkKernel;
  private final double[] projector;
  private final int k;
  private final double[] offset;
  private final double[] meanWeights;
  private final double meanSqNorm;

  /**
   * @param landmarkKernel the kernel bound to the landmarks
   * @param projector      P, m×k column-major
   * @param k              number of components
   * @param offset         o = U_kᵀφ̄ (zeros when uncentred)
   * @param meanWeights    w̄ = Wφ̄, length m (zeros when uncentred)
   * @param meanSqNorm     ‖φ̄‖² (0 when uncentred)
   */
  public NystromProjector(LandmarkKernel landmarkKernel, double[] projector, int k, double[] offset,
      double[] meanWeights, double meanSqNorm) {
    int m = landmarkKernel.numLandmarks();
    if (projector.length != m * k || offset.length != k || meanWeights.length != m) {
      throw new IllegalArgumentException("inconsistent projector shapes: m=" + m + ", k=" + k
          + ", projector " + projector.length + ", offset " + offset.length + ", mean weights "
          + meanWeights.length);
    }
    this.landmarkKernel = landmarkKernel;
    this.projector = projector;
    this.k = k;
    this.offset = offset;
    this.meanWeights = meanWeights;
    this.meanSqNorm = meanSqNorm;
  }

  /** Doubles of scratch space for a block of b rows. */
  public int scratchSize(int b) {
    return landmarkKernel.numLandmarks() * b;
  }

  /**
   * Scores the rows of the block into {@code scores} (k×b column-major) and, when {@code residuals} is not
   * null, their residuals.
   */
  public void project(RowBlock block, double[] scratch, double[] scores, double[] residuals) {
    int m = landmarkKernel.numLandmarks();
    int b = block.size();
    landmarkKernel.compute(block, scratch);
    Blas.blas().dgemm("T", "N", k, b, m, 1.0, projector, m, scratch, m, 0.0, scores, k);
    for (int i = 0; i < b; i++) {
      int o = i * k;
      double yy = 0;
      for (int c = 0; c < k; c++) {
        double y = scores[o + c] - offset[c];
        scores[o + c] = y;
        yy += y * y;
      }
      if (residuals != null) {
        double cross = 0;
        int ko = i * m;
        for (int j = 0; j < m; j++) {
          cross += scratch[ko + j] * meanWeights[j];
        }
        double e = landmarkKernel.diagonal(block, i) - 2 * cross + meanSqNorm - yy;
        residuals[i] = Math.max(e, 0.0);
      }
    }
  }

  /** P, m×k column-major (shared, do not modify). */
  public double[] projector() {
    return projector;
  }

  /** o, length k (shared, do not modify). */
  public double[] offset() {
    return offset;
  }

  /** w̄ = Wφ̄, length m (shared, do not modify). */
  public double[] meanWeights() {
    return meanWeights;
  }

  /** ‖φ̄‖². */
  public double meanSqNorm() {
    return meanSqNorm;
  }

  public int numComponents() {
    return k;
  }

  public LandmarkKernel landmarkKernel() {
    return landmarkKernel;
  }
}
