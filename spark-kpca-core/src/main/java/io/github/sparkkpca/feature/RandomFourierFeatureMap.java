package io.github.sparkkpca.feature;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelFamilies;
import io.github.sparkkpca.kernel.KernelFamily;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.FastCos;
import io.github.sparkkpca.linalg.RowBlock;
import java.util.SplittableRandom;

/**
 * Random Fourier features (Rahimi and Recht, "Random Features for Large-Scale Kernel Machines",
 * NIPS 2007): z(x) = √(2/D)·(cos(ω_1ᵀx + b_1), …, cos(ω_Dᵀx + b_D)) with the frequencies ω_j drawn
 * from the spectral density of a shift-invariant kernel and the phases b_j ~ U[0, 2π), so that
 * E[z(x)ᵀz(y)] = k(x, y) (Bochner's theorem) and |z(x)ᵀz(y) − k(x, y)| = O(1/√D).
 *
 * <p><b>Spectral densities</b> (kernels as in {@link io.github.sparkkpca.kernel.KernelType}):
 *
 * <ul>
 *   <li>rbf, k(x,y) = exp(−γ‖x−y‖²) = exp(−‖x−y‖²/(2σ²)) with σ² = 1/(2γ): ω ~ N(0, 2γ·I);
 *   <li>laplacian, k(x,y) = exp(−γ‖x−y‖₁) = Π_t exp(−γ|x_t − y_t|): the Fourier transform of
 *       exp(−γ|δ|) is the Cauchy density γ/(π(γ² + ω²)), so the coordinates of ω are i.i.d.
 *       Cauchy(0, γ), drawn as γ·tan(π(u − ½)) with u ~ U[0, 1).
 * </ul>
 *
 * No other kernel of this library has such a sampling: polynomial, linear, cosine and sigmoid
 * kernels are not shift-invariant, and are refused.
 *
 * <p><b>Drawing.</b> The D features are drawn on the driver from one {@link SplittableRandom}
 * seeded with the seed: for j = 1..D, the d coordinates of ω_j, then b_j. The map therefore depends
 * on the seed, D and d only, not on the data or its partitioning, and the first D' features of a
 * map with D > D' are the map with D' features. A fitted map keeps ω and b themselves (and persists
 * them), so a saved model does not depend on the generator.
 *
 * <p><b>Cost.</b> A block of b rows is one D×d·d×b GEMM (sparse rows are scattered into the dense
 * block first, {@link RowBlock}), then the phase and a vectorised cosine ({@link FastCos}) for D·b
 * values. The map is explicit: z(x) is the whole feature vector, ‖z(x)‖² is its squared norm
 * ({@link #isExplicit()}).
 */
public final class RandomFourierFeatureMap implements FeatureMap {

  private final Kernel kernel;
  private final double[] frequencies;
  private final double[] phases;
  private final int numFeatures;
  private final int dim;
  private final double scale;

  private RandomFourierFeatureMap(
      Kernel kernel, double[] frequencies, double[] phases, int numFeatures, int dim) {
    this.kernel = kernel;
    this.frequencies = frequencies;
    this.phases = phases;
    this.numFeatures = numFeatures;
    this.dim = dim;
    this.scale = Math.sqrt(2.0 / numFeatures);
  }

  /**
   * Refuses a kernel without a spectral density to sample.
   *
   * @throws IllegalArgumentException naming the kernel
   */
  public static void requireSupported(KernelFamily type) {
    if (!type.hasSpectralDensity()) {
      throw new IllegalArgumentException(
          "kernel '"
              + type.paramName()
              + "' has no random Fourier features: only the shift-invariant "
              + String.join(
                  " and ",
                  KernelFamilies.all().stream()
                      .filter(KernelFamily::hasSpectralDensity)
                      .map(KernelFamily::paramName)
                      .toList())
              + " kernels have a spectral density to sample; use "
              + "NystromKernelPCA for the "
              + type.paramName()
              + " kernel");
    }
  }

  /**
   * Draws D features for inputs of dimension d (see the class comment for the order of the draws).
   *
   * @throws IllegalArgumentException when the kernel is not rbf or laplacian, or D or d is not
   *     positive
   */
  public static RandomFourierFeatureMap draw(Kernel kernel, int numFeatures, int dim, long seed) {
    requireSupported(kernel.type());
    if (numFeatures < 1 || dim < 1) {
      throw new IllegalArgumentException(
          "random Fourier features: D = " + numFeatures + " and d = " + dim + " must be >= 1");
    }
    SplittableRandom random = new SplittableRandom(seed);
    double[] omega = new double[Math.multiplyExact(numFeatures, dim)];
    double[] b = new double[numFeatures];
    double gamma = kernel.gamma();
    for (int j = 0; j < numFeatures; j++) {
      for (int t = 0; t < dim; t++) {
        omega[j * dim + t] = kernel.type().sampleFrequency(gamma, random);
      }
      b[j] = 2 * Math.PI * random.nextDouble();
    }
    return new RandomFourierFeatureMap(kernel, omega, b, numFeatures, dim);
  }

  /**
   * Rebuilds a map from its persisted parts, so that a loaded model scores exactly as the saved
   * one.
   *
   * @param frequencies ω, D×d row-major (row j is ω_j)
   * @param phases b, length D
   * @throws IllegalArgumentException when the kernel is not rbf or laplacian, or the sizes disagree
   */
  public static RandomFourierFeatureMap of(
      Kernel kernel, double[] frequencies, double[] phases, int dim) {
    requireSupported(kernel.type());
    int numFeatures = phases.length;
    if (numFeatures < 1 || dim < 1 || frequencies.length != (long) numFeatures * dim) {
      throw new IllegalArgumentException(
          "random Fourier features: "
              + frequencies.length
              + " frequency entries "
              + "and "
              + numFeatures
              + " phases for d = "
              + dim);
    }
    return new RandomFourierFeatureMap(kernel, frequencies, phases, numFeatures, dim);
  }

  @Override
  public int outputDim() {
    return numFeatures;
  }

  @Override
  public int inputDim() {
    return dim;
  }

  @Override
  public String kind() {
    return "rff";
  }

  @Override
  public Kernel kernel() {
    return kernel;
  }

  @Override
  public boolean isExplicit() {
    return true;
  }

  /** Aᵀz(x): z(x) for the block, then one c×D·D×b GEMM; the squared norms are ‖z(x)‖². */
  @Override
  public LinearReadout readout(double[] a, int columns) {
    if (a.length != (long) numFeatures * columns) {
      throw new IllegalArgumentException(
          "random Fourier readout: "
              + a.length
              + " coefficients for D = "
              + numFeatures
              + " and "
              + columns
              + " columns");
    }
    return new Readout(this, a, columns);
  }

  @Override
  public int scratchSize(int b) {
    return 0;
  }

  @Override
  public void map(RowBlock block, double[] scratch, double[] out) {
    int b = block.size();
    if (b == 0) {
      return;
    }
    int features = numFeatures;
    // Ω (D×d) · X (d×b): ω is d×D column-major (row-major D×d), the block d×b column-major.
    Blas.blas()
        .dgemm(
            "T",
            "N",
            features,
            b,
            dim,
            1.0,
            frequencies,
            dim,
            block.values(),
            dim,
            0.0,
            out,
            features);
    double[] row = new double[features];
    FastCos cos = new FastCos(features);
    for (int i = 0; i < b; i++) {
      int base = i * features;
      System.arraycopy(out, base, row, 0, features);
      addPhases(row, phases, features);
      cos.cosInPlace(row, features);
      scale(row, scale, features);
      System.arraycopy(row, 0, out, base, features);
    }
  }

  private static void addPhases(double[] row, double[] phases, int n) {
    for (int j = 0; j < n; j++) {
      row[j] += phases[j];
    }
  }

  private static void scale(double[] row, double factor, int n) {
    for (int j = 0; j < n; j++) {
      row[j] *= factor;
    }
  }

  /** Σ‖z(x_i)‖² over the block (the map is explicit: this is the total the variance refers to). */
  @Override
  public double diagonalSum(RowBlock block) {
    int b = block.size();
    if (b == 0) {
      return 0.0;
    }
    double[] features = new double[numFeatures * b];
    map(block, null, features);
    double s = 0;
    for (double v : features) {
      s += v * v;
    }
    return s;
  }

  /** D, the number of random features. */
  public int numFeatures() {
    return numFeatures;
  }

  /** ω, D×d row-major: row j is ω_j (shared, do not modify). */
  public double[] frequencies() {
    return frequencies;
  }

  /** b, the D phases (shared, do not modify). */
  public double[] phases() {
    return phases;
  }

  /** Aᵀz(x) for an explicit D×c matrix A. */
  private static final class Readout implements LinearReadout {
    private final RandomFourierFeatureMap map;
    private final double[] coefficients;
    private final int columns;

    Readout(RandomFourierFeatureMap map, double[] coefficients, int columns) {
      this.map = map;
      this.coefficients = coefficients;
      this.columns = columns;
    }

    @Override
    public int inputDim() {
      return map.dim;
    }

    @Override
    public int columns() {
      return columns;
    }

    @Override
    public Kernel kernel() {
      return map.kernel;
    }

    @Override
    public int scratchSize(int b) {
      return LinearReadout.readOutScratch(map.numFeatures, columns, b);
    }

    @Override
    public void apply(
        RowBlock block, int leading, double[] scratch, double[] out, double[] sqNorms) {
      LinearReadout.requireLeading(leading, columns);
      int b = block.size();
      if (b == 0) {
        return;
      }
      int features = map.numFeatures;
      map.map(block, null, scratch);
      LinearReadout.readOut(coefficients, features, leading, scratch, b, out);
      if (sqNorms != null) {
        for (int i = 0; i < b; i++) {
          double s = 0;
          for (int j = i * features, end = j + features; j < end; j++) {
            s += scratch[j] * scratch[j];
          }
          sqNorms[i] = s;
        }
      }
    }
  }
}
