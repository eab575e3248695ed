package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.examples.data.LandmarkFile;
import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.linalg.Vector;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca fit}: loads the input, fits Nyström kernel PCA (or, with {@code --feature-map
 * rff}, kernel PCA on random Fourier features), saves the model and reports the spectrum (console
 * table, optional JSON).
 *
 * <p>Parameters are checked before Spark starts, so a typo fails in a second. The input is cached
 * and validated first, so {@code fitSeconds} measures the fit alone and the fit does not cache it
 * again.
 */
@Command(
    name = "fit",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Fit Nyström (or random Fourier feature) kernel PCA and save the model.")
public final class FitCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin InputOptions input;

  @Mixin EstimatorOptions estimatorOptions;

  @Mixin ModelOutputOptions output;

  @Mixin PlotOptions plotOptions;

  @Mixin SparkOptions sparkOptions;

  @Override
  public Integer call() throws Exception {
    EstimatorOptions options = estimatorOptions;
    Estimator<? extends AbstractKernelPCAModel<?>> estimator = options.configuredEstimator();
    plotOptions.validate(spec);
    sparkOptions.validate(spec);
    PrintWriter out = spec.commandLine().getOut();
    try (ManagedSession spark = ManagedSession.open(sparkOptions.master);
        ConsoleProgress progress = sparkOptions.progress(spark, out)) {
      // The outputs are checked before the first Spark job; see OutputTargets.
      OutputTargets targets =
          output.output.targetsReading(
              spark,
              input.reading(
                  OutputRules.named("--landmarks-from", options.landmarksFrom),
                  OutputRules.named(
                      "--landmarks-file",
                      options.landmarksFile == null ? null : options.landmarksFile.toString())));
      SafeOutput summaryOutput = output.claim(targets, FitSummary.EARLIER_SUMMARY);
      plotOptions.prepare(targets);
      if (options.landmarksFrom != null) {
        options.useLandmarksOf(spark, (NystromKernelPCA) estimator, out);
      }
      Vector[] fileLandmarks =
          options.landmarksFile == null ? null : LandmarkFile.read(options.landmarksFile);
      if (fileLandmarks != null) {
        SparkKpcaCli.require(
            spec,
            options.k <= fileLandmarks.length,
            "--k "
                + options.k
                + " exceeds the "
                + fileLandmarks.length
                + " landmarks of --landmarks-file "
                + options.landmarksFile
                + "; k must be <= m");
        ((NystromKernelPCA) estimator).setLandmarks(fileLandmarks);
        options.landmarks = fileLandmarks.length;
      }
      options.checkSupportMemory(spark);
      // Landmarks of a model with feature names: the files are read by those names.
      LoadedData data =
          SparkKpcaCli.loadAndCache(
              spark,
              input
                  .toSourceOptions()
                  .withFeatureNames(
                      options.landmarksFrom == null
                          ? null
                          : ((NystromKernelPCA) estimator).landmarkFeatureNames()),
              out);
      try {
        if (fileLandmarks != null) {
          LandmarkFile.requireDimension(
              options.landmarksFile, fileLandmarks, data.data(), data.featuresCol());
        }
        estimator.set(estimator.getParam("inputCol"), data.featuresCol());
        SparkKpcaCli.progress(
            out,
            "fitting %s kernel PCA (k = %d, %s)...",
            options.kernel(),
            options.k,
            options.isRandomFeatures()
                ? (options.featureScale != null
                    ? "D = ceil(" + options.featureScale + " sqrt(n) ln n)"
                    : "D = " + estimator.getOrDefault(estimator.getParam("numRandomFeatures")))
                : options.autoLandmarks
                    ? "m = auto, at most "
                        + estimator.getOrDefault(estimator.getParam("maxLandmarks"))
                    : "m = " + options.landmarks + ", " + options.landmarkSampling + " landmarks");
        long start = System.nanoTime();
        // The cached DataFrame itself (not a projection of it), so the estimator sees it is cached.
        AbstractKernelPCAModel<?> model;
        try {
          model = estimator.fit(data.data());
        } catch (RuntimeException e) {
          throw overflow(e, data);
        }
        double fitSeconds = (System.nanoTime() - start) / 1e9;
        SparkKpcaCli.progress(out, "landmarks: %s", model.landmarkSelection());
        FitSummary summary = FitSummary.of(model, fitSeconds);
        if (options.confidence != null) {
          summary = summary.withBound((NystromKernelPCAModel) model, options.confidence);
        }
        summary.saveWithModel(model, output.modelOut, output.overwrite(), summaryOutput, out);
        plotOptions.write(
            out,
            model,
            data,
            (Long) estimator.getOrDefault(estimator.getParam("seed")),
            String.format(
                java.util.Locale.ROOT,
                "%s kernel PCA, %s, of %s",
                options.kernel(),
                model.hasLandmarks()
                    ? "m = " + model.numSupportPoints()
                    : "D = " + model.rank() + " random features",
                data.description()));
      } finally {
        data.unpersist();
      }
    }
    return 0;
  }

  /**
   * A fit that failed on a non-finite number although every input value is finite: the kernel's
   * values overflowed double precision (e.g. the linear kernel on values near 1e153, whose squares
   * and their sums pass 1.8e308). Refused as bad input naming the largest value's row and column;
   * any other failure is returned as it is.
   */
  static RuntimeException overflow(RuntimeException e, LoadedData data) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ArithmeticException
          && String.valueOf(t.getMessage()).contains("finite")
          && SparkKpcaCli.rootIllegalArgument(e) == null) {
        return new IllegalArgumentException(
            "the kernel's values overflow double precision on this input (its largest value is "
                + data.largestValue()
                + "): scale the input, e.g. standardize its columns",
            e);
      }
    }
    return e;
  }
}
