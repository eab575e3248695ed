package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.evaluation.KSelection;
import io.github.sparkkpca.evaluation.Mpress;
import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca select-k}: the leave-one-out MPRESS curve of uncentred kernel PCA for k = 1..K
 * and its argmin (Hallgren 2021, ch. 5; see {@link Mpress}), computed by the library's {@link
 * KSelection}. Exact, O(n⁴) on the driver, so limited to {@code --max-rows} rows unless {@code
 * --subsample-seed} asks for a seeded subsample of that many.
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

  @Mixin KernelOptions kernel;

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

  @Mixin OverwriteOption output;

  @Mixin SparkOptions sparkOptions;

  /**
   * An earlier {@code --summary-out} of select-k: a JSON object with exactly {@link #JSON_KEYS}.
   */
  static final SafeOutput.Kind EARLIER_SUMMARY = JsonSummaries.earlier("select-k", JSON_KEYS);

  @Override
  public Integer call() throws Exception {
    KernelType type = kernel.validate(spec);
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
    KSelection selection =
        new KSelection()
            .setKernel(type.paramName())
            .setDegree(kernel.degreeOrDefault())
            .setCoef0(kernel.coef0OrDefault())
            .setMaxK(maxK)
            .setMaxRows(maxRows)
            .setMethod(method);
    if (kernel.gamma != null) {
      selection.setGamma(kernel.gamma);
    }
    if (subsampleSeed != null) {
      selection.setSubsampleSeed(subsampleSeed);
    }
    sparkOptions.validate(spec);
    PrintWriter out = spec.commandLine().getOut();
    try (ManagedSession spark = ManagedSession.open(sparkOptions.master)) {
      SafeOutput summaryOutput =
          summaryOut == null
              ? null
              : output
                  .targetsReading(spark, input.reading())
                  .addLocal("--summary-out", summaryOut, EARLIER_SUMMARY);
      LoadedData data = SparkKpcaCli.loadAndCache(spark, input.toSourceOptions(), out);
      Mpress.Sample sample;
      try {
        sample = selection.sample(data.data(), data.featuresCol());
      } catch (IllegalArgumentException e) {
        throw SparkKpcaCli.usage(
            spec,
            e.getMessage()
                .replace("maxRows = ", "--max-rows ")
                .replace("lower maxRows", "lower --max-rows")
                .replace(
                    "raise maxRows or ask for a seeded subsample",
                    "raise --max-rows or give --subsample-seed " + "for a seeded subsample"));
      } finally {
        data.unpersist();
      }
      SparkKpcaCli.progress(
          out,
          "MPRESS of %s kernel PCA on n = %d rows, k = 1..%d...",
          kernel.name,
          sample.n(),
          maxK);
      long start = System.nanoTime();
      KSelection.Result result;
      try {
        result = selection.select(sample);
        SparkKpcaCli.progress(
            out,
            "leave-one-out decompositions: %s%s",
            result.method().name().toLowerCase(Locale.ROOT),
            result.decremental() ? " (" + result.fallbackRows() + " rows decomposed afresh)" : "");
      } catch (IllegalArgumentException e) {
        throw SparkKpcaCli.usage(spec, "--max-k: " + e.getMessage());
      }
      SparkKpcaCli.progress(out, "done in %.2f s", (System.nanoTime() - start) / 1e9);
      out.printf(Locale.ROOT, "%5s %14s%n", "k", "MPRESS");
      for (int i = 0; i < result.mpress().length; i++) {
        out.printf(
            Locale.ROOT,
            "%5d %14.8g%s%n",
            i + 1,
            result.mpress()[i],
            i + 1 == result.k() ? "  <- selected" : "");
      }
      out.printf(Locale.ROOT, "selected k = %d%n", result.k());
      if (result.argminAtMaxK()) {
        out.printf(
            Locale.ROOT,
            "note: the minimum is at the edge of the curve (k = --max-k = %d): MPRESS may still "
                + "decrease for larger k, so the selected k is only a lower bound; run again with a "
                + "larger --max-k%n",
            maxK);
      }
      out.flush();
      if (summaryOutput != null) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("mpress", result.mpress());
        json.put("k", result.k());
        json.put("n", result.n());
        json.put("kernel", type.name().toLowerCase(Locale.ROOT));
        json.put("gamma", type.usesGamma() ? result.kernel().gamma() : null);
        JsonSummaries.write(summaryOutput, json);
        SparkKpcaCli.progress(out, "wrote the curve to %s", summaryOutput.target());
      }
    }
    return 0;
  }
}
