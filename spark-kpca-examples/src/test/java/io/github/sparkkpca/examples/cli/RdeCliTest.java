package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.examples.data.BreimanData;
import io.github.sparkkpca.ml.KernelPCARegressionModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.spark.ml.linalg.DenseVector;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * rde and predict on a CSV file of twonorm rows: the summary, the saved model, predictions in input
 * order.
 */
class RdeCliTest {

  @TempDir static Path dir;
  static Path csv;
  static double[][] rows;
  static int[] labels;
  static final int N = 120;

  @BeforeAll
  static void writeCsv() throws IOException {
    TestSpark.session();
    BreimanData.Spec spec = BreimanData.Spec.parse("twonorm:n=" + N + ",seed=3");
    StringBuilder text = new StringBuilder();
    for (int t = 1; t <= 20; t++) {
      text.append("x").append(t).append(',');
    }
    text.append("label\n");
    rows = new double[N][];
    labels = new int[N];
    int[] label = new int[1];
    for (int i = 0; i < N; i++) {
      double[] x = BreimanData.row(spec, i, label);
      rows[i] = new double[20];
      for (int t = 0; t < 20; t++) {
        rows[i][t] = Double.parseDouble(String.format(Locale.ROOT, "%.6f", x[t]));
        text.append(String.format(Locale.ROOT, "%.6f,", x[t]));
      }
      labels[i] = label[0];
      text.append(label[0]).append('\n');
    }
    csv = Files.writeString(dir.resolve("twonorm.csv"), text.toString(), StandardCharsets.UTF_8);
  }

  @Test
  void rdeThenPredictInInputOrder() throws IOException {
    Path summary = dir.resolve("rde.json");
    String model = dir.resolve("model").toString();
    TestSpark.Result run =
        TestSpark.cli(
            "rde",
            "--input",
            csv.toString(),
            "--label-col",
            "label",
            "--gamma-grid",
            "0.001,0.01,0.1",
            "--landmarks",
            "60",
            "--max-dimension",
            "20",
            "--model-out",
            model,
            "--summary-out",
            summary.toString(),
            "--plots",
            dir.resolve("plots").toString());
    assertEquals(0, run.code(), run::toString);
    JsonNode json = CliFixture.json(summary);
    List<String> keys = CliFixture.keys(json);
    assertEquals(RdeCommand.JSON_KEYS, keys);
    KernelPCARegressionModel saved = KernelPCARegressionModel.load(model);
    assertEquals(saved.getDimension(), json.get("dimension").asInt());
    assertEquals(saved.fittedKernel().gamma(), json.get("gamma").asDouble());
    assertTrue(saved.getDimension() <= 5, "twonorm dimension " + saved.getDimension());
    assertEquals(saved.trainingError(), json.get("estimatedErrorRate").asDouble());
    assertEquals(saved.logLikelihood().length, json.get("logLikelihood").size());
    assertTrue(
        json.get("noiseVariance").asDouble() > 0 && json.get("noiseVariance").asDouble() < 1);
    assertEquals(3, json.get("widths").size());
    assertTrue(Files.exists(dir.resolve("plots").resolve("width-01-likelihood.png")));
    assertTrue(Files.exists(dir.resolve("plots").resolve("widths.png")));

    Path output = dir.resolve("predictions");
    TestSpark.Result predict =
        TestSpark.cli(
            "predict",
            "--model",
            model,
            "--input",
            csv.toString(),
            "--label-col",
            "label",
            "--output",
            output.toString());
    assertEquals(0, predict.code(), predict::toString);
    List<String> lines = CliFixture.outputLines(output);
    assertEquals(N, lines.size());
    for (int i = 0; i < N; i++) {
      String[] cells = lines.get(i).split(",");
      assertEquals(
          saved.predict(new DenseVector(rows[i])), Double.parseDouble(cells[0]), 1e-9, "row " + i);
      assertEquals(labels[i], (int) Double.parseDouble(cells[1]), "label of row " + i);
    }
  }

  @Test
  void fixedDimensionKpcrAndBadInput() throws IOException {
    String model = dir.resolve("kpcr").toString();
    TestSpark.Result run =
        TestSpark.cli(
            "rde",
            "--input",
            csv.toString(),
            "--label-col",
            "label",
            "--gamma",
            "0.02",
            "--dimension",
            "3",
            "--landmarks",
            "40",
            "--intercept",
            "--model-out",
            model);
    assertEquals(0, run.code(), run::toString);
    KernelPCARegressionModel saved = KernelPCARegressionModel.load(model);
    assertEquals(3, saved.getDimension());
    assertEquals(0.02, saved.fittedKernel().gamma());
    assertTrue(saved.getFitIntercept());

    TestSpark.Result noLabel =
        TestSpark.cli(
            "rde", "--input", csv.toString(), "--model-out", dir.resolve("none").toString());
    assertEquals(2, noLabel.code(), noLabel::toString);
    assertTrue(noLabel.err().contains("--label-col"), noLabel.err());
    TestSpark.Result badGrid =
        TestSpark.cli(
            "rde",
            "--input",
            csv.toString(),
            "--label-col",
            "label",
            "--gamma-grid",
            "0.1,-1",
            "--model-out",
            dir.resolve("none").toString());
    assertEquals(2, badGrid.code(), badGrid::toString);
    assertTrue(badGrid.err().contains("--gamma-grid"), badGrid.err());
    Path bad = Files.writeString(dir.resolve("bad.csv"), "x1,label\n0.5,1\n0.7,oops\n0.1,-1\n");
    TestSpark.Result badLabel =
        TestSpark.cli(
            "rde",
            "--input",
            bad.toString(),
            "--label-col",
            "label",
            "--gamma",
            "1",
            "--dimension",
            "1",
            "--landmarks",
            "2",
            "--model-out",
            dir.resolve("none").toString());
    assertEquals(2, badLabel.code(), badLabel::toString);
    assertTrue(badLabel.err().contains("label") && badLabel.err().contains("null"), badLabel.err());
    assertFalse(badLabel.err().contains("Exception"), badLabel.err());
  }

  /**
   * Without --landmarks, rde on a few rows is the exact method (m = n), and says so; larger inputs
   * get max(2000, sqrt(n) ln n) landmarks within the memory the fit's check allows.
   */
  @Test
  void defaultLandmarksAreExactOnSmallInputsAndSaidSo() throws IOException {
    Path summary = dir.resolve("rde-default.json");
    TestSpark.Result run =
        TestSpark.cli(
            "rde",
            "--input",
            csv.toString(),
            "--label-col",
            "label",
            "--gamma-grid",
            "0.01,0.1",
            "--max-dimension",
            "20",
            "--model-out",
            dir.resolve("default-model").toString(),
            "--summary-out",
            summary.toString());
    assertEquals(0, run.code(), run::toString);
    JsonNode json = CliFixture.json(summary);
    assertEquals(N, json.get("m").asInt());
    assertTrue(run.out().contains("landmarks: exact: m = n = " + N), run.out());

    RdeCommand.LandmarkChoice small = RdeCommand.autoLandmarks(400, 1460);
    assertEquals(400, small.m());
    assertTrue(small.reason().startsWith("exact"), small.reason());
    assertEquals(2000, RdeCommand.autoLandmarks(3000, 5000).m());
    RdeCommand.LandmarkChoice rate = RdeCommand.autoLandmarks(100_000, 10_000);
    assertEquals((int) Math.ceil(Math.sqrt(1e5) * Math.log(1e5)), rate.m());
    assertTrue(rate.reason().contains("not exact") && rate.reason().contains("--landmarks 100000"));
    RdeCommand.LandmarkChoice memory = RdeCommand.autoLandmarks(1500, 900);
    assertEquals(900, memory.m());
    assertTrue(memory.reason().contains("memory"), memory.reason());
  }
}
