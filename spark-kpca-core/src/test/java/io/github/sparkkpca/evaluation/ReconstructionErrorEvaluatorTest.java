package io.github.sparkkpca.evaluation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import java.nio.file.Path;
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
    assertFalse(evaluator.isLargerBetter());
    evaluator.setResidualCol("r");
    ReconstructionErrorEvaluator copy = evaluator.copy(new ParamMap());
    assertEquals("r", copy.getResidualCol());
    assertEquals(evaluator.uid(), copy.uid());
    String path = dir.resolve("evaluator").toString();
    evaluator.save(path);
    ReconstructionErrorEvaluator loaded = ReconstructionErrorEvaluator.load(path);
    assertEquals("r", loaded.getResidualCol());
    assertEquals(evaluator.uid(), loaded.uid());
  }
}
