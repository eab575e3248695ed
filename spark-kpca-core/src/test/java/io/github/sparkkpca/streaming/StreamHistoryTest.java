package io.github.sparkkpca.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.testing.LocalSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 35 item 3: a stream's model directory knows its history. Version directories swapped, a
 * pending batch's rows replaced by another batch's, a pending batch deleted or renamed: readers and
 * a resume refuse with one line naming the record file, never reading the wrong model or counting
 * rows twice or not at all; the restored directory resumes with every row once.
 */
class StreamHistoryTest {

  private static final int CHUNK_ROWS = 40;
  private static final int D = 3;

  @TempDir Path dir;

  private StreamFiles files;

  @BeforeEach
  void files() {
    files = new StreamFiles(dir, LocalSpark.clusters(5 * CHUNK_ROWS, D, 23), CHUNK_ROWS);
  }

  private StreamingKernelPCA sink(int versionEvery) {
    return new StreamingKernelPCA()
        .setEstimator(new NystromKernelPCA().setK(2).setNumLandmarks(12).setSeed(5))
        .setModelDir(files.model())
        .setVersionEveryBatches(versionEvery);
  }

  private void run(StreamingKernelPCA sink) throws Exception {
    files.run(sink, "ckpt");
  }

  private static Configuration conf() {
    return LocalSpark.spark().sparkContext().hadoopConfiguration();
  }

  /** The refusal of a resume and its message, which names {@code file}. */
  private void assertResumeRefused(StreamingKernelPCA sink, Path file, String how) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> run(sink));
    assertTrue(e.getMessage().startsWith(file + ": " + how), e.getMessage());
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
  }

  @Test
  void swappedVersionsAreRefusedByReadersAndResume() throws Exception {
    for (int c = 0; c < 3; c++) {
      files.addChunk(c);
    }
    run(sink(1));
    // version-1 and version-2 swap places: the directory named 2 holds the model of batch 1.
    Files.move(files.entry("version-000000000002"), files.entry("swap"));
    Files.move(files.entry("version-000000000001"), files.entry("version-000000000002"));
    Files.move(files.entry("swap"), files.entry("version-000000000001"));
    Path record = files.entry("version-000000000002").resolve("data/streaming.json");
    String how = "it records batch 1, the directory's name batch 2";
    IllegalArgumentException read =
        assertThrows(
            IllegalArgumentException.class, () -> StreamingKernelPCA.loadLatest(files.model()));
    assertTrue(read.getMessage().contains(record.toString() + ": " + how), read.getMessage());
    files.addChunk(3);
    assertResumeRefused(sink(1), record, how);

    // Put back, the stream resumes with every row once.
    Files.move(files.entry("version-000000000002"), files.entry("swap"));
    Files.move(files.entry("version-000000000001"), files.entry("version-000000000002"));
    Files.move(files.entry("swap"), files.entry("version-000000000001"));
    run(sink(1));
    assertEquals(4 * CHUNK_ROWS, StreamingKernelPCA.loadLatest(files.model()).numRows());
  }

  @Test
  void pendingBatchesReplacedOrDeletedAreRefused() throws Exception {
    for (int c = 0; c < 4; c++) {
      files.addChunk(c);
    }
    // Version 0, then batches 1, 2 and 3 pending.
    run(sink(10));
    for (int b = 1; b <= 3; b++) {
      assertTrue(Files.isDirectory(files.entry(String.format("pending-%012d", b))), "pending " + b);
    }
    Path backup = dir.resolve("backup");
    copyTree(dir.resolve("model"), backup);
    files.addChunk(4);

    // Batch 2's rows replaced by batch 1's (the Parquet file only, its record kept).
    Path two = files.entry("pending-000000000002");
    Path one = files.entry("pending-000000000001");
    try (Stream<Path> files = Files.list(two)) {
      for (Path p : files.filter(p -> p.getFileName().toString().endsWith(".parquet")).toList()) {
        Files.delete(p);
      }
    }
    try (Stream<Path> files = Files.list(one)) {
      for (Path p : files.filter(p -> p.getFileName().toString().endsWith(".parquet")).toList()) {
        Files.copy(p, two.resolve(p.getFileName()));
      }
    }
    assertResumeRefused(
        sink(10),
        two.resolve("_streaming.json"),
        "the files of pending-000000000002 differ from the ones recorded");

    // Batch 2 replaced by a copy of batch 1, record and all.
    restore(backup);
    deleteTree(two);
    copyTree(one, two);
    assertResumeRefused(
        sink(10),
        two.resolve("_streaming.json"),
        "it records batch 1, the directory's name batch 2");

    // Batch 2 deleted: batch 3 no longer follows the entry before it.
    restore(backup);
    deleteTree(two);
    assertResumeRefused(
        sink(10),
        files.entry("pending-000000000003").resolve("_streaming.json"),
        "it follows batch 2, but the batch before it in the directory is 1");

    // Restored: the resume folds every row in once.
    restore(backup);
    StreamingKernelPCA resumed = sink(10);
    run(resumed);
    resumed.flush();
    assertEquals(5 * CHUNK_ROWS, StreamingKernelPCA.loadLatest(files.model()).numRows());
  }

  /**
   * Every micro-batch Spark commits is in the directory (an empty one as a pending batch of no
   * rows), so a missing newest entry is noticed: the newest pending batch deleted, or the newest
   * version with it, is refused naming the checkpoint's last batch and the entry found.
   */
  @Test
  void aMissingNewestEntryIsRefused() throws Exception {
    files.addChunk(0);
    files.addChunk(1);
    run(sink(1));
    files.addChunk(2, 0); // no rows: batch 2 is recorded as a pending batch of none
    run(sink(1));
    assertTrue(Files.isDirectory(files.entry("pending-000000000002")));
    Path backup = dir.resolve("backup");
    copyTree(dir.resolve("model"), backup);
    files.addChunk(3);

    deleteTree(files.entry("pending-000000000002"));
    assertMissing("version-000000000001");
    restore(backup);
    deleteTree(files.entry("pending-000000000002"));
    deleteTree(files.entry("version-000000000001"));
    assertMissing("version-000000000000");

    restore(backup);
    run(sink(1));
    assertEquals(3 * CHUNK_ROWS, StreamingKernelPCA.loadLatest(files.model()).numRows());
    assertTrue(Files.isDirectory(files.entry("version-000000000003")));
  }

  /**
   * Issue 42 item 3: a version of another stream's directory, copied in under the same name (or a
   * name this directory never committed), carries a record that matches its own files; the
   * directory's history refuses it, in every reader, naming the version and the directory.
   */
  @Test
  void aVersionCopiedFromAnotherStreamIsRefused() throws Exception {
    files.addChunk(0);
    run(sink(1));
    StreamFiles other =
        new StreamFiles(
            dir.resolve("other"), LocalSpark.clusters(2 * CHUNK_ROWS, D, 29), CHUNK_ROWS);
    other.addChunk(0);
    other.addChunk(1);
    other.run(sink(1).setModelDir(other.model()), "ckpt");
    Path copy = dir.resolve("copy");
    copyTree(dir.resolve("model"), copy);
    assertEquals(CHUNK_ROWS, StreamingKernelPCA.loadLatest(copy.toString()).numRows());

    // The other stream's version-0 in place of this one's.
    deleteTree(copy.resolve("version-000000000000"));
    copyTree(other.entry("version-000000000000"), copy.resolve("version-000000000000"));
    assertCopiedRefused(
        copy, "version-000000000000", "committed another version-000000000000 (its ");

    // The other stream's version-1, which this directory never committed.
    restoreTo(copy);
    copyTree(other.entry("version-000000000001"), copy.resolve("version-000000000001"));
    assertCopiedRefused(copy, "version-000000000001", "never committed version-000000000001");
  }

  private void restoreTo(Path copy) throws IOException {
    deleteTree(copy);
    copyTree(dir.resolve("model"), copy);
  }

  private static void assertCopiedRefused(Path copy, String version, String how) {
    String expected =
        copy.resolve(version).resolve("data/streaming.json")
            + ": the directory "
            + copy
            + " "
            + how;
    for (org.junit.jupiter.api.function.Executable reader :
        List.<org.junit.jupiter.api.function.Executable>of(
            () -> StreamingKernelPCA.loadLatest(copy.toString()),
            () -> StreamingKernelPCA.latestVersion(copy.toString(), conf()))) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, reader);
      assertTrue(e.getMessage().startsWith(expected), e.getMessage());
      assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }
  }

  private void assertMissing(String newest) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> run(sink(1)));
    assertEquals(
        "Model directory "
            + files.model()
            + ": the checkpoint "
            + dir.resolve("ckpt")
            + " has committed micro-batches up to 2, but the newest entry here is "
            + newest
            + ": the versions or pending batches after it are missing (deleted?); restore them, or "
            + "give a new model directory and checkpoint",
        e.getMessage());
  }

  private void restore(Path backup) throws IOException {
    deleteTree(dir.resolve("model"));
    copyTree(backup, dir.resolve("model"));
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  private static void deleteTree(Path path) throws IOException {
    try (Stream<Path> walk = Files.walk(path)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
