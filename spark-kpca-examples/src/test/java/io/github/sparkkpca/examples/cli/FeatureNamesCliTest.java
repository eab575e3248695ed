package io.github.sparkkpca.examples.cli;

import static io.github.sparkkpca.examples.cli.CliErrorsTest.assertUsageError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.KernelPCARegressionModel;
import io.github.sparkkpca.streaming.StreamingKernelPCA;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Models record the feature names of their CSV input at fit, and every command that scores or
 * absorbs rows reads each file's columns by those names: a file whose header lists them in another
 * order ({@code x3,x1,x2}) scores as the model's order does, also when a header-only file of a
 * third order sorts first; other names are refused naming the file and both lists; {@code
 * --ignore-feature-names} reads by position on purpose; and a header naming a column twice is
 * refused with the file and the name.
 */
class FeatureNamesCliTest {

  @TempDir static Path dir;

  static final String FIT_HEADER = "x1,x2,x3,label";
  static final int ROWS = 40;

  static Path model;
  static Path rdeModel;

  /** Numbers the outputs, so that no run replaces another's. */
  static final java.util.concurrent.atomic.AtomicInteger OUTPUTS =
      new java.util.concurrent.atomic.AtomicInteger();

  /** The rows x1, x2, x3 (distinct scales, so that any reordering changes the scores), label. */
  static List<String[]> rows(long seed) {
    Random random = new Random(seed);
    List<String[]> rows = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      double x1 = random.nextGaussian();
      double x2 = 4 * random.nextGaussian() + 2;
      double x3 = 0.3 * random.nextGaussian() - 1;
      rows.add(
          new String[] {
            CliFixture.fmt(x1),
            CliFixture.fmt(x2),
            CliFixture.fmt(x3),
            CliFixture.fmt(x1 + 0.2 * x2 + i % 3)
          });
    }
    return rows;
  }

  /** Writes the rows (cells in the order x1,x2,x3,label) under {@code header}. */
  static Path write(Path file, String header, List<String[]> rows, int f) throws IOException {
    return CliFixture.writeCsv(file, FIT_HEADER, header, rows, f);
  }

  /** A file holding a header only, as an export with no rows writes it. */
  static void headerOnly(Path file, String header) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, header + "\n");
    file.toFile().setLastModified(1_700_000_000_000L);
  }

  @BeforeAll
  static void fitModels() throws IOException {
    TestSpark.session();
    Path train = dir.resolve("train");
    write(train.resolve("part-0.csv"), FIT_HEADER, rows(1), 0);
    model = dir.resolve("model");
    TestSpark.Result fit =
        TestSpark.cli(
            "fit",
            "--input",
            train.toString(),
            "--label-col",
            "label",
            "--k",
            "2",
            "--landmarks",
            "15",
            "--seed",
            "4",
            "--model-out",
            model.toString());
    assertEquals(0, fit.code(), fit::toString);
    rdeModel = dir.resolve("rde-model");
    TestSpark.Result rde =
        TestSpark.cli(
            "rde",
            "--input",
            train.toString(),
            "--label-col",
            "label",
            "--gamma",
            "0.3",
            "--landmarks",
            "20",
            "--max-dimension",
            "5",
            "--model-out",
            rdeModel.toString());
    assertEquals(0, rde.code(), rde::toString);
  }

  /** The same test rows in the fit's order, and in another order behind a header-only file. */
  static Path ordered;

  static Path permuted;

  @BeforeAll
  static void writeTestFiles() throws IOException {
    List<String[]> test = rows(2);
    ordered = dir.resolve("ordered");
    write(ordered.resolve("part-1.csv"), FIT_HEADER, test, 1);
    permuted = dir.resolve("permuted");
    headerOnly(permuted.resolve("0-empty-export.csv"), "label,x2,x3,x1");
    write(permuted.resolve("part-1.csv"), "x3,x1,x2,label", test, 1);
  }

  /** The lines of the CSV part files of an output directory, without headers, sorted. */
  static List<String> outputLines(Path output) throws IOException {
    List<String> lines = CliFixture.outputLines(output);
    lines.sort(null);
    return lines;
  }

  private static List<String> run(String command, Path modelDir, Path input, String... more)
      throws IOException {
    Path output =
        dir.resolve(command + "-" + input.getFileName() + "-" + OUTPUTS.incrementAndGet());
    List<String> args =
        new ArrayList<>(
            List.of(
                command,
                "--model",
                modelDir.toString(),
                "--input",
                input.toString(),
                "--label-col",
                "label",
                "--output",
                output.toString()));
    args.addAll(List.of(more));
    TestSpark.Result r = TestSpark.cli(args.toArray(String[]::new));
    assertEquals(0, r.code(), r::toString);
    List<String> lines = outputLines(output);
    assertEquals(ROWS, lines.size());
    return lines;
  }

  @Test
  void modelsRecordTheHeaderNames() {
    assertArrayEquals(
        new String[] {"x1", "x2", "x3"},
        AbstractKernelPCAModel.loadAny(model.toString()).featureNames());
    assertArrayEquals(
        new String[] {"x1", "x2", "x3"},
        KernelPCARegressionModel.load(rdeModel.toString()).featureNames());
  }

  @Test
  void transformReadsEveryFileByTheModelsNames() throws IOException {
    List<String> expected = run("transform", model, ordered);
    assertEquals(expected, run("transform", model, permuted));
  }

  @Test
  void predictReadsEveryFileByTheModelsNames() throws IOException {
    List<String> expected = run("predict", rdeModel, ordered);
    assertEquals(expected, run("predict", rdeModel, permuted));
  }

  /** Numeric Parquet columns are assembled by the model's names too, whatever their order. */
  @Test
  void assembledParquetColumnsAreReadByTheModelsNames() throws IOException {
    Path parquet = dir.resolve("permuted.parquet");
    TestSpark.session()
        .read()
        .option("header", "true")
        .csv(ordered.toString())
        .selectExpr(
            "cast(x3 as double) x3", "label", "cast(x1 as double) x1", "cast(x2 as double) x2")
        .write()
        .parquet(parquet.toString());
    assertEquals(run("transform", model, ordered), run("transform", model, parquet));
  }

  /**
   * evaluate reads every file by the model's names: the captured variance of either order agrees.
   */
  @Test
  void evaluateReadsEveryFileByTheModelsNames() throws IOException {
    List<Double> captured = new ArrayList<>();
    for (Path input : List.of(ordered, permuted)) {
      Path summary = dir.resolve("evaluate-" + input.getFileName() + ".json");
      TestSpark.Result r =
          TestSpark.cli(
              "evaluate",
              "--model",
              model.toString(),
              "--input",
              input.toString(),
              "--label-col",
              "label",
              "--summary-out",
              summary.toString());
      assertEquals(0, r.code(), r::toString);
      captured.add(CliFixture.json(summary).get("capturedVariance").asDouble());
    }
    assertEquals(captured.get(0), captured.get(1), 1e-12 * captured.get(0));
  }

  /** label → scores of a score-stream output (Parquet). */
  private static Map<String, double[]> streamScores(Path output) {
    Map<String, double[]> out = new HashMap<>();
    for (Row r :
        TestSpark.session()
            .read()
            .parquet(output.toString())
            .select("label", "kpca")
            .collectAsList()) {
      assertNull(out.put(String.valueOf(r.get(0)), ((Vector) r.get(1)).toArray()));
    }
    return out;
  }

  private static Map<String, double[]> scoreStream(Path input) {
    Path output = dir.resolve("stream-" + input.getFileName());
    TestSpark.Result r =
        TestSpark.cli(
            "score-stream",
            "--model",
            model.toString(),
            "--input",
            input.toString(),
            "--label-col",
            "label",
            "--output",
            output.toString(),
            "--checkpoint",
            dir.resolve("checkpoint-" + input.getFileName()).toString(),
            "--available-now");
    assertEquals(0, r.code(), r::toString);
    return streamScores(output);
  }

  @Test
  void scoreStreamReadsEveryFileByTheModelsNames() {
    Map<String, double[]> expected = scoreStream(ordered);
    Map<String, double[]> scored = scoreStream(permuted);
    assertEquals(ROWS, expected.size());
    assertEquals(expected.keySet(), scored.keySet());
    for (String label : expected.keySet()) {
      assertArrayEquals(expected.get(label), scored.get(label), 0.0, "row " + label);
    }
  }

  @Test
  void otherNamesAreRefusedWithTheFileAndBothLists() throws IOException {
    Path other = Files.createDirectories(dir.resolve("other"));
    List<String> lines = Files.readAllLines(ordered.resolve("part-1.csv"));
    lines.set(0, "x1,x2,z,label");
    Path file = Files.write(other.resolve("part-0.csv"), lines);
    for (String command : List.of("transform", "update")) {
      List<String> args =
          new ArrayList<>(
              List.of(
                  command,
                  "--model",
                  model.toString(),
                  "--input",
                  other.toString(),
                  "--label-col",
                  "label"));
      args.addAll(
          command.equals("transform")
              ? List.of("--output", dir.resolve("refused").toString())
              : List.of("--model-out", dir.resolve("refused-update").toString()));
      assertUsageError(
          TestSpark.cli(args.toArray(String[]::new)),
          file.getFileName().toString(),
          "x1,x2,z,label",
          "x1,x2,x3,label",
          "missing x3",
          "--ignore-feature-names");
    }
  }

  /**
   * {@code --ignore-feature-names} scores by position on purpose: a file whose columns are the
   * model's under other names scores as the model's own header does.
   */
  @Test
  void ignoreFeatureNamesScoresByPosition() throws IOException {
    Path positional = dir.resolve("positional");
    Files.createDirectories(positional);
    List<String> lines = Files.readAllLines(ordered.resolve("part-1.csv"));
    lines.set(0, "a,b,c,label");
    Files.write(positional.resolve("part-1.csv"), lines);
    List<String> expected = run("transform", model, ordered);
    assertEquals(expected, run("transform", model, positional, "--ignore-feature-names"));
    // Without the flag, it is refused.
    assertUsageError(
        TestSpark.cli(
            "transform",
            "--model",
            model.toString(),
            "--input",
            positional.toString(),
            "--label-col",
            "label",
            "--output",
            dir.resolve("positional-refused").toString()),
        "a,b,c,label",
        "x1,x2,x3,label");
    // And a reordered file read by position gives other scores (the flag really ignores names).
    assertNotEquals(expected, run("transform", model, permuted, "--ignore-feature-names"));
  }

  /** An update of the model with reordered files equals the update with the fit's order. */
  @Test
  void updateReadsEveryFileByTheModelsNames() throws IOException {
    List<List<String>> scores = new ArrayList<>();
    for (Path input : List.of(ordered, permuted)) {
      Path updated = dir.resolve("updated-" + input.getFileName());
      TestSpark.Result r =
          TestSpark.cli(
              "update",
              "--model",
              model.toString(),
              "--input",
              input.toString(),
              "--label-col",
              "label",
              "--model-out",
              updated.toString());
      assertEquals(0, r.code(), r::toString);
      assertArrayEquals(
          new String[] {"x1", "x2", "x3"},
          AbstractKernelPCAModel.loadAny(updated.toString()).featureNames());
      scores.add(run("transform", updated, ordered));
    }
    assertEquals(scores.get(0), scores.get(1));
  }

  private static TestSpark.Result stream(Path input, String name) {
    return CliFixture.streamOnce(input, dir, name, "--landmarks", "15", "--seed", "4");
  }

  /**
   * Streaming versions record the names, and a restart reads new files by them: a header-only file
   * of another order that sorts first, added before the restart, does not decide the order.
   */
  @Test
  void aStreamRestartReadsNewFilesByTheVersionsNames() throws IOException {
    Path input = dir.resolve("stream-input");
    write(input.resolve("part-1.csv"), FIT_HEADER, rows(1), 1);
    TestSpark.Result first = stream(input, "restarted");
    assertEquals(0, first.code(), first::toString);
    assertArrayEquals(
        new String[] {"x1", "x2", "x3"},
        StreamingKernelPCA.loadLatest(dir.resolve("restarted-model").toString()).featureNames());
    headerOnly(input.resolve("0-empty-export.csv"), "label,x2,x3,x1");
    write(input.resolve("part-2.csv"), "x3,x1,x2,label", rows(2), 2);
    TestSpark.Result second = stream(input, "restarted");
    assertEquals(0, second.code(), second::toString);

    Path plain = dir.resolve("stream-plain");
    write(plain.resolve("part-1.csv"), FIT_HEADER, rows(1), 1);
    write(plain.resolve("part-2.csv"), FIT_HEADER, rows(2), 2);
    TestSpark.Result once = stream(plain, "plain");
    assertEquals(0, once.code(), once::toString);

    AbstractKernelPCAModel<?> restarted =
        StreamingKernelPCA.loadLatest(dir.resolve("restarted-model").toString());
    AbstractKernelPCAModel<?> expected =
        StreamingKernelPCA.loadLatest(dir.resolve("plain-model").toString());
    assertArrayEquals(new String[] {"x1", "x2", "x3"}, restarted.featureNames());
    assertEquals(2 * ROWS, restarted.numRows());
    double[] want = expected.eigenvalues().toArray();
    double[] got = restarted.eigenvalues().toArray();
    for (int i = 0; i < 2; i++) {
      assertEquals(want[i], got[i], 1e-10 * want[0], "eigenvalue " + i);
    }
  }

  @Test
  void duplicateHeaderNamesAreRefusedWithTheFileAndTheName() throws IOException {
    int i = 0;
    for (String header : List.of("x,x1,x,label", "x0,x,x,label", "x,X,y,label")) {
      Path input = dir.resolve("duplicates-" + i++);
      Files.createDirectories(input);
      Path file = input.resolve("data.csv");
      Files.writeString(file, header + "\n1,2,3,4\n5,6,7,8\n");
      String name = header.startsWith("x,X") ? "X" : "x";
      assertUsageError(
          TestSpark.cli(
              "fit",
              "--input",
              input.toString(),
              "--label-col",
              "label",
              "--k",
              "1",
              "--landmarks",
              "2",
              "--model-out",
              dir.resolve("duplicates-model-" + i).toString()),
          "data.csv",
          "'" + name + "'",
          "more than once");
      assertUsageError(
          TestSpark.cli(
              "score-stream",
              "--model",
              model.toString(),
              "--input",
              input.toString(),
              "--label-col",
              "label",
              "--output",
              dir.resolve("duplicates-out-" + i).toString(),
              "--checkpoint",
              dir.resolve("duplicates-checkpoint-" + i).toString(),
              "--available-now"),
          "data.csv",
          "'" + name + "'",
          "more than once");
    }
  }
}
