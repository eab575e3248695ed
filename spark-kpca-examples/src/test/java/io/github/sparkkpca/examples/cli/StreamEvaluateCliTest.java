package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * stream and evaluate: a directory of CSV files streamed one file per micro-batch equals fit on the
 * directory, evaluate reads the stream's newest version, and bad input fails with one line and exit
 * code 2.
 */
class StreamEvaluateCliTest {

  @TempDir static Path dir;
  static Path input;
  static final int FILES = 2;
  static final int ROWS = 40;

  @BeforeAll
  static void writeFiles() throws IOException {
    TestSpark.session();
    input = Files.createDirectories(dir.resolve("in"));
    Random random = new Random(5);
    for (int f = 0; f < FILES; f++) {
      StreamCsvFiles.write(input, f, StreamCsvFiles.text(random, ROWS, "label", i -> i % 2), null);
    }
  }

  @Test
  void streamedRandomFeaturesEqualFitAndEvaluateReadsTheNewestVersion() throws IOException {
    List<String> model =
        List.of(
            "--k",
            "2",
            "--feature-map",
            "rff",
            "--features",
            "30",
            "--gamma",
            "0.3",
            "--seed",
            "9",
            "--label-col",
            "label");
    Path summary = dir.resolve("stream.json");
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "stream",
                "--input",
                input.toString(),
                "--model-out",
                dir.resolve("model").toString(),
                "--checkpoint",
                dir.resolve("ckpt").toString(),
                "--available-now",
                "--max-files-per-trigger",
                "1",
                "--summary-out",
                summary.toString()));
    args.addAll(model);
    TestSpark.Result run = TestSpark.cli(args.toArray(String[]::new));
    assertEquals(0, run.code(), run::toString);
    assertTrue(
        run.out().contains("batch 1: " + FILES * ROWS + " rows so far (+" + ROWS + ")"), run.out());
    JsonNode streamed = new ObjectMapper().readTree(summary.toFile());
    assertEquals(FitSummary.JSON_KEYS, iterate(streamed));
    assertEquals(FILES * ROWS, streamed.get("n").asInt());

    Path fitSummary = dir.resolve("fit.json");
    List<String> fit =
        new java.util.ArrayList<>(
            List.of(
                "fit",
                "--input",
                input.toString(),
                "--model-out",
                dir.resolve("fitted").toString(),
                "--summary-out",
                fitSummary.toString()));
    fit.addAll(model);
    TestSpark.Result fitted = TestSpark.cli(fit.toArray(String[]::new));
    assertEquals(0, fitted.code(), fitted::toString);
    JsonNode batch = new ObjectMapper().readTree(fitSummary.toFile());
    for (int i = 0; i < 2; i++) {
      double expected = batch.get("eigenvalues").get(i).asDouble();
      assertEquals(
          expected,
          streamed.get("eigenvalues").get(i).asDouble(),
          1e-10 * expected,
          "eigenvalue " + i);
    }

    Path evaluation = dir.resolve("evaluate.json");
    TestSpark.Result evaluated =
        TestSpark.cli(
            "evaluate",
            "--model",
            dir.resolve("model").toString(),
            "--input",
            input.toString(),
            "--label-col",
            "label",
            "--summary-out",
            evaluation.toString());
    assertEquals(0, evaluated.code(), evaluated::toString);
    JsonNode json = new ObjectMapper().readTree(evaluation.toFile());
    assertEquals(EvaluateCommand.JSON_KEYS, iterate(json));
    assertEquals(FILES * ROWS, json.get("n").asInt());
    assertTrue(
        json.get("optimalVariance").asDouble() > 0 && json.get("capturedVariance").asDouble() > 0);

    // Several models on one exact kernel matrix: the stream's newest version and the batch fit
    // (equal models).
    Path both = dir.resolve("evaluate-both.json");
    TestSpark.Result together =
        TestSpark.cli(
            "evaluate",
            "--model",
            dir.resolve("model").toString(),
            dir.resolve("fitted").toString(),
            "--input",
            input.toString(),
            "--label-col",
            "label",
            "--summary-out",
            both.toString());
    assertEquals(0, together.code(), together::toString);
    JsonNode pair = new ObjectMapper().readTree(both.toFile());
    List<String> keys = new java.util.ArrayList<>(EvaluateCommand.JSON_KEYS);
    keys.add(EvaluateCommand.MODELS_KEY);
    assertEquals(keys, iterate(pair));
    double single = json.get("capturedVariance").asDouble();
    for (int i = 0; i < 2; i++) {
      assertEquals(
          single, pair.get("capturedVariance").get(i).asDouble(), 1e-8 * single, "model " + i);
    }
    for (int i = 0; i < 2; i++) {
      assertEquals(
          json.get("optimalVariance").asDouble(),
          pair.get("optimalVariance").get(i).asDouble(),
          1e-12,
          "model " + i);
    }
    assertTrue(pair.get("models").get(1).asText().endsWith("fitted"), pair.toString());
  }

  private static List<String> iterate(JsonNode node) {
    List<String> keys = new java.util.ArrayList<>();
    node.fieldNames().forEachRemaining(keys::add);
    return keys;
  }

  @Test
  void badInputFailsWithOneLineAndExitCode2() throws IOException {
    Path empty = Files.createDirectories(dir.resolve("empty"));
    TestSpark.Result none =
        TestSpark.cli(
            "stream",
            "--input",
            empty.toString(),
            "--model-out",
            dir.resolve("m1").toString(),
            "--checkpoint",
            dir.resolve("c1").toString(),
            "--k",
            "2",
            "--landmarks",
            "5",
            "--available-now");
    assertEquals(2, none.code(), none::toString);
    assertTrue(none.err().contains("no file yet"), none.err());

    TestSpark.Result oja =
        TestSpark.cli(
            "stream",
            "--input",
            input.toString(),
            "--model-out",
            dir.resolve("m2").toString(),
            "--checkpoint",
            dir.resolve("c2").toString(),
            "--k",
            "2",
            "--landmarks",
            "5",
            "--algorithm",
            "oja");
    assertEquals(2, oja.code(), oja::toString);
    assertTrue(oja.err().contains("--feature-map rff"), oja.err());

    Path bad = Files.createDirectories(dir.resolve("bad"));
    Files.writeString(bad.resolve("a.csv"), "x1,x2\n1,2\n3,4\n5,6\n");
    Files.writeString(bad.resolve("b.csv"), "x1,x2\n1,oops\n");
    TestSpark.Result cell =
        TestSpark.cli(
            "stream",
            "--input",
            bad.toString(),
            "--model-out",
            dir.resolve("m3").toString(),
            "--checkpoint",
            dir.resolve("c3").toString(),
            "--k",
            "1",
            "--landmarks",
            "2",
            "--available-now");
    assertEquals(2, cell.code(), cell::toString);
    assertTrue(cell.err().contains("oops") && cell.err().contains("b.csv"), cell.err());
    assertEquals(1, cell.err().strip().lines().count(), cell.err());
  }
}
