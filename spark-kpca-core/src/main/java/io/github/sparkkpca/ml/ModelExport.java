package io.github.sparkkpca.ml;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkkpca.feature.KernelExpansion;
import io.github.sparkkpca.kernel.Kernel;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Writes a fitted landmark model as a plain bundle that any language can score without Spark:
 * <ul>
 *   <li>{@code model.json}: kernel, gamma, degree, coef0, centered, n, d, m, k, eigenvalues,
 *       totalVariance, explainedVariance, explainedVarianceRatio, and the formula;</li>
 *   <li>{@code landmarks.csv} (m rows of d values), {@code projector.csv} (m rows of k values: P) and
 *       {@code offset.csv} (k values, one per line): headerless, one matrix row per line, each value as Java
 *       prints a double, which reads back exactly.</li>
 * </ul>
 * The scores of a row x are y(x) = Pᵀk_x − o with k_x = (k(x, z_1), …, k(x, z_m)) over the landmarks z_j,
 * and the kernels as in scikit-learn (rbf exp(−γ‖x−z‖²), polynomial (γxᵀz + c₀)^p, …).
 */
public final class ModelExport {

  private ModelExport() {
  }

  /**
   * Writes the bundle of {@code model} into the new directory {@code dir} (any Hadoop file system).
   *
   * @throws IllegalArgumentException when {@code dir} exists already (nothing is replaced) or the model has
   *                                  no landmarks
   */
  public static void write(AbstractKernelPCAModel<?> model, String dir, Configuration conf) throws IOException {
    KernelExpansion expansion = model.solution().projector().kernelExpansion();
    Path root = new Path(dir);
    FileSystem fs = root.getFileSystem(conf);
    if (fs.exists(root)) {
      throw new IllegalArgumentException("Export directory '" + dir + "' exists already; choose a new one");
    }
    int m = model.numSupportPoints();
    int d = model.numFeatures();
    int k = model.numComponents();
    Kernel kernel = model.fittedKernel();
    ObjectNode json = Persistence.JSON.createObjectNode();
    json.put("format", "spark-kpca export 1");
    json.put("featureMap", "landmarks");
    json.put("kernel", kernel.type().paramName());
    json.put("gamma", kernel.gamma());
    json.put("degree", kernel.degree());
    json.put("coef0", kernel.coef0());
    json.put("centered", model.getCentered());
    json.put("n", model.numRows());
    json.put("d", d);
    json.put("m", m);
    json.put("k", k);
    array(json.putArray("eigenvalues"), model.eigenvalues().toArray());
    json.put("totalVariance", model.totalVariance());
    array(json.putArray("explainedVariance"), model.explainedVariance().toArray());
    array(json.putArray("explainedVarianceRatio"), model.explainedVarianceRatio().toArray());
    json.put("scores", "y(x) = P^T k_x - o, k_x[j] = kernel(x, landmarks[j])");
    ObjectNode files = json.putObject("files");
    files.put("landmarks", "landmarks.csv");
    files.put("projector", "projector.csv");
    files.put("offset", "offset.csv");
    fs.mkdirs(root);
    write(fs, new Path(root, "model.json"), w -> w.write(json.toPrettyString() + "\n"));
    double[] points = expansion.support().landmarks();
    write(fs, new Path(root, "landmarks.csv"), w -> matrix(w, m, d, (i, j) -> points[i * d + j]));
    double[] p = expansion.coefficients();
    write(fs, new Path(root, "projector.csv"), w -> matrix(w, m, k, (i, j) -> p[i + j * m]));
    double[] offset = model.offset().toArray();
    write(fs, new Path(root, "offset.csv"), w -> matrix(w, k, 1, (i, j) -> offset[i]));
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

  private static void write(FileSystem fs, Path file, Body body) throws IOException {
    try (OutputStream out = fs.create(file, false);
        Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8)) {
      body.write(w);
    }
  }
}
