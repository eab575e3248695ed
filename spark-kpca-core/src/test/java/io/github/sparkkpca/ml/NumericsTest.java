package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.testing.LocalSpark;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Inputs that used to give silently wrong numbers: data far from the origin, indefinite and
 * degenerate cases.
 */
class NumericsTest {

  @TempDir Path dir;

  /**
   * n×d rows (1e8 + N(0,1)) − 1e8: the same points, exactly, as {@code offset} + these rows for the
   * offsets used here (the rows have at most 26 fraction bits).
   */
  private static double[][] rows(int n, int d, long seed, double offset) {
    Random random = new Random(seed);
    double[][] x = new double[n][d];
    for (double[] row : x) {
      for (int t = 0; t < d; t++) {
        row[t] = ((1e8 + random.nextGaussian()) - 1e8) + offset;
      }
    }
    return x;
  }

  /**
   * Kernel PCA with rbf and laplacian kernels depends on differences of rows only: rows 1e8 +
   * N(0,1) and 1e6 + N(0,1) must give the spectrum and scores of the same rows at the origin (the
   * same landmarks are drawn, since the draw depends on row positions). The rbf kernel's expansion
   * ‖x‖² + ‖z‖² − 2⟨x,z⟩ lost everything at 1e8 and about 1e−5 at 1e6 before rows and landmarks
   * were shifted by a common centre.
   */
  @ParameterizedTest
  @CsvSource({"rbf, 30, 1e8", "rbf, 150, 1e8", "rbf, 150, 1e6", "laplacian, 30, 1e8"})
  void dataFarFromTheOriginGiveTheResultsAtTheOrigin(String kernel, int m, double offset) {
    Dataset<Row> near = LocalSpark.frame(rows(150, 3, 5, 0), 2);
    Dataset<Row> far = LocalSpark.frame(rows(150, 3, 5, offset), 3);
    NystromKernelPCA estimator =
        new NystromKernelPCA().setKernel(kernel).setK(5).setNumLandmarks(m).setSeed(3);
    NystromKernelPCAModel atOrigin = estimator.fit(near);
    NystromKernelPCAModel farAway = estimator.fit(far);
    assertEquals(
        atOrigin.getGamma(), farAway.getGamma(), 1e-15 * atOrigin.getGamma(), "median heuristic");
    double[] expected = atOrigin.eigenvalues().toArray();
    double[] actual = farAway.eigenvalues().toArray();
    assertEquals(expected.length, actual.length, "rank");
    for (int i = 0; i < 5; i++) {
      assertEquals(
          expected[i],
          actual[i],
          1e-9 * expected[i],
          kernel + " eigenvalue " + i + " at offset " + offset);
    }
    assertEquals(
        atOrigin.totalVariance(), farAway.totalVariance(), 1e-9 * atOrigin.totalVariance());
    double[][] nearScores = LocalSpark.collect(atOrigin.transform(near), "kpca");
    double[][] farScores = LocalSpark.collect(farAway.transform(far), "kpca");
    for (int i = 0; i < nearScores.length; i++) {
      assertArrayEquals(nearScores[i], farScores[i], 1e-8, "scores of row " + i);
    }
  }

  /**
   * The centre is recomputed from the saved landmarks, so a reloaded model scores bit for bit
   * alike.
   */
  @Test
  void farFromTheOriginAReloadedModelScoresBitForBitAlike() throws java.io.IOException {
    Dataset<Row> far = LocalSpark.frame(rows(120, 4, 8, 1e8), 2);
    NystromKernelPCAModel model =
        new NystromKernelPCA().setK(3).setNumLandmarks(30).setSeed(1).fit(far);
    String path = dir.resolve("far").toString();
    model.write().save(path);
    NystromKernelPCAModel loaded = NystromKernelPCAModel.load(path);
    double[][] before = LocalSpark.collect(model.transform(far), "kpca");
    double[][] after = LocalSpark.collect(loaded.transform(far), "kpca");
    for (int i = 0; i < before.length; i++) {
      assertArrayEquals(before[i], after[i], 0.0, "row " + i);
    }
    assertTrue(Math.abs(before[0][0]) > 1e-3, "non-trivial scores: " + before[0][0]);
  }

  /**
   * (γ⟨x,y⟩ + c₀)^p with c₀ &lt; 0 is not positive definite: its "variance" (1/n)Σk(x,x) − … can be
   * below the sum of the positive eigenvalues found, so the ratios refer to the positive part, as
   * for sigmoid.
   */
  @Test
  void polynomialWithNegativeCoef0ReportsThePositivePart() {
    double[][] x = LocalSpark.clusters(200, 3, 6);
    Dataset<Row> df = LocalSpark.frame(x, 2);
    NystromKernelPCAModel nystrom =
        new NystromKernelPCA()
            .setKernel("polynomial")
            .setDegree(2)
            .setCoef0(-1)
            .setK(3)
            .setNumLandmarks(60)
            .setSeed(4)
            .fit(df);
    KernelPCAModel exact =
        new KernelPCA().setKernel("polynomial").setDegree(2).setCoef0(-1).setK(3).fit(df);
    for (AbstractKernelPCAModel<?> model : List.of(nystrom, exact)) {
      assertTrue(
          model.totalVarianceMethod().startsWith("positive-part"), model.totalVarianceMethod());
      double sum = 0;
      for (double v : model.eigenvalues().toArray()) {
        sum += v;
      }
      assertEquals(sum, model.totalVariance(), 1e-12 * sum);
      double ratios = 0;
      for (double r : model.explainedVarianceRatio().toArray()) {
        assertTrue(r > 0 && r <= 1, "ratio " + r);
        ratios += r;
      }
      assertTrue(ratios <= 1 + 1e-12, "ratios sum to " + ratios);
    }
    NystromKernelPCAModel positive =
        new NystromKernelPCA()
            .setKernel("polynomial")
            .setDegree(2)
            .setCoef0(1)
            .setK(3)
            .setNumLandmarks(60)
            .setSeed(4)
            .fit(df);
    assertTrue(
        positive.totalVarianceMethod().startsWith("nystrom-mean"), positive.totalVarianceMethod());
  }

  /** Constant data have no variance: the total is 0 and so are the ratios (0/0 gave NaN). */
  @Test
  void constantDataHaveZeroVarianceAndZeroRatios() {
    double[][] x = new double[30][];
    for (int i = 0; i < x.length; i++) {
      x[i] = new double[] {1, 2, 3};
    }
    NystromKernelPCAModel model =
        new NystromKernelPCA().setGamma(0.5).setK(1).setNumLandmarks(5).fit(LocalSpark.frame(x, 2));
    assertEquals(1, model.numSupportPoints());
    assertEquals(0.0, model.totalVariance(), 0.0);
    assertEquals(0.0, model.explainedVarianceRatio().apply(0), 0.0);
    assertEquals(0.0, model.reconstructionError().apply(0), 0.0);
  }

  /** Asking for as many landmarks as rows, with one row repeated, gives m = n − 1, and says so. */
  @Test
  void fewerLandmarksThanRequestedAreReportedInTheSummaryAndTheLog() {
    double[][] x = LocalSpark.clusters(150, 4, 2);
    x[101] = x[17].clone();
    List<String> warnings = Collections.synchronizedList(new ArrayList<>());
    AbstractAppender capture =
        new AbstractAppender("capture-warnings", null, null, true, Property.EMPTY_ARRAY) {
          @Override
          public void append(LogEvent event) {
            warnings.add(event.getLevel() + " " + event.getMessage().getFormattedMessage());
          }
        };
    capture.start();
    org.apache.logging.log4j.core.Logger logger =
        (org.apache.logging.log4j.core.Logger) LogManager.getLogger(NystromKernelPCA.class);
    logger.addAppender(capture);
    NystromKernelPCAModel model;
    try {
      model =
          new NystromKernelPCA()
              .setK(3)
              .setNumLandmarks(150)
              .setSeed(5)
              .fit(LocalSpark.frame(x, 2));
    } finally {
      logger.removeAppender(capture);
      capture.stop();
    }
    assertEquals(149, model.numSupportPoints());
    assertTrue(
        model
            .landmarkSelection()
            .contains(
                "149 landmarks instead of the 150 requested: the data have only "
                    + "149 distinct rows"),
        model.landmarkSelection());
    assertTrue(
        warnings.stream()
            .anyMatch(
                w ->
                    w.startsWith("WARN")
                        && w.contains("149 landmarks instead of the 150 " + "requested")),
        warnings.toString());
  }
}
