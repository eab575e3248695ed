package io.github.sparkkpca.evaluation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.ml.RandomFeatureKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/** The model summary reads what the model reports, for both feature maps. */
class ModelSummaryTest {

  private static final Dataset<Row> DATA = LocalSpark.frame(LocalSpark.clusters(200, 4, 11), 2);

  @Test
  void nystromSummaryHoldsTheModelsSpectrumAndFitDiagnostics() {
    NystromKernelPCAModel model =
        new NystromKernelPCA().setK(3).setNumLandmarks(25).setGamma(0.3).setSeed(4).fit(DATA);
    ModelSummary s = ModelSummary.of(model);
    assertEquals(200, s.n());
    assertEquals(4, s.d());
    assertEquals(25, s.m());
    assertEquals(model.rank(), s.rank());
    assertEquals(3, s.k());
    assertEquals("rbf", s.kernel());
    assertEquals(0.3, s.gamma());
    assertTrue(s.centered());
    assertArrayEquals(model.explainedVariance().toArray(), s.explainedVariance());
    assertArrayEquals(model.reconstructionError().toArray(), s.reconstructionError());
    assertEquals(model.totalVariance(), s.totalVariance());
    // The captured share of the variance, two ways: the ratios' sum and 1 - error / total.
    assertEquals(
        1 - s.reconstructionError()[2] / s.totalVariance(),
        s.cumulativeRatio(),
        1e-12,
        "cumulative ratio");
    assertNotNull(s.statisticsRoute());
    assertEquals(model.getStatisticsRouteTaken(), s.statisticsRoute());
    assertEquals(model.getLandmarkConditionEstimate(), s.landmarkConditionEstimate());
    assertTrue(s.landmarkConditionEstimate() >= 1, "cond(K_mm) " + s.landmarkConditionEstimate());
    assertNull(s.landmarkResidualCurve(), "uniform landmarks have no residual curve");
  }

  @Test
  void randomFeatureSummaryCountsTheFeaturesAndHasNoNystromDiagnostics() {
    RandomFeatureKernelPCAModel model =
        new RandomFeatureKernelPCA()
            .setK(2)
            .setNumRandomFeatures(60)
            .setGamma(0.3)
            .setSeed(5)
            .fit(DATA);
    ModelSummary s = ModelSummary.of(model);
    assertEquals(60, s.m());
    assertEquals(60, s.rank());
    assertEquals(2, s.explainedVarianceRatio().length);
    assertArrayEquals(model.explainedVarianceRatio().toArray(), s.explainedVarianceRatio());
    assertNull(s.statisticsRoute());
    assertNull(s.statisticsRouteCheck());
    assertNull(s.landmarkResidualCurve());
    assertTrue(Double.isNaN(s.landmarkConditionEstimate()));
  }
}
