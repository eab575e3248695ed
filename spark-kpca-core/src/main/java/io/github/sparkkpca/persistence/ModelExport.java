package io.github.sparkkpca.persistence;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkkpca.feature.KernelExpansion;
import io.github.sparkkpca.feature.RandomFourierFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.linalg.RowSet;
import io.github.sparkkpca.pca.KernelPCASolution;
import io.github.sparkkpca.pca.Projector;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Writes a fitted model as a plain bundle that any language can score without Spark:
 *
 * <ul>
 *   <li>{@code model.json}: featureMap ({@code landmarks} or {@code rff}), kernel, the kernel's own
 *       parameters (gamma, degree, coef0: only those its family uses, so a cosine or linear model
 *       has none), centered, n, d, m (landmark models) or D (random features), k, eigenvalues,
 *       totalVariance, explainedVariance, explainedVarianceRatio, the formula and the file names;
 *   <li>landmark models: {@code landmarks.csv} (m rows of d values), or for a model whose kernel
 *       blocks run on the sparse path (wide sparse data) the landmarks as compressed sparse rows,
 *       scipy.sparse's CSR triple, in three files of one value per line: {@code
 *       landmarks_indptr.csv} (m + 1 offsets), {@code landmarks_indices.csv} and {@code
 *       landmarks_data.csv} (one line per stored value: its column and its value); {@code
 *       projector.csv} (m rows of k values: P); the scores of a row x are y(x) = Pᵀk_x − o with k_x
 *       = (k(x, z_1), …, k(x, z_m)) over the landmarks z_j, and the kernels as in scikit-learn (rbf
 *       exp(−γ‖x−z‖²), polynomial (γxᵀz + c₀)^p, …);
 *   <li>random feature models: {@code omega.csv} (D rows of d values: ω_j), {@code phase.csv} (D
 *       values, one per line: b_j), {@code projector.csv} (D rows of k values: P = U_k); the scores
 *       are y(x) = Pᵀz(x) − o with z(x)_j = √(2/D)·cos(ω_jᵀx + b_j);
 *   <li>{@code offset.csv} (k values, one per line: o).
 * </ul>
 *
 * The CSV files are headerless, one matrix row per line, each value as Java prints a double, which
 * reads back exactly.
 *
 * <p>{@link #writeOnnx} writes the same scores as one ONNX graph instead ({@link OnnxExport}).
 */
public final class ModelExport {

  private ModelExport() {}

  /**
   * Writes the bundle of {@code model} into the new directory {@code dir} (any Hadoop file system).
   *
   * @throws IllegalArgumentException when {@code dir} exists already (nothing is replaced)
   */
  public static void write(FittedModel model, String dir, Configuration conf) throws IOException {
    KernelPCASolution solution = model.solution();
    ModelKind kind = exportableKind(model);
    boolean randomFeatures = kind.exportLayout() == ModelKind.ExportLayout.RANDOM_FEATURES;
    Projector projector = solution.projector();
    Path root = new Path(dir);
    // A bundle is read by numpy, not by Hadoop: no .crc files beside its files.
    FileSystem fs = Persistence.withoutChecksums(root.getFileSystem(conf));
    if (fs.exists(root)) {
      throw new IllegalArgumentException(
          "Export directory '" + dir + "' exists already; choose a new one");
    }
    int d = projector.inputDim();
    int k = projector.numComponents();
    Kernel kernel = model.fittedKernel();
    double[] spectrum = solution.spectrum();
    double total = solution.totalVariance();
    double[] explained = Arrays.copyOf(spectrum, k);
    ObjectNode json = Persistence.JSON.createObjectNode();
    json.put("format", "spark-kpca export 1");
    json.put("featureMap", kind.exportLayout().bundleName());
    json.put("kernel", kernel.type().paramName());
    // Only the parameters the kernel's family reads: a cosine model has no gamma.
    if (kernel.type().usesGamma()) {
      json.put("gamma", kernel.gamma());
    }
    if (kernel.type().usesDegree()) {
      json.put("degree", kernel.degree());
    }
    if (kernel.type().usesCoef0()) {
      json.put("coef0", kernel.coef0());
    }
    json.put("centered", model.getCentered());
    json.put("n", solution.numRows());
    json.put("d", d);
    if (randomFeatures) {
      json.put("D", solution.featurePCA().map().outputDim());
    } else {
      json.put("m", projector.kernelExpansion().support().numLandmarks());
    }
    json.put("k", k);
    array(json.putArray("eigenvalues"), spectrum);
    json.put("totalVariance", total);
    array(json.putArray("explainedVariance"), explained);
    array(json.putArray("explainedVarianceRatio"), solution.explainedVarianceRatio());
    json.put(
        "scores",
        randomFeatures
            ? "y(x) = P^T z(x) - o, z(x)[j] = sqrt(2/D) cos(omega[j] . x + phase[j])"
            : "y(x) = P^T k_x - o, k_x[j] = kernel(x, landmarks[j])");
    ObjectNode files = json.putObject("files");
    if (randomFeatures) {
      files.put("omega", "omega.csv");
      files.put("phase", "phase.csv");
    } else if (projector.kernelExpansion().support().isSparse()) {
      ObjectNode csr = files.putObject("landmarksCsr");
      csr.put("indptr", "landmarks_indptr.csv");
      csr.put("indices", "landmarks_indices.csv");
      csr.put("data", "landmarks_data.csv");
    } else {
      files.put("landmarks", "landmarks.csv");
    }
    files.put("projector", "projector.csv");
    files.put("offset", "offset.csv");
    fs.mkdirs(root);
    write(fs, new Path(root, "model.json"), w -> w.write(json.toPrettyString() + "\n"));
    if (randomFeatures) {
      RandomFourierFeatureMap map = (RandomFourierFeatureMap) solution.featurePCA().map();
      int features = map.numFeatures();
      double[] omega = map.frequencies();
      double[] phases = map.phases();
      double[] u = solution.featurePCA().components();
      write(
          fs, new Path(root, "omega.csv"), w -> matrix(w, features, d, (i, j) -> omega[i * d + j]));
      write(fs, new Path(root, "phase.csv"), w -> matrix(w, features, 1, (i, j) -> phases[i]));
      write(
          fs,
          new Path(root, "projector.csv"),
          w -> matrix(w, features, k, (i, j) -> u[i + j * features]));
    } else {
      KernelExpansion expansion = projector.kernelExpansion();
      int m = expansion.support().numLandmarks();
      if (expansion.support().isSparse()) {
        RowSet z = expansion.support().points().toSparse();
        int[] indptr = z.offsets();
        int[] indices = z.indices();
        double[] data = z.values();
        write(fs, new Path(root, "landmarks_indptr.csv"), w -> integers(w, indptr));
        write(fs, new Path(root, "landmarks_indices.csv"), w -> integers(w, indices));
        write(
            fs,
            new Path(root, "landmarks_data.csv"),
            w -> matrix(w, data.length, 1, (i, j) -> data[i]));
      } else {
        double[] points = expansion.support().landmarks();
        write(
            fs, new Path(root, "landmarks.csv"), w -> matrix(w, m, d, (i, j) -> points[i * d + j]));
      }
      double[] p = expansion.coefficients();
      write(fs, new Path(root, "projector.csv"), w -> matrix(w, m, k, (i, j) -> p[i + j * m]));
    }
    double[] offset = projector.offset();
    write(fs, new Path(root, "offset.csv"), w -> matrix(w, k, 1, (i, j) -> offset[i]));
  }

  /**
   * How {@link #writeOnnx} writes a graph: {@code float32} true for a graph whose input, constants
   * and output are float (single precision) instead of double.
   */
  public record OnnxOptions(boolean float32) {
    /** Double precision: the graph's scores equal {@code transform}'s to about 1e−12. */
    public static final OnnxOptions DEFAULT = new OnnxOptions(false);
  }

  /**
   * Writes {@code model} as an ONNX model into the new file {@code file} (any Hadoop file system):
   * input {@code features} [N, d], output {@code scores} [N, k], the scores of {@code transform}
   * for dense rows, in standard operators of opset 13 ({@link OnnxExport} gives the graph of each
   * kernel). Landmark models (Nyström, exact, format 1) and random Fourier feature models, every
   * built-in kernel.
   *
   * @throws IllegalArgumentException when {@code file} exists (nothing is replaced), for a model
   *     without an export format or a kernel family registered elsewhere, and when the dense
   *     landmarks (or Ω) would exceed 512 MiB (a model of wide sparse data)
   */
  public static void writeOnnx(
      FittedModel model, String file, Configuration conf, OnnxOptions options) throws IOException {
    ModelKind kind = exportableKind(model);
    Path target = new Path(file);
    FileSystem fs = Persistence.withoutChecksums(target.getFileSystem(conf));
    if (fs.exists(target)) {
      throw new IllegalArgumentException(
          "ONNX file '" + file + "' exists already; choose a new one");
    }
    String version = ModelExport.class.getPackage().getImplementationVersion();
    byte[] bytes =
        OnnxExport.build(
            model,
            kind.exportLayout() == ModelKind.ExportLayout.RANDOM_FEATURES,
            options.float32(),
            version == null ? "development" : version);
    try (OutputStream out = fs.create(target, false)) {
      out.write(bytes);
    }
  }

  /** The model's kind, checked to have an export format. */
  private static ModelKind exportableKind(FittedModel model) {
    KernelPCASolution solution = model.solution();
    ModelKind kind =
        ModelKind.ofModelClass(model.getClass().getName())
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "Cannot export "
                            + model.uid()
                            + ": "
                            + model.getClass().getName()
                            + " is not a model kind of this library"));
    boolean randomFeatures = kind.exportLayout() == ModelKind.ExportLayout.RANDOM_FEATURES;
    if (randomFeatures
        ? !(solution.isUpdatable()
            && solution.featurePCA().map() instanceof RandomFourierFeatureMap)
        : !solution.projector().hasLandmarks()) {
      throw new IllegalArgumentException(
          "Cannot export "
              + model.uid()
              + ": its feature map ("
              + (solution.isUpdatable() ? solution.featurePCA().map().kind() : "none")
              + ") has no export format");
    }
    return kind;
  }

  private interface Entry {
    double at(int row, int column);
  }

  private interface Body {
    void write(Writer w) throws IOException;
  }

  private static void array(ArrayNode node, double[] values) {
    for (double v : values) {
      node.add(v);
    }
  }

  private static void matrix(Writer w, int rows, int columns, Entry entry) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < rows; i++) {
      line.setLength(0);
      for (int j = 0; j < columns; j++) {
        if (j > 0) {
          line.append(',');
        }
        line.append(entry.at(i, j));
      }
      w.write(line.append('\n').toString());
    }
  }

  private static void integers(Writer w, int[] values) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int v : values) {
      line.setLength(0);
      w.write(line.append(v).append('\n').toString());
    }
  }

  private static void write(FileSystem fs, Path file, Body body) throws IOException {
    try (OutputStream out = fs.create(file, false);
        Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8)) {
      body.write(w);
    }
  }
}
