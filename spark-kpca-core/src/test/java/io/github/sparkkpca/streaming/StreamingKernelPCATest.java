package io.github.sparkkpca.streaming;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCAModel;
import io.github.sparkkpca.pca.StepSchedule;
import io.github.sparkkpca.testing.LocalSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streaming kernel PCA on a real Structured Streaming file source, one file per micro-batch: the
 * streamed model equals a batch fit on every row (exact algorithm, random features and Nyström),
 * also after the query dies in the middle of a micro-batch and restarts from its checkpoint (each
 * row folded in exactly once), and RF-Oja is deterministic for a seed.
 */
class StreamingKernelPCATest {

  private static final int CHUNKS = 3;
  private static final int CHUNK_ROWS = 60;
  private static final int D = 5;

  @TempDir Path dir;

  private StreamFiles files;

  @BeforeEach
  void files() {
    files = new StreamFiles(dir, LocalSpark.clusters(CHUNKS * CHUNK_ROWS, D, 11), CHUNK_ROWS);
  }

  /**
   * Writes the rows as CHUNKS parquet files (one per micro-batch) under dir/input; returns all
   * rows.
   */
  private Dataset<Row> writeInput() throws IOException {
    for (int c = 0; c < CHUNKS; c++) {
      files.addChunk(c);
    }
    return LocalSpark.frame(LocalSpark.clusters(CHUNKS * CHUNK_ROWS, D, 11), 3);
  }

  private void run(StreamingKernelPCA streaming) throws Exception {
    run(streaming, "checkpoint");
  }

  private void run(StreamingKernelPCA streaming, String checkpoint) throws Exception {
    files.run(streaming, checkpoint);
  }

  private static void assertSameModel(
      AbstractKernelPCAModel<?> expected, AbstractKernelPCAModel<?> actual, Dataset<Row> rows) {
    assertEquals(expected.numRows(), actual.numRows(), "n");
    double[] ev = expected.eigenvalues().toArray();
    double[] av = actual.eigenvalues().toArray();
    assertEquals(ev.length, av.length, "rank");
    for (int i = 0; i < ev.length; i++) {
      assertEquals(ev[i], av[i], 1e-10 * ev[0], "eigenvalue " + i);
    }
    assertEquals(
        expected.totalVariance(),
        actual.totalVariance(),
        1e-10 * expected.totalVariance(),
        "total");
    double[][] es = LocalSpark.collect(expected.transform(rows), "kpca");
    double[][] as = LocalSpark.collect(actual.transform(rows), "kpca");
    for (int i = 0; i < es.length; i++) {
      assertArrayEquals(es[i], as[i], 1e-8, "scores of row " + i);
    }
  }

  /**
   * Random features over three micro-batches of a file stream; the query dies twice: once after a
   * version was written into its hidden sibling but before the rename (batch 1, recomputed on
   * restart), once after the rename but before Spark recorded the batch (batch 2, replayed by Spark
   * and skipped). The final model is a batch fit on every row: nothing lost, nothing counted twice.
   */
  @Test
  void randomFeatureStreamSurvivesFailuresInTheMiddleOfABatchExactlyOnce() throws Exception {
    Dataset<Row> all = writeInput();
    String model = dir.resolve("model").toString();
    RandomFeatureKernelPCA estimator =
        new RandomFeatureKernelPCA().setK(3).setNumRandomFeatures(40).setGamma(0.05).setSeed(5);
    List<StreamingKernelPCA.BatchReport> reports = new ArrayList<>();

    StreamingKernelPCA first =
        new StreamingKernelPCA()
            .setEstimator(estimator)
            .setModelDir(model)
            .setBatchListener(reports::add);
    first.beforeCommit =
        staging -> {
          if (staging.contains("version-000000000001")) {
            throw new IllegalStateException("injected failure: batch 1 written but not committed");
          }
        };
    StreamingQueryException died = assertThrows(StreamingQueryException.class, () -> run(first));
    assertTrue(died.getMessage().contains("injected failure"), died.getMessage());
    assertEquals(List.of(0L), files.versions(), "batch 1 was not committed");
    try (Stream<Path> files = Files.list(dir.resolve("model"))) {
      assertFalse(
          files.anyMatch(p -> p.getFileName().toString().endsWith(".writing")),
          "no partial version left");
    }

    StreamingKernelPCA second =
        new StreamingKernelPCA()
            .setEstimator(estimator)
            .setModelDir(model)
            .setBatchListener(reports::add);
    second.afterCommit =
        batchId -> {
          if (batchId == 2) {
            throw new IllegalStateException("injected failure: batch 2 committed, Spark not told");
          }
        };
    assertThrows(StreamingQueryException.class, () -> run(second));
    assertEquals(List.of(0L, 1L, 2L), files.versions());
    assertEquals(
        List.of(0L, 1L), reports.stream().map(StreamingKernelPCA.BatchReport::batchId).toList());
    for (int c = 0; c < 2; c++) {
      assertEquals(CHUNK_ROWS, reports.get(c).batchRows(), "rows of batch " + c);
      assertEquals(
          (c + 1L) * CHUNK_ROWS, reports.get(c).rowsSoFar(), "rows so far after batch " + c);
    }

    reports.clear();
    run(
        new StreamingKernelPCA()
            .setEstimator(estimator)
            .setModelDir(model)
            .setBatchListener(reports::add));
    assertEquals(1, reports.size(), "Spark replays batch 2 only");
    assertTrue(reports.get(0).skipped(), "the replayed batch 2 is already committed");
    assertEquals(2L, reports.get(0).batchId());

    AbstractKernelPCAModel<?> streamed = StreamingKernelPCA.loadLatest(model);
    assertTrue(streamed instanceof RandomFeatureKernelPCAModel, "a random feature model");
    assertEquals(CHUNKS * CHUNK_ROWS, streamed.numRows(), "every row once");
    assertSameModel(estimator.fit(all), streamed, all);
  }

  /**
   * Nyström with landmarks drawn from the first micro-batch, through the function foreachBatch
   * calls: the model equals a batch fit on every row with those landmarks, a replayed batch is
   * skipped, and a foreign directory is refused.
   */
  @Test
  void nystromStreamEqualsBatchFitWithItsLandmarks() throws Exception {
    double[][] x = LocalSpark.clusters(CHUNKS * CHUNK_ROWS, D, 11);
    Dataset<Row> all = LocalSpark.frame(x, 3);
    String model = dir.resolve("model").toString();
    StreamingKernelPCA streaming =
        new StreamingKernelPCA()
            .setModelDir(model)
            .setEstimator(new NystromKernelPCA().setK(3).setNumLandmarks(20).setSeed(7));
    List<StreamingKernelPCA.BatchReport> reports = new ArrayList<>();
    streaming.setBatchListener(reports::add);
    for (int c = 0; c < CHUNKS; c++) {
      streaming
          .sink()
          .call(
              LocalSpark.frame(Arrays.copyOfRange(x, c * CHUNK_ROWS, (c + 1) * CHUNK_ROWS), 2),
              (long) c);
    }
    streaming.sink().call(LocalSpark.frame(Arrays.copyOfRange(x, 0, CHUNK_ROWS), 2), 2L);
    assertTrue(reports.get(CHUNKS).skipped(), "a replayed batch id is skipped");
    AbstractKernelPCAModel<?> streamed = StreamingKernelPCA.loadLatest(model);
    assertEquals(CHUNKS * CHUNK_ROWS, streamed.numRows());
    assertSameModel(
        new NystromKernelPCA().setK(3).setLandmarksFrom(streamed).fit(all), streamed, all);

    // A directory that is not a streaming model directory is refused and left as it was.
    Path foreign = Files.createDirectories(dir.resolve("foreign"));
    Files.writeString(foreign.resolve("notes.txt"), "mine");
    StreamingKernelPCA refused =
        new StreamingKernelPCA()
            .setModelDir(foreign.toString())
            .setEstimator(new NystromKernelPCA().setK(3).setNumLandmarks(20));
    IOException e = assertThrows(IOException.class, () -> refused.sink().call(all, 0L));
    assertTrue(e.getMessage().contains("not a streaming model directory"), e.getMessage());
    try (Stream<Path> files = Files.list(foreign)) {
      assertEquals(List.of("notes.txt"), files.map(p -> p.getFileName().toString()).toList());
    }
  }

  @Test
  void ojaStreamUsesTheEstimatorsFeaturesAndRefusesUpdate() throws Exception {
    Dataset<Row> all = LocalSpark.frame(LocalSpark.clusters(CHUNKS * CHUNK_ROWS, D, 11), 3);
    RandomFeatureKernelPCA estimator =
        new RandomFeatureKernelPCA().setK(2).setNumRandomFeatures(30).setSeed(3);
    String model = dir.resolve("oja").toString();
    StreamingKernelPCA streaming =
        new StreamingKernelPCA()
            .setEstimator(estimator)
            .setAlgorithm("oja")
            .setStepSchedule(StepSchedule.inverse(2.0, 20))
            .setMiniBatchSize(4)
            .setModelDir(model);
    double[][] x = LocalSpark.clusters(CHUNKS * CHUNK_ROWS, D, 11);
    for (int c = 0; c < CHUNKS; c++) {
      streaming
          .sink()
          .call(
              LocalSpark.frame(Arrays.copyOfRange(x, c * CHUNK_ROWS, (c + 1) * CHUNK_ROWS), 2),
              (long) c);
    }
    RandomFeatureKernelPCAModel oja =
        (RandomFeatureKernelPCAModel) StreamingKernelPCA.loadLatest(model);
    assertEquals(CHUNKS * CHUNK_ROWS, oja.numRows());
    assertThrows(
        IllegalArgumentException.class, () -> oja.update(all), "an RF-Oja model cannot be updated");
    // The total variance is exact: that of a batch fit with the same features.
    RandomFeatureKernelPCAModel erm =
        new RandomFeatureKernelPCA()
            .setK(2)
            .setNumRandomFeatures(30)
            .setSeed(3)
            .setGamma(oja.getGamma())
            .fit(all);
    assertEquals(erm.totalVariance(), oja.totalVariance(), 1e-10);
    assertArrayEquals(
        erm.phases().toArray(), oja.phases().toArray(), 0.0, "the estimator's random features");
    double[] ev = oja.explainedVariance().toArray();
    assertTrue(ev[0] >= ev[1] && ev[1] >= 0, Arrays.toString(ev));

    // A restart after batch 1 (a new sink resuming from the saved version) gives the same model:
    // the saved
    // basis differs from the in-memory one only by a rotation, which Oja's rule and Rayleigh-Ritz
    // undo.
    String resumed = dir.resolve("oja-resumed").toString();
    for (int c = 0; c < CHUNKS; c++) {
      StreamingKernelPCA fresh =
          new StreamingKernelPCA()
              .setEstimator(estimator)
              .setAlgorithm("oja")
              .setStepSchedule(StepSchedule.inverse(2.0, 20))
              .setMiniBatchSize(4)
              .setModelDir(resumed);
      fresh
          .sink()
          .call(
              LocalSpark.frame(Arrays.copyOfRange(x, c * CHUNK_ROWS, (c + 1) * CHUNK_ROWS), 2),
              (long) c);
    }
    RandomFeatureKernelPCAModel again =
        (RandomFeatureKernelPCAModel) StreamingKernelPCA.loadLatest(resumed);
    assertArrayEquals(
        oja.components().toArray(), again.components().toArray(), 1e-8, "resumed = uninterrupted");
    assertArrayEquals(
        oja.explainedVariance().toArray(), again.explainedVariance().toArray(), 1e-10);

    // The saved version is O(D·k): ω, b, the basis and statistics without the D×D scatter.
    Path version =
        Path.of(
            StreamingKernelPCA.latestVersion(
                    resumed, LocalSpark.spark().sparkContext().hadoopConfiguration())
                .replaceFirst("^file:", ""));
    assertFalse(Files.exists(version.resolve("data/scatter")), "no scatter in " + version);
    try (Stream<Path> files = Files.list(version.resolve("metadata"))) {
      Path metadata =
          files
              .filter(p -> p.getFileName().toString().startsWith("part-"))
              .findFirst()
              .orElseThrow();
      assertTrue(
          Files.readString(metadata).contains("\"statistics\":\"withoutScatter\""), "metadata");
    }
    assertFalse(again.statistics().hasScatter());
  }

  /**
   * The Ritz values cover every row streamed, not only the last micro-batch: warm-started at the
   * exact (uncentred) RF-ERM components of all rows with a negligible step, RF-Oja's span stays put
   * and after three micro-batches its eigenvalues are RF-ERM's on all rows.
   */
  @Test
  void ojaRitzValuesCoverEveryRowStreamed() throws Exception {
    double[][] x = LocalSpark.clusters(CHUNKS * CHUNK_ROWS, D, 12);
    RandomFeatureKernelPCA estimator =
        new RandomFeatureKernelPCA()
            .setK(3)
            .setNumRandomFeatures(40)
            .setSeed(5)
            .setGamma(0.2)
            .setCentered(false);
    RandomFeatureKernelPCAModel erm = estimator.fit(LocalSpark.frame(x, 2));
    StreamingKernelPCA streaming =
        new StreamingKernelPCA()
            .setEstimator(estimator)
            .setAlgorithm("oja")
            .setStepSchedule(StepSchedule.constant(1e-12))
            .setWarmStart(erm)
            .setModelDir(dir.resolve("warm").toString());
    double[] lastChunkOnly = null;
    for (int c = 0; c < CHUNKS; c++) {
      double[][] chunk = Arrays.copyOfRange(x, c * CHUNK_ROWS, (c + 1) * CHUNK_ROWS);
      streaming.sink().call(LocalSpark.frame(chunk, 2), (long) c);
      lastChunkOnly = estimator.fit(LocalSpark.frame(chunk, 1)).explainedVariance().toArray();
    }
    RandomFeatureKernelPCAModel oja =
        (RandomFeatureKernelPCAModel) StreamingKernelPCA.loadLatest(dir.resolve("warm").toString());
    double[] expected = erm.explainedVariance().toArray();
    double[] actual = oja.explainedVariance().toArray();
    assertArrayEquals(
        expected, actual, 1e-9 * expected[0], "Ritz values over all rows = RF-ERM's eigenvalues");
    assertTrue(
        Math.abs(lastChunkOnly[0] - expected[0]) > 1e-4 * expected[0],
        "the last micro-batch alone gives other values (the test can tell them apart)");
  }

  @Test
  void onlyTheStreamableModelKindsAreAccepted(@TempDir Path dir) {
    // The exact stage fits on the driver only: the table of model kinds does not list it as
    // streamable, and the refusal names the kinds that are.
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new StreamingKernelPCA()
                    .setEstimator(new io.github.sparkkpca.ml.KernelPCA())
                    .setModelDir(dir.resolve("models").toString())
                    .sink());
    assertEquals(
        "StreamingKernelPCA: the estimator must be one of NystromKernelPCA, "
            + "RandomFeatureKernelPCA, got KernelPCA",
        refused.getMessage());
  }
}
