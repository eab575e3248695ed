package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.examples.plots.RdePlots;
import io.github.sparkkpca.execution.FitMemory;
import io.github.sparkkpca.kernel.KernelBlockPath;
import io.github.sparkkpca.kernel.KernelFamilies;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.ml.AbstractKernelPCARegressor;
import io.github.sparkkpca.ml.KernelPCARegressionModel;
import io.github.sparkkpca.ml.KernelPCARegressor;
import io.github.sparkkpca.ml.RelevantDimensionEstimator;
import io.github.sparkkpca.persistence.SafeOutput;
import io.github.sparkkpca.regression.WidthDiagnostics;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.spark.ml.Predictor;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca rde}: Braun, Buhmann and Müller's relevant dimension estimate and the kernel
 * PCR model on the d components found ({@link RelevantDimensionEstimator}); with {@code --dimension
 * d} a kernel PCR with a fixed kernel and d (Hallgren's Nyström kernel PCR, {@link
 * KernelPCARegressor}).
 */
@Command(
    name = "rde",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Relevant dimension estimation (Braun, Buhmann and Mueller): how many kernel PCA components "
          + "carry the label, which kernel width, how noisy the labels are; fits the kernel PCA regression (kPCR) "
          + "on those components and saves it for 'predict'.",
      "With --dimension d: kernel PCR with a fixed kernel (--gamma, else the median heuristic) and d components "
          + "(Hallgren's Nystroem kernel PCR)."
    })
public final class RdeCommand implements Callable<Integer> {

  /** The keys of the --summary-out JSON document, in order. */
  static final List<String> JSON_KEYS =
      List.of(
          "dimension",
          "gamma",
          "estimatedErrorRate",
          "logLikelihood",
          "noiseVariance",
          "signalVariance",
          "dimensionCv",
          "gammaCv",
          "leaveOneOut",
          "trainingError",
          "widths",
          "n",
          "m",
          "kernel",
          "labelMode",
          "intercept",
          "fitSeconds");

  static final SafeOutput.Kind EARLIER_SUMMARY = JsonSummaries.earlier("rde", JSON_KEYS);

  @Spec CommandSpec spec;

  @Mixin InputOptions input;

  @Mixin KernelOptions kernel;

  @Option(
      names = "--gamma-grid",
      paramLabel = "G1,G2,...",
      split = ",",
      description =
          "The kernel scales gamma > 0 to choose from by the likelihood. Default: the paper's 20 widths w "
              + "log-spaced in [1e-2, 1e4], gamma = 1/w.")
  List<Double> gammaGrid;

  @Option(
      names = "--dimension",
      paramLabel = "D",
      description = "Fit the kPCR with D components instead of choosing D (no --gamma-grid).")
  Integer dimension;

  @Option(
      names = "--landmarks",
      paramLabel = "M",
      defaultValue = "auto",
      description =
          "m, landmarks sampled uniformly (<= n rows; m = n is the exact method), or auto: m = n (exact) "
              + "up to "
              + EXACT_ROWS
              + " rows when the driver's memory allows it, else max("
              + EXACT_ROWS
              + ", sqrt(n) ln n) within that memory; the printout says which. Default: ${DEFAULT-VALUE}.")
  String landmarksText;

  /** m when given as a number; null for auto (resolved once the rows are counted). */
  Integer landmarks;

  /**
   * {@code --landmarks auto} is exact (m = n) up to this many rows: each kernel width then costs
   * one m×m eigendecomposition, seconds at m = 2000.
   */
  static final int EXACT_ROWS = 2000;

  /** The m that {@code --landmarks auto} resolved to, and why. */
  record LandmarkChoice(int m, String reason) {}

  /**
   * The stored entries of the cached rows' vectors, in total and in the largest row (one pass over
   * the cache, O(1) per row): what the sparse kernel-block path's memory is counted by.
   */
  private static long[] storedEntries(LoadedData data) {
    return data.data()
        .select(data.featuresCol())
        .toJavaRDD()
        .map(
            row -> {
              long entries = ((org.apache.spark.ml.linalg.Vector) row.get(0)).numActives();
              return new long[] {entries, entries};
            })
        .fold(new long[] {0, 0}, (a, b) -> new long[] {a[0] + b[0], Math.max(a[1], b[1])});
  }

  /**
   * {@code --landmarks auto} for n rows, given the largest m the fit's memory check accepts ({@code
   * memoryLimit}, see FitMemory): exact (m = n) when n ≤ min({@link #EXACT_ROWS}, memoryLimit);
   * else min(n, max({@link #EXACT_ROWS}, ⌈√n ln n⌉)), lowered to the memory limit. √n ln n is the
   * number of uniformly sampled landmarks with which Nyström kernel PCA keeps the error rate of
   * exact kernel PCA when ℓ = n^{θ/α} components are sought with θ = 1/2 (Sterge, Sriperumbudur,
   * Rosasco and Rudi 2020, Corollaries 4.2 and 4.3: m ≳ n^θ log n for θ &lt; 1).
   */
  static LandmarkChoice autoLandmarks(long n, int memoryLimit) {
    int exactUpTo = Math.min(EXACT_ROWS, memoryLimit);
    if (n <= exactUpTo) {
      return new LandmarkChoice(
          (int) n,
          String.format(
              Locale.ROOT,
              "exact: m = n = %d, the paper's method (--landmarks auto: exact up to %d rows, and the "
                  + "driver's memory allows m <= %d)",
              n,
              EXACT_ROWS,
              memoryLimit));
    }
    long rate = (long) Math.ceil(Math.sqrt(n) * Math.log(n));
    long wanted = Math.min(n, Math.max(EXACT_ROWS, rate));
    if (wanted > memoryLimit) {
      return new LandmarkChoice(
          memoryLimit,
          String.format(
              Locale.ROOT,
              "m = %d, the most the driver's memory allows (--landmarks auto wanted %d: %s); raise "
                  + "spark.driver.memory for more",
              memoryLimit,
              wanted,
              n <= EXACT_ROWS
                  ? "m = n, exact"
                  : "max(" + EXACT_ROWS + ", sqrt(n) ln n = " + rate + ")"));
    }
    return new LandmarkChoice(
        (int) wanted,
        String.format(
            Locale.ROOT,
            "m = %d of n = %d rows, not exact (--landmarks auto: max(%d, sqrt(n) ln n = %d), the "
                + "landmarks with which uniform Nystrom sampling keeps exact kernel PCA's error rate, "
                + "Sterge et al. 2020); give --landmarks %d for the exact method",
            wanted,
            n,
            EXACT_ROWS,
            rate,
            n));
  }

  @Option(
      names = "--max-dimension",
      paramLabel = "K",
      defaultValue = "0",
      description =
          "Evaluate l(d) and the leave-one-out curve for d = 1..K only (0: every usable component). "
              + "Default: ${DEFAULT-VALUE}.")
  int maxDimension;

  @Option(
      names = "--label-mode",
      paramLabel = "MODE",
      defaultValue = "auto",
      description =
          "auto (binary when every label is -1 or +1, else real), real, binary, multiclass (one-vs-rest). "
              + "Default: ${DEFAULT-VALUE}.")
  String labelMode;

  @Option(
      names = "--intercept",
      description =
          "Centre the kernel PCA and fit the label mean as intercept "
              + "(Hallgren); default uncentred without intercept (Braun et al.).")
  boolean intercept;

  @Option(
      names = "--seed",
      paramLabel = "S",
      defaultValue = "1",
      description = "Seed of the landmark sample.")
  long seed;

  @Option(
      names = "--model-out",
      required = true,
      paramLabel = "DIR",
      description = "Where to save the model.")
  String modelOut;

  @Option(
      names = "--summary-out",
      paramLabel = "FILE.json",
      description =
          "Also write the results as JSON: "
              + "dimension, gamma, estimatedErrorRate, logLikelihood (l(d) at the width chosen), noiseVariance, ...")
  Path summaryOut;

  @Option(
      names = "--plots",
      paramLabel = "DIR",
      description =
          "Write the charts of Braun et al.'s Figure 2 per "
              + "width (spectrum of contributions with eigenvalues and errors; l(d) with its minimum) and widths.png.")
  Path plots;

  @Mixin OverwriteOption output;

  @Mixin SparkOptions sparkOptions;

  @Override
  public Integer call() throws Exception {
    Predictor<?, ?, KernelPCARegressionModel> estimator = configuredEstimator();
    sparkOptions.validate(spec);
    PrintWriter out = spec.commandLine().getOut();
    try (ManagedSession spark = ManagedSession.open(sparkOptions.master);
        ConsoleProgress progress = sparkOptions.progress(spark, out)) {
      OutputTargets targets = output.targetsReading(spark, input.reading());
      targets.add("--model-out", modelOut, SafeOutput.SAVED_STAGE);
      SafeOutput summaryOutput =
          summaryOut == null
              ? null
              : targets.addLocal("--summary-out", summaryOut, EARLIER_SUMMARY);
      SafeOutput plotOutput =
          plots == null ? null : targets.addLocal("--plots", plots, SafeOutput.MARKED_DIRECTORY);
      LoadedData data = SparkKpcaCli.loadAndCache(spark, input.toSourceOptions(), out);
      try {
        String label = data.labelCol();
        if (label == null) {
          throw SparkKpcaCli.usage(spec, "--label-col is required: rde needs labels");
        }
        estimator.setFeaturesCol(data.featuresCol()).setLabelCol(label);
        int m;
        if (landmarks != null) {
          m = landmarks;
        } else {
          int d =
              ((org.apache.spark.ml.linalg.Vector)
                      data.data().select(data.featuresCol()).first().get(0))
                  .size();
          AbstractKernelPCARegressor<?> regressor = (AbstractKernelPCARegressor<?>) estimator;
          // Sparse rows with a kernel that has a sparse form take the sparse kernel-block path:
          // landmarks and block rows then cost their stored entries, not d (FitMemory).
          long[] entries = storedEntries(data);
          boolean sparse =
              KernelFamilies.parse(regressor.getKernel()).hasSparseForm()
                  && entries[0] <= KernelBlockPath.MAX_SPARSE_DENSITY * data.rows() * (double) d;
          int width = sparse ? RowBlock.width(d, true, entries[1]) : d;
          int memoryLimit =
              FitMemory.largestLandmarksRowBytes(
                  spark.session().sparkContext(),
                  sparse ? Math.min(8L * d, FitMemory.sparseRowBytes(entries[1])) : 8L * d,
                  size -> regressor.effectiveBlockSize(size, width, size),
                  dimension != null ? 1 : gammas().length,
                  EXACT_ROWS * 64);
          LandmarkChoice choice = autoLandmarks(data.rows(), Math.max(1, memoryLimit));
          m = choice.m();
          regressor.setNumLandmarks(m);
          SparkKpcaCli.progress(out, "landmarks: %s", choice.reason());
        }
        SparkKpcaCli.progress(
            out,
            dimension != null
                ? "fitting kernel PCR with d = %d components (%s kernel, m = %d)..."
                : "estimating the relevant dimension over %d kernel width(s) (%s kernel, m = %d)...",
            dimension != null ? dimension : gammas().length,
            kernel.name,
            m);
        long start = System.nanoTime();
        // A CSV label that is not a number is refused with its file and line.
        Dataset<Row> labelled = data.withNumericLabel();
        KernelPCARegressionModel model = estimator.fit(labelled);
        double seconds = (System.nanoTime() - start) / 1e9;
        SparkKpcaCli.progress(out, "writing the model to %s...", modelOut);
        ModelOutputOptions.save(model, modelOut, output.overwrite);
        Map<String, Object> json = summary(model, seconds);
        if (summaryOutput != null) {
          JsonSummaries.write(summaryOutput, json);
          SparkKpcaCli.progress(out, "wrote the summary to %s", summaryOutput.target());
        }
        print(out, model);
        if (plotOutput != null) {
          List<Path> files = new ArrayList<>();
          plotOutput.write(
              staging ->
                  files.addAll(
                      RdePlots.writeAll(OutputTargets.local(staging), model, data.description())));
          SparkKpcaCli.progress(out, "wrote %d charts to %s", files.size(), plots);
        }
      } finally {
        data.unpersist();
      }
    }
    return 0;
  }

  private double[] gammas() {
    if (gammaGrid != null) {
      return gammaGrid.stream().mapToDouble(Double::doubleValue).toArray();
    }
    return kernel.gamma != null
        ? new double[] {kernel.gamma}
        : io.github.sparkkpca.ml.KernelPCARegressionParams.paperGammaGrid();
  }

  /** The estimator the options ask for; usage errors before Spark starts. */
  Predictor<?, ?, KernelPCARegressionModel> configuredEstimator() {
    KernelType type = kernel.type(spec);
    if (landmarksText.trim().equalsIgnoreCase("auto")) {
      landmarks = null;
    } else {
      try {
        landmarks = Integer.parseInt(landmarksText.trim());
      } catch (NumberFormatException e) {
        throw SparkKpcaCli.usage(
            spec, "--landmarks must be a number of landmarks or auto, got '" + landmarksText + "'");
      }
      SparkKpcaCli.require(spec, landmarks >= 1, "--landmarks must be >= 1, got " + landmarks);
      EstimatorOptions.requireArrayLimit(spec, "--landmarks", landmarks);
    }
    // auto: set once the rows are counted; the estimators need a value meanwhile.
    int initialLandmarks = landmarks == null ? 1 : landmarks;
    SparkKpcaCli.require(
        spec, maxDimension >= 0, "--max-dimension must be >= 0, got " + maxDimension);
    SparkKpcaCli.require(
        spec,
        gammaGrid == null
            || gammaGrid.stream().allMatch(g -> g != null && g > 0 && Double.isFinite(g)),
        "--gamma-grid values must be finite and > 0, got " + gammaGrid);
    SparkKpcaCli.require(
        spec, gammaGrid == null || kernel.gamma == null, "give --gamma or --gamma-grid, not both");
    SparkKpcaCli.require(
        spec,
        List.of("auto", "real", "binary", "multiclass").contains(labelMode),
        "--label-mode must be auto, real, binary or multiclass, got '" + labelMode + "'");
    kernel.validate(spec);
    if (dimension != null) {
      SparkKpcaCli.require(spec, dimension >= 1, "--dimension must be >= 1, got " + dimension);
      SparkKpcaCli.require(
          spec,
          gammaGrid == null,
          "--gamma-grid chooses the dimension; with --dimension give " + "--gamma");
      KernelPCARegressor regressor =
          new KernelPCARegressor()
              .setKernel(type.paramName())
              .setDimension(dimension)
              .setNumLandmarks(initialLandmarks)
              .setMaxDimension(maxDimension)
              .setLabelMode(labelMode)
              .setFitIntercept(intercept)
              .setDegree(kernel.degreeOrDefault())
              .setCoef0(kernel.coef0OrDefault())
              .setSeed(seed);
      if (kernel.gamma != null) {
        regressor.setGamma(kernel.gamma);
      }
      return regressor;
    }
    SparkKpcaCli.require(
        spec,
        type.usesGamma(),
        "--kernel " + kernel.name + " has no width to choose; give --dimension");
    return new RelevantDimensionEstimator()
        .setKernel(type.paramName())
        .setGammaGrid(gammas())
        .setNumLandmarks(initialLandmarks)
        .setMaxDimension(maxDimension)
        .setLabelMode(labelMode)
        .setFitIntercept(intercept)
        .setDegree(kernel.degreeOrDefault())
        .setCoef0(kernel.coef0OrDefault())
        .setSeed(seed);
  }

  /** The JSON document, keys as {@link #JSON_KEYS}. */
  static Map<String, Object> summary(KernelPCARegressionModel model, double seconds) {
    Map<String, Object> json = new LinkedHashMap<>();
    boolean classification = model.labelCoding().isClassification();
    json.put("dimension", model.getDimension());
    json.put(
        "gamma", model.fittedKernel().type().usesGamma() ? model.fittedKernel().gamma() : null);
    json.put("estimatedErrorRate", classification ? model.trainingError() : null);
    json.put("logLikelihood", model.logLikelihood());
    json.put("noiseVariance", mean(model.noiseVariance()));
    json.put("signalVariance", mean(model.signalVariance()));
    json.put("dimensionCv", model.dimensionCv());
    json.put("gammaCv", model.fittedKernel().type().usesGamma() ? model.gammaCv() : null);
    json.put("leaveOneOut", model.chosen().leaveOneOut());
    json.put("trainingError", model.trainingError());
    List<Map<String, Object>> widths = new ArrayList<>();
    for (WidthDiagnostics w : model.widths()) {
      Map<String, Object> x = new LinkedHashMap<>();
      x.put("gamma", w.gamma());
      x.put("dimension", w.dimension());
      x.put("minLogLikelihood", w.minimumLogLikelihood());
      x.put("dimensionCv", w.dimensionCv());
      x.put("minLeaveOneOut", w.leaveOneOut()[w.dimensionCv() - 1]);
      widths.add(x);
    }
    json.put("widths", widths);
    json.put("n", model.numTrainingRows());
    json.put("m", model.numSupportPoints());
    json.put("kernel", model.fittedKernel().type().paramName());
    json.put("labelMode", model.labelCoding().mode());
    json.put("intercept", model.getFitIntercept());
    json.put("fitSeconds", seconds);
    return json;
  }

  private static double mean(double[] values) {
    double s = 0;
    for (double v : values) {
      s += v;
    }
    return s / values.length;
  }

  private static void print(PrintWriter out, KernelPCARegressionModel model) {
    out.printf(Locale.ROOT, "%12s %6s %16s %10s%n", "gamma", "dim", "min l(d)", "dim (cv)");
    for (int w = 0; w < model.widths().size(); w++) {
      WidthDiagnostics x = model.widths().get(w);
      out.printf(
          Locale.ROOT,
          "%12.5g %6d %16.8g %10d%s%n",
          x.gamma(),
          x.dimension(),
          x.minimumLogLikelihood(),
          x.dimensionCv(),
          w == model.chosenWidth() ? "  <- chosen" : "");
    }
    out.printf(
        Locale.ROOT,
        "dimension = %d, gamma = %.6g, %s = %.6g, noise variance = %.6g, dim (cv) = %d "
            + "(gamma %.6g)%n",
        model.getDimension(),
        model.fittedKernel().gamma(),
        model.labelCoding().isClassification()
            ? "estimated error rate"
            : "training mean squared residual",
        model.trainingError(),
        mean(model.noiseVariance()),
        model.dimensionCv(),
        model.gammaCv());
    out.flush();
  }
}
