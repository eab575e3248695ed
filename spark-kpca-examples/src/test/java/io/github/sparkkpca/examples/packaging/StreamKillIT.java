package io.github.sparkkpca.examples.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sparkkpca.examples.cli.TestSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once across a real crash: {@code spark-kpca stream} runs in its own JVM (the packaged
 * examples jar on {@code local[2]}) over four CSV files, one per micro-batch, and is killed with
 * SIGKILL while micro-batch 1 is in flight: Spark has logged its offsets, the checkpoint has not
 * committed it. The same command then resumes from the checkpoint and the model directory. The
 * final model must be a batch fit on every row with the stream's landmarks: n counts each row once,
 * the eigenvalues agree to 1e-10 relative, and no half-written version is left behind.
 */
class StreamKillIT {

  private static final int FILES = 4;
  private static final int ROWS = 300;

  @TempDir Path dir;

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void killedInTheMiddleOfAMicroBatchTheResumedStreamEqualsABatchFit() throws Exception {
    killAndResume(1, 1, List.of(0, 1, 2, 3));
  }

  /**
   * Versions every 2 micro-batches: batch 0 writes a version, batch 1 keeps its rows pending (Spark
   * commits it), and the JVM is killed while micro-batch 2 is in flight. The resumed stream folds
   * the pending rows in again, batch 2 writes a version, batch 3's rows are pending until the end
   * of the query writes the last version: still every row once, equal to the batch fit.
   */
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void withVersionsEveryTwoMicroBatchesTheRowsInBetweenSurviveTheKill() throws Exception {
    killAndResume(2, 2, List.of(0, 2, 3));
  }

  private void killAndResume(int versionEvery, int killedBatch, List<Integer> versions)
      throws Exception {
    Path jar = Path.of(System.getProperty("examples.jar", "target/missing.jar")).toAbsolutePath();
    assertTrue(Files.isRegularFile(jar), jar + " is missing: run `mvn verify`");
    Path input = writeFiles(Files.createDirectories(dir.resolve("in")));
    Path model = dir.resolve("model");
    Path checkpoint = dir.resolve("ckpt");
    List<String> stream =
        List.of(
            "stream",
            "--input",
            input.toString(),
            "--label-col",
            "label",
            "--model-out",
            model.toString(),
            "--checkpoint",
            checkpoint.toString(),
            "--k",
            "2",
            "--landmarks",
            "20",
            "--seed",
            "3",
            "--available-now",
            "--max-files-per-trigger",
            "1",
            "--progress-interval",
            "0",
            "--version-every-batches",
            Integer.toString(versionEvery));

    List<String> command = ChildJvm.java("-Xmx1g");
    command.add("-cp");
    command.add(
        jar
            + java.io.File.pathSeparator
            + Files.readString(Path.of("target", "classpath.txt")).trim());
    command.add("io.github.sparkkpca.examples.cli.SparkKpcaCli");
    command.addAll(stream);
    command.addAll(List.of("--master", "local[2]"));
    Path logs = Files.createDirectories(Path.of("target", "stream-kill-it").toAbsolutePath());
    ChildJvm child = ChildJvm.start(command, Map.of(), logs.resolve("stream-killed.log"));
    try {
      // A micro-batch starts when Spark writes its offsets; kill the JVM the moment they appear.
      Path offsets = checkpoint.resolve("offsets").resolve(Integer.toString(killedBatch));
      long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
      while (!Files.exists(offsets)) {
        if (!child.process.isAlive()) {
          fail("the stream ended before micro-batch " + killedBatch + " started:\n" + child.tail());
        }
        if (System.nanoTime() > deadline) {
          fail("micro-batch " + killedBatch + " did not start in 5 minutes:\n" + child.tail());
        }
        Thread.sleep(5);
      }
      child.process.destroyForcibly();
      assertTrue(child.process.waitFor(1, TimeUnit.MINUTES), "the killed JVM did not end");
    } finally {
      child.stop();
    }
    assertEquals(137, child.process.exitValue(), "SIGKILL");
    assertTrue(child.output().contains("batch 0: " + ROWS + " rows so far"), child.tail());
    assertFalse(
        Files.exists(checkpoint.resolve("commits").resolve(Integer.toString(killedBatch))),
        "the micro-batch had already been committed when the JVM was killed; the kill came too late");
    if (versionEvery > 1) {
      assertTrue(
          Files.isDirectory(model.resolve("pending-000000000001")),
          "batch 1's rows are pending when the JVM is killed");
    }

    Path summary = dir.resolve("stream.json");
    List<String> resume = new ArrayList<>(stream);
    resume.addAll(List.of("--summary-out", summary.toString()));
    TestSpark.Result resumed = TestSpark.cli(resume.toArray(String[]::new));
    assertEquals(0, resumed.code(), resumed::toString);
    try (Stream<Path> entries = Files.list(model)) {
      List<String> names =
          entries
              .map(p -> p.getFileName().toString())
              .filter(n -> !n.endsWith(".crc"))
              .sorted()
              .toList();
      List<String> expected =
          new ArrayList<>(
              List.of("_SPARK_KPCA_CLAIM", "_SPARK_KPCA_HISTORY", "_SPARK_KPCA_STREAM"));
      versions.forEach(v -> expected.add(String.format(Locale.ROOT, "version-%012d", v)));
      assertEquals(expected, names, "no half-written version or pending batch is left");
    }

    Path fitSummary = dir.resolve("fit.json");
    TestSpark.Result fitted =
        TestSpark.cli(
            "fit",
            "--input",
            input.toString(),
            "--label-col",
            "label",
            "--k",
            "2",
            "--landmarks-from",
            model.resolve("version-000000000003").toString(),
            "--model-out",
            dir.resolve("fitted").toString(),
            "--summary-out",
            fitSummary.toString());
    assertEquals(0, fitted.code(), fitted::toString);
    JsonNode streamed = new ObjectMapper().readTree(summary.toFile());
    JsonNode batch = new ObjectMapper().readTree(fitSummary.toFile());
    assertEquals(FILES * ROWS, streamed.get("n").asLong(), "every row once");
    assertEquals(FILES * ROWS, batch.get("n").asLong());
    for (int i = 0; i < 2; i++) {
      double expected = batch.get("eigenvalues").get(i).asDouble();
      assertEquals(
          expected,
          streamed.get("eigenvalues").get(i).asDouble(),
          1e-10 * expected,
          "eigenvalue " + i);
    }
  }

  /** FILES CSV files of ROWS rows (x1, x2, x3, label), ordered by modification time. */
  private static Path writeFiles(Path input) throws IOException {
    Random random = new Random(21);
    for (int f = 0; f < FILES; f++) {
      StringBuilder text = new StringBuilder("x1,x2,x3,label\n");
      for (int i = 0; i < ROWS; i++) {
        int label = i % 2;
        text.append(
            String.format(
                Locale.ROOT,
                "%.6f,%.6f,%.6f,%d%n",
                random.nextGaussian() + 2 * label,
                1.5 * random.nextGaussian(),
                random.nextGaussian() - label,
                label));
      }
      Path file = Files.writeString(input.resolve("part-" + f + ".csv"), text.toString());
      assertTrue(file.toFile().setLastModified(1_700_000_000_000L + f * 10_000L));
    }
    return input;
  }
}
