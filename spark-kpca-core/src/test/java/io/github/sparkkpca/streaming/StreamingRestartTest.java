package io.github.sparkkpca.streaming;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCA;
import io.github.sparkkpca.testing.LocalSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restarts of a stream: the model directory is bound to its checkpoint, its query and its model
 * options (a mismatch is refused before the query starts), the checkpoint and the model directory
 * must be separate, and with versions written every N micro-batches the rows of the micro-batches
 * in between survive a crash and a restart, each counted once.
 */
class StreamingRestartTest {

  private static final int CHUNK_ROWS = 50;
  private static final int D = 4;

  @TempDir Path dir;

  private StreamFiles files;

  @BeforeEach
  void files() {
    files = new StreamFiles(dir, LocalSpark.clusters(4 * CHUNK_ROWS, D, 17), CHUNK_ROWS);
  }

  private StreamingKernelPCA sink(int k) {
    return new StreamingKernelPCA()
        .setEstimator(new NystromKernelPCA().setK(k).setNumLandmarks(15).setSeed(4))
        .setModelDir(files.model());
  }

  private void run(StreamingKernelPCA sink, String checkpoint) throws Exception {
    files.run(sink, checkpoint);
  }

  /**
   * Issue 28 items 4 and 5: a new checkpoint, a checkpoint deleted and started again, or other
   * model options, against an existing model directory are refused before the query starts, naming
   * the recorded checkpoint or option; the same checkpoint and options go on.
   */
  @Test
  void aModelDirectoryGoesOnlyWithItsCheckpointAndOptions() throws Exception {
    files.addChunk(0);
    run(sink(2), "ckpt");
    files.addChunk(1);

    IllegalArgumentException other =
        assertThrows(IllegalArgumentException.class, () -> run(sink(2), "other-ckpt"));
    assertTrue(
        other.getMessage().contains("belongs to the checkpoint")
            && other.getMessage().contains("ckpt"),
        other.getMessage());
    // The refused query never started (the checkpoint holds at most the lock of the refused run).
    assertFalse(Files.exists(dir.resolve("other-ckpt").resolve("offsets")), "the query started");
    assertFalse(Files.exists(dir.resolve("other-ckpt").resolve("metadata")), "the query started");

    ModelDirectory.OptionMismatch k =
        assertThrows(ModelDirectory.OptionMismatch.class, () -> run(sink(3), "ckpt"));
    assertEquals("k", k.option());
    assertEquals("2", k.stored());
    assertEquals("3", k.given());
    assertTrue(k.getMessage().contains("was streamed with k = 2, not 3"), k.getMessage());
    IllegalArgumentException landmarks =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                run(
                    sink(2)
                        .setEstimator(
                            new NystromKernelPCA().setK(2).setNumLandmarks(16).setSeed(4)),
                    "ckpt"));
    assertTrue(
        landmarks.getMessage().contains("numLandmarks = 15, not 16"), landmarks.getMessage());
    IllegalArgumentException algorithm =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                run(
                    new StreamingKernelPCA()
                        .setEstimator(new RandomFeatureKernelPCA().setK(2).setNumRandomFeatures(20))
                        .setModelDir(files.model())
                        .setAlgorithm("oja"),
                    "ckpt"));
    assertTrue(
        algorithm.getMessage().contains("algorithm = exact, not oja"), algorithm.getMessage());

    // The same checkpoint and options: batch 1 is folded in, every row once.
    run(sink(2), "ckpt");
    AbstractKernelPCAModel<?> streamed = StreamingKernelPCA.loadLatest(files.model());
    assertEquals(2 * CHUNK_ROWS, streamed.numRows());

    // The checkpoint deleted and started again at the same path is a new query: refused.
    deleteTree(dir.resolve("ckpt"));
    IllegalArgumentException fresh =
        assertThrows(IllegalArgumentException.class, () -> run(sink(2), "ckpt"));
    assertTrue(fresh.getMessage().contains("is new"), fresh.getMessage());

    // A checkpoint whose batches a new model directory lacks: refused too.
    files.addChunk(2);
    StreamingKernelPCA elsewhere =
        new StreamingKernelPCA()
            .setEstimator(new NystromKernelPCA().setK(2).setNumLandmarks(15).setSeed(4))
            .setModelDir(dir.resolve("model-2").toString());
    run(elsewhere, "ckpt-2");
    StreamingKernelPCA lost =
        new StreamingKernelPCA()
            .setEstimator(new NystromKernelPCA().setK(2).setNumLandmarks(15).setSeed(4))
            .setModelDir(dir.resolve("model-3").toString());
    IllegalArgumentException committed =
        assertThrows(IllegalArgumentException.class, () -> run(lost, "ckpt-2"));
    assertTrue(
        committed.getMessage().contains("has committed micro-batches up to 2"),
        committed.getMessage());
    assertFalse(Files.exists(dir.resolve("model-3")), "nothing written");
  }

  /**
   * Issue 28 item 10: the checkpoint and the model directory the same, or one inside the other, are
   * refused before the query starts, and nothing is written.
   */
  @Test
  void theCheckpointAndTheModelDirectoryMustBeSeparate() throws Exception {
    files.addChunk(0);
    for (String[] pair : new String[][] {{"same", "same"}, {"m", "m/ckpt"}, {"c/model", "c"}}) {
      StreamingKernelPCA sink =
          new StreamingKernelPCA()
              .setEstimator(new NystromKernelPCA().setK(2).setNumLandmarks(15))
              .setModelDir(dir.resolve(pair[0]).toString());
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> run(sink, pair[1]));
      assertTrue(
          e.getMessage().contains("give them separate paths")
              && e.getMessage().contains(dir.resolve(pair[1]).toString()),
          e.getMessage());
      assertFalse(Files.exists(dir.resolve(pair[0].split("/")[0])), "nothing written");
    }
  }

  /**
   * Issue 29: versions every 3 micro-batches. The first query sees two files: version 0 and the
   * rows of batch 1 as pending (Spark commits both batches). A crash injected after the pending
   * rows of batch 2 are committed, before Spark records the batch. A new sink then resumes: the
   * pending rows are folded in again, the replayed batch 2 is skipped, batch 3 writes the version.
   * The final model equals a batch fit on every row with the stream's landmarks.
   */
  @Test
  void versionsEveryNMicroBatchesKeepEveryRowOnceAcrossACrashAndRestart() throws Exception {
    files.addChunk(0);
    files.addChunk(1);
    List<StreamingKernelPCA.BatchReport> reports = new ArrayList<>();
    run(sink(2).setVersionEveryBatches(3).setBatchListener(reports::add), "ckpt");
    assertEquals(
        List.of(
            "_SPARK_KPCA_CLAIM",
            "_SPARK_KPCA_HISTORY",
            "_SPARK_KPCA_STREAM",
            "pending-000000000001",
            "version-000000000000"),
        StreamFiles.entries(dir.resolve("model")));
    assertTrue(reports.get(0).versioned() && !reports.get(1).versioned(), reports.toString());
    assertEquals(2L * CHUNK_ROWS, reports.get(1).rowsSoFar());
    assertTrue(reports.get(1).phases().write() > 0, "the pending rows' write is timed");

    files.addChunk(2);
    StreamingKernelPCA crashing = sink(2).setVersionEveryBatches(3);
    crashing.afterCommit =
        batchId -> {
          if (batchId == 2) {
            throw new IllegalStateException("injected failure: pending batch 2, Spark not told");
          }
        };
    assertThrows(StreamingQueryException.class, () -> run(crashing, "ckpt"));
    assertEquals(
        List.of(
            "_SPARK_KPCA_CLAIM",
            "_SPARK_KPCA_HISTORY",
            "_SPARK_KPCA_STREAM",
            "pending-000000000001",
            "pending-000000000002",
            "version-000000000000"),
        StreamFiles.entries(dir.resolve("model")));

    files.addChunk(3);
    reports.clear();
    StreamingKernelPCA resumed = sink(2).setVersionEveryBatches(3).setBatchListener(reports::add);
    run(resumed, "ckpt");
    assertEquals(2, reports.size(), reports.toString());
    assertTrue(reports.get(0).skipped(), "the replayed batch 2 is in its pending rows");
    assertTrue(reports.get(1).versioned(), "batch 3 is the third since version 0");
    assertEquals(
        List.of(
            "_SPARK_KPCA_CLAIM",
            "_SPARK_KPCA_HISTORY",
            "_SPARK_KPCA_STREAM",
            "version-000000000000",
            "version-000000000003"),
        StreamFiles.entries(dir.resolve("model")));
    assertEquals(resumed.flush(), StreamingKernelPCA.latestVersion(files.model(), conf()));

    AbstractKernelPCAModel<?> streamed = StreamingKernelPCA.loadLatest(files.model());
    assertEquals(4 * CHUNK_ROWS, streamed.numRows(), "every row once");
    AbstractKernelPCAModel<?> batch =
        new NystromKernelPCA().setK(2).setLandmarksFrom(streamed).fit(files.rows(4));
    double[] expected = batch.eigenvalues().toArray();
    assertArrayEquals(
        expected, streamed.eigenvalues().toArray(), 1e-10 * expected[0], "eigenvalues");
    assertEquals(batch.totalVariance(), streamed.totalVariance(), 1e-10 * batch.totalVariance());
  }

  /**
   * The rows of the micro-batches after the last version are written as pending; {@link
   * StreamingKernelPCA#flush} at the end writes the version that holds them, and a flush of a new
   * sink folds in what an earlier run left pending.
   */
  @Test
  void flushWritesTheRowsLeftPending() throws Exception {
    files.addChunk(0);
    files.addChunk(1);
    files.addChunk(2);
    run(sink(2).setVersionEveryBatches(5), "ckpt");
    assertEquals(
        List.of(
            "_SPARK_KPCA_CLAIM",
            "_SPARK_KPCA_HISTORY",
            "_SPARK_KPCA_STREAM",
            "pending-000000000001",
            "pending-000000000002",
            "version-000000000000"),
        StreamFiles.entries(dir.resolve("model")));
    assertEquals(CHUNK_ROWS, StreamingKernelPCA.loadLatest(files.model()).numRows());
    String flushed = sink(2).setVersionEveryBatches(5).flush();
    assertTrue(flushed.endsWith("version-000000000002"), flushed);
    assertEquals(
        List.of(
            "_SPARK_KPCA_CLAIM",
            "_SPARK_KPCA_HISTORY",
            "_SPARK_KPCA_STREAM",
            "version-000000000000",
            "version-000000000002"),
        StreamFiles.entries(dir.resolve("model")));
    AbstractKernelPCAModel<?> streamed = StreamingKernelPCA.loadLatest(files.model());
    assertEquals(3 * CHUNK_ROWS, streamed.numRows());
    AbstractKernelPCAModel<?> batch =
        new NystromKernelPCA().setK(2).setLandmarksFrom(streamed).fit(files.rows(3));
    assertEquals(
        batch.eigenvalues().apply(0),
        streamed.eigenvalues().apply(0),
        1e-10 * batch.eigenvalues().apply(0));
  }

  private static org.apache.hadoop.conf.Configuration conf() {
    return LocalSpark.spark().sparkContext().hadoopConfiguration();
  }

  private static void deleteTree(Path path) throws IOException {
    try (Stream<Path> walk = Files.walk(path)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
