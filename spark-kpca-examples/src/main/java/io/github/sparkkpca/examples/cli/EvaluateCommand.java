package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.evaluation.CapturedVariance;
import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * {@code spark-kpca evaluate}: the variance a model's k components capture on held-out rows under
 * the exact kernel, and the most any k directions capture there ({@link CapturedVariance}).
 */
@Command(
    name = "evaluate",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Captured held-out variance of a model under the exact kernel, and the optimum (the sum of the "
          + "k largest eigenvalues of the exact kernel matrix of at most --exact-sample rows, divided by their number).",
      "Several --model values (same kernel, centring and k) share one exact kernel matrix and optimum.",
      "Random-feature models: the paper's objective (Ullah et al. 2018, Lemma E.2), which can exceed the optimum."
    })
public final class EvaluateCommand implements Callable<Integer> {

  /** The keys of the --summary-out JSON document, in order. */
  static final List<String> JSON_KEYS =
      List.of("capturedVariance", "optimalVariance", "n", "sampleRows", "k", "method");

  /**
   * With several models: the JSON's last key, their paths (capturedVariance, optimalVariance and
   * method are then arrays, one entry per model).
   */
  static final String MODELS_KEY = "models";

  /** An earlier {@code --summary-out} of evaluate. */
  static final SafeOutput.Kind EARLIER_SUMMARY =
      JsonSummaries.earlier("evaluate", JSON_KEYS, List.of(MODELS_KEY));

  @Spec CommandSpec spec;

  @Option(
      names = "--model",
      required = true,
      arity = "1..*",
      paramLabel = "DIR",
      description = {
        "A saved model, or the --model-out of stream (its newest version).",
        "Several (e.g. the versions of a stream) are evaluated on one exact kernel matrix; they must share "
            + "the kernel, the centring and k."
      })
  List<String> models;

  @Mixin InputOptions input;

  @Option(
      names = "--exact-sample",
      paramLabel = "N",
      defaultValue = "" + CapturedVariance.DEFAULT_EXACT_SAMPLE,
      description =
          "At most N rows form the exact kernel matrix (N^2 doubles on the driver); more rows are "
              + "subsampled (seeded). Default: ${DEFAULT-VALUE}.")
  int exactSample;

  @Option(
      names = "--seed",
      paramLabel = "S",
      defaultValue = "1",
      description = "Seed of the subsample. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(
      names = "--summary-out",
      paramLabel = "FILE.json",
      description =
          "Also write the result as JSON: capturedVariance, optimalVariance, n, sampleRows, k, method "
              + "(several models: capturedVariance, optimalVariance and method are arrays, followed by "
              + "models, their paths).")
  Path summaryOut;

  @Mixin OverwriteOption output;

  @Mixin SparkOptions sparkOptions;

  @Override
  public Integer call() throws Exception {
    SparkKpcaCli.require(spec, exactSample >= 2, "--exact-sample must be >= 2, got " + exactSample);
    sparkOptions.validate(spec);
    PrintWriter out = spec.commandLine().getOut();
    try (ManagedSession spark = ManagedSession.open(sparkOptions.master)) {
      OutputTargets targets =
          output.targetsReading(
              spark,
              input.reading(
                  models.stream()
                      .map(m -> OutputRules.named("--model", m))
                      .toArray(OutputRules.Named[]::new)));
      SafeOutput summaryOutput =
          summaryOut == null
              ? null
              : targets.addLocal("--summary-out", summaryOut, EARLIER_SUMMARY);
      List<String> dirs = new ArrayList<>();
      List<AbstractKernelPCAModel<?>> kpcas = new ArrayList<>();
      for (String model : models) {
        String dir = SavedModels.resolve(spark, "--model", model, out);
        dirs.add(dir);
        kpcas.add(AbstractKernelPCAModel.loadAny(dir));
      }
      AbstractKernelPCAModel<?> first = kpcas.get(0);
      LoadedData data =
          SparkKpcaCli.loadAndCache(
              spark, input.forModel(first.numFeatures(), first.featureNames()), out);
      List<CapturedVariance.Result> results;
      long start = System.nanoTime();
      try {
        for (AbstractKernelPCAModel<?> kpca : kpcas) {
          kpca.setInputCol(data.featuresCol());
        }
        SparkKpcaCli.progress(
            out,
            "evaluating %s (k = %d) on %d rows...",
            dirs.size() == 1 ? dirs.get(0) : dirs.size() + " models",
            first.numComponents(),
            data.rows());
        try {
          results = CapturedVariance.evaluate(kpcas, data.data(), exactSample, seed);
        } catch (IllegalArgumentException e) {
          throw SparkKpcaCli.usage(
              spec, e.getMessage().replace("lower exactSample", "lower --exact-sample"));
        }
      } finally {
        data.unpersist();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      for (int i = 0; i < results.size(); i++) {
        CapturedVariance.Result result = results.get(i);
        out.printf(
            Locale.ROOT,
            "%scaptured variance %.6g of an optimal %.6g (%.4f), k = %d, n = %d, exact kernel on "
                + "%d rows, %.1f s%n",
            dirs.size() == 1 ? "" : dirs.get(i) + ": ",
            result.capturedVariance(),
            result.optimalVariance(),
            result.capturedVariance() / result.optimalVariance(),
            first.numComponents(),
            result.n(),
            result.sampleRows(),
            seconds);
      }
      out.printf(
          Locale.ROOT,
          "(%s)%n",
          results.stream()
              .map(CapturedVariance.Result::method)
              .distinct()
              .collect(java.util.stream.Collectors.joining("; ")));
      out.flush();
      if (summaryOutput != null) {
        CapturedVariance.Result result = results.get(0);
        boolean several = results.size() > 1;
        Map<String, Object> json = new LinkedHashMap<>();
        json.put(
            "capturedVariance",
            several
                ? results.stream().map(CapturedVariance.Result::capturedVariance).toList()
                : result.capturedVariance());
        // Each model's own optimum: models on an indefinite kernel each have their own surrogate.
        json.put(
            "optimalVariance",
            several
                ? results.stream().map(CapturedVariance.Result::optimalVariance).toList()
                : result.optimalVariance());
        json.put("n", result.n());
        json.put("sampleRows", result.sampleRows());
        json.put("k", first.numComponents());
        json.put(
            "method",
            several
                ? results.stream().map(CapturedVariance.Result::method).toList()
                : result.method());
        if (several) {
          json.put(MODELS_KEY, dirs);
        }
        JsonSummaries.write(summaryOutput, json);
        SparkKpcaCli.progress(out, "wrote the result to %s", summaryOutput.target());
      }
    }
    return 0;
  }
}
