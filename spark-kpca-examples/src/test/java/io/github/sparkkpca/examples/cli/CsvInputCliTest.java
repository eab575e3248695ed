package io.github.sparkkpca.examples.cli;

import static io.github.sparkkpca.examples.cli.CliErrorsTest.assertUsageError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CSV input through the commands: files whose headers list the columns in other orders are read by
 * name in fit, transform, predict and stream (the same model and scores as one header order), files
 * with other names are refused naming both files and headers (a stream recovers once the file is
 * fixed), every malformed kind is refused with its file in a stream too, and text labels are
 * refused with file and line.
 */
class CsvInputCliTest {

  @TempDir static Path dir;

  /** The same rows twice: every file with header x1,x2,x3,label, and files in mixed orders. */
  static Path sameOrder;

  static Path mixedOrder;

  static final String[] HEADERS = {"x1,x2,x3,label", "label,x3,x1,x2", "x2,label,x1,x3"};
  static final int ROWS = 30;

  @BeforeAll
  static void writeFiles() throws IOException {
    TestSpark.session();
    sameOrder = Files.createDirectories(dir.resolve("same"));
    mixedOrder = Files.createDirectories(dir.resolve("mixed"));
    Random random = new Random(11);
    for (int f = 0; f < HEADERS.length; f++) {
      List<String[]> rows = new ArrayList<>();
      for (int i = 0; i < ROWS; i++) {
        rows.add(
            new String[] {
              CliFixture.fmt(random.nextGaussian()),
              CliFixture.fmt(2 * random.nextGaussian()),
              CliFixture.fmt((i % 2) + random.nextGaussian()),
              (i % 2 == 0 ? "-1" : "1")
            });
      }
      write(sameOrder.resolve("part-" + f + ".csv"), HEADERS[0], rows, f);
      write(mixedOrder.resolve("part-" + f + ".csv"), HEADERS[f], rows, f);
    }
  }

  /** Writes {@code rows} (cells in the order x1,x2,x3,label) under {@code header}. */
  static void write(Path file, String header, List<String[]> rows, int f) throws IOException {
    CliFixture.writeCsv(file, HEADERS[0], header, rows, f);
  }

  private static JsonNode fit(Path input, String name, String... more) throws IOException {
    Path summary = dir.resolve(name + ".json");
    List<String> args =
        new ArrayList<>(
            List.of(
                "fit",
                "--input",
                input.toString(),
                "--label-col",
                "label",
                "--k",
                "2",
                "--model-out",
                dir.resolve(name).toString(),
                "--summary-out",
                summary.toString()));
    args.addAll(List.of(more));
    TestSpark.Result run = TestSpark.cli(args.toArray(String[]::new));
    assertEquals(0, run.code(), run::toString);
    return CliFixture.json(summary);
  }

  @Test
  void fitAndTransformReadMixedHeadersByName() throws IOException {
    JsonNode same = fit(sameOrder, "fit-same", "--seed", "4", "--landmarks", "12");
    JsonNode mixed = fit(mixedOrder, "fit-mixed", "--seed", "4", "--landmarks", "12");
    assertEquals(same.get("n").asInt(), mixed.get("n").asInt());
    assertEquals(3, mixed.get("d").asInt());
    assertEquals(same.get("eigenvalues"), mixed.get("eigenvalues"));
    assertEquals(same.get("gamma"), mixed.get("gamma"));

    List<List<String>> scores = new ArrayList<>();
    for (Path input : List.of(sameOrder, mixedOrder)) {
      Path output = dir.resolve("scores-" + input.getFileName());
      TestSpark.Result run =
          TestSpark.cli(
              "transform",
              "--model",
              dir.resolve("fit-same").toString(),
              "--input",
              input.toString(),
              "--label-col",
              "label",
              "--output",
              output.toString());
      assertEquals(0, run.code(), run::toString);
      scores.add(CliFixture.outputLines(output));
    }
    assertEquals(HEADERS.length * ROWS, scores.get(0).size());
    assertEquals(scores.get(0), scores.get(1));
  }

  @Test
  void predictReadsMixedHeadersByName() throws IOException {
    String model = dir.resolve("rde").toString();
    TestSpark.Result rde =
        TestSpark.cli(
            "rde",
            "--input",
            sameOrder.toString(),
            "--label-col",
            "label",
            "--gamma",
            "0.3",
            "--landmarks",
            "20",
            "--max-dimension",
            "5",
            "--model-out",
            model);
    assertEquals(0, rde.code(), rde::toString);
    List<List<String>> predictions = new ArrayList<>();
    for (Path input : List.of(sameOrder, mixedOrder)) {
      Path output = dir.resolve("predictions-" + input.getFileName());
      TestSpark.Result run =
          TestSpark.cli(
              "predict",
              "--model",
              model,
              "--input",
              input.toString(),
              "--label-col",
              "label",
              "--output",
              output.toString());
      assertEquals(0, run.code(), run::toString);
      predictions.add(CliFixture.outputLines(output));
    }
    assertEquals(HEADERS.length * ROWS, predictions.get(0).size());
    assertEquals(predictions.get(0), predictions.get(1));
  }

  @Test
  void otherColumnNamesAreRefusedNamingBothFilesAndHeaders() throws IOException {
    Path input = Files.createDirectories(dir.resolve("other-names"));
    Files.copy(sameOrder.resolve("part-0.csv"), input.resolve("a.csv"));
    Files.writeString(input.resolve("b.csv"), "x1,x2,x4,label\n1,2,3,1\n");
    assertUsageError(
        TestSpark.cli(
            "fit",
            "--input",
            input.toString(),
            "--k",
            "1",
            "--landmarks",
            "3",
            "--model-out",
            dir.resolve("other-names-model").toString()),
        "b.csv (x1,x2,x4,label)",
        "a.csv (x1,x2,x3,label)",
        "same columns, in any order");
  }

  private static TestSpark.Result stream(Path input, String name) {
    return CliFixture.streamOnce(
        input,
        dir,
        name,
        "--feature-map",
        "rff",
        "--features",
        "20",
        "--gamma",
        "0.3",
        "--seed",
        "9",
        "--summary-out",
        dir.resolve(name + ".json").toString());
  }

  /** A stream whose later files list the columns in other orders equals the batch fit. */
  @Test
  void streamReadsReorderedHeadersByName() throws IOException {
    Path input = Files.createDirectories(dir.resolve("stream-mixed"));
    for (int f = 0; f < HEADERS.length; f++) {
      CliFixture.landCopy(
          mixedOrder.resolve("part-" + f + ".csv"), input.resolve("part-" + f + ".csv"), f);
    }
    TestSpark.Result run = stream(input, "stream-mixed");
    assertEquals(0, run.code(), run::toString);
    JsonNode streamed = CliFixture.json(dir.resolve("stream-mixed.json"));
    JsonNode batch =
        fit(
            sameOrder,
            "fit-rff",
            "--feature-map",
            "rff",
            "--features",
            "20",
            "--gamma",
            "0.3",
            "--seed",
            "9");
    assertEquals(HEADERS.length * ROWS, streamed.get("n").asInt());
    for (int i = 0; i < 2; i++) {
      double expected = batch.get("eigenvalues").get(i).asDouble();
      assertEquals(
          expected,
          streamed.get("eigenvalues").get(i).asDouble(),
          1e-10 * expected,
          "eigenvalue " + i);
    }
  }

  /**
   * A file with other column names arriving in a stream fails its micro-batch with one line naming
   * the file and both headers; once the file is fixed the same checkpoint carries on and every row
   * is taken once.
   */
  @Test
  void streamRefusesOtherNamesAndRecoversOnceTheFileIsFixed() throws IOException {
    Path input = Files.createDirectories(dir.resolve("stream-names"));
    CliFixture.landCopy(sameOrder.resolve("part-0.csv"), input.resolve("part-0.csv"), 0);
    Path second = input.resolve("part-1.csv");
    String good = Files.readString(sameOrder.resolve("part-1.csv"));
    CliFixture.land(second, good.replaceFirst("x3", "x4"), 1);
    String line =
        assertUsageError(
            stream(input, "stream-names"),
            "part-1.csv (x1,x2,x4,label)",
            "part-0.csv (x1,x2,x3,label)",
            "same columns, in any order");
    assertFalse(line.contains("__spark_kpca"), line);

    CliFixture.land(second, good, 1);
    TestSpark.Result fixed = stream(input, "stream-names");
    assertEquals(0, fixed.code(), fixed::toString);
    JsonNode summary = CliFixture.json(dir.resolve("stream-names.json"));
    assertEquals(2 * ROWS, summary.get("n").asInt());
  }

  /** Every malformed kind of row in a file that arrives in a stream is refused naming the file. */
  @Test
  void streamRefusesEveryMalformedKindNamingTheFile() throws IOException {
    String[][] kinds = {
      {"extra", "1,2,3,1,9", "5 cells", "header's 4"},
      {"short", "1,2,1", "3 cells", "header's 4"},
      {"text", "1,oops,3,1", "column 'x2'", "'oops'"},
      {"nan", "1,2,NaN,1", "column 'x3'", "NaN"},
      {"inf", "Infinity,2,3,1", "column 'x1'", "Infinity"},
      {"empty", "1,,3,1", "column 'x2'", "empty"}
    };
    for (String[] kind : kinds) {
      Path input = Files.createDirectories(dir.resolve("stream-" + kind[0]));
      CliFixture.landCopy(sameOrder.resolve("part-0.csv"), input.resolve("part-0.csv"), 0);
      Path bad =
          CliFixture.land(
              input.resolve("part-1.csv"), HEADERS[0] + "\n1,2,3,1\n" + kind[1] + "\n", 1);
      assertUsageError(stream(input, "stream-" + kind[0]), kind[2], kind[3], bad.toString());
    }
  }

  @Test
  void textLabelsAreRefusedWithFileAndLine() throws IOException {
    Path csv = dir.resolve("text-labels.csv");
    Files.writeString(csv, "a,b,label\n1,2,1\n3,4,-1\n5,6,spam\n7,8,1\n1,3,-1\n2,2,1\n");
    String line =
        assertUsageError(
            TestSpark.cli(
                "rde",
                "--input",
                csv.toString(),
                "--label-col",
                "label",
                "--gamma",
                "0.3",
                "--landmarks",
                "3",
                "--model-out",
                dir.resolve("text-labels-model").toString()),
            "label column 'label'",
            "'spam'",
            "row 3 (line 4)",
            "text-labels.csv");
    assertFalse(line.contains("partition"), line);

    String missing =
        assertUsageError(
            TestSpark.cli(
                "fit",
                "--input",
                csv.toString(),
                "--label-col",
                "target",
                "--k",
                "1",
                "--landmarks",
                "3",
                "--model-out",
                dir.resolve("missing-label-model").toString()),
            "'target'",
            "(columns: a, b, label)");
    assertTrue(!missing.contains("__spark_kpca"), missing);
  }
}
