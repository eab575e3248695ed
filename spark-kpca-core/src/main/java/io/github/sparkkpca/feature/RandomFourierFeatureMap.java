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
 * <p><b>Storage.</b> ω is kept as drawn, D×d row-major (ω_j contiguous). The matrix is dense by
 * nature, D·d·8 bytes whatever the sparsity of the data (2 GiB for D = 1000 at d = 2^18): {@link
 * #draw} refuses up front, in one line, a matrix this JVM cannot hold, instead of failing with an
 * {@link OutOfMemoryError}.
 *
 * <p><b>Cost.</b> A dense block of b rows is one D×d·d×b GEMM, then the phase and a vectorised
 * cosine ({@link FastCos}) for D·b values. A block whose rows hold at most {@link #SPARSE_DENSITY}
 * of non-zeros (sparse input: text, hashed or one-hot features) takes the sparse path instead:
 * ω_jᵀx = Σ_{t: x_t ≠ 0} ω_jt·x_t for each feature j, D·nnz multiply-adds per row instead of D·d,
 * each ω_j read at the block's non-zero columns only. The map's blocks ({@link #newBlock}) hold
 * rows by their non-zeros, so a sparse row is never made d-wide; a dense block given by a caller is
 * checked for its density and its non-zeros gathered. The two paths agree to rounding; dense data
 * always take the GEMM, unchanged. The map is explicit: z(x) is the whole feature vector, ‖z(x)‖²
 * is its squared norm ({@link #isExplicit()}).
 */
public final class RandomFourierFeatureMap implements FeatureMap {

  /**
   * The largest fraction of non-zeros of a block that takes the sparse path (a multiply-add at a
   * gathered column of ω costs a few times a GEMM multiply-add).
   */
  public static final double SPARSE_DENSITY = 0.125;

  private final Kernel kernel;

  private final double[] frequencies;

  private final double[] phases;
  private final int numFeatures;
  private final int dim;
  private final double scale;

  /** The seed the map was drawn from ({@link #draw}), or null when it is not known. */
  private final Long drawSeed;

  private RandomFourierFeatureMap(
      Kernel kernel,
      double[] frequencies,
      double[] phases,
      int numFeatures,
      int dim,
      Long drawSeed) {
    this.drawSeed = drawSeed;
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
    requireAllocatable(numFeatures, dim, 1);
    SplittableRandom random = new SplittableRandom(seed);
    double[] omega = new double[numFeatures * dim];
    double[] b = new double[numFeatures];
    double gamma = kernel.gamma();
    for (int j = 0; j < numFeatures; j++) {
      for (int t = 0; t < dim; t++) {
        omega[j * dim + t] = kernel.type().sampleFrequency(gamma, random);
      }
      b[j] = 2 * Math.PI * random.nextDouble();
    }
    return new RandomFourierFeatureMap(kernel, omega, b, numFeatures, dim, seed);
  }

  /**
   * Where this map departs from {@link #draw}{@code (kernel(), D, d, seed)}: null when every
   * frequency and phase is the drawn one within {@code relative} of its magnitude (the draw's
   * transcendental functions may round differently by an ulp between JVMs and compilers), else the
   * first difference. Regenerates the draw one value at a time, in the draw's order, without
   * allocating it: D·(d + 1) draws, the cost of drawing the map.
   */
  public DrawDifference differenceFromDraw(long seed, double relative) {
    SplittableRandom random = new SplittableRandom(seed);
    double gamma = kernel.gamma();
    for (int j = 0; j < numFeatures; j++) {
      for (int t = 0; t < dim; t++) {
        double drawn = kernel.type().sampleFrequency(gamma, random);
        double stored = frequencies[j * dim + t];
        if (!(Math.abs(stored - drawn) <= relative * Math.max(Math.abs(stored), Math.abs(drawn)))) {
          return new DrawDifference(j, t, stored, drawn);
        }
      }
      double drawn = 2 * Math.PI * random.nextDouble();
      if (!(Math.abs(phases[j] - drawn) <= relative * Math.max(Math.abs(phases[j]), drawn))) {
        return new DrawDifference(j, -1, phases[j], drawn);
      }
    }
    return null;
  }

  /**
   * The seed this map was drawn from: known for a map {@link #draw}n, or rebuilt and checked
   * against its draw ({@link #withDrawSeed}); empty for one rebuilt from values alone.
   */
  public java.util.OptionalLong drawSeed() {
    return drawSeed == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(drawSeed);
  }

  /**
   * This map, recording that it is the draw of {@code seed} (which the caller has checked with
   * {@link #differenceFromDraw}); the values are shared, not copied.
   */
  public RandomFourierFeatureMap withDrawSeed(long seed) {
    return new RandomFourierFeatureMap(kernel, frequencies, phases, numFeatures, dim, seed);
  }

  /**
   * A value of a map that its draw does not give ({@link #differenceFromDraw}).
   *
   * @param feature the feature j
   * @param coordinate the coordinate t of ω_j, or −1 for the phase b_j
   */
  public record DrawDifference(int feature, int coordinate, double stored, double drawn) {}

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
    return new RandomFourierFeatureMap(kernel, frequencies, phases, numFeatures, dim, null);
  }

  /**
   * Refuses, in one line, a D×d frequency matrix (times {@code copies}) that does not fit in a Java
   * array or in the memory this JVM can still allocate.
   *
   * @throws IllegalArgumentException naming D, d and the bytes needed and available
   */
  public static void requireAllocatable(int numFeatures, int dim, int copies) {
    long entries = (long) numFeatures * dim;
    long bytes = entries * Double.BYTES * copies;
    Runtime runtime = Runtime.getRuntime();
    long available = runtime.maxMemory() - (runtime.totalMemory() - runtime.freeMemory());
    // Java arrays hold at most Integer.MAX_VALUE - 8 entries on common JVMs.
    if (entries > Integer.MAX_VALUE - 8 || bytes > available) {
      throw new IllegalArgumentException(
          String.format(
              java.util.Locale.ROOT,
              "random Fourier features: the frequency matrix of D = %d features for d = %d input "
                  + "columns is dense, %d x %d doubles = %.2f GiB%s, more than %s; lower "
                  + "numRandomFeatures D (or featureScale), reduce d, or use NystromKernelPCA, "
                  + "whose landmarks need no d-wide frequencies",
              numFeatures,
              dim,
              numFeatures,
              dim,
              bytes / (double) (1L << 30),
              copies > 1 ? " (" + copies + " copies)" : "",
              entries > Integer.MAX_VALUE - 8
                  ? "a Java array holds"
                  : String.format(
                      java.util.Locale.ROOT,
                      "the %.2f GiB this JVM can still allocate (max heap %.2f GiB)",
                      available / (double) (1L << 30),
                      runtime.maxMemory() / (double) (1L << 30))));
    }
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
    if (block.isSparse()) {
      int[] offsets = block.offsets();
      if (offsets[b] <= SPARSE_DENSITY * b * (double) dim) {
        projectSparse(offsets, block.indices(), block.sparseValues(), b, out);
      } else {
        gemm(block.values(), b, out);
      }
    } else if (isSparse(block)) {
      projectScattered(block, out);
    } else {
      gemm(block.values(), b, out);
    }
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

  /**
   * A sparse block ({@link RowBlock#sparse}): rows are held by their non-zeros, so a sparse row
   * never becomes d-wide; a block of dense rows is scattered once for the GEMM.
   */
  @Override
  public RowBlock newBlock(int capacity) {
    return RowBlock.sparse(capacity, dim);
  }

  /**
   * {@link RowBlock#width} of the sparse blocks: d for dense rows, about 1.5 × nnz for sparse ones.
   * Rows not scanned keep d ({@link FeatureMap#blockWidth()}): nothing in the map says how many
   * entries they hold.
   */
  @Override
  public int blockWidth(long maxStoredEntries) {
    return RowBlock.width(dim, true, maxStoredEntries);
  }

  /** Ω (D×d) · X (d×b): ω is d×D column-major (row-major D×d), the block d×b column-major. */
  private void gemm(double[] x, int b, double[] out) {
    Blas.blas()
        .dgemm("T", "N", numFeatures, b, dim, 1.0, frequencies, dim, x, dim, 0.0, out, numFeatures);
  }

  /**
   * Whether a dense block's rows hold at most {@link #SPARSE_DENSITY} of non-zeros (one pass over
   * the block's values, 1/D of the GEMM it may save).
   */
  private boolean isSparse(RowBlock block) {
    double[] x = block.values();
    long limit = (long) (SPARSE_DENSITY * block.size() * (double) dim);
    long nonZeros = 0;
    for (int t = 0, end = block.size() * dim; t < end; t++) {
      if (x[t] != 0.0 && ++nonZeros > limit) {
        return false;
      }
    }
    return true;
  }

  /** A dense block of sparse rows: their non-zeros gathered, then {@link #projectSparse}. */
  private void projectScattered(RowBlock block, double[] out) {
    double[] x = block.values();
    int b = block.size();
    int[] offsets = new int[b + 1];
    int nonZeros = 0;
    for (int t = 0, end = b * dim; t < end; t++) {
      if (x[t] != 0.0) {
        nonZeros++;
      }
    }
    int[] columns = new int[nonZeros];
    double[] values = new double[nonZeros];
    int p = 0;
    for (int i = 0; i < b; i++) {
      offsets[i] = p;
      for (int t = 0, row = i * dim; t < dim; t++) {
        double v = x[row + t];
        if (v != 0.0) {
          columns[p] = t;
          values[p++] = v;
        }
      }
    }
    offsets[b] = p;
    projectSparse(offsets, columns, values, b, out);
  }

  /**
   * ω_jᵀx_i for each row as Σ_{t: x_t ≠ 0} ω_jt·x_t, from the rows' non-zeros (row i's are
   * [offsets[i], offsets[i+1]), columns increasing): each ω_j is read at those columns only, D·nnz
   * multiply-adds; each row's sum runs over its non-zeros in column order, whatever the other rows
   * of the block.
   */
  private void projectSparse(int[] offsets, int[] columns, double[] values, int b, double[] out) {
    int features = numFeatures;
    for (int j = 0; j < features; j++) {
      int omega = j * dim;
      for (int i = 0; i < b; i++) {
        double s = 0;
        for (int q = offsets[i], end = offsets[i + 1]; q < end; q++) {
          s += frequencies[omega + columns[q]] * values[q];
        }
        out[i * features + j] = s;
      }
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
    public RowBlock newBlock(int capacity) {
      return map.newBlock(capacity);
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
