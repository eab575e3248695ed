package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
    StreamCsvFiles.write(
        input, f, StreamCsvFiles.text(new Random(100 + f), ROWS, "id", i -> f * ROWS + i), dir);
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
        "--output "
            + output
            + ": it is claimed by the query of the checkpoint file:"
            + checkpoint
            + ", not --checkpoint "
            + newCheckpoint);
    TestSpark.Result again =
        TestSpark.cli(
            args(input, output, newCheckpoint, "--available-now", "--overwrite")
                .toArray(String[]::new));
    assertEquals(0, again.code(), again::toString);
    assertEquals(expected.keySet(), scores(output.toString()).keySet());
  }

  /**
   * {@code --overwrite} with a new checkpoint deleted the output of a query still running on the
   * old one (which then failed, its output left with unlisted files): it is refused while another
   * process holds the old checkpoint's lock, naming that process, with the output intact; once that
   * process has ended the output is replaced.
   */
  @Test
  void overwriteRefusesTheOutputOfARunningQuery() throws Exception {
    Path input = Files.createDirectories(dir.resolve("in-running"));
    writeCsv(input, 0);
    Path output = dir.resolve("running-out");
    Path first = dir.resolve("running-ckpt-a");
    TestSpark.Result a =
        TestSpark.cli(args(input, output, first, "--available-now").toArray(String[]::new));
    assertEquals(0, a.code(), a::toString);
    Map<Long, double[]> written = scores(output.toString());
    List<String> files = fileNames(output);
    // A query running on the first checkpoint: a process holding its lock, as a query does.
    Process holder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty(
                    "surefire.test.class.path", System.getProperty("java.class.path")),
                "io.github.sparkkpca.streaming.CheckpointLockTest",
                first.toString())
            .redirectErrorStream(true)
            .start();
    Path second = dir.resolve("running-ckpt-b");
    try {
      java.io.BufferedReader lines =
          new java.io.BufferedReader(
              new java.io.InputStreamReader(
                  holder.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
      String line;
      while ((line = lines.readLine()) != null && !line.equals("locked")) {
        // the child's log lines
      }
      assertEquals("locked", line, "the child JVM did not lock the checkpoint");
      assertRefused(
          args(input, output, second, "--available-now", "--overwrite"),
          "--output "
              + output
              + ": the query of its checkpoint file:"
              + first
              + " is still running (pid "
              + holder.pid()
              + " on host ");
      assertEquals(files, fileNames(output), "nothing deleted");
      assertEquals(written.keySet(), scores(output.toString()).keySet());
    } finally {
      holder.destroyForcibly();
      assertTrue(holder.waitFor(1, TimeUnit.MINUTES));
    }
    // The first query has ended: its output may be replaced.
    writeCsv(input, 1);
    TestSpark.Result b =
        TestSpark.cli(
            args(input, output, second, "--available-now", "--overwrite").toArray(String[]::new));
    assertEquals(0, b.code(), b::toString);
    assertEquals(2 * ROWS, scores(output.toString()).size());
  }

  /**
   * A read-only checkpoint failed with exit code 1 and "FileSystemException ... Operation not
   * permitted": it is refused in one line saying so, exit code 2. Root writes into a directory
   * without write permission, so there the directory is made immutable ({@code chattr +i}); the
   * test is skipped where neither makes it read-only.
   */
  @Test
  void aReadOnlyCheckpointIsRefusedInOneLine() throws Exception {
    Path input = Files.createDirectories(dir.resolve("in-read-only"));
    writeCsv(input, 0);
    Path checkpoint = Files.createDirectories(dir.resolve("read-only-ckpt"));
    boolean immutable = "root".equals(System.getProperty("user.name")) && chattr("+i", checkpoint);
    if (!immutable) {
      checkpoint.toFile().setWritable(false);
    }
    try {
      boolean readOnly;
      try {
        Files.delete(Files.createFile(checkpoint.resolve("probe")));
        readOnly = false;
      } catch (IOException e) {
        readOnly = true;
      }
      org.junit.jupiter.api.Assumptions.assumeTrue(readOnly, "cannot make a directory read-only");
      assertRefused(
          args(input, dir.resolve("read-only-out"), checkpoint, "--available-now"),
          "--checkpoint " + checkpoint + ": it is not writable (");
    } finally {
      if (immutable) {
        chattr("-i", checkpoint);
      }
      checkpoint.toFile().setWritable(true);
    }
  }

  /** Whether {@code chattr flag path} succeeded (false where there is no chattr). */
  private static boolean chattr(String flag, Path path) throws InterruptedException {
    try {
      return new ProcessBuilder("chattr", flag, path.toString()).start().waitFor() == 0;
    } catch (IOException e) {
      return false;
    }
  }

  /** The names of the files under {@code dir}, sorted. */
  private static List<String> fileNames(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.map(p -> dir.relativize(p).toString()).sorted().toList();
    }
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
    // The line, not only the file (a blank line counts as a line of the file).
    Files.writeString(input.resolve("bad.csv"), "x1,x2,x3,id\n1,2,3,0\n\n1,oops,3,1\n");
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
            + ", line 4; every column except --label-col is a numeric feature",
        run.errLines().get(0));
  }

  /**
   * Issue 35 item 2: two score-streams started together on one --output with different checkpoints:
   * exactly one writes (every input row once), the other exits 2 with one line naming --output and
   * the winner's checkpoint, its query never started. Several rounds, as a race may go either way.
   */
  @Test
  void twoScoreStreamsStartedTogetherOnOneOutputExactlyOneWrites() throws Exception {
    Path input = Files.createDirectories(dir.resolve("in-race"));
    writeCsv(input, 0);
    writeCsv(input, 1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 3; round++) {
        Path output = dir.resolve("race-out-" + round);
        List<Path> checkpoints =
            List.of(dir.resolve("race-a-" + round), dir.resolve("race-b-" + round));
        CyclicBarrier together = new CyclicBarrier(2);
        List<Future<TestSpark.Result>> runs = new ArrayList<>();
        for (Path checkpoint : checkpoints) {
          Callable<TestSpark.Result> run =
              () -> {
                together.await();
                return TestSpark.cli(
                    args(input, output, checkpoint, "--available-now").toArray(String[]::new));
              };
          runs.add(pool.submit(run));
        }
        List<TestSpark.Result> results = new ArrayList<>();
        for (Future<TestSpark.Result> f : runs) {
          results.add(f.get(180, TimeUnit.SECONDS));
        }
        int winner = results.get(0).code() == 0 ? 0 : 1;
        TestSpark.Result won = results.get(winner);
        TestSpark.Result lost = results.get(1 - winner);
        assertEquals(0, won.code(), won::toString);
        assertEquals(SparkKpcaCli.EXIT_USAGE, lost.code(), lost::toString);
        assertEquals(1, lost.errLines().size(), lost::toString);
        String line = lost.errLines().get(0);
        assertTrue(line.startsWith(SparkKpcaCli.ERROR_PREFIX + "--output " + output + ": "), line);
        assertTrue(line.contains("checkpoint file:" + checkpoints.get(winner)), line);
        assertTrue(
            !Files.exists(checkpoints.get(1 - winner).resolve("offsets")),
            "the losing query never started");
        Map<Long, double[]> written = scores(output.toString()); // fails on a row written twice
        assertEquals(2 * ROWS, written.size(), "round " + round);
        for (long id = 0; id < 2 * ROWS; id++) {
          assertTrue(written.containsKey(id), "row " + id);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * The rows of the output as a reader that lists the directory reads them (pyarrow, pandas,
   * DuckDB: every file but those with a path component starting with '_' or '.'), without Spark's
   * log: label (row id) to its count.
   */
  static Map<Long, Integer> listedRows(Path output) throws IOException {
    List<String> files;
    try (Stream<Path> walk = Files.walk(output)) {
      files =
          walk.filter(Files::isRegularFile)
              .filter(
                  p -> {
                    for (Path part : output.relativize(p)) {
                      String name = part.toString();
                      if (name.startsWith("_") || name.startsWith(".")) {
                        return false;
                      }
                    }
                    return true;
                  })
              .map(Path::toString)
              .toList();
    }
    Map<Long, Integer> counts = new HashMap<>();
    if (files.isEmpty()) {
      return counts;
    }
    for (Row r :
        TestSpark.session()
            .read()
            .parquet(files.toArray(String[]::new))
            .select("id")
            .collectAsList()) {
      counts.merge((long) Double.parseDouble(String.valueOf(r.get(0))), 1, Integer::sum);
    }
    return counts;
  }

  /**
   * Issue 42 item 2: a second score-stream on the checkpoint (and output) of a running one is
   * refused before it writes anything, naming the checkpoint and the running process; the part
   * files, read as pyarrow reads a directory, hold each row once. What a killed run leaves in the
   * staging directory (a 0-byte part file of a task killed while writing; a file the log lists
   * whose rename never happened) is invisible to that reader, and the restart completes or deletes
   * it.
   */
  @Test
  void aSecondScoreStreamOnARunningCheckpointIsRefusedAndLeftoversStayHidden() throws Exception {
    Path input = Files.createDirectories(dir.resolve("in-lock"));
    writeCsv(input, 0);
    writeCsv(input, 1);
    Path output = dir.resolve("lock-out");
    Path checkpoint = dir.resolve("lock-ckpt");
    CompletableFuture<TestSpark.Result> first =
        CompletableFuture.supplyAsync(
            () ->
                TestSpark.cli(
                    args(input, output, checkpoint, "--trigger-interval", "0.2")
                        .toArray(String[]::new)));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline
        && !first.isDone()
        && !(Files.isDirectory(output) && listedRows(output).size() >= 2 * ROWS)) {
      Thread.sleep(200);
    }
    TestSpark.Result second =
        TestSpark.cli(args(input, output, checkpoint, "--available-now").toArray(String[]::new));
    for (StreamingQuery q : TestSpark.session().streams().active()) {
      q.stop();
    }
    TestSpark.Result run = first.get(60, TimeUnit.SECONDS);
    assertEquals(0, run.code(), run::toString);
    assertEquals(SparkKpcaCli.EXIT_USAGE, second.code(), second::toString);
    assertEquals(1, second.errLines().size(), second::toString);
    assertTrue(
        second
            .errLines()
            .get(0)
            .startsWith(
                SparkKpcaCli.ERROR_PREFIX
                    + "--checkpoint "
                    + checkpoint
                    + ": another query is running on it (pid "
                    + ProcessHandle.current().pid()
                    + " on host "),
        second::toString);
    Map<Long, Integer> rows = listedRows(output);
    assertEquals(2 * ROWS, rows.size());
    rows.forEach((id, n) -> assertEquals(1, n, "row " + id));

    // The tasks wrote under the staging directory; every file was renamed once committed.
    Path staging = output.resolve(StagedFileCommitProtocol.STAGING);
    assertTrue(Files.isDirectory(staging), "the part files were staged");
    try (Stream<Path> left = Files.list(staging)) {
      assertEquals(List.of(), left.toList(), "every committed file is in place");
    }
    // A killed run's leftovers in the staging directory: invisible, then completed or deleted.
    Files.createFile(staging.resolve("part-00000-killed-c000.snappy.parquet"));
    Path committed;
    try (Stream<Path> parts = Files.list(output)) {
      committed =
          parts.filter(p -> p.getFileName().toString().startsWith("part-")).findFirst().get();
    }
    Files.move(committed, staging.resolve(committed.getFileName()));
    assertTrue(listedRows(output).size() < 2 * ROWS, "a listed file not renamed yet is not read");
    TestSpark.Result restart =
        TestSpark.cli(args(input, output, checkpoint, "--available-now").toArray(String[]::new));
    assertEquals(0, restart.code(), restart::toString);
    rows = listedRows(output);
    assertEquals(2 * ROWS, rows.size());
    rows.forEach((id, n) -> assertEquals(1, n, "row " + id));
    try (Stream<Path> left = Files.list(staging)) {
      assertEquals(List.of(), left.toList(), "the staging directory is emptied");
    }
    assertEquals(2 * ROWS, scores(output.toString()).size(), "Spark's reader agrees");
  }

  /**
   * Issue 35 item 9: score-stream keeps the model version it loaded at start, and a restart loads
   * the stream directory's newest version. Which version scored each row is in the optional
   * --model-version-col column, in the progress lines and in the output's records; each row's
   * scores equal the batch transform with that version.
   */
  @Test
  void aRunKeepsTheVersionItLoadedAndARestartLoadsTheNewest() throws Exception {
    Path train = Files.createDirectories(dir.resolve("v-train"));
    writeCsv(train, 0);
    Path models = dir.resolve("v-stream");
    List<String> stream =
        List.of(
            "stream",
            "--input",
            train.toString(),
            "--label-col",
            "id",
            "--model-out",
            models.toString(),
            "--checkpoint",
            dir.resolve("v-stream-ckpt").toString(),
            "--available-now",
            "--k",
            "3",
            "--landmarks",
            "20",
            "--seed",
            "4");
    TestSpark.Result streamed = TestSpark.cli(stream.toArray(String[]::new));
    assertEquals(0, streamed.code(), streamed::toString);

    Path input = Files.createDirectories(dir.resolve("v-in"));
    writeCsv(input, 0);
    writeCsv(input, 1);
    Path output = dir.resolve("v-out");
    List<String> score =
        args(input, output, dir.resolve("v-ckpt"), "--available-now", "--model-version-col", "v");
    score.set(score.indexOf(model.toString()), models.toString());
    TestSpark.Result first = TestSpark.cli(score.toArray(String[]::new));
    assertEquals(0, first.code(), first::toString);
    assertTrue(
        first.out().contains("micro-batches from 0 are scored with version-000000000000"),
        first.out());

    // The stream writes a newer version; the running output keeps its rows, a restart takes it.
    writeCsv(train, 1);
    streamed = TestSpark.cli(stream.toArray(String[]::new));
    assertEquals(0, streamed.code(), streamed::toString);
    writeCsv(input, 2);
    TestSpark.Result second = TestSpark.cli(score.toArray(String[]::new));
    assertEquals(0, second.code(), second::toString);
    assertTrue(
        second.out().contains("micro-batches from 2 are scored with version-000000000001"),
        second.out());
    assertTrue(
        second.out().contains("batch 2: " + ROWS + " rows scored with version-000000000001"),
        second.out());

    Map<Long, String> versionOf = new HashMap<>();
    for (Row r :
        TestSpark.session().read().parquet(output.toString()).select("id", "v").collectAsList()) {
      versionOf.put((long) Double.parseDouble(String.valueOf(r.get(0))), r.getString(1));
    }
    assertEquals(3 * ROWS, versionOf.size());
    Map<Long, double[]> written = scores(output.toString());
    Map<String, Map<Long, double[]>> expected = new HashMap<>();
    for (String version : List.of("version-000000000000", "version-000000000001")) {
      Path batch = dir.resolve("v-batch-" + version);
      TestSpark.Result transform =
          TestSpark.cli(
              "transform",
              "--model",
              models.resolve(version).toString(),
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
      expected.put(version, scores(batch.toString()));
    }
    double largestDifference = 0;
    for (long id = 0; id < 3 * ROWS; id++) {
      String version = id < 2 * ROWS ? "version-000000000000" : "version-000000000001";
      assertEquals(version, versionOf.get(id), "row " + id);
      double[] want = expected.get(version).get(id);
      double[] other =
          expected
              .get(version.endsWith("0") ? "version-000000000001" : "version-000000000000")
              .get(id);
      double[] got = written.get(id);
      for (int j = 0; j < want.length; j++) {
        assertEquals(want[j], got[j], 1e-10 * (1 + Math.abs(want[j])), "row " + id);
        largestDifference = Math.max(largestDifference, Math.abs(want[j] - other[j]));
      }
    }
    assertTrue(largestDifference > 1e-6, "the two versions score differently");

    ObjectMapper json = new ObjectMapper();
    Path records = output.resolve(ScoreStreamModels.DIR);
    assertEquals(
        0,
        json.readTree(records.resolve("from-batch-000000000000.json").toFile())
            .get("streamVersion")
            .asLong());
    assertEquals(
        1,
        json.readTree(records.resolve("from-batch-000000000002.json").toFile())
            .get("streamVersion")
            .asLong());

    // Issue 42 item 3: another stream's version-1 copied into a copy of this stream directory
    // (whose own version-1 it replaces): every reader refuses it, naming the version and the
    // directory.
    List<String> another = new ArrayList<>(stream);
    another.set(another.indexOf(models.toString()), dir.resolve("v-other").toString());
    another.set(
        another.indexOf(dir.resolve("v-stream-ckpt").toString()),
        dir.resolve("v-other-ckpt").toString());
    another.set(another.indexOf("4"), "5");
    another.addAll(List.of("--max-files-per-trigger", "1")); // version-0 and version-1
    TestSpark.Result other = TestSpark.cli(another.toArray(String[]::new));
    assertEquals(0, other.code(), other::toString);
    Path copy = dir.resolve("v-copy");
    copyTree(models, copy);
    Path version = copy.resolve("version-000000000001");
    try (Stream<Path> walk = Files.walk(version)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
    copyTree(dir.resolve("v-other").resolve("version-000000000001"), version);
    String refusal =
        SparkKpcaCli.ERROR_PREFIX
            + version.resolve("data/streaming.json")
            + ": the directory "
            + copy
            + " committed another version-000000000001";
    List<String> reading =
        List.of("--model", copy.toString(), "--input", input.toString(), "--label-col", "id");
    List<List<String>> readers = new ArrayList<>();
    readers.add(concat(List.of("transform"), reading, "--output", dir.resolve("v-t").toString()));
    readers.add(concat(List.of("evaluate"), reading));
    List<String> scoring = args(input, dir.resolve("v-s"), dir.resolve("v-s-ckpt"));
    scoring.set(scoring.indexOf(model.toString()), copy.toString());
    readers.add(scoring);
    for (List<String> reader : readers) {
      TestSpark.Result run = TestSpark.cli(reader.toArray(String[]::new));
      assertEquals(SparkKpcaCli.EXIT_USAGE, run.code(), run::toString);
      assertEquals(1, run.errLines().size(), run::toString);
      assertTrue(run.errLines().get(0).startsWith(refusal), run::toString);
    }
  }

  private static List<String> concat(List<String> head, List<String> tail, String... more) {
    List<String> all = new ArrayList<>(head);
    all.addAll(tail);
    all.addAll(List.of(more));
    return all;
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
