package io.github.sparkkpca.feature;

import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.Cholesky;
import io.github.sparkkpca.linalg.Inertia;
import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.linalg.SymmetricEigen;

/**
 * The Nyström feature map φ(x) = Wᵀ k_x, where W (m×r) whitens the landmark kernel matrix on its
 * numerical range: W Wᵀ = K_mm⁺ restricted to the r eigenvalues of K_mm above rcond·λ_max.
 *
 * <p>φ(x) are the coordinates of P_m k(·,x), the projection of the feature vector onto
 * H_m = span{k(·,z_j)}, in an orthonormal basis of H_m, so ⟨φ(x), φ(y)⟩ = k_xᵀ K_mm⁺ k_y, the Nyström
 * approximation of k(x,y) (Williams and Seeger 2001; Sterge et al. 2020, Prop. 3.4).
 *
 * <p>Two choices of W give such a basis; they differ by a rotation of R^r, which linear PCA of φ does not
 * see (the spectrum, the projector P = W U_k and the scores are the same):
 * <ul>
 *   <li>full numerical rank (r = m, the usual case): W = R⁻¹ with K_mm = RᵀR (Cholesky), upper
 *       triangular, so φ = Wᵀk is a triangular multiply: m² flops per row instead of 2m², which halves the
 *       largest term of the fit;
 *   <li>rank-deficient K_mm (duplicated or nearly dependent landmarks), or a Cholesky factorisation that
 *       breaks down: W = V_r Λ_r^{-1/2} from the eigendecomposition K_mm = V Λ Vᵀ.
 * </ul>
 * Full rank is established without an eigendecomposition: λ_max by power iteration, then the number of
 * eigenvalues above rcond·λ_max by inertia ({@link Inertia}, one LDLᵀ factorisation). Only when that
 * count is below m are the eigenvalues computed, and the rank is then counted from them.
 */
public final class NystromFeatureMap implements FeatureMap {

  /** Power iterations at most for λ_max of K_mm (kernel matrices usually need a few dozen). */
  private static final int POWER_ITERATIONS = 100;

  private final LandmarkKernel landmarkKernel;
  private final double[] weights;
  private final int rank;
  private final boolean triangular;

  private NystromFeatureMap(LandmarkKernel landmarkKernel, double[] weights, int rank, boolean triangular) {
    this.landmarkKernel = landmarkKernel;
    this.weights = weights;
    this.rank = rank;
    this.triangular = triangular;
  }

  /**
   * Finds the numerical rank r of K_mm (the number of eigenvalues λ > rcond·λ_max) and builds W: the
   * inverse Cholesky factor when r = m, else V_r Λ_r^{-1/2}.
   *
   * @throws IllegalArgumentException when K_mm has no positive eigenvalue
   */
  public static NystromFeatureMap fit(LandmarkKernel landmarkKernel, double rcond) {
    int m = landmarkKernel.numLandmarks();
    double[] gram = landmarkKernel.gram();
    double largest = Inertia.largestEigenvalue(gram, m, POWER_ITERATIONS);
    if (largest > 0 && Inertia.countAbove(gram, m, rcond * largest) == m) {
      double[] inverseFactor = Cholesky.inverseUpperFactor(gram, m);
      if (inverseFactor != null) {
        return new NystromFeatureMap(landmarkKernel, inverseFactor, m, true);
      }
    }
    SymmetricEigen eig = SymmetricEigen.of(gram, m);
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
    return new NystromFeatureMap(landmarkKernel, w, r, false);
  }

  @Override
  public String kind() {
    return "nystrom";
  }

  @Override
  public io.github.sparkkpca.kernel.Kernel kernel() {
    return landmarkKernel.kernel();
  }

  @Override
  public boolean isExplicit() {
    return false;
  }

  /** Aᵀφ(x) = (WA)ᵀk_x: a kernel expansion over the landmarks with coefficients WA (m×c). */
  @Override
  public LinearReadout readout(double[] a, int columns) {
    return new KernelExpansion(landmarkKernel, toLandmarkWeights(a, columns), columns);
  }

  /**
   * Rebuilds a map from its persisted parts (W as it was fitted, so a loaded model scores exactly as the
   * saved one).
   */
  public static NystromFeatureMap of(LandmarkKernel landmarkKernel, double[] weights, int rank,
      boolean triangular) {
    if (weights.length != (long) landmarkKernel.numLandmarks() * rank) {
      throw new IllegalArgumentException("Nyström map: " + weights.length + " weights for m = "
          + landmarkKernel.numLandmarks() + " and rank " + rank);
    }
    return new NystromFeatureMap(landmarkKernel, weights, rank, triangular);
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
    return triangular ? 0 : landmarkKernel.numLandmarks() * b;
  }

  @Override
  public void map(RowBlock block, double[] scratch, double[] out) {
    int m = landmarkKernel.numLandmarks();
    int b = block.size();
    if (triangular) {
      // r = m: K (m×b) goes straight into out and is multiplied in place by the triangular Wᵀ.
      landmarkKernel.compute(block, out);
      Blas.blas().dtrmm("L", "U", "T", "N", m, b, 1.0, weights, m, out, m);
      return;
    }
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

  /** Whether W is the upper-triangular inverse Cholesky factor (r = m) rather than V_r Λ_r^{-1/2}. */
  public boolean isTriangular() {
    return triangular;
  }

  /** W, m×r column-major (upper triangular when {@link #isTriangular()}). */
  public double[] weights() {
    return weights;
  }

  /** r, the numerical rank of K_mm kept. */
  public int rank() {
    return rank;
  }

  /** W·a for an r-vector (or r×k column-major matrix with k columns): landmark weights of a feature. */
  public double[] toLandmarkWeights(double[] a, int columns) {
    int m = landmarkKernel.numLandmarks();
    double[] out = new double[m * columns];
    Blas.blas().dgemm("N", "N", m, columns, rank, 1.0, weights, m, a, rank, 0.0, out, m);
    return out;
  }
}
