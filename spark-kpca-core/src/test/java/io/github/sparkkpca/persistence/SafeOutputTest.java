package io.github.sparkkpca.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.ml.KernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code save} and {@link SafeOutput} replace only an earlier result of the same kind, only when
 * asked, never a path holding an input, and keep the old result when the new one fails.
 */
class SafeOutputTest {

  @TempDir Path dir;

  static NystromKernelPCAModel model;
  static NystromKernelPCAModel other;

  @BeforeAll
  static void fit() {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(80, 3, 5), 2);
    model = new NystromKernelPCA().setK(2).setNumLandmarks(12).setSeed(1).fit(df);
    other = new NystromKernelPCA().setK(2).setNumLandmarks(12).setSeed(2).fit(df);
  }

  private static Configuration conf() {
    return LocalSpark.spark().sparkContext().hadoopConfiguration();
  }

  /** A local Hadoop path as a java.nio path. */
  private static Path local(String hadoopPath) {
    return Path.of(new org.apache.hadoop.fs.Path(hadoopPath).toUri());
  }

  /** The names in {@code dir}, hidden ones included (leftover siblings would show here). */
  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /**
   * Every stage of the library saves through the same rule, estimators and the evaluator included.
   */
  @Test
  void everyStageRefusesToOverwriteUserFiles() throws IOException {
    Path data = Files.createDirectories(dir.resolve("user-data"));
    Files.writeString(data.resolve("train.csv"), "a,b\n1,2\n");
    List<org.apache.spark.ml.util.MLWritable> stages =
        List.of(
            new io.github.sparkkpca.ml.KernelPCA(),
            new NystromKernelPCA(),
            new io.github.sparkkpca.ml.RandomFeatureKernelPCA(),
            new io.github.sparkkpca.evaluation.ReconstructionErrorEvaluator());
    for (org.apache.spark.ml.util.MLWritable stage : stages) {
      assertThrows(
          FileAlreadyExistsException.class,
          () -> stage.write().overwrite().save(data.toString()),
          stage.getClass().getSimpleName());
      assertEquals(
          "a,b\n1,2\n",
          Files.readString(data.resolve("train.csv")),
          stage.getClass().getSimpleName());
    }
  }

  /** Spark's own save deleted a directory of user files when overwrite was requested. */
  @Test
  void overwriteRefusesADirectoryThatIsNotASavedStage() throws IOException {
    Path data = Files.createDirectories(dir.resolve("data"));
    Files.writeString(data.resolve("train.csv"), "a,b\n1,2\n");
    FileAlreadyExistsException e =
        assertThrows(
            FileAlreadyExistsException.class,
            () -> model.write().overwrite().save(data.toString()));
    assertTrue(
        e.getMessage().contains(data.toString())
            && e.getMessage().contains("'train.csv'")
            && e.getMessage().contains("never replaced"),
        e.getMessage());
    assertEquals("a,b\n1,2\n", Files.readString(data.resolve("train.csv")));
    assertEquals(List.of("data"), names(dir), "no staging sibling left");

    // A Spark ML stage of another library is not ours to replace either, nor a model with a file
    // added.
    Path stage = dir.resolve("foreign");
    new org.apache.spark.ml.feature.StandardScaler().write().save(stage.toString());
    assertThrows(
        FileAlreadyExistsException.class, () -> model.write().overwrite().save(stage.toString()));
    Path extended = dir.resolve("extended");
    model.write().save(extended.toString());
    Files.writeString(extended.resolve("notes.txt"), "mine");
    FileAlreadyExistsException added =
        assertThrows(
            FileAlreadyExistsException.class,
            () -> other.write().overwrite().save(extended.toString()));
    assertTrue(added.getMessage().contains("'notes.txt'"), added.getMessage());
    // Kept as it was, and no longer what was saved: its manifest does not list the file.
    IllegalArgumentException unlisted =
        assertThrows(
            IllegalArgumentException.class, () -> NystromKernelPCAModel.load(extended.toString()));
    assertTrue(
        unlisted.getMessage().contains("notes.txt is not listed in " + Manifest.NAME),
        unlisted.getMessage());
    Files.delete(extended.resolve("notes.txt"));
    assertEquals(model.uid(), NystromKernelPCAModel.load(extended.toString()).uid());
  }

  @Test
  void overwriteReplacesASavedStageOrAnEmptyDirectoryAndNothingElseIsLeft() throws IOException {
    Path path = dir.resolve("model");
    model.write().save(path.toString());
    IOException exists = assertThrows(IOException.class, () -> other.write().save(path.toString()));
    assertTrue(exists.getMessage().contains("write().overwrite()"), exists.getMessage());
    other.write().overwrite().save(path.toString());
    assertEquals(other.uid(), NystromKernelPCAModel.load(path.toString()).uid());
    assertEquals(List.of("model"), names(dir), "no staging or replaced sibling left");

    Path empty = Files.createDirectories(dir.resolve("empty"));
    assertThrows(FileAlreadyExistsException.class, () -> model.write().save(empty.toString()));
    model.write().overwrite().save(empty.toString());
    assertEquals(model.uid(), NystromKernelPCAModel.load(empty.toString()).uid());

    // Estimators are stages too: one may replace another.
    Path estimator = dir.resolve("estimator");
    new KernelPCA().setK(2).write().save(estimator.toString());
    new NystromKernelPCA().setK(3).write().overwrite().save(estimator.toString());
    assertEquals(3, NystromKernelPCA.load(estimator.toString()).getK());
  }

  @Test
  void aFailedWriteLeavesTheOldResult() throws IOException {
    Path path = dir.resolve("model");
    model.write().save(path.toString());
    SafeOutput output =
        SafeOutput.to(path.toString(), SafeOutput.SAVED_STAGE).overwrite(true).prepare(conf());
    IOException boom =
        assertThrows(
            IOException.class,
            () ->
                output.write(
                    staging -> {
                      other.write().save(staging);
                      throw new IOException("disk full");
                    }));
    assertEquals("disk full", boom.getMessage());
    assertEquals(model.uid(), NystromKernelPCAModel.load(path.toString()).uid());
    assertEquals(List.of("model"), names(dir));
  }

  /**
   * A local file system on which another run commits the target between this run's check and its
   * rename (Hadoop's rename then moves the staging directory into the other run's result).
   */
  public static final class RacingFileSystem extends org.apache.hadoop.fs.RawLocalFileSystem {
    static volatile String raceOn;

    @Override
    public java.net.URI getUri() {
      return java.net.URI.create("racing:///");
    }

    @Override
    public String getScheme() {
      return "racing";
    }

    @Override
    public boolean rename(org.apache.hadoop.fs.Path src, org.apache.hadoop.fs.Path dst)
        throws IOException {
      if (dst.getName().equals(raceOn)) {
        raceOn = null;
        // The other run's result: a stage saved by spark-kpca.
        other.write().save(dst.toUri().getPath());
      }
      return super.rename(src, dst);
    }
  }

  @Test
  void aRunThatCommitsTheSameTargetAtTheSameMomentIsRefusedAndTheOtherKept() throws IOException {
    Configuration racing = new Configuration(conf());
    racing.set("fs.racing.impl", RacingFileSystem.class.getName());
    racing.setBoolean("fs.racing.impl.disable.cache", true);
    Path path = dir.resolve("raced");
    RacingFileSystem.raceOn = "raced";
    SafeOutput output =
        SafeOutput.to("racing://" + path, SafeOutput.SAVED_STAGE)
            .named("--model-out " + path, "add --overwrite")
            .prepare(racing);
    FileAlreadyExistsException lost =
        assertThrows(
            FileAlreadyExistsException.class,
            () ->
                output.write(
                    staging ->
                        model
                            .write()
                            .save(new org.apache.hadoop.fs.Path(staging).toUri().getPath())));
    assertEquals(
        "--model-out "
            + path
            + ": a stage saved by spark-kpca already exists there; to replace it, add --overwrite",
        lost.getMessage());
    assertEquals(other.uid(), NystromKernelPCAModel.load(path.toString()).uid());
    assertEquals(List.of(Manifest.NAME, "data", "metadata"), names(path));
    assertEquals(List.of("raced"), names(dir));
  }

  /** A stream's version found written says who wrote it and what to do, not "to replace it". */
  @Test
  void aTargetThatIsNeverReplacedSaysAnotherWriterCreatedIt() throws IOException {
    Path out = dir.resolve("version-000000000004");
    SafeOutput.to(out.toString(), SafeOutput.MARKED_DIRECTORY)
        .prepare(conf())
        .write(
            staging ->
                Files.writeString(
                    Files.createDirectories(local(staging)).resolve("part-0.csv"), "1\n"));
    FileAlreadyExistsException lost =
        assertThrows(
            FileAlreadyExistsException.class,
            () ->
                SafeOutput.to(out.toString(), SafeOutput.MARKED_DIRECTORY)
                    .overwrite(true)
                    .namedNeverReplaced("Model version 4", "run one stream per directory")
                    .prepare(conf()));
    assertEquals(
        "Model version 4: an output of spark-kpca already exists there, created by another"
            + " writer; it is never replaced: run one stream per directory",
        lost.getMessage());
  }

  @Test
  void aTargetThatIsOrContainsAnInputIsRefusedEvenWithOverwrite() throws IOException {
    Path out = Files.createDirectories(dir.resolve("out"));
    Path input = out.resolve("in.csv");
    Files.writeString(input, "x\n1\n");
    SafeOutput.MARKED_DIRECTORY.mark(
        org.apache.hadoop.fs.FileSystem.getLocal(conf()),
        new org.apache.hadoop.fs.Path(out.toUri()));
    FileAlreadyExistsException contains =
        assertThrows(
            FileAlreadyExistsException.class,
            () ->
                SafeOutput.to(out.toString(), SafeOutput.MARKED_DIRECTORY)
                    .overwrite(true)
                    .named("--output " + out, "add --overwrite")
                    .protecting(List.of(input.toString()))
                    .prepare(conf()));
    assertEquals(
        "--output " + out + ": it contains the input " + input + "; choose another path",
        contains.getMessage());
    FileAlreadyExistsException glob =
        assertThrows(
            FileAlreadyExistsException.class,
            () ->
                SafeOutput.to(input.toString(), SafeOutput.MARKED_DIRECTORY)
                    .overwrite(true)
                    .protecting(List.of(out + "/*.csv"))
                    .prepare(conf()));
    assertTrue(glob.getMessage().contains("is the input " + out + "/*.csv"), glob.getMessage());
    assertTrue(Files.exists(input));
  }

  @Test
  void markedDirectoriesAreReplacedOnlyWhileTheyHoldWhatWasWritten() throws IOException {
    Path out = dir.resolve("scores");
    SafeOutput first = SafeOutput.to(out.toString(), SafeOutput.MARKED_DIRECTORY).prepare(conf());
    first.write(
        staging ->
            Files.writeString(
                Files.createDirectories(local(staging)).resolve("part-0.csv"), "1\n"));
    assertTrue(Files.exists(out.resolve(SafeOutput.MARKER)));

    FileAlreadyExistsException noOverwrite =
        assertThrows(
            FileAlreadyExistsException.class,
            () ->
                SafeOutput.to(out.toString(), SafeOutput.MARKED_DIRECTORY)
                    .named("--output scores", "add --overwrite")
                    .prepare(conf()));
    assertEquals(
        "--output scores: an output of spark-kpca already exists there; to replace it, add --overwrite",
        noOverwrite.getMessage());
    SafeOutput.to(out.toString(), SafeOutput.MARKED_DIRECTORY)
        .overwrite(true)
        .prepare(conf())
        .write(
            staging ->
                Files.writeString(
                    Files.createDirectories(local(staging)).resolve("part-1.csv"), "2\n"));
    assertFalse(Files.exists(out.resolve("part-0.csv")));
    assertEquals("2\n", Files.readString(out.resolve("part-1.csv")));

    Files.writeString(out.resolve("mine.txt"), "keep");
    FileAlreadyExistsException foreign =
        assertThrows(
            FileAlreadyExistsException.class,
            () ->
                SafeOutput.to(out.toString(), SafeOutput.MARKED_DIRECTORY)
                    .overwrite(true)
                    .prepare(conf()));
    assertTrue(
        foreign.getMessage().contains("'mine.txt', which spark-kpca did not write there"),
        foreign.getMessage());
  }

  /**
   * A write killed before it ended leaves its staging directory and owner record; the next request
   * to write the same target (with or without overwrite) removes those whose writer is gone or that
   * are too old to ask, and keeps a write that is still running and other targets' siblings.
   */
  @Test
  void staleStagingDirectoriesOfTheTargetAreRemoved() throws Exception {
    Path out = dir.resolve("model");
    // A process that has ended: its pid is gone (or reused by a process started later).
    Process done = new ProcessBuilder("true").start();
    done.waitFor();
    String host = java.net.InetAddress.getLocalHost().getHostName();
    Path killed = staging(out, "deadbeef", done.pid(), host, 0);
    Path running =
        staging(
            out,
            "0a1b2c3d",
            ProcessHandle.current().pid(),
            host,
            ProcessHandle.current().info().startInstant().get().toEpochMilli());
    Path elsewhere = staging(out, "11111111", 1, "another-host", 0);
    Path oldElsewhere = staging(out, "22222222", 1, "another-host", 0);
    Path oldUnowned = Files.createDirectories(dir.resolve(".model.spark-kpca-33333333.writing"));
    Path newUnowned = Files.createDirectories(dir.resolve(".model.spark-kpca-44444444.writing"));
    Path otherTarget = Files.createDirectories(dir.resolve(".other.spark-kpca-55555555.writing"));
    long twoDaysAgo = System.currentTimeMillis() - 2L * 24 * 3600 * 1000;
    for (Path old : List.of(oldElsewhere, oldUnowned, otherTarget)) {
      Files.setLastModifiedTime(old, java.nio.file.attribute.FileTime.fromMillis(twoDaysAgo));
    }
    Files.setLastModifiedTime(
        dir.resolve(".model.spark-kpca-22222222.owner"),
        java.nio.file.attribute.FileTime.fromMillis(twoDaysAgo));

    SafeOutput.to(out.toString(), SafeOutput.MARKED_DIRECTORY)
        .prepare(conf())
        .write(
            staging ->
                Files.writeString(
                    Files.createDirectories(local(staging)).resolve("part-0.csv"), "1\n"));

    for (Path gone : List.of(killed, oldElsewhere, oldUnowned)) {
      assertFalse(Files.exists(gone), gone + " was left");
    }
    assertFalse(Files.exists(dir.resolve(".model.spark-kpca-deadbeef.owner")));
    for (Path kept : List.of(running, elsewhere, newUnowned, otherTarget)) {
      assertTrue(Files.exists(kept), kept + " was removed");
    }
    assertTrue(Files.exists(dir.resolve(".model.spark-kpca-0a1b2c3d.owner")));
    // The write's own owner record is gone with it.
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(
          List.of(".model.spark-kpca-0a1b2c3d.owner", ".model.spark-kpca-11111111.owner"),
          files
              .map(p -> p.getFileName().toString())
              .filter(n -> n.endsWith(".owner"))
              .sorted()
              .toList());
    }
  }

  /** A staging directory of {@code target} with an owner record, as a write leaves it. */
  private Path staging(Path target, String id, long pid, String host, long started)
      throws IOException {
    String base = "." + target.getFileName() + ".spark-kpca-" + id + ".";
    Path staging = Files.createDirectories(target.resolveSibling(base + "writing"));
    Files.writeString(staging.resolve("part-0.csv"), "partial\n");
    Files.writeString(
        target.resolveSibling(base + "owner"),
        String.format(
            java.util.Locale.ROOT,
            "{\"writer\":\"spark-kpca\",\"pid\":%d,\"host\":\"%s\",\"started\":%d}",
            pid,
            host,
            started));
    return staging;
  }
}
