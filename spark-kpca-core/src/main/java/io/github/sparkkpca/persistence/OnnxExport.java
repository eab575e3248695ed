package io.github.sparkkpca.persistence;

import io.github.sparkkpca.feature.KernelExpansion;
import io.github.sparkkpca.feature.RandomFourierFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.pca.KernelPCASolution;
import io.github.sparkkpca.pca.Projector;

/**
 * The ONNX graph of a fitted model ({@link ModelExport#writeOnnx}): input {@code features} [N, d],
 * output {@code scores} [N, k], the same scores as the export bundle, y(x) = Pᵀk_x − o (landmark
 * and exact models) or y(x) = Pᵀz(x) − o, z(x) = √(2/D)·cos(Ωx + b) (random Fourier features), in
 * standard operators of opset {@value OnnxGraph#OPSET} only.
 *
 * <p>The kernel block k_x [N, m] of each built-in family:
 *
 * <ul>
 *   <li>rbf: as {@link LandmarkKernel} computes it, rows and landmarks shifted by the landmarks'
 *       centre c, ‖x−c‖² + ‖z−c‖² − 2(x−c)ᵀ(z−c) clamped at 0, then exp(−γ·): O(N·m) memory, and
 *       the expansion's error stays of the order of ε times the data's squared spread, not its
 *       squared distance from the origin. (The library further recomputes the rare values where
 *       that error could exceed 1e−14 from coordinate differences; the graph does not.)
 *   <li>laplacian: Σ_t |x_t − z_t| by broadcasting [N, 1, d] − [m, d]: N·m·d intermediate values
 *       (8·N·m·d bytes in double), so score large inputs in batches of rows.
 *   <li>polynomial (γxᵀz + c₀)^p, sigmoid tanh(γxᵀz + c₀), linear xᵀz, cosine xᵀz/(‖x‖‖z‖) (0 when
 *       either norm is 0): from the product X·Zᵀ.
 * </ul>
 *
 * A model on the sparse kernel-block path is exported with its landmarks dense (the graph's input
 * is dense), and refused when they would exceed {@link #MAX_CONSTANT_BYTES}; so is a random-feature
 * model whose Ω would. Kernel families registered outside this library have no graph and are
 * refused.
 */
final class OnnxExport {

  /**
   * The largest dense landmark (or Ω) tensor a graph holds: a quarter of protobuf's 2 GiB message
   * limit, so that the whole graph stays below it.
   */
  static final long MAX_CONSTANT_BYTES = 512L << 20;

  private OnnxExport() {}

  /** The graph's ModelProto bytes; the model's kind was checked by the caller. */
  static byte[] build(
      FittedModel model, boolean randomFeatures, boolean float32, String producerVersion) {
    KernelPCASolution solution = model.solution();
    Projector projector = solution.projector();
    int d = projector.inputDim();
    int k = projector.numComponents();
    Kernel kernel = model.fittedKernel();
    OnnxGraph g = new OnnxGraph(float32);
    int bytesPerValue = float32 ? 4 : 8;
    String features;
    double[] p;
    int rows;
    String doc;
    if (randomFeatures) {
      RandomFourierFeatureMap map = (RandomFourierFeatureMap) solution.featurePCA().map();
      rows = map.numFeatures();
      requireBounded(model, "random features", "frequency matrix", rows, d, bytesPerValue, "D");
      features = randomFeatures(g, map, rows, d);
      // √(2/D) goes into P: a scalar Mul beside a MatMul is fused by onnxruntime into FusedMatMul,
      // whose alpha is a float attribute (a 1e−8 relative error in a double graph).
      p = java.util.Arrays.copyOf(solution.featurePCA().components(), rows * k);
      double scale = Math.sqrt(2.0 / rows);
      for (int i = 0; i < p.length; i++) {
        p[i] *= scale;
      }
      doc = "y(x) = P^T z(x) - o, z(x) = sqrt(2/D) cos(Omega x + b), D = " + rows;
    } else {
      KernelExpansion expansion = projector.kernelExpansion();
      LandmarkKernel support = expansion.support();
      rows = support.numLandmarks();
      if (!(kernel.type() instanceof KernelType type)) {
        throw new IllegalArgumentException(
            "Cannot export "
                + model.uid()
                + " as ONNX: kernel '"
                + kernel.type().paramName()
                + "' is not a built-in kernel and has no ONNX graph; use the export bundle");
      }
      requireBounded(
          model,
          support.isSparse() ? "sparse landmarks" : "landmarks",
          "dense landmark matrix",
          rows,
          d,
          bytesPerValue,
          "m");
      features = kernelBlock(g, type, kernel, support, rows, d);
      p = expansion.coefficients();
      doc =
          "y(x) = P^T k_x - o, k_x[j] = " + type.formula() + " with y = landmarks[j], m = " + rows;
    }
    String projector1 =
        g.constant("projector", rowMajor(java.util.Arrays.copyOf(p, rows * k), rows, k), rows, k);
    String offset = g.constant("offset", projector.offset(), k);
    g.nodeNamed("Sub", "scores", -1, g.node("MatMul", features, projector1), offset);
    return g.model(
        "spark_kpca_" + model.uid(),
        "features",
        d,
        "scores",
        k,
        producerVersion,
        "spark-kpca " + model.uid() + " (" + kernel.type().paramName() + "): " + doc);
  }

  /** Refuses a constant of rows×d values above the bound, in one line naming both sizes. */
  private static void requireBounded(
      FittedModel model,
      String what,
      String tensor,
      int rows,
      int d,
      int bytesPerValue,
      String rowsName) {
    long bytes = (long) rows * d * bytesPerValue;
    if (bytes > MAX_CONSTANT_BYTES) {
      throw new IllegalArgumentException(
          String.format(
              java.util.Locale.ROOT,
              "Cannot export %s as ONNX: its %s (%s = %d, d = %d) take %.1f MiB as the %s an ONNX"
                  + " graph holds (at most %d MiB); use the export bundle, which keeps sparse"
                  + " landmarks sparse",
              model.uid(),
              what,
              rowsName,
              rows,
              d,
              bytes / 1048576.0,
              tensor,
              MAX_CONSTANT_BYTES >> 20));
    }
  }

  /** cos(XΩᵀ + b): [N, D] (the factor √(2/D) is in the projector). */
  private static String randomFeatures(OnnxGraph g, RandomFourierFeatureMap map, int big, int d) {
    double[] omega = map.frequencies();
    String omegaT = g.constant("omega_t", transpose(omega, big, d), d, big);
    String phase = g.constant("phase", map.phases(), big);
    String angle = g.node("Add", g.node("MatMul", "features", omegaT), phase);
    return g.node("Cos", angle);
  }

  /** k_x for every row: [N, m]. */
  private static String kernelBlock(
      OnnxGraph g, KernelType type, Kernel kernel, LandmarkKernel support, int m, int d) {
    double[] z = support.landmarks();
    switch (type) {
      case RBF:
        return rbf(g, kernel, support, z, m, d);
      case LAPLACIAN:
        {
          String rows = g.node("Unsqueeze", "features", g.int64s("axis_1", 1));
          String diff = g.node("Sub", rows, g.constant("landmarks", z, m, d));
          String l1 =
              g.nodeWithKeepDims("ReduceSum", 0, g.node("Abs", diff), g.int64s("axis_2", 2));
          return g.node("Exp", g.node("Mul", l1, g.scalar("neg_gamma", -kernel.gamma())));
        }
      default:
        break;
    }
    double[] zt = transpose(z, m, d);
    if (type == KernelType.POLYNOMIAL || type == KernelType.SIGMOID) {
      // γxᵀz + c₀ as xᵀ(γz) + c₀: γ in the constant, not in a scalar Mul beside the MatMul, which
      // onnxruntime fuses into FusedMatMul with a float alpha (a 1e−8 relative error).
      double[] scaled = new double[zt.length];
      for (int i = 0; i < zt.length; i++) {
        scaled[i] = kernel.gamma() * zt[i];
      }
      String affine =
          g.node(
              "Add",
              g.node("MatMul", "features", g.constant("gamma_landmarks_t", scaled, d, m)),
              g.scalar("coef0", kernel.coef0()));
      return type == KernelType.POLYNOMIAL
          ? g.node("Pow", affine, g.scalar("degree", kernel.degree()))
          : g.node("Tanh", affine);
    }
    String products = g.node("MatMul", "features", g.constant("landmarks_t", zt, d, m));
    switch (type) {
      case LINEAR:
        return products;
      case COSINE:
        {
          double[] norms = new double[m];
          for (int j = 0; j < m; j++) {
            norms[j] = Math.sqrt(sqNorm(z, j, d));
          }
          String rowNorms = g.node("Sqrt", rowSqNorms(g, "features"));
          String denominator = g.node("Mul", rowNorms, g.constant("landmark_norms", norms, m));
          String zero = g.scalar("zero", 0.0);
          return g.node(
              "Where",
              g.node("Equal", denominator, zero),
              zero,
              g.node("Div", products, denominator));
        }
      default:
        throw new IllegalStateException("no ONNX graph for kernel " + type.paramName());
    }
  }

  /** exp(−γ·max(‖x−c‖² + ‖z−c‖² − 2(x−c)ᵀ(z−c), 0)), c the centre of {@link LandmarkKernel}. */
  private static String rbf(
      OnnxGraph g, Kernel kernel, LandmarkKernel support, double[] z, int m, int d) {
    double[] c = support.centre();
    double[] shifted = z;
    String rows = "features";
    if (c != null) {
      shifted = new double[m * d];
      for (int j = 0; j < m; j++) {
        for (int t = 0; t < d; t++) {
          shifted[j * d + t] = z[j * d + t] - c[t];
        }
      }
      rows = g.node("Sub", rows, g.constant("centre", c, d));
    }
    double[] landmarkSqNorms = new double[m];
    for (int j = 0; j < m; j++) {
      landmarkSqNorms[j] = sqNorm(shifted, j, d);
    }
    String products =
        g.node("MatMul", rows, g.constant("landmarks_t", transpose(shifted, m, d), d, m));
    String sums =
        g.node("Add", rowSqNorms(g, rows), g.constant("landmark_sq_norms", landmarkSqNorms, m));
    String distances = g.node("Sub", sums, g.node("Add", products, products));
    String clamped = g.node("Max", distances, g.scalar("zero", 0.0));
    return g.node("Exp", g.node("Mul", clamped, g.scalar("neg_gamma", -kernel.gamma())));
  }

  /** Σ_t x_t² of each row: [N, 1]. */
  private static String rowSqNorms(OnnxGraph g, String rows) {
    return g.nodeWithKeepDims(
        "ReduceSum", 1, g.node("Mul", rows, rows), g.int64s("axis_1_" + rows, 1));
  }

  private static double sqNorm(double[] points, int j, int d) {
    double s = 0;
    for (int t = 0; t < d; t++) {
      double v = points[j * d + t];
      s += v * v;
    }
    return s;
  }

  /** rows×columns row-major → columns×rows row-major. */
  private static double[] transpose(double[] a, int rows, int columns) {
    double[] t = new double[a.length];
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < columns; j++) {
        t[j * rows + i] = a[i * columns + j];
      }
    }
    return t;
  }

  /** The first rows×columns values of a column-major array (its first columns) as row-major. */
  private static double[] rowMajor(double[] columnMajor, int rows, int columns) {
    return transpose(columnMajor, columns, rows);
  }
}
