package io.github.sparkkpca.feature;

import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.Cholesky;
import io.github.sparkkpca.linalg.DriverThreads;
import io.github.sparkkpca.linalg.Inertia;
import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.linalg.SymmetricEigen;
import io.github.sparkkpca.linalg.SymmetricStorage;

/**
 * The Nyström feature map φ(x) = Wᵀ k_x, where W (m×r) whitens the landmark kernel matrix on its
 * numerical range: W Wᵀ = K_mm⁺ restricted to the r eigenvalues of K_mm above rcond·λ_max.
 *
 * <p>φ(x) are the coordinates of P_m k(·,x), the projection of the feature vector onto H_m =
 * span{k(·,z_j)}, in an orthonormal basis of H_m, so ⟨φ(x), φ(y)⟩ = k_xᵀ K_mm⁺ k_y, the Nyström
 * approximation of k(x,y) (Williams and Seeger 2001; Sterge et al. 2020, Prop. 3.4).
 *
 * <p>Two choices of W give such a basis; they differ by a rotation of R^r, which linear PCA of φ
 * does not see (the spectrum, the projector P = W U_k and the scores are the same):
 *
 * <ul>
 *   <li>full numerical rank (r = m, the usual case): W = R⁻¹ with K_mm = RᵀR (Cholesky), upper
 *       triangular, so φ = Wᵀk is a triangular multiply: m² flops per row instead of 2m², which
 *       halves the largest term of the fit;
 *   <li>rank-deficient K_mm (duplicated or nearly dependent landmarks), or a Cholesky factorisation
 *       that breaks down: W = V_r Λ_r^{-1/2} from the eigendecomposition K_mm = V Λ Vᵀ.
 * </ul>
 *
 * Full rank is established without an eigendecomposition: λ_max by power iteration, the Cholesky
 * factor, then λ_max·tr(K_mm⁻¹) &lt; 1/(2·rcond) (from W, m² flops), which proves every eigenvalue
 * above rcond·λ_max; only when that test fails are the eigenvalues above rcond·λ_max counted by
 * inertia ({@link Inertia}, one LDLᵀ factorisation). When the factorisation breaks down or the
 * count is below m, the eigenvalues are computed and the rank is counted from them.
 *
 * <p><b>Kernels that are not positive definite</b> (sigmoid, polynomial with c₀ &lt; 0): K_mm = V Λ
 * Vᵀ has negative eigenvalues, which no whitening can keep (φ is real). W = V₊ Λ₊^{-1/2} keeps the
 * eigenvalues above rcond·ρ, where ρ = max_i |λ_i| is the spectral radius (for a positive definite
 * kernel ρ = λ_max, so nothing changes there; for an indefinite one the largest eigenvalue in
 * magnitude can be negative — polynomial with c₀ &lt; 0 and large |c₀| — and a threshold relative
 * to the largest <em>positive</em> eigenvalue would keep directions that are tiny next to the
 * matrix). The model is then the kernel PCA of the <em>positive-part surrogate kernel</em> k̃(x,y)
 * = ⟨φ(x),φ(y)⟩ = k_xᵀ V₊ Λ₊⁻¹ V₊ᵀ k_y: on the landmarks k̃(z_i,z_j) = (K₊)_ij with K₊ = V₊ Λ₊ V₊ᵀ
 * the positive part of K_mm, so at m = n the model is the exact kernel PCA of K₊. Every variance
 * the model reports is k̃'s, not k's (see docs/kernels.md).
 *
 * <p>Why the threshold matters more there: for a positive definite kernel the matrix [[K_mm, k_x],
 * [k_xᵀ, k(x,x)]] is positive semi-definite, so ‖φ(x)‖² = k_xᵀ K_mm⁺ k_x ≤ k(x,x) whatever the
 * small eigenvalues (each term (v_iᵀk_x)²/λ_i is bounded). For an indefinite kernel no such bound
 * holds: (v_iᵀk_x)² need not shrink with λ_i, and the only bound is ‖φ(x)‖² ≤ ‖k_x‖²/(rcond·ρ).
 * Positive eigenvalues of an indefinite K_mm cross zero with a density that does not vanish there,
 * so the smallest kept one is often 1e-6·ρ or less and a row off the landmarks gets ‖φ(x)‖² ≫
 * k(x,x): the surrogate's variances are then large, consistently so (its total is (1/n)Σ‖φ(x_i)‖² −
 * ‖φ̄‖², which the model reports with (1/n)Σk(x,x) next to it), but dominated by those directions.
 * A larger rcond (1e-6 to 1e-3) makes the surrogate smoother; the default is not changed with the
 * kernel, so that one parameter means one thing.
 */
public final class NystromFeatureMap implements LandmarkFeatureMap {

  /** Power iterations at most for λ_max of K_mm (kernel matrices usually need a few dozen). */
  private static final int POWER_ITERATIONS = 100;

  /**
   * Columns per triangular multiply in the second step of {@link #whiten}: each multiply also fills
   * the part of its block below the diagonal (about half of its last square, wasted), so blocks
   * stay narrow next to m; 256 columns keep each call a level-3 multiply.
   */
  private static final int WHITENING_COLUMNS = 256;

  /**
   * Power iterations at most for ‖W‖₂² = 1/λ_min(K_mm) (an estimate to a few per cent is enough).
   */
  private static final int INVERSE_POWER_ITERATIONS = 20;

  private final LandmarkKernel landmarkKernel;
  private final double[] weights;
  private final int rank;
  private final boolean triangular;

  /** λ_1(K_mm), NaN for a restored map. */
  private final double largestEigenvalue;

  /** λ_1/λ_r of K_mm over the retained spectrum, NaN for a restored map. */
  private final double condition;

  private NystromFeatureMap(
      LandmarkKernel landmarkKernel,
      double[] weights,
      int rank,
      boolean triangular,
      double largestEigenvalue,
      double condition) {
    this.landmarkKernel = landmarkKernel;
    this.weights = weights;
    this.rank = rank;
    this.triangular = triangular;
    this.largestEigenvalue = largestEigenvalue;
    this.condition = condition;
  }

  /**
   * Finds the numerical rank r of K_mm (the number of eigenvalues λ > rcond·ρ, ρ = max|λ_i| the
   * spectral radius, which is λ_max for a positive semi-definite K_mm) and builds W: the inverse
   * Cholesky factor when r = m, else V_r Λ_r^{-1/2}.
   *
   * @throws IllegalArgumentException when K_mm has no eigenvalue above rcond·ρ
   */
  public static NystromFeatureMap fit(LandmarkKernel landmarkKernel, double rcond) {
    return fit(landmarkKernel, landmarkKernel.gram(), rcond);
  }

  /** {@link #fit(LandmarkKernel, double)} from K_mm already computed ({@code gram}, m×m). */
  public static NystromFeatureMap fit(LandmarkKernel landmarkKernel, double[] gram, double rcond) {
    int m = landmarkKernel.numLandmarks();
    double largest = Inertia.largestEigenvalue(gram, m, POWER_ITERATIONS);
    if (largest > 0) {
      double[] inverseFactor = Cholesky.inverseUpperFactor(gram, m);
      if (inverseFactor != null
          && (largest * frobeniusSquared(inverseFactor, m) < 0.5 / rcond
              || Inertia.countAbove(gram, m, rcond * largest) == m)) {
        return new NystromFeatureMap(
            landmarkKernel,
            inverseFactor,
            m,
            true,
            largest,
            largest * inverseFactorNormSquared(inverseFactor, m));
      }
    }
    SymmetricEigen eig = SymmetricEigen.of(gram, m);
    double[] values = eig.values();
    double radius = Math.max(values[0], -values[m - 1]);
    int r = 0;
    while (r < m && values[r] > rcond * radius && values[r] > 0) {
      r++;
    }
    if (r == 0) {
      throw new IllegalArgumentException(
          "The landmark kernel matrix (m = "
              + m
              + ") has no eigenvalue above "
              + "rcond·max|λ| (λ_max = "
              + values[0]
              + ", max|λ| = "
              + radius
              + "): all landmarks map to zero in feature space");
    }
    double[] w = new double[m * r];
    double[] vectors = eig.vectors();
    for (int c = 0; c < r; c++) {
      double scale = 1.0 / Math.sqrt(eig.values()[c]);
      for (int i = 0; i < m; i++) {
        w[i + c * m] = vectors[i + c * m] * scale;
      }
    }
    return new NystromFeatureMap(
        landmarkKernel, w, r, false, eig.values()[0], eig.values()[0] / eig.values()[r - 1]);
  }

  /**
   * ‖W‖_F² = tr(K_mm⁻¹) ≥ 1/λ_min(K_mm) for W = R⁻¹ (upper triangular), in m²/2 flops: λ_max·‖W‖_F²
   * below 1/rcond proves every eigenvalue of K_mm above rcond·λ_max without the inertia count (an
   * LDLᵀ factorisation, m³/3 flops, 7 s at m = 8000). It overestimates 1/λ_min by at most m, so it
   * decides whenever cond(K_mm) < 1/(m·rcond); the factor 2 of the test absorbs the rounding of W.
   */
  private static double frobeniusSquared(double[] w, int m) {
    double s = 0;
    for (int j = 0; j < m; j++) {
      int o = j * m;
      for (int i = o; i <= o + j; i++) {
        s += w[i] * w[i];
      }
    }
    return s;
  }

  /**
   * ‖W‖₂² = 1/λ_min(K_mm) for the upper-triangular W = R⁻¹, by power iteration on W Wᵀ = K_mm⁻¹
   * (two triangular multiplies, m² flops each) from a fixed pseudo-random start; the Rayleigh
   * quotient approaches the value from below. Stops at a relative change of 1e-3 or after {@link
   * #INVERSE_POWER_ITERATIONS}.
   */
  private static double inverseFactorNormSquared(double[] w, int m) {
    java.util.Random random = new java.util.Random(m);
    double[] x = new double[m];
    for (int i = 0; i < m; i++) {
      x[i] = random.nextGaussian();
    }
    double norm = Blas.blas().dnrm2(m, x, 1);
    double estimate = 0;
    for (int it = 0; it < INVERSE_POWER_ITERATIONS; it++) {
      for (int i = 0; i < m; i++) {
        x[i] /= norm;
      }
      Blas.blas().dtrmv("U", "T", "N", m, w, m, x, 1); // y = Wᵀx; x·(WWᵀ)·x = ‖y‖²
      double next = Blas.blas().ddot(m, x, 1, x, 1);
      Blas.blas().dtrmv("U", "N", "N", m, w, m, x, 1); // W y
      norm = Blas.blas().dnrm2(m, x, 1);
      if (!(norm > 0) || !Double.isFinite(norm)) {
        return next;
      }
      boolean converged = Math.abs(next - estimate) <= 1e-3 * next;
      estimate = next;
      if (converged) {
        break;
      }
    }
    return estimate;
  }

  /**
   * cond(K_mm) = λ_1/λ_r over the retained spectrum: exact from the eigenvalues when K_mm was
   * decomposed, else λ_max (power iteration) times an estimate of ‖W‖₂² = 1/λ_min (power iteration
   * with the triangular factor; from below, typically within a few per cent). NaN for a map
   * restored from its parts.
   */
  public double conditionEstimate() {
    return condition;
  }

  /**
   * Whether cond(K_mm) over the retained spectrum is below {@code limit}, decided exactly: from the
   * eigenvalues when K_mm was decomposed, else by counting the eigenvalues of K_mm above
   * λ_max/limit ({@link Inertia}, one LDLᵀ factorisation, m³/3 flops): all m of them there means
   * λ_min > λ_max/limit.
   *
   * @throws IllegalStateException for a map restored from its parts (no spectrum known)
   */
  public boolean conditionBelow(double limit) {
    if (Double.isNaN(condition)) {
      throw new IllegalStateException(
          "the condition of K_mm is known only for a map fitted in this JVM");
    }
    if (!triangular) {
      return condition < limit;
    }
    int m = landmarkKernel.numLandmarks();
    return condition < limit
        && Inertia.countAbove(landmarkKernel.gram(), m, largestEigenvalue / limit) == m;
  }

  /**
   * The kernel columns k_x themselves as a feature map (dimension m, unwhitened): the Gram route
   * accumulates their statistics and {@link #whiten}s them on the driver. Aᵀk_x is a kernel
   * expansion with coefficients A.
   */
  public FeatureMap kernelColumns() {
    return new KernelColumns(landmarkKernel);
  }

  /**
   * The statistics of φ = Wᵀk_x from those of the kernel columns ({@link #kernelColumns}): the same
   * count and Σk(x,x), the mean φ̄ = Wᵀk̄ and the centred scatter M_φ = Wᵀ M_k W (at full rank two
   * triangular multiplies, the second restricted to the upper triangle of the symmetric result:
   * 4m³/3 flops; two products of 2m²r + 2mr² flops otherwise).
   */
  public FeatureStatistics whiten(FeatureStatistics kernelColumns) {
    int m = landmarkKernel.numLandmarks();
    if (kernelColumns.dim() != m) {
      throw new IllegalArgumentException(
          "kernel-column statistics of dimension "
              + kernelColumns.dim()
              + " for m = "
              + m
              + " landmarks");
    }
    long n = kernelColumns.count();
    if (n == 0) {
      return FeatureStatistics.of(
          rank, 0, new double[rank], new double[rank * rank], kernelColumns.diagonalSum());
    }
    double[] scatter = kernelColumns.scatter();
    SymmetricStorage.mirrorUpper(scatter, m);
    double[] mean = kernelColumns.mean();
    if (triangular) {
      Blas.blas().dtrmv("U", "T", "N", m, weights, m, mean, 1);
      // T = Wᵀ M by left multiplies of M's column blocks (m³ flops), transposed to X = Tᵀ = M W;
      // then only the upper triangle of Wᵀ X = Wᵀ M W (symmetric), mirrored: as Wᵀ is lower
      // triangular, rows 0..j of column j need only the leading (j+1)×(j+1) block of W, so column
      // block [j₀, j₁) is one multiply by the leading j₁×j₁ block (m³/3 flops in all instead of
      // m³). Both steps are split over the driver's threads (see DriverThreads), the second by
      // parts of equal work ∝ j².
      try (DriverThreads.Team team = DriverThreads.team(DriverThreads.count())) {
        int[] columns = DriverThreads.split(0, m, 2 * team.threads(), false);
        team.forEach(
            columns.length - 1,
            part ->
                Blas.blas()
                    .dtrmm(
                        "L",
                        "U",
                        "T",
                        "N",
                        m,
                        columns[part + 1] - columns[part],
                        1.0,
                        weights,
                        0,
                        m,
                        scatter,
                        columns[part] * m,
                        m));
        SymmetricStorage.transpose(scatter, m);
        int[] parts = DriverThreads.splitQuadratic(0, m, 2 * team.threads());
        team.forEach(
            parts.length - 1,
            part -> {
              for (int j0 = parts[part]; j0 < parts[part + 1]; j0 += WHITENING_COLUMNS) {
                int j1 = Math.min(parts[part + 1], j0 + WHITENING_COLUMNS);
                Blas.blas()
                    .dtrmm("L", "U", "T", "N", j1, j1 - j0, 1.0, weights, 0, m, scatter, j0 * m, m);
              }
            });
        SymmetricStorage.mirrorUpper(scatter, m);
      }
      return FeatureStatistics.of(m, n, mean, scatter, kernelColumns.diagonalSum());
    }
    double[] featureMean = new double[rank];
    Blas.blas().dgemv("T", m, rank, 1.0, weights, m, mean, 1, 0.0, featureMean, 1);
    double[] left = new double[rank * m];
    Blas.blas().dgemm("T", "N", rank, m, m, 1.0, weights, m, scatter, m, 0.0, left, rank);
    double[] featureScatter = new double[rank * rank];
    Blas.blas()
        .dgemm("N", "N", rank, rank, m, 1.0, left, rank, weights, m, 0.0, featureScatter, rank);
    return FeatureStatistics.of(rank, n, featureMean, featureScatter, kernelColumns.diagonalSum());
  }

  /** k_x as an m-dimensional feature map (see {@link #kernelColumns}). */
  private record KernelColumns(LandmarkKernel landmarkKernel) implements LandmarkFeatureMap {

    @Override
    public int outputDim() {
      return landmarkKernel.numLandmarks();
    }

    @Override
    public String kind() {
      return "kernel-column";
    }

    @Override
    public LinearReadout readout(double[] a, int columns) {
      return new KernelExpansion(landmarkKernel, a, columns);
    }

    @Override
    public int scratchSize(int b) {
      return 0;
    }

    @Override
    public void map(RowBlock block, double[] scratch, double[] out) {
      landmarkKernel.compute(block, out);
    }
  }

  @Override
  public String kind() {
    return "nystrom";
  }

  /** Aᵀφ(x) = (WA)ᵀk_x: a kernel expansion over the landmarks with coefficients WA (m×c). */
  @Override
  public LinearReadout readout(double[] a, int columns) {
    return new KernelExpansion(landmarkKernel, toLandmarkWeights(a, columns), columns);
  }

  /**
   * Rebuilds a map from its persisted parts (W as it was fitted, so a loaded model scores exactly
   * as the saved one).
   */
  public static NystromFeatureMap of(
      LandmarkKernel landmarkKernel, double[] weights, int rank, boolean triangular) {
    if (weights.length != (long) landmarkKernel.numLandmarks() * rank) {
      throw new IllegalArgumentException(
          "Nyström map: "
              + weights.length
              + " weights for m = "
              + landmarkKernel.numLandmarks()
              + " and rank "
              + rank);
    }
    return new NystromFeatureMap(landmarkKernel, weights, rank, triangular, Double.NaN, Double.NaN);
  }

  @Override
  public int outputDim() {
    return rank;
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
  public LandmarkKernel landmarkKernel() {
    return landmarkKernel;
  }

  /**
   * Whether W is the upper-triangular inverse Cholesky factor (r = m) rather than V_r Λ_r^{-1/2}.
   */
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

  /**
   * W·a for an r-vector (or r×k column-major matrix with k columns): landmark weights of a feature.
   */
  public double[] toLandmarkWeights(double[] a, int columns) {
    int m = landmarkKernel.numLandmarks();
    double[] out = new double[m * columns];
    Blas.blas().dgemm("N", "N", m, columns, rank, 1.0, weights, m, a, rank, 0.0, out, m);
    return out;
  }
}
