package io.github.sparkkpca.examples.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.util.SafeOutput;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;

/**
 * What a fit produced, as the {@code --summary-out} JSON document and as the table printed to the console.
 *
 * <p>JSON keys, in this order: {@code n}, {@code d}, {@code m}, {@code rank}, {@code k}, {@code gamma}
 * (null when the kernel has none: linear, cosine), {@code centered}, {@code eigenvalues} (the first k, equal
 * to {@code explainedVariance}), {@code explainedVariance}, {@code explainedVarianceRatio},
 * {@code totalVariance}, {@code reconstructionError} and {@code fitSeconds} (wall time of
 * {@code NystromKernelPCA.fit} on data already loaded and cached).
 *
 * @param n training rows
 * @param d input dimension
 * @param m landmarks (random features D for a random feature model)
 * @param rank numerical rank of the landmark kernel matrix (D for a random feature model)
 * @param k components
 * @param kernel kernel name
 * @param gamma γ used (NaN when the kernel has none)
 * @param centered whether the fit was centred in feature space
 * @param explainedVariance Σ_1..Σ_k
 * @param explainedVarianceRatio Σ_i / total variance
 * @param totalVariance total feature-space variance
 * @param reconstructionError total variance minus the captured variance, for 1..k components
 * @param fitSeconds wall time of the fit
 */
public record FitSummary(long n, int d, int m, int rank, int k, String kernel, double gamma, boolean centered,
    double[] explainedVariance, double[] explainedVarianceRatio, double totalVariance,
    double[] reconstructionError, double fitSeconds) {

  /** The keys of the JSON document, in their order. */
  static final List<String> JSON_KEYS = List.of("n", "d", "m", "rank", "k", "gamma", "centered", "eigenvalues",
      "explainedVariance", "explainedVarianceRatio", "totalVariance", "reconstructionError", "fitSeconds");

  /** Files larger than this are not summaries (k numbers in three arrays). */
  private static final long MAX_SUMMARY_BYTES = 1 << 24;

  /**
   * An earlier {@code --summary-out} of fit, which {@code --overwrite} may replace: a JSON object with
   * exactly {@link #JSON_KEYS}, in order.
   */
  static final SafeOutput.Kind EARLIER_SUMMARY = jsonSummary("fit", JSON_KEYS);

  /**
   * An earlier JSON summary of the command {@code command}, which {@code --overwrite} may replace: a file
   * (of at most 16 MiB) holding a JSON object with exactly {@code keys}, in order.
   */
  static SafeOutput.Kind jsonSummary(String command, List<String> keys) {
    return new SafeOutput.Kind() {
      @Override
      public String description() {
        return "a summary written by spark-kpca " + command;
      }

      @Override
      public String whyNotEarlier(FileSystem fs, org.apache.hadoop.fs.Path path) throws IOException {
        FileStatus status = fs.getFileStatus(path);
        if (status.isDirectory()) {
          return "is a directory";
        }
        String notOurs = "is not a summary written by spark-kpca " + command;
        if (status.getLen() > MAX_SUMMARY_BYTES) {
          return notOurs;
        }
        List<String> found = new ArrayList<>();
        try (var in = fs.open(path)) {
          new ObjectMapper().readTree(in).fieldNames().forEachRemaining(found::add);
        } catch (IOException e) {
          return notOurs;
        }
        return found.equals(keys) ? null : notOurs;
      }
    };
  }

  /**
   * Saves {@code model} to {@code modelOut} (its own writer swaps the new model in and replaces only a
   * saved spark-kpca stage, with {@code overwrite}), writes this summary to {@code summaryOutput} when
   * given, and prints it: the ending that fit and update share.
   */
  void saveWithModel(AbstractKernelPCAModel<?> model, String modelOut, boolean overwrite, SafeOutput summaryOutput,
      java.io.PrintWriter out) throws java.io.IOException {
    SparkKpcaCli.progress(out, "writing the model to %s...", modelOut);
    org.apache.spark.ml.util.MLWriter writer = model.write();
    if (overwrite) {
      writer.overwrite();
    }
    writer.save(modelOut);
    if (summaryOutput != null) {
      summaryOutput.write(staging -> writeJson(OutputTargets.local(staging)));
      SparkKpcaCli.progress(out, "wrote the summary to %s", summaryOutput.target());
    }
    print(out);
  }

  /** The summary of a fitted model. */
  public static FitSummary of(AbstractKernelPCAModel<?> model, double fitSeconds) {
    return new FitSummary(model.numRows(), model.numFeatures(), model.hasLandmarks() ? model.numSupportPoints()
        : model.rank(), model.rank(),
        model.numComponents(), model.getKernel(), model.getGamma(), model.getCentered(),
        model.explainedVariance().toArray(), model.explainedVarianceRatio().toArray(), model.totalVariance(),
        model.reconstructionError().toArray(), fitSeconds);
  }

  /** The JSON document, keys in the documented order. */
  public Map<String, Object> toJsonMap() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("n", n);
    json.put("d", d);
    json.put("m", m);
    json.put("rank", rank);
    json.put("k", k);
    json.put("gamma", Double.isFinite(gamma) ? gamma : null);
    json.put("centered", centered);
    json.put("eigenvalues", explainedVariance);
    json.put("explainedVariance", explainedVariance);
    json.put("explainedVarianceRatio", explainedVarianceRatio);
    json.put("totalVariance", totalVariance);
    json.put("reconstructionError", reconstructionError);
    json.put("fitSeconds", fitSeconds);
    return json;
  }

  /** Writes the JSON document to a local file, creating its parent directories. */
  public void writeJson(Path file) throws IOException {
    writeJson(file, toJsonMap());
  }

  /** Writes a JSON document (indented) to a local file, creating its parent directories. */
  static void writeJson(Path file, Map<String, Object> json) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json);
  }

  /** The sum of the explained variance ratios. */
  public double cumulativeRatio() {
    double sum = 0;
    for (double r : explainedVarianceRatio) {
      sum += r;
    }
    return sum;
  }

  /** Prints the header line, one row per component and the cumulative ratio. */
  public void print(PrintWriter out) {
    out.printf(Locale.ROOT, "n = %d, d = %d, m = %d, rank = %d, k = %d, kernel = %s, gamma = %s, %s%n", n, d,
        m, rank, k, kernel, Double.isFinite(gamma) ? String.format(Locale.ROOT, "%.6g", gamma) : "-",
        centered ? "centred" : "uncentred");
    out.printf(Locale.ROOT, "fit: %.2f s, total variance %.6g%n", fitSeconds, totalVariance);
    out.printf(Locale.ROOT, "%9s  %12s  %9s  %10s  %14s%n", "component", "eigenvalue", "ratio", "cumulative",
        "recon. error");
    double cumulative = 0;
    for (int i = 0; i < k; i++) {
      cumulative += explainedVarianceRatio[i];
      out.printf(Locale.ROOT, "%9d  %12.6g  %9.4f  %10.4f  %14.6g%n", i + 1, explainedVariance[i],
          explainedVarianceRatio[i], cumulative, reconstructionError[i]);
    }
    out.printf(Locale.ROOT, "cumulative explained variance ratio (k = %d): %.4f%n", k, cumulativeRatio());
    out.flush();
  }
}
