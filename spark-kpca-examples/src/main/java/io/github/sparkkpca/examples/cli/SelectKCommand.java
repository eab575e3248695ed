package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.evaluation.Mpress;
import io.github.sparkkpca.examples.data.DataSources;
import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca select-k}: the leave-one-out MPRESS curve of uncentred kernel PCA for k = 1..K
 * and its argmin (Hallgren 2021, ch. 5; see {@link Mpress}). Exact, O(n⁴) on the driver, so limited
 * to {@code --max-rows} rows unless {@code --subsample-seed} asks for a seeded subsample of that
 * many.
 */
@Command(
    name = "select-k",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Choose the number of kernel principal components k by leave-one-out cross-validation "
          + "(MPRESS of uncentred kernel PCA, divisor n(n-k)): prints MPRESS(k) for k = 1..K and the argmin.",
      "Exact and O(n^4) on the driver: at most --max-rows rows."
    })
public final class SelectKCommand implements Callable<Integer> {

  /** The keys of the --summary-out JSON document, in order. */
  static final List<String> JSON_KEYS = List.of("mpress", "k", "n", "kernel", "gamma");

  @Spec CommandSpec spec;

  @Mixin InputOptions input;

  @Option(
      names = "--max-k",
      required = true,
      paramLabel = "K",
      description = "Largest k of the curve (1 <= K < numerical rank of the kernel matrix).")
  int maxK;

  @Option(
      names = "--kernel",
      paramLabel = "NAME",
      defaultValue = "rbf",
      description =
          "Kernel: rbf (gaussian), laplacian, polynomial (poly), linear, cosine, sigmoid. "
              + "Default: ${DEFAULT-VALUE}.")
  String kernel;

  @Option(
      names = "--gamma",
      paramLabel = "G",
      description =
          "Kernel scale gamma > 0. Default: rbf/laplacian the median heuristic over the rows used, "
              + "polynomial/sigmoid 1/d.")
  Double gamma;

  @Option(
      names = "--degree",
      paramLabel = "P",
      defaultValue = "3",
      description = "Polynomial degree. Default: ${DEFAULT-VALUE}.")
  int degree;

  @Option(
      names = "--coef0",
      paramLabel = "C",
      defaultValue = "1",
      description = "Polynomial/sigmoid constant. Default: ${DEFAULT-VALUE}.")
  double coef0;

  @Option(
      names = "--max-rows",
      paramLabel = "N",
      defaultValue = "" + Mpress.DEFAULT_MAX_ROWS,
      description = "Largest number of rows accepted. Default: ${DEFAULT-VALUE}.")
  int maxRows;

  @Option(
      names = "--subsample-seed",
      paramLabel = "S",
      description =
          "With more than --max-rows rows, use a seeded uniform subsample of --max-rows rows instead "
              + "of failing.")
  Long subsampleSeed;

  @Option(
      names = "--loo-method",
      paramLabel = "M",
      defaultValue = "auto",
      description =
          "How each leave-one-out eigendecomposition is obtained: batch (a new decomposition per "
              + "row), rank_one (the thesis: two rank-one downdates of the full one per row, O(n^2)), deletion (the "
              + "leading roots of the deleted row's secular equation, O(n maxK) per row) or auto (deletion from "
              + Mpress.DECREMENTAL_FROM_ROWS
              + " rows on). Default: ${DEFAULT-VALUE}.")
  String looMethod;

  @Option(
      names = "--summary-out",
      paramLabel = "FILE.json",
      description = "Also write the curve as JSON: mpress (k = 1..K), k, n, kernel, gamma.")
  Path summaryOut;

  @Option(names = "--overwrite", description = "Replace a summary written by an earlier select-k.")
  boolean overwrite;

  @Mixin SparkOptions sparkOptions;

  /**
   * An earlier {@code --summary-out} of select-k: a JSON object with exactly {@link #JSON_KEYS}.
   */
  static final SafeOutput.Kind EARLIER_SUMMARY = FitSummary.jsonSummary("select-k", JSON_KEYS);

  @Override
  public Integer call() throws Exception {
    KernelType type;
    try {
      type = KernelType.parse(kernel);
    } catch (IllegalArgumentException e) {
      throw SparkKpcaCli.usage(spec, "--kernel: " + e.getMessage());
    }
    Mpress.Method method;
    try {
      method = Mpress.Method.valueOf(looMethod.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw SparkKpcaCli.usage(
          spec, "--loo-method must be auto, batch, rank_one or deletion, got '" + looMethod + "'");
    }
    SparkKpcaCli.require(spec, maxK >= 1, "--max-k must be >= 1, got " + maxK);
    SparkKpcaCli.require(spec, maxRows >= 3, "--max-rows must be >= 3, got " + maxRows);
    SparkKpcaCli.require(
        spec, maxK <= maxRows - 1, "--max-k " + maxK + " must be < --max-rows " + maxRows);
    SparkKpcaCli.require(
        spec,
        gamma == null || (gamma > 0 && Double.isFinite(gamma)),
        "--gamma must be finite and > 0, got " + gamma);
    SparkKpcaCli.require(spec, degree >= 1, "--degree must be >= 1, got " + degree);
    SparkKpcaCli.require(spec, Double.isFinite(coef0), "--coef0 must be finite, got " + coef0);
    sparkOptions.validate(spec);
    PrintWriter out = spec.commandLine().getOut();
    try (ManagedSession spark = ManagedSession.open(sparkOptions.master)) {
      OutputTargets targets =
          new OutputTargets(
              spark.session().sparkContext().hadoopConfiguration(),
              overwrite,
              new ArrayList<>(DataSources.inputPaths(input.toSourceOptions())));
      SafeOutput summaryOutput =
          summaryOut == null
              ? null
              : targets.addLocal("--summary-out", summaryOut, EARLIER_SUMMARY);
      LoadedData data = SparkKpcaCli.loadAndCache(spark, input.toSourceOptions(), out);
      Mpress.Sample sample;
      try {
        sample =
            Mpress.sample(
                data.data(),
                data.featuresCol(),
                maxRows,
                subsampleSeed == null ? OptionalLong.empty() : OptionalLong.of(subsampleSeed));
      } catch (IllegalArgumentException e) {
        throw SparkKpcaCli.usage(
            spec,
            e.getMessage()
                .replace("maxRows = ", "--max-rows ")
                .replace(
                    "raise maxRows or ask for a seeded subsample",
                    "raise --max-rows or give --subsample-seed " + "for a seeded subsample"));
      } finally {
        data.unpersist();
      }
      double g =
          gamma != null
              ? gamma
              : type.usesGamma()
                  ? Kernel.medianHeuristicGamma(type, sample.points(), sample.n(), sample.d())
                  : 1.0;
      Kernel k = new Kernel(type, g, degree, coef0);
      SparkKpcaCli.progress(
          out, "MPRESS of %s kernel PCA on n = %d rows, k = 1..%d...", kernel, sample.n(), maxK);
      long start = System.nanoTime();
      Mpress.Curve curve;
      try {
        Mpress.Run run = Mpress.run(k, sample.points(), sample.n(), sample.d(), maxK, method);
        curve = run.curve();
        SparkKpcaCli.progress(
            out,
            "leave-one-out decompositions: %s%s",
            run.method().name().toLowerCase(Locale.ROOT),
            run.decremental() ? " (" + run.fallbackRows() + " rows decomposed afresh)" : "");
      } catch (IllegalArgumentException e) {
        throw SparkKpcaCli.usage(spec, "--max-k: " + e.getMessage());
      }
      SparkKpcaCli.progress(out, "done in %.2f s", (System.nanoTime() - start) / 1e9);
      out.printf(Locale.ROOT, "%5s %14s%n", "k", "MPRESS");
      for (int i = 0; i < curve.mpress().length; i++) {
        out.printf(
            Locale.ROOT,
            "%5d %14.8g%s%n",
            i + 1,
            curve.mpress()[i],
            i + 1 == curve.k() ? "  <- selected" : "");
      }
      out.printf(Locale.ROOT, "selected k = %d%n", curve.k());
      out.flush();
      if (summaryOutput != null) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("mpress", curve.mpress());
        json.put("k", curve.k());
        json.put("n", curve.n());
        json.put("kernel", type.name().toLowerCase(Locale.ROOT));
        json.put("gamma", type.usesGamma() ? g : null);
        summaryOutput.write(staging -> FitSummary.writeJson(OutputTargets.local(staging), json));
        SparkKpcaCli.progress(out, "wrote the curve to %s", summaryOutput.target());
      }
    }
    return 0;
  }
}
