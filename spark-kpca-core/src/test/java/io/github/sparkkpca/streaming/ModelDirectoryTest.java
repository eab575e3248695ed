package io.github.sparkkpca.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.persistence.Manifest;
import io.github.sparkkpca.persistence.SafeOutput;
import io.github.sparkkpca.testing.LocalSpark;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The versioned model directory on its own: marker, leftovers, pruning, the latest version. */
class ModelDirectoryTest {

  @TempDir Path dir;

  private final Configuration conf = new Configuration();

  private static List<String> names(Path path) throws IOException {
    try (Stream<Path> files = Files.list(path)) {
      // The local file system's checksum files aside.
      return files
          .map(p -> p.getFileName().toString())
          .filter(name -> !name.endsWith(".crc"))
          .sorted()
          .toList();
    }
  }

  @Test
  void aNewDirectoryGetsItsMarkerAndHasNoVersion() throws IOException {
    Path models = dir.resolve("models");
    assertNull(new ModelDirectory(models.toString(), "exact").open(conf).latest());
    assertTrue(Files.exists(models.resolve(ModelDirectory.MARKER)));
    assertNull(ModelDirectory.latestVersion(models.toString(), conf));
    IOException other =
        assertThrows(
            IOException.class, () -> new ModelDirectory(models.toString(), "oja").open(conf));
    assertTrue(other.getMessage().contains("algorithm exact, not oja"), other.getMessage());
  }

  /**
   * A pending micro-batch whose Parquet part was deleted (Spark: UNABLE_TO_INFER_SCHEMA), and a
   * marker that is not JSON, are refused with one line naming the path.
   */
  @Test
  void aPendingBatchWithoutItsPartAndAMarkerThatIsNotJsonAreNamed() throws IOException {
    Path models = dir.resolve("models");
    ModelDirectory directory = new ModelDirectory(models.toString(), "exact");
    directory.open(conf);
    Path pending = Files.createDirectories(models.resolve("pending-000000000001"));
    Files.writeString(pending.resolve("_streaming.json"), "{}");
    IllegalArgumentException noPart =
        assertThrows(
            IllegalArgumentException.class,
            () -> directory.readPending(io.github.sparkkpca.testing.LocalSpark.spark(), 1));
    assertTrue(
        noPart.getMessage().startsWith(directory.pendingPath(1).toString())
            && noPart.getMessage().contains("no readable Parquet file")
            && !noPart.getMessage().contains("\n"),
        noPart.getMessage());

    Files.writeString(models.resolve(ModelDirectory.MARKER), "{not json");
    Files.deleteIfExists(models.resolve("." + ModelDirectory.MARKER + ".crc"));
    IllegalArgumentException marker =
        assertThrows(IllegalArgumentException.class, () -> directory.open(conf));
    assertTrue(
        marker.getMessage().contains(ModelDirectory.MARKER)
            && marker.getMessage().contains("is not readable JSON"),
        marker.getMessage());
  }

  @Test
  void aForeignDirectoryIsNeverWrittenInto() throws IOException {
    Files.writeString(dir.resolve("notes.txt"), "mine");
    IOException e =
        assertThrows(
            IOException.class, () -> new ModelDirectory(dir.toString(), "exact").open(conf));
    assertTrue(e.getMessage().contains("is not a streaming model directory"), e.getMessage());
    assertEquals(List.of("notes.txt"), names(dir));
    IllegalArgumentException latest =
        assertThrows(
            IllegalArgumentException.class,
            () -> ModelDirectory.latestVersion(dir.toString(), conf));
    assertTrue(latest.getMessage().contains(ModelDirectory.MARKER), latest.getMessage());
  }

  /**
   * The leftovers of a killed write are the hidden siblings {@link SafeOutput} names, and only
   * those are removed; pruning keeps the newest versions; the latest is the highest batch id.
   */
  @Test
  void leftoversGoAndPruningKeepsTheNewest() throws IOException {
    ModelDirectory models = new ModelDirectory(dir.toString(), "exact");
    assertNull(models.open(conf).latest());
    for (long id : new long[] {3, 12, 7, 40}) {
      Files.createDirectories(Path.of(models.versionPath(id).toString()));
    }
    // The newest version's record (as an earlier build wrote it: no digest), which readers check.
    Path record = dir.resolve("version-000000000040").resolve("data").resolve("streaming.json");
    Files.createDirectories(record.getParent());
    Files.writeString(record, "{\"batchId\": 40}");
    String writing = ".version-000000000041.spark-kpca-0a1b2c3d.writing";
    String replaced = ".version-000000000040.spark-kpca-0a1b2c3d.replaced";
    String foreign = ".keep.writing";
    for (String name : new String[] {writing, replaced, foreign}) {
      Files.createDirectories(dir.resolve(name));
    }
    assertTrue(SafeOutput.isLeftover(writing) && SafeOutput.isLeftover(replaced));
    assertFalse(SafeOutput.isLeftover(foreign) || SafeOutput.isLeftover("version-000000000040"));

    models.prune(2, conf);
    assertEquals(
        List.of(
                foreign,
                writing,
                replaced,
                ModelDirectory.MARKER,
                "version-000000000012",
                "version-000000000040")
            .stream()
            .sorted()
            .toList(),
        names(dir));
    assertEquals(
        models.versionPath(40).toString(), ModelDirectory.latestVersion(dir.toString(), conf));

    // Reopening removes this library's leftovers only (the versions here are empty: not loaded).
    Files.delete(dir.resolve("version-000000000012"));
    Files.delete(record);
    Files.delete(record.getParent());
    Files.delete(dir.resolve("version-000000000040"));
    assertNull(new ModelDirectory(dir.toString(), "exact").open(conf).latest());
    assertEquals(List.of(foreign, ModelDirectory.MARKER).stream().sorted().toList(), names(dir));
  }

  /**
   * A version's record holds the digest of the file list in the model's manifest (path, size and
   * SHA-256 of each file but the record, recomputed here from the manifest); a model file edited
   * after the commit, or the manifest removed, is refused by readers naming the record.
   */
  @Test
  void aVersionRecordsItsManifestsDigestAndRefusesEditedFiles() throws Exception {
    Configuration spark = LocalSpark.spark().sparkContext().hadoopConfiguration();
    NystromKernelPCAModel model =
        new NystromKernelPCA()
            .setK(2)
            .setNumLandmarks(6)
            .setSeed(3)
            .fit(LocalSpark.frame(LocalSpark.clusters(30, 3, 9), 1));
    ModelDirectory models = new ModelDirectory(dir.toString(), "exact");
    models.open(spark);
    models.commit(model, 0, 0, null, spark, staging -> {});
    Path version = dir.resolve("version-000000000000");
    Path record = version.resolve("data/streaming.json");

    ObjectMapper json = new ObjectMapper();
    JsonNode manifest = json.readTree(version.resolve(Manifest.NAME).toFile());
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    java.util.TreeMap<String, String> listed = new java.util.TreeMap<>();
    for (JsonNode file : manifest.path("files")) {
      listed.put(
          file.path("path").asText(),
          file.path("size").asLong() + "\0" + file.path("sha256").asText());
    }
    assertTrue(listed.containsKey("data/streaming.json"), "the manifest lists the record");
    listed.remove("data/streaming.json");
    listed.forEach(
        (path, sizeAndHash) ->
            sha.update((path + "\0" + sizeAndHash + "\0").getBytes(StandardCharsets.UTF_8)));
    assertEquals(
        HexFormat.of().formatHex(sha.digest()),
        json.readTree(record.toFile()).path("digest").asText());
    assertEquals(
        models.versionPath(0).toString(), ModelDirectory.latestVersion(dir.toString(), spark));

    String how = "the files of version-000000000000 differ from the ones recorded";
    Path metadata;
    try (Stream<Path> files = Files.list(version.resolve("metadata"))) {
      metadata =
          files.filter(p -> p.getFileName().toString().startsWith("part-")).findFirst().get();
    }
    byte[] original = Files.readAllBytes(metadata);
    Files.writeString(metadata, " ", java.nio.file.StandardOpenOption.APPEND);
    IllegalArgumentException edited =
        assertThrows(
            IllegalArgumentException.class,
            () -> ModelDirectory.latestVersion(dir.toString(), spark));
    assertTrue(edited.getMessage().startsWith(record + ": " + how), edited.getMessage());
    Files.write(metadata, original);
    assertEquals(
        models.versionPath(0).toString(), ModelDirectory.latestVersion(dir.toString(), spark));

    Files.delete(version.resolve(Manifest.NAME));
    IllegalArgumentException unlisted =
        assertThrows(
            IllegalArgumentException.class,
            () -> ModelDirectory.latestVersion(dir.toString(), spark));
    assertTrue(unlisted.getMessage().startsWith(record + ": " + how), unlisted.getMessage());
  }
}
