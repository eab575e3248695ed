package io.github.sparkkpca.evaluation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.tuning.CrossValidator;
import org.apache.spark.ml.tuning.CrossValidatorModel;
import org.apache.spark.ml.tuning.ParamGridBuilder;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The held-out reconstruction error and its use by CrossValidator without labels. */
class ReconstructionErrorEvaluatorTest {

  @TempDir Path dir;

  private static double meanResidual(Dataset<Row> transformed) {
    List<Row> rows = transformed.select("residual").collectAsList();
    double sum = 0;
    for (Row r : rows) {
      sum += r.getDouble(0);
    }
    return sum / rows.size();
  }

  /**
   * CrossValidator (fixed folds through foldCol) over γ: every average metric equals the mean
   * residual of the fold's validation rows under the model fitted on the other folds, recomputed
   * here by hand, and the best model is the one with the smallest.
   */
  @Test
  void crossValidatorPicksTheSmallestHeldOutError() {
    Dataset<Row> df =
        LocalSpark.frame(LocalSpark.clusters(60, 3, 5), 2)
            .withColumn("fold", functions.expr("cast(id % 3 as int)"));
    NystromKernelPCA kpca =
        new NystromKernelPCA().setK(2).setNumLandmarks(15).setSeed(7).setResidualCol("residual");
    Pipeline pipeline = new Pipeline().setStages(new PipelineStage[] {kpca});
    double[] gammas = {2.0, 0.05};
    ParamMap[] grid = new ParamGridBuilder().addGrid(kpca.gamma(), gammas).build();
    ReconstructionErrorEvaluator evaluator = new ReconstructionErrorEvaluator();
    CrossValidatorModel cv =
        new CrossValidator()
            .setEstimator(pipeline)
            .setEstimatorParamMaps(grid)
            .setEvaluator(evaluator)
            .setFoldCol("fold")
            .setNumFolds(3)
            .fit(df);

    double[] direct = new double[grid.length];
    for (int g = 0; g < grid.length; g++) {
      double sum = 0;
      for (int f = 0; f < 3; f++) {
        Dataset<Row> train = df.filter("fold != " + f);
        Dataset<Row> validation = df.filter("fold = " + f);
        PipelineModel model = pipeline.fit(train, grid[g]);
        double mean = meanResidual(model.transform(validation));
        assertEquals(
            mean,
            evaluator.evaluate(model.transform(validation)),
            1e-12,
            "evaluate = mean residual");
        sum += mean;
      }
      direct[g] = sum / 3;
      assertEquals(direct[g], cv.avgMetrics()[g], 1e-10, "CV metric for γ = " + gammas[g]);
    }
    assertTrue(
        Math.abs(direct[0] - direct[1]) > 1e-3,
        "the candidates differ: " + direct[0] + " vs " + direct[1]);
    int best = direct[0] < direct[1] ? 0 : 1;
    NystromKernelPCAModel chosen =
        (NystromKernelPCAModel) ((PipelineModel) cv.bestModel()).stages()[0];
    assertEquals(gammas[best], chosen.getGamma(), 0.0);
  }

  /**
   * On the training rows of an exact uncentred model (m = n) the evaluator is R(k), the model's own
   * error.
   */
  @Test
  void onTrainingRowsEqualsTheModelsReconstructionError() {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(40, 3, 9), 2);
    NystromKernelPCAModel model =
        new NystromKernelPCA()
            .setK(3)
            .setNumLandmarks(40)
            .setGamma(0.4)
            .setCentered(false)
            .setResidualCol("residual")
            .fit(df);
    double[] error = model.reconstructionError().toArray();
    double value = new ReconstructionErrorEvaluator().evaluate(model.transform(df));
    assertEquals(error[2], value, 1e-8);
    assertTrue(value > 1e-3, "a non-trivial error: " + value);
  }

  /** Five Gaussian blobs at 2·e_i in R^5 (σ = 0.4), row i in blob i % 5: a clear optimum of γ. */
  static double[][] blobs(int n, long seed) {
    java.util.Random random = new java.util.Random(seed);
    double[][] x = new double[n][5];
    for (int i = 0; i < n; i++) {
      for (int t = 0; t < 5; t++) {
        x[i][t] = (t == i % 5 ? 2.0 : 0.0) + 0.4 * random.nextGaussian();
      }
    }
    return x;
  }

  private static double[][] rbf(double[][] a, double[][] b, double gamma) {
    double[][] k = new double[a.length][b.length];
    for (int i = 0; i < a.length; i++) {
      for (int j = 0; j < b.length; j++) {
        double s = 0;
        for (int t = 0; t < a[i].length; t++) {
          double d = a[i][t] - b[j][t];
          s += d * d;
        }
        k[i][j] = Math.exp(-gamma * s);
      }
    }
    return k;
  }

  /**
   * The input-space error of exact centred kernel PCA fitted on {@code train} for the rows of
   * {@code test}, computed densely: the centred Gram matrix's leading k eigenvectors
   * (commons-math), the scores of both sets, the kernel ridge map (Gaussian kernel on scores, γ by
   * the median heuristic of the training scores, ridge α) fitted on the training rows only, and the
   * mean of ‖x − x̂‖² over the test rows.
   */
  static double denseInputSpaceError(
      double[][] train, double[][] test, double gamma, int k, double alpha) {
    int n = train.length;
    double[][] kk = rbf(train, train, gamma);
    double[] colMean = new double[n];
    double all = 0;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        colMean[j] += kk[i][j] / n;
        all += kk[i][j] / ((double) n * n);
      }
    }
    double[][] kc = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        kc[i][j] = kk[i][j] - colMean[i] - colMean[j] + all;
      }
    }
    org.apache.commons.math3.linear.EigenDecomposition eigen =
        new org.apache.commons.math3.linear.EigenDecomposition(
            new org.apache.commons.math3.linear.Array2DRowRealMatrix(kc));
    double[] values = eigen.getRealEigenvalues();
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(order, (a, b) -> Double.compare(values[b], values[a]));
    double[][] coef = new double[n][k];
    for (int c = 0; c < k; c++) {
      double[] v = eigen.getEigenvector(order[c]).toArray();
      for (int i = 0; i < n; i++) {
        coef[i][c] = v[i] / Math.sqrt(values[order[c]]);
      }
    }
    double[][] kt = rbf(test, train, gamma);
    double[][] trainScores = new double[n][k];
    double[][] testScores = new double[test.length][k];
    for (int i = 0; i < n; i++) {
      for (int c = 0; c < k; c++) {
        for (int j = 0; j < n; j++) {
          trainScores[i][c] += kc[i][j] * coef[j][c];
        }
      }
    }
    for (int i = 0; i < test.length; i++) {
      double rowMean = 0;
      for (int j = 0; j < n; j++) {
        rowMean += kt[i][j] / n;
      }
      for (int c = 0; c < k; c++) {
        for (int j = 0; j < n; j++) {
          testScores[i][c] += (kt[i][j] - rowMean - colMean[j] + all) * coef[j][c];
        }
      }
    }
    List<Double> distances = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        double s = 0;
        for (int c = 0; c < k; c++) {
          double d = trainScores[i][c] - trainScores[j][c];
          s += d * d;
        }
        distances.add(s);
      }
    }
    java.util.Collections.sort(distances);
    int p = distances.size();
    double median =
        p % 2 == 1 ? distances.get(p / 2) : 0.5 * (distances.get(p / 2 - 1) + distances.get(p / 2));
    double scoreGamma = 1.0 / (2.0 * median);
    double[][] system = rbf(trainScores, trainScores, scoreGamma);
    for (int i = 0; i < n; i++) {
      system[i][i] += alpha;
    }
    org.apache.commons.math3.linear.RealMatrix dual =
        new org.apache.commons.math3.linear.LUDecomposition(
                new org.apache.commons.math3.linear.Array2DRowRealMatrix(system))
            .getSolver()
            .solve(new org.apache.commons.math3.linear.Array2DRowRealMatrix(train));
    double[][] reconstructed =
        new org.apache.commons.math3.linear.Array2DRowRealMatrix(
                rbf(testScores, trainScores, scoreGamma))
            .multiply(dual)
            .getData();
    double sum = 0;
    for (int i = 0; i < test.length; i++) {
      for (int t = 0; t < test[i].length; t++) {
        double d = test[i][t] - reconstructed[i][t];
        sum += d * d;
      }
    }
    return sum / test.length;
  }

  /**
   * γ tuned without labels: CrossValidator over γ with the input-space error (ridge pre-images, m =
   * n exact kernel PCA) picks an interior γ of the grid, and every fold's metric equals an
   * independent dense computation of the same error, whose map back to the inputs is fitted on the
   * fold's training rows only. The feature-space residual, on the same grid, picks the smallest γ.
   */
  @Test
  void inputSpaceErrorPicksAnInteriorGamma() {
    double[][] x = blobs(180, 5);
    Dataset<Row> df =
        LocalSpark.frame(x, 2).withColumn("fold", functions.expr("cast(id % 3 as int)"));
    NystromKernelPCA kpca =
        new NystromKernelPCA()
            .setK(2)
            .setNumLandmarks(120)
            .setSeed(3)
            .setResidualCol("residual")
            .setPreimageErrorCol("preimageError")
            .setPreimageMethod("ridge");
    double[] gammas = {0.003, 0.03, 0.3, 3.0};
    ParamMap[] grid = new ParamGridBuilder().addGrid(kpca.gamma(), gammas).build();
    ReconstructionErrorEvaluator evaluator =
        new ReconstructionErrorEvaluator().setMetricName("inputSpaceError");
    CrossValidator cv =
        new CrossValidator()
            .setEstimator(kpca)
            .setEstimatorParamMaps(grid)
            .setEvaluator(evaluator)
            .setFoldCol("fold")
            .setNumFolds(3);
    CrossValidatorModel fitted = cv.fit(df);
    double[] dense = new double[gammas.length];
    for (int g = 0; g < gammas.length; g++) {
      for (int f = 0; f < 3; f++) {
        List<double[]> train = new java.util.ArrayList<>();
        List<double[]> test = new java.util.ArrayList<>();
        for (int i = 0; i < x.length; i++) {
          (i % 3 == f ? test : train).add(x[i]);
        }
        dense[g] +=
            denseInputSpaceError(
                    train.toArray(new double[0][]),
                    test.toArray(new double[0][]),
                    gammas[g],
                    2,
                    0.01)
                / 3;
      }
      assertEquals(dense[g], fitted.avgMetrics()[g], 1e-6 * dense[g], "γ = " + gammas[g]);
    }
    int best = 0;
    for (int g = 1; g < gammas.length; g++) {
      if (dense[g] < dense[best]) {
        best = g;
      }
    }
    assertTrue(best > 0 && best < gammas.length - 1, "interior optimum: " + Arrays.toString(dense));
    assertTrue(
        dense[best] < 0.9 * Math.min(dense[0], dense[gammas.length - 1]),
        "a clear optimum: " + Arrays.toString(dense));
    assertEquals(gammas[best], ((NystromKernelPCAModel) fitted.bestModel()).getGamma(), 0.0);

    // The relative error divides by the validation rows' total variance: the same choice.
    CrossValidatorModel relative =
        cv.setEvaluator(new ReconstructionErrorEvaluator().setMetricName("relativeInputSpaceError"))
            .fit(df);
    assertEquals(gammas[best], ((NystromKernelPCAModel) relative.bestModel()).getGamma(), 0.0);
    // The feature-space residual falls as γ falls: it picks the smallest γ, so it cannot tune γ,
    // and says so once.
    List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
    CrossValidatorModel residual =
        withWarnings(warnings, () -> cv.setEvaluator(new ReconstructionErrorEvaluator()).fit(df));
    assertEquals(gammas[0], ((NystromKernelPCAModel) residual.bestModel()).getGamma(), 0.0);
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(
        warnings.get(0).contains("favours the smallest gamma")
            && warnings.get(0).contains("metricName=\"inputSpaceError\"")
            && warnings.get(0).contains("rbf gamma=0.003"),
        warnings.get(0));
  }

  /** Runs {@code body} collecting the evaluator's WARN lines. */
  private static <T> T withWarnings(List<String> warnings, java.util.function.Supplier<T> body) {
    org.apache.logging.log4j.core.appender.AbstractAppender capture =
        new org.apache.logging.log4j.core.appender.AbstractAppender(
            "capture-evaluator",
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
            org.apache.logging.log4j.LogManager.getLogger(ReconstructionErrorEvaluator.class);
    logger.addAppender(capture);
    try {
      return body.get();
    } finally {
      logger.removeAppender(capture);
      capture.stop();
    }
  }

  /** Residuals of one kernel (k or the landmarks tuned) give no warning. */
  @Test
  void residualsOfOneKernelAreNotFlagged() {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(40, 3, 4), 2);
    ReconstructionErrorEvaluator evaluator = new ReconstructionErrorEvaluator();
    List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
    withWarnings(
        warnings,
        () -> {
          for (int k : new int[] {1, 2}) {
            evaluator.evaluate(
                new NystromKernelPCA()
                    .setK(k)
                    .setNumLandmarks(10)
                    .setGamma(0.5)
                    .setResidualCol("residual")
                    .fit(df)
                    .transform(df));
          }
          return null;
        });
    assertTrue(warnings.isEmpty(), warnings.toString());
  }

  /**
   * The pre-image error column equals ‖x − x̂‖² computed from the model's dense pre-images, per
   * row, for both methods, on dense rows (the dense kernel-block path) and on sparse rows (the
   * sparse path), with the rows offset from the origin: every coordinate of the dense rows, and on
   * the sparse rows a column holding the offset in three rows of four (which the sparse centre
   * cannot remove). The allowance is the rounding of the dense pre-image's own distance, about
   * ε·offset per coordinate of x − x̂, plus 1e-9 relative; the error expanded around the origin
   * erred by 3e-4 at 1e6, 0.02 at 1e7 and 72 at 1e8.
   */
  @ParameterizedTest
  @ValueSource(doubles = {0, 1e4, 1e6, 1e7, 1e8})
  void preimageErrorEqualsTheDistanceToThePreimage(double offset) {
    double[][] x = blobs(50, 6);
    // The same points spread over 200 columns (5 non-zeros a row): the sparse path.
    double[][] wide = new double[x.length][200];
    for (int i = 0; i < x.length; i++) {
      for (int t = 0; t < x[i].length; t++) {
        wide[i][40 * t + i % 4] = x[i][t];
        x[i][t] += offset;
      }
      wide[i][199] = i % 4 == 0 ? 0 : offset;
    }
    Dataset<Row> sparse =
        LocalSpark.frame(wide, 2)
            .withColumn(
                "features",
                functions
                    .udf(
                        (org.apache.spark.sql.api.java.UDF1<
                                org.apache.spark.ml.linalg.Vector,
                                org.apache.spark.ml.linalg.Vector>)
                            v -> v.toSparse(),
                        org.apache.spark.ml.linalg.SQLDataTypes.VectorType())
                    .apply(functions.col("features")));
    for (Dataset<Row> df : List.of(LocalSpark.frame(x, 2), sparse)) {
      for (String method : new String[] {"fixed-point", "ridge"}) {
        NystromKernelPCAModel model =
            new NystromKernelPCA()
                .setK(2)
                .setNumLandmarks(20)
                .setGamma(0.3)
                .setSeed(2)
                .setPreimageMethod(method)
                .setPreimageErrorCol("preimageError")
                .setReconstructionCol("reconstruction")
                .fit(df);
        boolean sparsePath = model.solution().projector().kernelExpansion().support().isSparse();
        assertEquals(df == sparse, sparsePath, "the kernel-block path");
        Dataset<Row> out = model.transform(df);
        double[][] in = LocalSpark.collect(out, "features");
        double[][] rec = LocalSpark.collect(out, "reconstruction");
        List<Row> errors = out.select("preimageError").collectAsList();
        double largest = 0;
        for (int i = 0; i < in.length; i++) {
          double direct = 0;
          for (int t = 0; t < in[i].length; t++) {
            direct += (in[i][t] - rec[i][t]) * (in[i][t] - rec[i][t]);
          }
          largest = Math.max(largest, direct);
          assertEquals(
              direct,
              errors.get(i).getDouble(0),
              1e-9 * (1 + direct) + 1e-14 * offset * (1 + Math.sqrt(direct)),
              method + (sparsePath ? " sparse" : " dense") + " at " + offset + ", row " + i);
        }
        assertTrue(largest > 1e-2, method + ": non-trivial errors, largest " + largest);
      }
    }
  }

  /** The input-space metrics against a direct computation on collected rows. */
  @Test
  void inputSpaceMetricsEqualTheirDefinitions() {
    double[][] x = blobs(60, 2);
    Dataset<Row> df = LocalSpark.frame(x, 3);
    NystromKernelPCAModel model =
        new NystromKernelPCA()
            .setK(2)
            .setNumLandmarks(20)
            .setGamma(0.3)
            .setReconstructionCol("reconstruction")
            .setPreimageMethod("ridge")
            .fit(df);
    Dataset<Row> out = model.transform(df);
    double[][] in = LocalSpark.collect(out, "features");
    double[][] rec = LocalSpark.collect(out, "reconstruction");
    double error = 0;
    double[] mean = new double[5];
    for (int i = 0; i < in.length; i++) {
      for (int t = 0; t < 5; t++) {
        error += (in[i][t] - rec[i][t]) * (in[i][t] - rec[i][t]) / in.length;
        mean[t] += in[i][t] / in.length;
      }
    }
    double variance = 0;
    for (double[] row : in) {
      for (int t = 0; t < 5; t++) {
        variance += (row[t] - mean[t]) * (row[t] - mean[t]) / in.length;
      }
    }
    ReconstructionErrorEvaluator evaluator =
        new ReconstructionErrorEvaluator().setMetricName("inputSpaceError");
    assertEquals(error, evaluator.evaluate(out), 1e-12 * error);
    assertEquals(
        error / variance,
        evaluator.setMetricName("relativeInputSpaceError").evaluate(out),
        1e-12 * error / variance);
    assertTrue(error > 1e-3, "a non-trivial error: " + error);
    IllegalArgumentException missing =
        assertThrows(IllegalArgumentException.class, () -> evaluator.evaluate(df));
    assertTrue(
        missing.getMessage().contains("reconstructionCol 'reconstruction' is not a column"),
        missing.getMessage());
  }

  @Test
  void missingResidualColumnIsNamed() {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(20, 3, 1), 1);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new ReconstructionErrorEvaluator().setResidualCol("novelty").evaluate(df));
    assertTrue(
        e.getMessage().contains("residualCol 'novelty'")
            && e.getMessage().contains("columns: id, features"),
        e.getMessage());
    IllegalArgumentException type =
        assertThrows(
            IllegalArgumentException.class,
            () -> new ReconstructionErrorEvaluator().setResidualCol("features").evaluate(df));
    assertTrue(type.getMessage().contains("expected a number"), type.getMessage());
  }

  @Test
  void paramsCopyAndPersistence() throws Exception {
    LocalSpark.spark();
    ReconstructionErrorEvaluator evaluator = new ReconstructionErrorEvaluator();
    assertEquals("residual", evaluator.getResidualCol());
    assertEquals("featureSpaceResidual", evaluator.getMetricName());
    evaluator.setMetricName("inputSpaceError").setInputCol("x").setReconstructionCol("xhat");
    assertFalse(evaluator.isLargerBetter());
    evaluator.setResidualCol("r");
    ReconstructionErrorEvaluator copy = evaluator.copy(new ParamMap());
    assertEquals("r", copy.getResidualCol());
    assertEquals(evaluator.uid(), copy.uid());
    String path = dir.resolve("evaluator").toString();
    evaluator.save(path);
    ReconstructionErrorEvaluator loaded = ReconstructionErrorEvaluator.load(path);
    assertEquals("r", loaded.getResidualCol());
    assertEquals("inputSpaceError", loaded.getMetricName());
    assertEquals("xhat", loaded.getReconstructionCol());
    assertEquals(evaluator.uid(), loaded.uid());
  }
}
