package io.github.sparkkpca.feature;

import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.linalg.SymmetricEigen;

/**
 * The Nyström feature map φ(x) = Wᵀ k_x with W = V_r Λ_r^{-1/2}, from the eigendecomposition
 * K_mm = V Λ Vᵀ of the landmark kernel matrix restricted to its r eigenvalues above rcond·λ_max.
 *
 * <p>φ(x) are the coordinates of P_m k(·,x), the projection of the feature vector onto
 * H_m = span{k(·,z_j)}, in an orthonormal basis of H_m, so ⟨φ(x), φ(y)⟩ = k_xᵀ K_mm⁺ k_y, the Nyström
 * approximation of k(x,y) (Williams and Seeger 2001; Sterge et al. 2020, Prop. 3.4).
 */
public final class NystromFeatureMap implements FeatureMap {

  private final LandmarkKernel landmarkKernel;
  private final double[] weights;
  private final int rank;
  private final double[] landmarkEigenvalues;

  private NystromFeatureMap(LandmarkKernel landmarkKernel, double[] weights, int rank,
      double[] landmarkEigenvalues) {
    this.landmarkKernel = landmarkKernel;
    this.weights = weights;
    this.rank = rank;
    this.landmarkEigenvalues = landmarkEigenvalues;
  }

  /**
   * Eigendecomposes K_mm and builds W, keeping the eigenvalues λ > rcond·λ_max.
   *
   * @throws IllegalArgumentException when K_mm has no positive eigenvalue
   */
  public static NystromFeatureMap fit(LandmarkKernel landmarkKernel, double rcond) {
    int m = landmarkKernel.numLandmarks();
    SymmetricEigen eig = SymmetricEigen.of(landmarkKernel.gram(), m);
    int r = eig.rank(rcond);
    if (r == 0) {
      throw new IllegalArgumentException("The landmark kernel matrix (m = " + m + ") has no eigenvalue above "
          + "rcond·λ_max (λ_max = " + eig.values()[0] + "): all landmarks map to zero in feature space");
    }
    double[] w = new double[m * r];
    double[] vectors = eig.vectors();
    for (int c = 0; c < r; c++) {
      double scale = 1.0 / Math.sqrt(eig.values()[c]);
      for (int i = 0; i < m; i++) {
        w[i + c * m] = vectors[i + c * m] * scale;
      }
    }
    return new NystromFeatureMap(landmarkKernel, w, r, eig.values());
  }

  @Override
  public int outputDim() {
    return rank;
  }

  @Override
  public int inputDim() {
    return landmarkKernel.dim();
  }

  @Override
  public int scratchSize(int b) {
    return landmarkKernel.numLandmarks() * b;
  }

  @Override
  public void map(RowBlock block, double[] scratch, double[] out) {
    int m = landmarkKernel.numLandmarks();
    int b = block.size();
    landmarkKernel.compute(block, scratch);
    // F (r×b) = Wᵀ (m×r)ᵀ · K (m×b)
    Blas.blas().dgemm("T", "N", rank, b, m, 1.0, weights, m, scratch, m, 0.0, out, rank);
  }

  @Override
  public double diagonalSum(RowBlock block) {
    double s = 0;
    for (int i = 0; i < block.size(); i++) {
      s += landmarkKernel.diagonal(block, i);
    }
    return s;
  }

  public LandmarkKernel landmarkKernel() {
    return landmarkKernel;
  }

  /** W, m×r column-major. */
  public double[] weights() {
    return weights;
  }

  /** r, the numerical rank of K_mm kept. */
  public int rank() {
    return rank;
  }

  /** All m eigenvalues of K_mm, descending (negative ones only for indefinite kernels or rounding). */
  public double[] landmarkEigenvalues() {
    return landmarkEigenvalues.clone();
  }

  /** W·a for an r-vector (or r×k column-major matrix with k columns): landmark weights of a feature. */
  public double[] toLandmarkWeights(double[] a, int columns) {
    int m = landmarkKernel.numLandmarks();
    double[] out = new double[m * columns];
    Blas.blas().dgemm("N", "N", m, columns, rank, 1.0, weights, m, a, rank, 0.0, out, m);
    return out;
  }
}
