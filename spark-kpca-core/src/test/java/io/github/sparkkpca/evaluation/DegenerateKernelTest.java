package io.github.sparkkpca.evaluation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.tuning.CrossValidator;
import org.apache.spark.ml.tuning.ParamGridBuilder;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A γ far from the data's scale: the fit, the model summary and the evaluator say so in one WARN
 * line each, naming γ and the median heuristic's value; a well-scaled γ says nothing.
 */
class DegenerateKernelTest {

  private static final int M = 20;
  private static double[][] rows;
  private static Dataset<Row> df;

  /** The median heuristic for the fit's sample (the fitted γ of a fit with γ unset). */
  private static double heuristic;

  @BeforeAll
  static void data() {
    rows = LocalSpark.clusters(200, 10, 7);
    df = LocalSpark.frame(rows, 2);
    heuristic = estimator().fit(df).getGamma();
  }

  private static NystromKernelPCA estimator() {
    return new NystromKernelPCA().setK(2).setNumLandmarks(M).setSeed(3);
  }

  /** The median heuristic recomputed on all rows: the fit's value is of the same order. */
  @Test
  void theHeuristicIsTheDataScale() {
    double[] flat = new double[rows.length * rows[0].length];
    for (int i = 0; i < rows.length; i++) {
      System.arraycopy(rows[i], 0, flat, i * rows[0].length, rows[0].length);
    }
    double all = Kernel.medianHeuristicGamma(KernelType.RBF, flat, rows.length, rows[0].length);
    assertTrue(heuristic > all / 3 && heuristic < all * 3, heuristic + " vs " + all);
  }

  @Test
  void gammaFarAboveTheScaleWarnsOnceWithTheHeuristic() {
    double gamma = 1e3 * heuristic;
    List<String> warnings = new CopyOnWriteArrayList<>();
    NystromKernelPCAModel model =
        withWarnings(NystromKernelPCA.class, warnings, () -> estimator().setGamma(gamma).fit(df));
    List<String> ours = warnings.stream().filter(w -> w.contains("numerically")).toList();
    assertEquals(1, ours.size(), warnings.toString());
    String line = ours.get(0);
    assertTrue(line.contains(String.format(Locale.ROOT, "gamma = %.4g", gamma)), line);
    assertTrue(line.contains(String.format(Locale.ROOT, "gamma = %.4g", heuristic)), line);
    assertTrue(line.contains("the identity on the m = 20 landmarks"), line);
    assertTrue(line.contains("leave gamma unset"), line);
    ModelSummary summary = ModelSummary.of(model);
    assertEquals("identity", summary.kernelDegenerate());
    assertTrue(line.endsWith(summary.kernelWarning()), summary.kernelWarning());
    // What the warning promises: the eigenvalues are equal, about 1/n each (a landmark row is its
    // own component; uncentred spectrum of a near-identity K_mm).
    double[] ev = model.explainedVariance().toArray();
    assertEquals(1.0 / rows.length, ev[0], 0.05 / rows.length);
    assertEquals(1.0 / rows.length, ev[1], 0.05 / rows.length);
  }

  @Test
  void gammaFarBelowTheScaleIsConstant() {
    List<String> warnings = new CopyOnWriteArrayList<>();
    NystromKernelPCAModel model =
        withWarnings(
            NystromKernelPCA.class, warnings, () -> estimator().setGamma(1e-8 * heuristic).fit(df));
    assertEquals("constant", ModelSummary.of(model).kernelDegenerate(), warnings.toString());
    assertEquals(
        1,
        warnings.stream().filter(w -> w.contains("numerically constant")).count(),
        "" + warnings);
  }

  @Test
  void wellScaledGammaSaysNothing() {
    List<String> warnings = new CopyOnWriteArrayList<>();
    for (double scale : new double[] {0.1, 1, 10}) {
      NystromKernelPCAModel model =
          withWarnings(
              NystromKernelPCA.class,
              warnings,
              () -> estimator().setGamma(scale * heuristic).fit(df));
      assertEquals("none", model.getKernelDegenerate());
      assertEquals("none", ModelSummary.of(model).kernelDegenerate());
      assertNull(ModelSummary.of(model).kernelWarning());
    }
    assertTrue(warnings.stream().noneMatch(w -> w.contains("numerically")), warnings.toString());
  }

  /**
   * A CrossValidator over a grid of degenerate γ: its metrics differ by noise only, and the
   * evaluator logs each model's warning once and that every candidate was degenerate.
   */
  @Test
  void crossValidatorOverDegenerateGammasIsVisible() {
    NystromKernelPCA kpca = estimator().setResidualCol("residual");
    ParamMap[] grid =
        new ParamGridBuilder()
            .addGrid(kpca.gamma(), new double[] {1e4 * heuristic, 1e5 * heuristic})
            .build();
    ReconstructionErrorEvaluator evaluator = new ReconstructionErrorEvaluator();
    List<String> warnings = new CopyOnWriteArrayList<>();
    double[] metrics =
        withWarnings(
            ReconstructionErrorEvaluator.class,
            warnings,
            () ->
                new CrossValidator()
                    .setEstimator(kpca)
                    .setEstimatorParamMaps(grid)
                    .setEvaluator(evaluator)
                    .setNumFolds(2)
                    .setSeed(1)
                    .fit(df)
                    .avgMetrics());
    // The metrics differ by noise only (5e-5 relative here): nothing the data say.
    assertEquals(metrics[0], metrics[1], 1e-3 * Math.abs(metrics[0]));
    assertEquals(
        2, warnings.stream().filter(w -> w.contains("evaluating a model")).count(), "" + warnings);
    assertEquals(
        1, warnings.stream().filter(w -> w.contains("differ by noise")).count(), "" + warnings);
  }

  /**
   * The other fits test their kernel too: random features on a sample of the rows (also with γ set,
   * when no sample was drawn for the median heuristic), the regressor per kernel scale on its
   * landmarks, exact kernel PCA on its n×n K. One WARN line each for a γ 10⁵× the scale, naming γ
   * and the median heuristic; none at the scale.
   */
  @Test
  void everyFitWarnsOfADegenerateKernel() {
    double far = 1e5 * heuristic;
    Dataset<Row> labelled = df.withColumn("label", df.col("id").cast("double"));
    java.util.Map<String, java.util.function.DoubleFunction<Object>> fits =
        new java.util.LinkedHashMap<>();
    fits.put(
        io.github.sparkkpca.ml.RandomFeatureKernelPCA.class.getName(),
        g ->
            new io.github.sparkkpca.ml.RandomFeatureKernelPCA()
                .setK(2)
                .setNumRandomFeatures(40)
                .setSeed(3)
                .setGamma(g)
                .fit(df));
    fits.put(
        "io.github.sparkkpca.ml.RegressionFit",
        g ->
            new io.github.sparkkpca.ml.KernelPCARegressor()
                .setNumLandmarks(M)
                .setDimension(2)
                .setSeed(3)
                .setGamma(g)
                .fit(labelled));
    fits.put(
        io.github.sparkkpca.ml.KernelPCA.class.getName(),
        g -> new io.github.sparkkpca.ml.KernelPCA().setK(2).setGamma(g).fit(df));
    fits.forEach(
        (logger, fit) -> {
          List<String> degenerate = new CopyOnWriteArrayList<>();
          withWarnings(logger, degenerate, () -> fit.apply(far));
          List<String> ours = degenerate.stream().filter(w -> w.contains("numerically")).toList();
          assertEquals(1, ours.size(), logger + ": " + degenerate);
          String line = ours.get(0);
          assertTrue(line.contains(String.format(Locale.ROOT, "gamma = %.4g", far)), line);
          assertTrue(line.contains("the median heuristic gives gamma"), line);
          assertTrue(line.contains("leave gamma unset"), line);
          List<String> scaled = new CopyOnWriteArrayList<>();
          withWarnings(logger, scaled, () -> fit.apply(heuristic));
          assertTrue(scaled.stream().noneMatch(w -> w.contains("numerically")), "" + scaled);
        });
  }

  /**
   * Rows most of which coincide have no median heuristic: a degenerate kernel on them is still one
   * WARN line, without the heuristic's value, and the fit goes on.
   */
  @Test
  void exactFitOnCoincidingRowsWarnsWithoutAHeuristic() {
    double[][] same = new double[20][];
    for (int i = 0; i < same.length; i++) {
      same[i] = i < 16 ? new double[] {1, 2, 3} : new double[] {1 + i, 2, 3 - i};
    }
    List<String> warnings = new CopyOnWriteArrayList<>();
    io.github.sparkkpca.ml.KernelPCAModel model =
        withWarnings(
            io.github.sparkkpca.ml.KernelPCA.class,
            warnings,
            () ->
                new io.github.sparkkpca.ml.KernelPCA()
                    .setK(1)
                    .setGamma(1e-12)
                    .fit(LocalSpark.frame(same, 1)));
    List<String> ours = warnings.stream().filter(w -> w.contains("numerically constant")).toList();
    assertEquals(1, ours.size(), warnings.toString());
    assertTrue(!ours.get(0).contains("median heuristic gives"), ours.get(0));
    assertEquals(1, model.numComponents());
  }

  private static final java.util.concurrent.atomic.AtomicInteger CAPTURES =
      new java.util.concurrent.atomic.AtomicInteger();

  /** Runs {@code body} collecting the WARN lines of {@code source}'s logger. */
  static <T> T withWarnings(Class<?> source, List<String> warnings, Supplier<T> body) {
    return withWarnings(source.getName(), warnings, body);
  }

  /** Runs {@code body} collecting the WARN lines of the logger named {@code source}. */
  static <T> T withWarnings(String source, List<String> warnings, Supplier<T> body) {
    org.apache.logging.log4j.core.appender.AbstractAppender capture =
        new org.apache.logging.log4j.core.appender.AbstractAppender(
            "capture-degenerate-" + CAPTURES.incrementAndGet(),
            null,
            null,
            true,
            org.apache.logging.log4j.core.config.Property.EMPTY_ARRAY) {
          @Override
          public void append(org.apache.logging.log4j.core.LogEvent event) {
            if (event.getLevel() == org.apache.logging.log4j.Level.WARN) {
              warnings.add(event.getMessage().getFormattedMessage());
            }
          }
        };
    capture.start();
    org.apache.logging.log4j.core.Logger logger =
        (org.apache.logging.log4j.core.Logger)
            org.apache.logging.log4j.LogManager.getLogger(source);
    logger.addAppender(capture);
    try {
      return body.get();
    } finally {
      logger.removeAppender(capture);
      capture.stop();
    }
  }
}
