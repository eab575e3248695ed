package io.github.sparkkpca.pca;

import io.github.sparkkpca.feature.KernelExpansion;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.RowBlock;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Locale;
import org.netlib.util.intW;

/**
 * Input-space reconstruction (pre-image) of the projected feature vectors: the denoising step of
 * kernel PCA. With scores y(x), the reconstructed feature vector is ψ̂ = μ̂ + Σ_c y_c u_c = Σ_l γ_l
 * k(·,z_l) with γ = P y + w̄ over the m landmarks. A pre-image is a point x̂ with Φ(x̂) close to
 * ψ̂.
 *
 * <ul>
 *   <li>{@link Method#FIXED_POINT} (Gaussian kernel only; Mika et al., "Kernel PCA and de-noising
 *       in feature spaces", NIPS 1999): minimising ‖Φ(x̂) − ψ̂‖² gives the iteration x̂ ← Σ_l γ_l
 *       k(z_l, x̂) z_l / Σ_l γ_l k(z_l, x̂), started at the input x. Per iteration and block: one
 *       kernel GEMM and one b×m×d GEMM. A row whose denominator vanishes keeps its last iterate.
 *   <li>{@link Method#RIDGE} (any kernel; Bakır, Weston and Schölkopf, NIPS 2004, as scikit-learn's
 *       {@code inverse_transform}): kernel ridge regression from the landmarks' scores back to the
 *       landmarks, with a Gaussian kernel on score space whose γ is the median heuristic of the
 *       landmark scores (not the input kernel's γ, whose scale does not fit scores): x̂ = Cᵀ k_y, C
 *       = (K_YY + αI)⁻¹ Z.
 * </ul>
 */
public final class Preimage implements Serializable {

  /** The pre-image methods and their parameter names. */
  public enum Method {
    FIXED_POINT("fixed-point"),
    RIDGE("ridge");

    public static final String[] NAMES =
        Arrays.stream(values()).map(Method::paramName).toArray(String[]::new);

    private final String paramName;

    Method(String paramName) {
      this.paramName = paramName;
    }

    public String paramName() {
      return paramName;
    }

    public static Method parse(String name) {
      for (Method m : values()) {
        if (m.paramName.equals(name.toLowerCase(Locale.ROOT))) {
          return m;
        }
      }
      throw new IllegalArgumentException(
          "Unknown preimageMethod '" + name + "'; expected one of " + Arrays.toString(NAMES));
    }
  }

  /** Relative change ‖Δx‖/‖x‖ below which a fixed-point row has converged. */
  static final double TOLERANCE = 1e-8;

  /** A fixed-point denominator at or below this (or not finite) ends the row's iteration. */
  static boolean vanishes(double denominator) {
    return !(Math.abs(denominator) > 1e-300) || !Double.isFinite(denominator);
  }

  private final Method method;
  private final Projector projector;
  private final int maxIter;
  // ridge only
  private final LandmarkKernel scoreKernel;
  private final double[] dualCoefficients;

  private Preimage(
      Method method,
      Projector projector,
      int maxIter,
      LandmarkKernel scoreKernel,
      double[] dualCoefficients) {
    this.method = method;
    this.projector = projector;
    this.maxIter = maxIter;
    this.scoreKernel = scoreKernel;
    this.dualCoefficients = dualCoefficients;
  }

  /** The Gaussian fixed-point pre-image with at most {@code maxIter} iterations. */
  public static Preimage fixedPoint(Projector projector, int maxIter) {
    if (projector.kernel().type() != KernelType.RBF) {
      throw new IllegalArgumentException(
          "preimageMethod fixed-point needs the rbf kernel, the model uses "
              + projector.kernel().type().paramName()
              + "; use preimageMethod ridge");
    }
    return new Preimage(Method.FIXED_POINT, projector, maxIter, null, null);
  }

  /** The learned kernel ridge map with ridge α > 0, fitted on the landmarks (O(m²(k + d) + m³)). */
  public static Preimage ridge(Projector projector, double alpha) {
    LandmarkKernel input = projector.kernelExpansion().support();
    int m = input.numLandmarks();
    int d = input.dim();
    LandmarkKernel scoreKernel = ridgeScoreKernel(projector);
    // Right-hand side Z: the landmarks as an m×d column-major matrix.
    double[] coefficients = new double[m * d];
    double[] points = input.landmarks();
    for (int j = 0; j < m; j++) {
      for (int t = 0; t < d; t++) {
        coefficients[j + t * m] = points[j * d + t];
      }
    }
    solveRidge(scoreKernel, alpha, coefficients, d);
    return new Preimage(Method.RIDGE, projector, 0, scoreKernel, coefficients);
  }

  /**
   * The ridge map's kernel on score space: the Gaussian kernel, γ the median heuristic of the
   * landmarks' scores, bound to those scores (the landmarks are read in the projector's own block
   * form, so sparse landmarks stay sparse).
   */
  static LandmarkKernel ridgeScoreKernel(Projector projector) {
    LandmarkKernel input = projector.kernelExpansion().support();
    int m = input.numLandmarks();
    int k = projector.numComponents();
    RowBlock landmarks = projector.newBlock(m);
    for (int j = 0; j < m; j++) {
      landmarks.add(input.points().row(j), "landmarks");
    }
    double[] scores = new double[k * m];
    projector.project(landmarks, new double[projector.scratchSize(m)], scores, null);
    double gamma = m > 1 ? medianGammaOrOne(scores, m, k) : 1.0;
    return new LandmarkKernel(Kernel.rbf(gamma), scores, m, k);
  }

  /** Overwrites the m×columns column-major {@code rhs} with (K_YY + αI)⁻¹ rhs. */
  static void solveRidge(LandmarkKernel scoreKernel, double alpha, double[] rhs, int columns) {
    int m = scoreKernel.numLandmarks();
    double[] system = scoreKernel.gram();
    for (int j = 0; j < m; j++) {
      system[j + j * m] += alpha;
    }
    intW info = new intW(0);
    Blas.lapack().dposv("U", m, columns, system, m, rhs, m, info);
    if (info.val != 0) {
      throw new ArithmeticException(
          "preimage ridge system is not positive definite (LAPACK dposv info = "
              + info.val
              + "); raise preimageRidge");
    }
  }

  private static double medianGammaOrOne(double[] scores, int m, int k) {
    try {
      return Kernel.medianHeuristicGamma(KernelType.RBF, scores, m, k);
    } catch (IllegalArgumentException allEqual) {
      return 1.0;
    }
  }

  public Method method() {
    return method;
  }

  /** Doubles of scratch space for a block of b rows. */
  public int scratchSize(int b) {
    return projector.kernelExpansion().support().numLandmarks() * b;
  }

  /**
   * Pre-images of the rows of {@code inputs} whose scores are {@code scores} (k×b column-major),
   * written b×d row-major into {@code out}.
   */
  public void reconstruct(RowBlock inputs, double[] scores, double[] scratch, double[] out) {
    if (method == Method.RIDGE) {
      reconstructRidge(inputs.size(), scores, scratch, out);
    } else {
      reconstructFixedPoint(inputs, scores, scratch, out);
    }
  }

  private void reconstructRidge(int b, double[] scores, double[] scratch, double[] out) {
    int m = scoreKernel.numLandmarks();
    int k = scoreKernel.dim();
    int d = projector.inputDim();
    RowBlock scoreBlock = new RowBlock(b, k);
    scoreBlock.fill(scores, b);
    scoreKernel.compute(scoreBlock, scratch);
    Blas.blas().dgemm("T", "N", d, b, m, 1.0, dualCoefficients, m, scratch, m, 0.0, out, d);
  }

  /**
   * Γ (m×b column-major) = P Y + w̄ 1ᵀ: the landmark weights of each row's reconstructed feature
   * vector ψ̂ = Σ_l γ_l k(·,z_l), from the rows' scores Y (k×b).
   */
  static double[] landmarkWeights(Projector projector, double[] scores, int b) {
    KernelExpansion expansion = projector.kernelExpansion();
    int m = expansion.support().numLandmarks();
    int k = projector.numComponents();
    double[] weights = new double[m * b];
    if (projector.hasMeanColumn()) {
      double[] mean = expansion.column(k);
      for (int i = 0; i < b; i++) {
        System.arraycopy(mean, 0, weights, i * m, m);
      }
    }
    // The first k columns of the expansion are P (m×k, leading dimension m).
    Blas.blas()
        .dgemm("N", "N", m, b, k, 1.0, expansion.coefficients(), m, scores, k, 1.0, weights, m);
    return weights;
  }

  private void reconstructFixedPoint(
      RowBlock inputs, double[] scores, double[] scratch, double[] out) {
    KernelExpansion expansion = projector.kernelExpansion();
    LandmarkKernel lk = expansion.support();
    int m = lk.numLandmarks();
    int d = lk.dim();
    int b = inputs.size();
    double[] weights = landmarkWeights(projector, scores, b);
    double[] kernel = new double[m * b];
    double[] next = new double[b * d];
    boolean[] done = new boolean[b];
    RowBlock current = new RowBlock(b, d);
    System.arraycopy(inputs.values(), 0, out, 0, b * d);
    for (int iter = 0; iter < maxIter; iter++) {
      current.fill(out, b);
      lk.compute(current, kernel);
      for (int i = 0; i < m * b; i++) {
        kernel[i] *= weights[i];
      }
      // next (d×b column-major) = landmarksᵀ (d×m) · (Γ∘K) (m×b)
      Blas.blas().dgemm("N", "N", d, b, m, 1.0, lk.landmarks(), d, kernel, m, 0.0, next, d);
      boolean all = true;
      for (int i = 0; i < b; i++) {
        if (done[i]) {
          continue;
        }
        double denominator = 0;
        for (int l = i * m, end = l + m; l < end; l++) {
          denominator += kernel[l];
        }
        if (vanishes(denominator)) {
          done[i] = true;
          continue;
        }
        double change = 0;
        double norm = 0;
        for (int t = i * d, end = t + d; t < end; t++) {
          double v = next[t] / denominator;
          change += (v - out[t]) * (v - out[t]);
          norm += v * v;
          out[t] = v;
        }
        if (change <= TOLERANCE * TOLERANCE * Math.max(norm, 1e-300)) {
          done[i] = true;
        } else {
          all = false;
        }
      }
      if (all) {
        return;
      }
    }
  }

  /**
   * Refuses, before anything is allocated, pre-images whose dense d-wide arrays cannot fit: the
   * pre-image map holds the m landmarks and its m×d coefficients densely, and its broadcast copy
   * (3·8·m·d bytes), and every output row is a dense vector of 8·d bytes. Refused above a quarter
   * of the heap, or when m·d exceeds a Java array (d = 2²² and m = 600) whatever the heap: a
   * pre-image is dense by nature, whatever the sparsity of the input (wide sparse data score and
   * give residuals at sparse cost; only the reconstruction needs d values).
   *
   * @param what what asks for the pre-images ("reconstructionCol 'x'", "--reconstruction")
   * @param remedy how to do without them ("leave reconstructionCol empty")
   * @throws IllegalArgumentException naming what asks, d, m, the estimate and the heap
   */
  public static void requireDenseFits(String what, String remedy, int d, int m, long heap) {
    long bytes = 3L * 8L * m * d;
    boolean beyondArray = (long) m * d > Integer.MAX_VALUE - 8;
    if (bytes > heap / 4 || beyondArray) {
      throw new IllegalArgumentException(
          String.format(
              java.util.Locale.ROOT,
              "%s: pre-images are dense vectors of d = %d values (%.1f MiB a row), and the"
                  + " pre-image map needs about %.1f GiB of dense m×d arrays (m = %d), %s; %s for"
                  + " data this wide (scores and residuals do not need it)",
              what,
              d,
              8.0 * d / (1 << 20),
              bytes / (double) (1L << 30),
              m,
              beyondArray
                  ? "more entries than a Java array holds"
                  : String.format(
                      java.util.Locale.ROOT,
                      "more than a quarter of the %.1f GiB heap",
                      heap / (double) (1L << 30)),
              remedy));
    }
  }
}
