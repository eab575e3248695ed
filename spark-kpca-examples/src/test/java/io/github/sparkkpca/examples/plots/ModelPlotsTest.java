package io.github.sparkkpca.examples.plots;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.examples.cli.TestSpark;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The model charts: the error curve measured on the training rows must equal the fit's R(ℓ) (both
 * are total − Σ_{i≤ℓ}Σ_i, one from the spectrum and one from per-row residuals and scores), and
 * every chart is a readable PNG.
 */
class ModelPlotsTest {

  static final int N = 600;
  static final int D = 5;

  @TempDir Path dir;

  static Dataset<Row> data;
  static NystromKernelPCAModel model;

  @BeforeAll
  static void fit() {
    SparkSession spark = TestSpark.session();
    Random random = new Random(5);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < N; i++) {
      int cluster = i % 3;
      double[] x = new double[D];
      for (int j = 0; j < D; j++) {
        x[j] = (j == cluster ? 3.0 : 0.0) + 0.5 * random.nextGaussian();
      }
      rows.add(RowFactory.create(Vectors.dense(x), (double) cluster));
    }
    StructType schema =
        new StructType()
            .add("features", SQLDataTypes.VectorType())
            .add("label", DataTypes.DoubleType);
    data = spark.createDataFrame(rows, schema).repartition(3);
    model = new NystromKernelPCA().setK(4).setNumLandmarks(80).setGamma(0.2).setSeed(9).fit(data);
  }

  @Test
  void errorMeasuredOnTheTrainingRowsEqualsTheFittedCurve() {
    ModelPlots.ScoredSample all = ModelPlots.sample(model, data, "label", N, N, 1);
    assertEquals(N, all.size());
    double total = model.totalVariance();
    double[] fitted = model.reconstructionError().toArray();
    double[] measured = ModelPlots.measuredError(all, model.numComponents(), total);
    for (int l = 0; l < fitted.length; l++) {
      assertEquals(fitted[l] / total, measured[l], 1e-8, "R(" + (l + 1) + ")");
    }
    assertTrue(measured[0] > measured[3], "the error falls with more components");
    // The caller's model is untouched.
    assertEquals("kpca", model.getOutputCol());
    assertEquals("", model.getResidualCol());
  }

  @Test
  void samplesAreCappedLabelledAndReproducible() {
    ModelPlots.ScoredSample a = ModelPlots.sample(model, data, "label", N, 100, 7);
    ModelPlots.ScoredSample b = ModelPlots.sample(model, data, "label", 0, 100, 7);
    assertTrue(a.size() > 0 && a.size() <= 100, "size " + a.size());
    assertEquals(a.size(), b.size());
    for (int i = 0; i < a.size(); i++) {
      assertArrayEquals(a.scores()[i], b.scores()[i], 0.0);
    }
    assertTrue(
        List.of(a.labels()).stream().allMatch(l -> l.equals("0") || l.equals("1") || l.equals("2")),
        "labels 0.0, 1.0, 2.0 print as integers");
    assertNull(ModelPlots.sample(model, data, null, N, 10, 7).labels());
    assertThrows(
        IllegalArgumentException.class, () -> ModelPlots.sample(model, data, null, N, 0, 7));
  }

  @Test
  void writesTheThreeCharts() throws IOException {
    List<Path> files =
        ModelPlots.writeAll(dir.resolve("charts"), model, data, "label", N, 300, 1, "test");
    assertEquals(
        List.of("scree.png", "reconstruction-error.png", "embedding.png"),
        files.stream().map(p -> p.getFileName().toString()).toList());
    for (Path file : files) {
      BufferedImage image = ChartsTest.readPng(file);
      assertEquals(Charts.WIDTH, image.getWidth());
      assertEquals(Charts.HEIGHT, image.getHeight());
    }
  }
}
