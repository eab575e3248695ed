package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.linalg.IncrementalEigen;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.persistence.SafeOutput;
import io.github.sparkkpca.streaming.IncrementalNystrom;
import java.io.PrintWriter;
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
 * {@code spark-kpca grow}: adds landmarks to a saved Nyström model one by one, updating the
 * landmark kernel matrix's eigendecomposition by rank-one modifications ({@link
 * IncrementalNystrom}), refits the components on the input rows and saves the grown model; the
 * summary reports the drift of the incremental decomposition from a batch one.
 */
@Command(
    name = "grow",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Add landmarks to a saved Nystrom model incrementally (rank-one updates of the landmark kernel "
            + "matrix's eigendecomposition), refit on the input rows and save the grown model with its drift.")
public final class GrowCommand implements Callable<Integer> {

  /**
   * An earlier summary of grow, which {@code --overwrite} may replace: fit's keys, those of fit's
   * optional keys that apply, then {@code incremental} (the drift).
   */
  static final SafeOutput.Kind EARLIER_SUMMARY =
      JsonSummaries.earlier(
          "grow", FitSummary.JSON_KEYS, FitSummary.OPTIONAL_KEYS, List.of("incremental"));

  @Spec CommandSpec spec;

  @Option(
      names = "--model",
      required = true,
      paramLabel = "DIR",
      description = "A Nystrom model saved by fit, " + "update or grow.")
  String model;

  @Mixin InputOptions input;

  @Option(
      names = "--add-landmarks",
      required = true,
      paramLabel = "N",
      description =
          "Landmarks to add, drawn "
              + "uniformly without replacement from the input rows (rows equal to a current landmark are skipped).")
  int addLandmarks;

  @Option(
      names = "--seed",
      paramLabel = "S",
      description = "Seed of the new landmarks' sample (default: the " + "model's seed).")
  Long seed;

  @Option(
      names = "--orthogonality-tolerance",
      paramLabel = "T",
      defaultValue = "1e-10",
      description =
          "Recompute "
              + "the decomposition in batch when ||V^T V - I|| exceeds T (default: ${DEFAULT-VALUE}).")
  double tolerance;

  @Option(
      names = "--full-check-every",
      paramLabel = "U",
      defaultValue = "50",
      description =
          "Compute the full "
              + "||V^T V - I||_F every U rank-one updates (0: only the O(m^2) probe; default: ${DEFAULT-VALUE}).")
  int fullCheckEvery;

  @Option(
      names = "--recompute-every",
      paramLabel = "U",
      defaultValue = "0",
      description =
          "Also recompute in "
              + "batch every U rank-one updates (0: never; default: ${DEFAULT-VALUE}).")
  int recomputeEvery;

  @Mixin ModelOutputOptions output;

  @Mixin SparkOptions sparkOptions;

  @Override
  public Integer call() throws Exception {
    SparkKpcaCli.require(
        spec, addLandmarks >= 1, "--add-landmarks must be >= 1, got " + addLandmarks);
    SparkKpcaCli.require(
        spec,
        tolerance > 0 && Double.isFinite(tolerance),
        "--orthogonality-tolerance must be finite and > 0, got " + tolerance);
    SparkKpcaCli.require(
        spec, fullCheckEvery >= 0, "--full-check-every must be >= 0, got " + fullCheckEvery);
    SparkKpcaCli.require(
        spec, recomputeEvery >= 0, "--recompute-every must be >= 0, got " + recomputeEvery);
    sparkOptions.validate(spec);
    PrintWriter out = spec.commandLine().getOut();
    try (ManagedSession spark = ManagedSession.open(sparkOptions.master);
        ConsoleProgress progress = sparkOptions.progress(spark, out)) {
      String modelDir = SavedModels.resolve(spark, "--model", model, out);
      SafeOutput summaryOutput = output.claim(spark, model, input, EARLIER_SUMMARY);
      AbstractKernelPCAModel<?> loaded = SavedModels.loadAny(out, modelDir);
      if (!(loaded instanceof NystromKernelPCAModel nystrom) || !loaded.isUpdatable()) {
        throw SparkKpcaCli.usage(
            spec,
            "--model "
                + model
                + " is not a Nystrom model that keeps its statistics ("
                + loaded.getClass().getSimpleName()
                + (loaded instanceof NystromKernelPCAModel topK
                        && "top-k".equals(topK.getStatisticsRouteTaken())
                    ? ", fitted by statisticsRoute = top-k, which keeps no statistics"
                    : "")
                + "); grow adds landmarks to Nystrom models saved by this version");
      }
      LoadedData data =
          SparkKpcaCli.loadAndCache(
              spark, input.forModel(nystrom.numFeatures(), nystrom.featureNames()), out);
      try {
        nystrom.setInputCol(data.featuresCol());
        SparkKpcaCli.progress(
            out,
            "adding %d landmarks to %d, one rank-one-updated eigendecomposition each...",
            addLandmarks,
            nystrom.numSupportPoints());
        long start = System.nanoTime();
        IncrementalNystrom.Growth growth =
            IncrementalNystrom.grow(
                nystrom,
                data.data(),
                addLandmarks,
                seed != null ? seed : nystrom.getSeed(),
                new IncrementalEigen.Monitoring(tolerance, fullCheckEvery, recomputeEvery));
        double seconds = (System.nanoTime() - start) / 1e9;
        FitSummary summary = FitSummary.of(growth.model(), seconds);
        summary.saveWithModel(growth.model(), output.modelOut, output.overwrite(), null, out);
        Map<String, Object> drift = driftJson(growth.drift());
        printDrift(out, growth.drift());
        if (summaryOutput != null) {
          Map<String, Object> json = summary.toJsonMap();
          json.put("incremental", drift);
          JsonSummaries.write(summaryOutput, json);
          SparkKpcaCli.progress(out, "wrote the summary to %s", summaryOutput.target());
        }
      } finally {
        data.unpersist();
      }
    }
    return 0;
  }

  static Map<String, Object> driftJson(IncrementalNystrom.Drift drift) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("initialLandmarks", drift.initialLandmarks());
    json.put("landmarks", drift.landmarks());
    json.put("eigenvalueDrift", drift.eigenvalueDrift());
    json.put("orthogonality", drift.orthogonality());
    json.put("inverseDrift", drift.inverseDrift());
    json.put("rankIncremental", drift.rankIncremental());
    json.put("rankBatch", drift.rankBatch());
    json.put("rankOneUpdates", drift.stats().rankOneUpdates());
    json.put("deflated", drift.stats().deflated());
    json.put("rotations", drift.stats().rotations());
    json.put("fullChecks", drift.stats().fullChecks());
    json.put("recomputations", drift.stats().recomputations());
    json.put("maxOrthogonalityError", drift.stats().maxOrthogonalityError());
    return json;
  }

  private static void printDrift(PrintWriter out, IncrementalNystrom.Drift drift) {
    out.printf(
        Locale.ROOT,
        "grown from m = %d to %d landmarks: eigenvalue drift %.3g (relative to lambda_max), "
            + "||V^T V - I||_F %.3g, pseudo-inverse drift %.3g, rank %d (batch %d)%n",
        drift.initialLandmarks(),
        drift.landmarks(),
        drift.eigenvalueDrift(),
        drift.orthogonality(),
        drift.inverseDrift(),
        drift.rankIncremental(),
        drift.rankBatch());
    out.printf(
        Locale.ROOT,
        "%d rank-one updates, %d components deflated, %d rotations, %d full checks, "
            + "%d recomputations%n",
        drift.stats().rankOneUpdates(),
        drift.stats().deflated(),
        drift.stats().rotations(),
        drift.stats().fullChecks(),
        drift.stats().recomputations());
    out.flush();
  }
}
