package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.testing.SavedModelKinds;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Corrupt or truncated files reach the user as one line naming the file, with exit code 2: a
 * model's Parquet file (with and without its manifest, the latter as Spark fails to read it), a
 * stream directory's marker that is not JSON (a pending micro-batch without its Parquet part:
 * ModelDirectoryTest); and a fit whose kernel values overflow (the linear kernel on values near
 * 1e154) names the row and column of the largest value. Run as a separate process, the CLI prints
 * no Spark executor trace for a failure it reports itself: stdout and stderr together hold the
 * progress lines and the one error line.
 */
class CorruptFilesCliTest {

  @TempDir static Path dir;
  static Path csv;
  static Path model;

  @BeforeAll
  static void fitAModel() throws IOException {
    csv = dir.resolve("train.csv");
    Random random = new Random(3);
    StringBuilder text = new StringBuilder("x1,x2,x3\n");
    for (int i = 0; i < 60; i++) {
      text.append(
          String.format(
              Locale.ROOT,
              "%.6f,%.6f,%.6f%n",
              random.nextGaussian(),
              random.nextGaussian(),
              random.nextGaussian()));
    }
    Files.writeString(csv, text.toString());
    model = dir.resolve("model");
    TestSpark.Result fit =
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--k",
            "2",
            "--landmarks",
            "10",
            "--model-out",
            model.toString());
    assertEquals(0, fit.code(), fit::toString);
  }

  private static int copies;

  /** A copy of {@code from} without Hadoop's .crc files (as most copy tools leave it). */
  static Path copy(Path from) throws IOException {
    Path to = dir.resolve(from.getFileName() + "-copy-" + copies++);
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else if (!p.getFileName().toString().endsWith(".crc")) {
          Files.copy(p, target);
        }
      }
    }
    return to;
  }

  static Path parquetUnder(Path directory) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      return files
          .filter(p -> p.getFileName().toString().endsWith(".parquet"))
          .sorted()
          .findFirst()
          .orElseThrow();
    }
  }

  /** Overwrites the middle third of a file with other bytes (its size kept). */
  static void corrupt(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    for (int i = bytes.length / 3; i < 2 * bytes.length / 3; i++) {
      bytes[i] = (byte) (i * 31 + 7);
    }
    Files.write(file, bytes);
  }

  static void truncate(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
  }

  static void assertOneLine(TestSpark.Result r, String... parts) {
    assertEquals(2, r.code(), r::toString);
    assertEquals(1, r.errLines().size(), r::toString);
    for (String part : parts) {
      assertTrue(r.err().contains(part), "'" + part + "' missing: " + r);
    }
  }

  private static TestSpark.Result transform(Path modelDir) {
    return TestSpark.cli(
        "transform",
        "--model",
        modelDir.toString(),
        "--input",
        csv.toString(),
        "--output",
        dir.resolve("scores-" + copies++).toString());
  }

  @Test
  void aCorruptModelParquetFileIsNamedWithAndWithoutTheManifest() throws IOException {
    Path withManifest = copy(model);
    Path summary = parquetUnder(withManifest.resolve("data/summary"));
    corrupt(summary);
    assertOneLine(
        transform(withManifest),
        withManifest.relativize(summary).toString(),
        "does not match its SHA-256");

    Path without = copy(model);
    SavedModelKinds.dropManifest(without);
    Path landmarks = parquetUnder(without.resolve("data/landmarks"));
    corrupt(landmarks);
    assertOneLine(transform(without), landmarks.getFileName().toString());

    Path truncated = copy(model);
    SavedModelKinds.dropManifest(truncated);
    truncate(parquetUnder(truncated.resolve("data/summary")));
    assertOneLine(transform(truncated), truncated.resolve("data/summary").toString());
  }

  /**
   * A stream directory with one version and one pending micro-batch (3 files, versions every 2).
   */
  private static Path streamDirectory(String name) throws IOException {
    Path input = Files.createDirectories(dir.resolve(name + "-in"));
    for (int f = 0; f < 2; f++) {
      Path file =
          Files.writeString(
              input.resolve("part-" + f + ".csv"),
              Files.readString(csv).lines().limit(31).reduce((a, b) -> a + "\n" + b).get() + "\n");
      file.toFile().setLastModified(1_700_000_000_000L + f * 10_000L);
    }
    Path models = dir.resolve(name);
    TestSpark.Result first = stream(input, models, name);
    assertEquals(0, first.code(), first::toString);
    Path third = Files.copy(input.resolve("part-0.csv"), input.resolve("part-2.csv"));
    third.toFile().setLastModified(1_700_000_100_000L);
    return models;
  }

  private static TestSpark.Result stream(Path input, Path models, String name) {
    return TestSpark.cli(
        "stream",
        "--input",
        input.toString(),
        "--model-out",
        models.toString(),
        "--checkpoint",
        dir.resolve(name + "-ckpt").toString(),
        "--available-now",
        "--max-files-per-trigger",
        "1",
        "--version-every-batches",
        "3",
        "--landmarks",
        "10",
        "--k",
        "2",
        "--seed",
        "2");
  }

  @Test
  void aMarkerThatIsNotJsonIsNamed() throws IOException {
    Path models = streamDirectory("marker");
    Path marker = models.resolve("_SPARK_KPCA_STREAM");
    Files.writeString(marker, "{not json");
    Files.deleteIfExists(models.resolve("._SPARK_KPCA_STREAM.crc"));
    assertOneLine(stream(dir.resolve("marker-in"), models, "marker"), marker.toString());
  }

  @Test
  void theLinearKernelOnValuesThatOverflowNamesTheRowAndColumn() throws IOException {
    Path huge = dir.resolve("huge.csv");
    // Squares near 1e308: the kernel's sums and products overflow (the fit failed with exit 1 and
    // an ArithmeticException about a non-finite matrix entry).
    Files.writeString(huge, "a,b,c\n1,2,3\n4,5,6\n7,1e154,8\n7,8,9\n2,2,2\n3,1,4\n");
    TestSpark.Result r =
        TestSpark.cli(
            "fit",
            "--input",
            huge.toString(),
            "--kernel",
            "linear",
            "--k",
            "1",
            "--landmarks",
            "4",
            "--model-out",
            dir.resolve("huge-model").toString());
    assertOneLine(r, "huge.csv", "row 3", "column 2 = 1.000e+154", "overflow");
  }

  /**
   * In a separate JVM with the CLI's own logging: a corrupt model read by Spark (no manifest)
   * prints the progress lines and one error line, no executor or task-set trace.
   */
  @Test
  void noExecutorTraceOnTheConsole() throws Exception {
    Path without = copy(model);
    SavedModelKinds.dropManifest(without);
    corrupt(parquetUnder(without.resolve("data/landmarks")));
    List<String> command =
        CliFixture.childCli(
            "-Xmx1g",
            "transform",
            "--model",
            without.toString(),
            "--input",
            csv.toString(),
            "--output",
            dir.resolve("child-scores").toString());
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(child.waitFor(5, TimeUnit.MINUTES), output);
    assertEquals(2, child.exitValue(), output);
    List<String> lines = output.lines().filter(l -> !l.isBlank()).toList();
    List<String> errors = lines.stream().filter(l -> l.startsWith("spark-kpca: error:")).toList();
    assertEquals(1, errors.size(), output);
    assertTrue(
        lines.stream().noneMatch(l -> l.contains("Executor") || l.contains("TaskSetManager")),
        output);
    // Every other line is a progress line or one log line (no trace, no "Caused by").
    for (String line : lines) {
      assertTrue(
          line.startsWith("spark-kpca: ")
              || line.matches("\\d\\d:\\d\\d:\\d\\d (WARN|ERROR|INFO) \\S+: .*")
              || line.startsWith("WARNING: Using incubator modules"),
          "'" + line + "' in:\n" + output);
    }
  }

  /**
   * A model read while {@code fit --overwrite} swaps another one in (the old directory moved aside
   * as {@code .NAME.spark-kpca-ID.replaced}, the new one written as {@code .writing}) was reported
   * as "no saved model" or "missing or unreadable model data": it is reported as being replaced,
   * with the advice to retry, before and during the load.
   */
  @Test
  void aModelBeingReplacedIsSaidToBe() throws IOException {
    Path moved = copy(model);
    Path aside = moved.resolveSibling("." + moved.getFileName() + ".spark-kpca-0001.replaced");
    Files.move(moved, aside);
    assertOneLine(
        transform(moved),
        "--model " + moved + ": it is being replaced by another writer (" + aside.getFileName(),
        "; retry");
    // Mid-read: a table gone while the new model is being written beside it.
    Path reading = copy(model);
    SavedModelKinds.dropManifest(reading);
    deleteTree(reading.resolve("data/components"));
    Files.createDirectories(
        reading.resolveSibling("." + reading.getFileName() + ".spark-kpca-0002.writing"));
    assertOneLine(
        transform(reading),
        "Cannot load NystromKernelPCAModel from '" + reading + "': it is being replaced by another",
        "; retry");
  }

  /**
   * "data/nystrom records rank 11 for 10 landmarks" came without the "Cannot load ... from
   * '<path>'" of the other load refusals (the command line printed the innermost of the nested
   * refusals).
   */
  @Test
  void aFeatureMapRefusalNamesTheModel() throws IOException {
    Path edited = copy(model);
    SavedModelKinds.dropManifest(edited);
    TestSpark.session()
        .createDataFrame(
            List.of(org.apache.spark.sql.RowFactory.create(11, false)),
            new org.apache.spark.sql.types.StructType()
                .add("rank", org.apache.spark.sql.types.DataTypes.IntegerType, false)
                .add("triangular", org.apache.spark.sql.types.DataTypes.BooleanType, false))
        .coalesce(1)
        .write()
        .mode("overwrite")
        .parquet(edited.resolve("data/nystrom").toString());
    TestSpark.Result r = transform(edited);
    assertOneLine(
        r, "Cannot load NystromKernelPCAModel from '" + edited + "': data/nystrom records rank 11");
    assertTrue(r.err().contains("rank 11 for 10 landmarks"), r::toString);
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
