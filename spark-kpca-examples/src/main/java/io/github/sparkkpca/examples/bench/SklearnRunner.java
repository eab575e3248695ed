package io.github.sparkkpca.examples.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs {@code bench/sklearn_nystroem.py} (scikit-learn's Nystroem + PCA) as a child process on the
 * same machine and reads its JSON result ({@link #runScript} also runs {@code bench sparse}'s
 * script). The child does not inherit {@code OPENBLAS_NUM_THREADS} or {@code OMP_NUM_THREADS}: a
 * single NumPy process is fastest with OpenBLAS's default of one thread per core.
 *
 * @param python the interpreter, e.g. {@code python3}
 * @param script the script
 * @param mnistDir the MNIST directory, or null for the script's default
 * @param maxMemory the address-space cap passed as {@code --max-memory}, or null
 */
public record SklearnRunner(String python, Path script, String mnistDir, String maxMemory) {

  /** The parsed result. */
  public record Result(
      String system,
      String status,
      String message,
      long n,
      int d,
      double fitSeconds,
      double[] explainedVariance,
      double[] explainedVarianceRatio,
      long peakRssBytes,
      long featureMatrixBytes,
      String solver,
      String blas) {}

  /**
   * The script's {@code --input} for a spark-kpca input, or null when the script cannot read it.
   */
  public static String scriptInput(String input) {
    String lower = input.toLowerCase(java.util.Locale.ROOT);
    if (lower.equals("mnist:train") || lower.equals("mnist:test")) {
      return lower;
    }
    if (lower.startsWith("synthetic")) {
      String params = input.contains(":") ? input.substring(input.indexOf(':') + 1) : "";
      StringBuilder kept = new StringBuilder();
      for (String part : params.split(",")) {
        if (!part.isBlank()
            && !part.trim().toLowerCase(java.util.Locale.ROOT).startsWith("partitions=")) {
          kept.append(kept.length() == 0 ? "" : ",").append(part.trim());
        }
      }
      return "synthetic:" + kept;
    }
    return null;
  }

  /** Runs the script and parses its JSON. */
  public Result run(String input, int m, int k, double gamma, long seed, int repeat, Path workDir)
      throws IOException, InterruptedException {
    String scriptInput = scriptInput(input);
    if (scriptInput == null) {
      throw new IllegalArgumentException(
          "--compare sklearn: the script reads mnist:train, mnist:test and "
              + "synthetic inputs only, not "
              + input);
    }
    if (!Files.isRegularFile(script)) {
      throw new IllegalArgumentException(
          "--sklearn-script: no file "
              + script
              + " (run from the repository root "
              + "or pass the script's path)");
    }
    Path json = Files.createTempFile(workDir, "sklearn-", ".json");
    List<String> command =
        new ArrayList<>(
            List.of(
                python,
                script.toString(),
                "--input",
                scriptInput,
                "--m",
                Integer.toString(m),
                "--k",
                Integer.toString(k),
                "--gamma",
                Double.toString(gamma),
                "--seed",
                Long.toString(seed),
                "--repeat",
                Integer.toString(repeat),
                "--json-out",
                json.toString()));
    if (mnistDir != null) {
      command.addAll(List.of("--mnist-dir", mnistDir));
    }
    if (maxMemory != null) {
      command.addAll(List.of("--max-memory", maxMemory));
    }
    return parse(runScript(command, json));
  }

  /**
   * Runs a scikit-learn script's {@code command} as a child process and reads the JSON it wrote
   * into {@code json} (then deleted); fails naming the command when the child failed.
   */
  static JsonNode runScript(List<String> command, Path json)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
    // scikit-learn runs as one process: its best BLAS setting is all cores, whatever this JVM was
    // given.
    builder.environment().remove("OPENBLAS_NUM_THREADS");
    builder.environment().remove("OMP_NUM_THREADS");
    int code = builder.start().waitFor();
    if (code != 0 || Files.size(json) == 0) {
      throw new IllegalStateException(
          "the scikit-learn script failed (exit code " + code + "): " + String.join(" ", command));
    }
    JsonNode node = new ObjectMapper().readTree(json.toFile());
    Files.deleteIfExists(json);
    return node;
  }

  static Result parse(JsonNode node) {
    String status = node.path("status").asText("unknown");
    return new Result(
        node.path("system").asText("scikit-learn"),
        status,
        node.path("message").asText(""),
        node.path("n").asLong(-1),
        node.path("d").asInt(-1),
        node.has("fit_s") ? node.get("fit_s").asDouble() : Double.NaN,
        doubles(node.get("explained_variance")),
        doubles(node.get("explained_variance_ratio")),
        node.has("peak_rss_mb") ? (long) (node.get("peak_rss_mb").asDouble() * 1048576) : -1,
        node.path("feature_matrix_bytes").asLong(-1),
        node.path("pca_svd_solver").asText(""),
        blas(node.get("blas")));
  }

  /** "openblas 0.3.21, 2 threads" from threadpoolctl's report, or "". */
  private static String blas(JsonNode pools) {
    if (pools == null || !pools.isArray()) {
      return "";
    }
    for (JsonNode pool : pools) {
      if (pool.path("internal_api").asText().equals("openblas")) {
        return "openblas "
            + pool.path("version").asText("?")
            + ", "
            + pool.path("num_threads").asInt()
            + " threads";
      }
    }
    return pools.size() > 0 ? pools.get(0).path("internal_api").asText("") : "";
  }

  private static double[] doubles(JsonNode array) {
    if (array == null || !array.isArray()) {
      return new double[0];
    }
    double[] out = new double[array.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = array.get(i).asDouble();
    }
    return out;
  }
}
