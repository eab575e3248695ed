package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * score-stream: CSV files landing in a directory, scored in two runs (the first ends with
 * --available-now, the second runs on a processing-time trigger and is stopped from outside), equal
 * the batch transform of the same rows, each row once; the outputs are refused up front with one
 * line and exit code 2, and a bad cell fails the stream naming its column and file.
 */
class ScoreStreamCliTest {

  @TempDir static Path dir;
  static Path model;
  static final int ROWS = 30;

  /** Writes CSV file {@code f} (ids f*ROWS..) with columns x1..x3 and the row id as the label. */
  static void writeCsv(Path input, int f) throws IOException {
    Random random = new Random(100 + f);
    StringBuilder text = new StringBuilder("x1,x2,x3,id\n");
    for (int i = 0; i < ROWS; i++) {
      text.append(
          String.format(
              Locale.ROOT,
              "%.6f,%.6f,%.6f,%d%n",
              random.nextGaussian(),
              2 * random.nextGaussian(),
              (i % 2) + random.nextGaussian(),
              f * ROWS + i));
    }
    // Written aside and moved in, as a stream's files must land whole.
    Path tmp = Files.writeString(dir.resolve(".tmp-" + f + ".csv"), text.toString());
    Path file = Files.move(tmp, input.resolve("part-" + f + ".csv"));
    file.toFile().setLastModified(1_700_000_000_000L + f * 10_000L);
  }

  @BeforeAll
  static void fitModel() throws IOException {
    TestSpark.session();
    Path train = Files.createDirectories(dir.resolve("train"));
    writeCsv(train, 0);
    writeCsv(train, 1);
    model = dir.resolve("model");
    TestSpark.Result fit =
        TestSpark.cli(
            "fit",
            "--input",
            train.toString(),
            "--label-col",
            "id",
            "--k",
            "3",
            "--landmarks",
            "20",
            "--seed",
            "4",
            "--model-out",
            model.toString());
    assertEquals(0, fit.code(), fit::toString);
  }

  /** label (row id) → score vector and residual, failing on a row written twice. */
  static Map<Long, double[]> scores(String parquetDir) {
    Map<Long, double[]> out = new HashMap<>();
    for (Row r :
        TestSpark.session()
            .read()
            .parquet(parquetDir)
            .select("id", "kpca", "residual")
            .collectAsList()) {
      double[] pcs = ((Vector) r.get(1)).toArray();
      double[] values = java.util.Arrays.copyOf(pcs, pcs.length + 1);
      values[pcs.length] = r.getDouble(2);
      long id = (long) Double.parseDouble(String.valueOf(r.get(0)));
      assertNull(out.put(id, values), "row " + id + " written twice");
    }
    return out;
  }

  private static List<String> args(Path input, Path output, Path checkpoint, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "score-stream",
                "--model",
                model.toString(),
                "--input",
                input.toString(),
                "--label-col",
                "id",
                "--output",
                output.toString(),
                "--checkpoint",
                checkpoint.toString(),
                "--residual",
                "--max-files-per-trigger",
                "1"));
    args.addAll(List.of(more));
    return args;
  }

  @Test
  void twoRunsEqualTheBatchTransformEachRowOnce() throws Exception {
    Path input = Files.createDirectories(dir.resolve("in"));
    Path output = dir.resolve("scored");
    Path checkpoint = dir.resolve("ckpt");
    writeCsv(input, 0);
    writeCsv(input, 1);
    TestSpark.Result first =
        TestSpark.cli(args(input, output, checkpoint, "--available-now").toArray(String[]::new));
    assertEquals(0, first.code(), first::toString);
    assertTrue(
        first.out().contains("scored " + 2 * ROWS + " rows in 2 micro-batches"), first.out());
    assertEquals(2 * ROWS, scores(output.toString()).size());

    // The second run keeps going until stopped from outside, after the files landing meanwhile.
    writeCsv(input, 2);
    CompletableFuture<TestSpark.Result> second =
        CompletableFuture.supplyAsync(
            () ->
                TestSpark.cli(
                    args(input, output, checkpoint, "--trigger-interval", "0.2")
                        .toArray(String[]::new)));
    SparkSession spark = TestSpark.session();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    boolean added = false;
    while (System.nanoTime() < deadline && !second.isDone()) {
      long written = Files.exists(output) ? spark.read().parquet(output.toString()).count() : 0;
      if (written >= 3 * ROWS && !added) {
        writeCsv(input, 3);
        added = true;
      }
      if (written >= 4 * ROWS) {
        break;
      }
      Thread.sleep(200);
    }
    for (StreamingQuery q : spark.streams().active()) {
      q.stop();
    }
    TestSpark.Result run = second.get(60, TimeUnit.SECONDS);
    assertEquals(0, run.code(), run::toString);
    assertTrue(run.out().contains("batch 2: " + ROWS + " rows scored"), run.out());

    Path batch = dir.resolve("batch");
    TestSpark.Result transform =
        TestSpark.cli(
            "transform",
            "--model",
            model.toString(),
            "--input",
            input.toString(),
            "--label-col",
            "id",
            "--residual",
            "--output-format",
            "parquet",
            "--output",
            batch.toString());
    assertEquals(0, transform.code(), transform::toString);
    Map<Long, double[]> expected = scores(batch.toString());
    Map<Long, double[]> streamed = scores(output.toString());
    assertEquals(4 * ROWS, expected.size());
    assertEquals(expected.keySet(), streamed.keySet(), "every input row once");
    for (Map.Entry<Long, double[]> e : expected.entrySet()) {
      double[] want = e.getValue();
      double[] got = streamed.get(e.getKey());
      for (int j = 0; j < want.length; j++) {
        assertEquals(want[j], got[j], 1e-10 * (1 + Math.abs(want[j])), "row " + e.getKey());
      }
    }

    // The pair resumes only together: this checkpoint with another output is refused.
    assertRefused(
        args(input, dir.resolve("elsewhere"), checkpoint, "--available-now"),
        "--checkpoint " + checkpoint + ": it holds a query whose output is not --output");
    // The output with a new checkpoint: only with --overwrite, which starts it anew.
    Path newCheckpoint = dir.resolve("ckpt-new");
    assertRefused(
        args(input, output, newCheckpoint, "--available-now"),
        "--output " + output + ": it holds the output of another query or command");
    TestSpark.Result again =
        TestSpark.cli(
            args(input, output, newCheckpoint, "--available-now", "--overwrite")
                .toArray(String[]::new));
    assertEquals(0, again.code(), again::toString);
    assertEquals(expected.keySet(), scores(output.toString()).keySet());
  }

  private static void assertRefused(List<String> args, String start) {
    TestSpark.Result run = TestSpark.cli(args.toArray(String[]::new));
    assertEquals(SparkKpcaCli.EXIT_USAGE, run.code(), run::toString);
    assertEquals(1, run.errLines().size(), run::toString);
    assertTrue(run.errLines().get(0).startsWith(SparkKpcaCli.ERROR_PREFIX + start), run::toString);
  }

  @Test
  void refusesOutputsUpFront() throws IOException {
    Path input = Files.createDirectories(dir.resolve("in-refused"));
    writeCsv(input, 0);
    Path out = dir.resolve("r-out");
    Path ckpt = dir.resolve("r-ckpt");
    assertRefused(
        args(input, model.resolve("scores"), ckpt),
        "--output " + model.resolve("scores") + ": it is inside the --model");
    assertRefused(
        args(input, ckpt.resolve("scores"), ckpt),
        "--output " + ckpt.resolve("scores") + ": it is inside the --checkpoint");
    assertRefused(args(input, out, out), "--checkpoint " + out + ": it is the --output");
    assertRefused(
        args(input, input.resolve("scores"), ckpt),
        "--output " + input.resolve("scores") + ": it is inside the input");
    Path foreign = Files.createDirectories(dir.resolve("foreign"));
    Files.writeString(foreign.resolve("notes.txt"), "keep me");
    assertRefused(
        args(input, foreign, ckpt, "--overwrite"),
        "--output " + foreign + ": it exists, is not empty and was not written by spark-kpca");
    assertTrue(Files.exists(foreign.resolve("notes.txt")));
    List<String> noModel = args(input, out, ckpt);
    noModel.set(noModel.indexOf(model.toString()), dir.resolve("no-model").toString());
    assertRefused(noModel, "--model: no saved model in " + dir.resolve("no-model"));
    Path empty = Files.createDirectories(dir.resolve("in-empty"));
    assertRefused(args(empty, out, ckpt), "--input " + empty + ": no file yet");
    assertTrue(!Files.exists(out) && !Files.exists(ckpt), "nothing written on a refusal");
  }

  @Test
  void aBadCellFailsTheStreamWithItsColumnAndFile() throws IOException {
    Path input = Files.createDirectories(dir.resolve("in-bad"));
    Files.writeString(input.resolve("bad.csv"), "x1,x2,x3,id\n1,2,3,0\n1,oops,3,1\n");
    TestSpark.Result run =
        TestSpark.cli(
            args(input, dir.resolve("bad-out"), dir.resolve("bad-ckpt"), "--available-now")
                .toArray(String[]::new));
    assertEquals(SparkKpcaCli.EXIT_USAGE, run.code(), run::toString);
    assertEquals(1, run.errLines().size(), run::toString);
    assertEquals(
        SparkKpcaCli.ERROR_PREFIX
            + "column 'x2' has a non-numeric value 'oops' in "
            + input.resolve("bad.csv")
            + "; every column except --label-col is a numeric feature",
        run.errLines().get(0));
  }
}
