package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sparkkpca.streaming.CheckpointLock;
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
 * stream restarts (issue 28 items 4, 5 and 10): another --checkpoint, other model options, or a
 * checkpoint inside the model directory are refused with one line and exit code 2 before the query
 * starts; with --version-every-batches the phases are reported and the model after the query equals
 * fit on every row.
 */
class StreamRestartCliTest {

  @TempDir static Path dir;
  static Path input;
  static final int FILES = 3;
  static final int ROWS = 40;

  @BeforeAll
  static void writeFiles() throws IOException {
    TestSpark.session();
    input = Files.createDirectories(dir.resolve("in"));
    Random random = new Random(8);
    for (int f = 0; f < FILES; f++) {
      StreamCsvFiles.write(input, f, StreamCsvFiles.text(random, ROWS, null, null), null);
    }
  }

  private static TestSpark.Result stream(String model, String checkpoint, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "stream",
                "--input",
                input.toString(),
                "--model-out",
                model,
                "--checkpoint",
                checkpoint,
                "--available-now",
                "--max-files-per-trigger",
                "1",
                "--landmarks",
                "10",
                "--seed",
                "2"));
    args.addAll(List.of(more));
    if (!args.contains("--k")) {
      args.addAll(List.of("--k", "2"));
    }
    return TestSpark.cli(args.toArray(String[]::new));
  }

  @Test
  void anotherCheckpointOtherOptionsAndANestedCheckpointAreRefusedWithExit2() throws IOException {
    String model = dir.resolve("model").toString();
    String ckpt = dir.resolve("ckpt").toString();
    Path summary = dir.resolve("stream.json");
    TestSpark.Result first =
        stream(model, ckpt, "--version-every-batches", "2", "--summary-out", summary.toString());
    assertEquals(0, first.code(), first::toString);
    // Versions every 2 micro-batches: batch 0 writes one, batch 1 keeps its rows pending, batch 2
    // writes one; each line names its phases; the summary gives their medians.
    assertTrue(
        first
            .out()
            .contains("batch 1: " + 2 * ROWS + " rows so far (+" + ROWS + "), version pending"),
        first.out());
    assertTrue(first.out().contains("pending rows"), first.out());
    assertTrue(
        first.out().contains("micro-batch phases, median of 2 after the first: read"), first.out());
    assertTrue(first.out().contains("version-000000000002"), first.out());
    JsonNode streamed = new ObjectMapper().readTree(summary.toFile());
    assertEquals(FILES * ROWS, streamed.get("n").asInt());

    Path fitSummary = dir.resolve("fit.json");
    TestSpark.Result fitted =
        TestSpark.cli(
            "fit",
            "--input",
            input.toString(),
            "--k",
            "2",
            "--landmarks-from",
            dir.resolve("model").resolve("version-000000000002").toString(),
            "--model-out",
            dir.resolve("fitted").toString(),
            "--summary-out",
            fitSummary.toString());
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

    TestSpark.Result other = stream(model, dir.resolve("ckpt-2").toString());
    assertEquals(2, other.code(), other::toString);
    assertTrue(other.err().contains("belongs to the checkpoint"), other.err());
    assertEquals(1, other.err().strip().lines().count(), other.err());
    // The refused query never started (the checkpoint holds at most the lock of the refused run).
    assertFalse(Files.exists(dir.resolve("ckpt-2").resolve("offsets")), "the query started");
    assertFalse(Files.exists(dir.resolve("ckpt-2").resolve("metadata")), "the query started");

    TestSpark.Result k = stream(model, ckpt, "--k", "3");
    assertEquals(2, k.code(), k::toString);
    assertTrue(k.err().contains("was streamed with --k 2, not 3"), k.err());
    assertEquals(1, k.err().strip().lines().count(), k.err());

    TestSpark.Result kernel = stream(model, ckpt, "--kernel", "laplacian");
    assertEquals(2, kernel.code(), kernel::toString);
    assertTrue(
        kernel.err().contains("was streamed with --kernel rbf, not laplacian"), kernel.err());

    for (String[] pair : new String[][] {{"same", "same"}, {"m2", "m2/ckpt"}}) {
      TestSpark.Result nested =
          stream(dir.resolve(pair[0]).toString(), dir.resolve(pair[1]).toString());
      assertEquals(2, nested.code(), nested::toString);
      assertTrue(nested.err().contains("give them separate paths"), nested.err());
      assertEquals(1, nested.err().strip().lines().count(), nested.err());
      assertFalse(Files.exists(dir.resolve(pair[0])), "nothing written");
    }
  }

  /**
   * Issue 42 item 2: a stream on the checkpoint of a running query (here held by this JVM, as a
   * running command holds it) is refused before it writes anything, naming the checkpoint and the
   * running process.
   */
  @Test
  void aCheckpointInUseIsRefusedNamingItsHolder() throws Exception {
    Path ckpt = dir.resolve("held-ckpt");
    Path model = dir.resolve("held-model");
    try (CheckpointLock held =
        CheckpointLock.acquire(ckpt.toString(), new org.apache.hadoop.conf.Configuration())) {
      TestSpark.Result run = stream(model.toString(), ckpt.toString());
      assertEquals(SparkKpcaCli.EXIT_USAGE, run.code(), run::toString);
      assertEquals(1, run.errLines().size(), run::toString);
      assertTrue(
          run.errLines()
              .get(0)
              .startsWith(
                  SparkKpcaCli.ERROR_PREFIX
                      + "--checkpoint "
                      + ckpt
                      + ": another query is running on it (pid "
                      + ProcessHandle.current().pid()
                      + " on host "),
          run::toString);
      assertFalse(Files.exists(model), "nothing written");
    }
  }

  /** A stream run with the given options only (no defaults added). */
  private static TestSpark.Result streamWith(String model, String checkpoint, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "stream",
                "--input",
                input.toString(),
                "--model-out",
                model,
                "--checkpoint",
                checkpoint,
                "--available-now",
                "--k",
                "2",
                "--seed",
                "2"));
    args.addAll(List.of(more));
    return TestSpark.cli(args.toArray(String[]::new));
  }

  private static void assertRefusal(TestSpark.Result run, String message) {
    assertEquals(SparkKpcaCli.EXIT_USAGE, run.code(), run::toString);
    assertEquals(
        List.of(SparkKpcaCli.ERROR_PREFIX + message + " (see 'spark-kpca stream --help')"),
        run.errLines(),
        run::toString);
  }

  /**
   * Issue 35 item 11: the refusals of --no-center say what was recorded and what was given, and a
   * restart with --landmarks-from names that option and the landmark count of its model (no
   * --landmarks was given).
   */
  @Test
  void centringAndLandmarksFromRefusalsSayWhatWasRecordedAndWhatWasGiven() {
    String centred = dir.resolve("centred").toString();
    String centredCkpt = dir.resolve("centred-ckpt").toString();
    TestSpark.Result first =
        streamWith(centred, centredCkpt, "--landmarks", "10", "--gamma", "0.3");
    assertEquals(0, first.code(), first::toString);
    assertRefusal(
        streamWith(centred, centredCkpt, "--landmarks", "10", "--gamma", "0.3", "--no-center"),
        "--model-out "
            + centred
            + " was streamed centred (without --no-center), this restart gives --no-center"
            + " (uncentred): a restart keeps the model's options; drop --no-center, or a new"
            + " --model-out and --checkpoint");

    String twelve = dir.resolve("twelve").toString();
    TestSpark.Result fit =
        TestSpark.cli(
            "fit",
            "--input",
            input.toString(),
            "--k",
            "2",
            "--landmarks",
            "12",
            "--gamma",
            "0.3",
            "--seed",
            "2",
            "--model-out",
            twelve);
    assertEquals(0, fit.code(), fit::toString);
    assertRefusal(
        streamWith(centred, centredCkpt, "--landmarks-from", twelve),
        "--model-out "
            + centred
            + " was streamed with 10 landmarks, but --landmarks-from "
            + twelve
            + " has 12 landmarks: a restart keeps the model's options; give --landmarks-from a"
            + " model with 10 landmarks, or a new --model-out and --checkpoint");

    String uncentred = dir.resolve("uncentred").toString();
    String uncentredCkpt = dir.resolve("uncentred-ckpt").toString();
    TestSpark.Result second =
        streamWith(uncentred, uncentredCkpt, "--landmarks", "10", "--gamma", "0.3", "--no-center");
    assertEquals(0, second.code(), second::toString);
    assertRefusal(
        streamWith(uncentred, uncentredCkpt, "--landmarks", "10", "--gamma", "0.3"),
        "--model-out "
            + uncentred
            + " was streamed uncentred (with --no-center), this restart is centred (no"
            + " --no-center): a restart keeps the model's options; add --no-center, or a new"
            + " --model-out and --checkpoint");
  }
}
