package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sigmoid kernel (not positive definite) from the command line: {@code fit} and {@code
 * evaluate} report the positive-part surrogate's numbers, so the captured variance stays below its
 * optimum; the per-row residual and MPRESS, which need k(x,x) to be a squared norm, are refused
 * with exit 2 and one line naming the kernel (docs/kernels.md).
 */
class IndefiniteKernelCliTest {

  @TempDir static Path dir;
  static Path csv;
  static Path heldOut;
  static Path model;

  @BeforeAll
  static void fitSigmoid() throws IOException {
    csv = write("train.csv", 400, 1);
    heldOut = write("held-out.csv", 200, 2);
    model = dir.resolve("model");
    TestSpark.Result fit =
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--kernel",
            "sigmoid",
            "--k",
            "3",
            "--landmarks",
            "60",
            "--model-out",
            model.toString());
    assertEquals(0, fit.code(), fit::toString);
    // The summary says whose variances these are, with (1/n) sum k(x,x) beside the surrogate's.
    assertTrue(
        fit.out().contains("total variance: positive-part surrogate")
            && fit.out().contains("against (1/n) sum k(x,x) = "),
        fit::toString);
  }

  static Path write(String name, int rows, long seed) throws IOException {
    Random random = new Random(seed);
    StringBuilder text = new StringBuilder("x0,x1,x2,x3,x4\n");
    for (int i = 0; i < rows; i++) {
      for (int t = 0; t < 5; t++) {
        text.append(t == 0 ? "" : ",")
            .append(String.format(Locale.ROOT, "%.6f", random.nextGaussian()));
      }
      text.append('\n');
    }
    Path path = dir.resolve(name);
    Files.writeString(path, text.toString());
    return path;
  }

  @Test
  void evaluateReportsTheSurrogateSoCapturedStaysBelowTheOptimum() throws IOException {
    Path summary = dir.resolve("evaluate.json");
    TestSpark.Result evaluated =
        TestSpark.cli(
            "evaluate",
            "--model",
            model.toString(),
            "--input",
            heldOut.toString(),
            "--summary-out",
            summary.toString());
    assertEquals(0, evaluated.code(), evaluated::toString);
    JsonNode json = CliFixture.json(summary);
    double captured = json.get("capturedVariance").asDouble();
    double optimal = json.get("optimalVariance").asDouble();
    assertTrue(captured > 0 && captured <= optimal * (1 + 1e-10), captured + " > " + optimal);
  }

  /**
   * Two sigmoid models with other landmarks have other positive-part surrogates, so other optima:
   * evaluated together, the JSON carries each model's own, equal to what it gets alone.
   */
  @Test
  void evaluateOfTwoModelsCarriesEachModelsOwnOptimum() throws IOException {
    Path other = dir.resolve("model-20");
    TestSpark.Result fit =
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--kernel",
            "sigmoid",
            "--k",
            "3",
            "--landmarks",
            "20",
            "--model-out",
            other.toString());
    assertEquals(0, fit.code(), fit::toString);
    double[] alone = new double[2];
    Path[] models = {model, other};
    for (int i = 0; i < 2; i++) {
      Path summary = dir.resolve("alone-" + i + ".json");
      TestSpark.Result r =
          TestSpark.cli(
              "evaluate",
              "--model",
              models[i].toString(),
              "--input",
              heldOut.toString(),
              "--summary-out",
              summary.toString());
      assertEquals(0, r.code(), r::toString);
      alone[i] = CliFixture.json(summary).get("optimalVariance").asDouble();
    }
    assertTrue(Math.abs(alone[0] - alone[1]) > 1e-6 * alone[0], alone[0] + " = " + alone[1]);
    Path both = dir.resolve("both.json");
    TestSpark.Result r =
        TestSpark.cli(
            "evaluate",
            "--model",
            model.toString(),
            other.toString(),
            "--input",
            heldOut.toString(),
            "--summary-out",
            both.toString());
    assertEquals(0, r.code(), r::toString);
    JsonNode json = CliFixture.json(both);
    for (int i = 0; i < 2; i++) {
      double optimal = json.get("optimalVariance").get(i).asDouble();
      assertEquals(alone[i], optimal, 1e-12 * alone[i], "model " + i);
      double captured = json.get("capturedVariance").get(i).asDouble();
      assertTrue(
          captured <= optimal * (1 + 1e-10), "model " + i + ": " + captured + " > " + optimal);
    }
  }

  @Test
  void residualIsRefused() {
    TestSpark.Result r =
        TestSpark.cli(
            "transform",
            "--model",
            model.toString(),
            "--input",
            csv.toString(),
            "--output",
            dir.resolve("scores").toString(),
            "--residual");
    CliErrorsTest.assertUsageError(r, "residualCol", "kernel sigmoid", "not positive definite");
  }

  @Test
  void mpressIsRefused() {
    TestSpark.Result r =
        TestSpark.cli("select-k", "--input", csv.toString(), "--kernel", "sigmoid", "--max-k", "3");
    CliErrorsTest.assertUsageError(r, "MPRESS", "kernel sigmoid", "not positive definite");
  }
}
