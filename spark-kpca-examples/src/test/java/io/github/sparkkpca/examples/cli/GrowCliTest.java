package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * grow through the command line: the grown model equals a fit with its landmarks; the drift is
 * reported. And select-k's --loo-method.
 */
class GrowCliTest {

  @TempDir static Path dir;
  static Path csv;
  static Path model;

  @BeforeAll
  static void fitAModel() throws IOException {
    TestSpark.session();
    Random random = new Random(9);
    StringBuilder text = new StringBuilder("x1,x2,x3\n");
    for (int i = 0; i < 160; i++) {
      double centre = (i % 3) * 1.5;
      text.append(
          String.format(
              Locale.ROOT,
              "%.6f,%.6f,%.6f%n",
              centre + random.nextGaussian(),
              0.5 * random.nextGaussian(),
              centre - random.nextGaussian()));
    }
    csv = Files.writeString(dir.resolve("data.csv"), text.toString(), StandardCharsets.UTF_8);
    model = dir.resolve("model");
    TestSpark.Result fit =
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--k",
            "3",
            "--landmarks",
            "10",
            "--seed",
            "4",
            "--gamma",
            "0.2",
            "--model-out",
            model.toString());
    assertEquals(0, fit.code(), fit::toString);
  }

  @Test
  void grownModelEqualsAFitWithItsLandmarksAndReportsTheDrift() throws IOException {
    Path grown = dir.resolve("grown");
    Path summary = dir.resolve("grown.json");
    TestSpark.Result grow =
        TestSpark.cli(
            "grow",
            "--model",
            model.toString(),
            "--input",
            csv.toString(),
            "--add-landmarks",
            "12",
            "--seed",
            "5",
            "--model-out",
            grown.toString(),
            "--summary-out",
            summary.toString());
    assertEquals(0, grow.code(), grow::toString);
    assertTrue(grow.out().contains("grown from m = 10 to 22 landmarks"), grow::toString);

    Path refitSummary = dir.resolve("refit.json");
    TestSpark.Result refit =
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--k",
            "3",
            "--landmarks-from",
            grown.toString(),
            "--model-out",
            dir.resolve("refit").toString(),
            "--summary-out",
            refitSummary.toString());
    assertEquals(0, refit.code(), refit::toString);

    JsonNode g = CliFixture.json(summary);
    JsonNode r = CliFixture.json(refitSummary);
    assertEquals(22, g.get("m").asInt());
    assertEquals(r.get("m").asInt(), g.get("m").asInt());
    for (int i = 0; i < 3; i++) {
      double want = r.get("eigenvalues").get(i).asDouble();
      assertEquals(want, g.get("eigenvalues").get(i).asDouble(), 1e-9 * want, "eigenvalue " + i);
    }
    JsonNode drift = g.get("incremental");
    assertEquals(10, drift.get("initialLandmarks").asInt());
    assertEquals(24, drift.get("rankOneUpdates").asInt());
    assertTrue(drift.get("eigenvalueDrift").asDouble() < 1e-12, drift::toString);
    assertTrue(drift.get("orthogonality").asDouble() < 1e-12, drift::toString);

    // The summary is recognised as grow's own, so --overwrite may replace it (and the model).
    TestSpark.Result again =
        TestSpark.cli(
            "grow",
            "--model",
            model.toString(),
            "--input",
            csv.toString(),
            "--add-landmarks",
            "2",
            "--model-out",
            grown.toString(),
            "--summary-out",
            summary.toString(),
            "--overwrite");
    assertEquals(0, again.code(), again::toString);
    assertEquals(12, CliFixture.json(summary).get("m").asInt());
    // fit's summary (no drift section) is not grow's: --overwrite leaves it alone.
    String fitSummary = java.nio.file.Files.readString(refitSummary);
    TestSpark.Result foreign =
        TestSpark.cli(
            "grow",
            "--model",
            model.toString(),
            "--input",
            csv.toString(),
            "--add-landmarks",
            "2",
            "--model-out",
            dir.resolve("grown-2").toString(),
            "--summary-out",
            refitSummary.toString(),
            "--overwrite");
    assertEquals(2, foreign.code(), foreign::toString);
    assertTrue(
        foreign.err().contains("is not a summary written by spark-kpca grow"), foreign::toString);
    assertEquals(
        fitSummary, java.nio.file.Files.readString(refitSummary), "fit's summary untouched");
  }

  @Test
  void badRequestsExitWithTwo() {
    String out = dir.resolve("bad").toString();
    CliErrorsTest.assertUsageError(
        TestSpark.cli(
            "grow",
            "--model",
            model.toString(),
            "--input",
            csv.toString(),
            "--add-landmarks",
            "0",
            "--model-out",
            out),
        "--add-landmarks must be >= 1");
    CliErrorsTest.assertUsageError(
        TestSpark.cli(
            "grow",
            "--model",
            model.toString(),
            "--input",
            csv.toString(),
            "--add-landmarks",
            "500",
            "--model-out",
            out),
        "fewer than the 500 landmarks to add");
    CliErrorsTest.assertUsageError(
        TestSpark.cli(
            "grow",
            "--model",
            model.toString(),
            "--input",
            csv.toString(),
            "--add-landmarks",
            "3",
            "--model-out",
            model.toString()),
        "--model-out");
    CliErrorsTest.assertUsageError(
        TestSpark.cli(
            "select-k", "--input", csv.toString(), "--max-k", "3", "--loo-method", "fast"),
        "--loo-method must be auto, batch, rank_one or deletion");
  }

  @Test
  void selectKTakesTheRouteAsked() throws IOException {
    // The routes' equality is MpressTest's; here the option reaches Mpress and the curve is
    // complete.
    Path summary = dir.resolve("mpress.json");
    TestSpark.Result r =
        TestSpark.cli(
            "select-k",
            "--input",
            csv.toString(),
            "--max-k",
            "5",
            "--gamma",
            "0.2",
            "--loo-method",
            "rank_one",
            "--summary-out",
            summary.toString());
    assertEquals(0, r.code(), r::toString);
    assertTrue(
        r.out().contains("leave-one-out decompositions: rank_one (0 rows decomposed afresh)"),
        r::toString);
    assertEquals(5, CliFixture.json(summary).get("mpress").size());
  }
}
