package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkkpca.persistence.Manifest;
import io.github.sparkkpca.testing.SavedModelKinds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * A saved model proves it is whole: every file of every model kind, tampered with (a byte flipped,
 * a byte appended, the file dropped) and its Hadoop {@code .crc} files deleted, as after a copy, is
 * refused on load with one line naming the file; so is a file added, and an edited number in the
 * metadata JSON. A model without its manifest (as saved by older releases) still loads, and then
 * the cross-checks of its stored numbers refuse edits the sizes do not reveal: the statistics'
 * count against the summary's numRows, the spectrum against the total variance, the centring in the
 * metadata against the summary, the kernel and γ against the Nyström weights, a weight scaled.
 */
class ManifestTamperTest {

  @TempDir static Path dir;

  private static final Dataset<Row> DATA = SavedModelKinds.rows();

  /** A model kind: its name, the saved original, and how it is loaded. */
  private record Kind(String name, Path saved, LoadFrom load) {}

  @FunctionalInterface
  private interface LoadFrom {
    Object load(String path);
  }

  private static final List<Kind> KINDS = new ArrayList<>();

  @BeforeAll
  static void saveOneOfEachKind() {
    for (SavedModelKinds.Kind kind : SavedModelKinds.Kind.values()) {
      Path path = kind.saveTo(dir.resolve("saved"), "");
      assertTrue(Files.exists(path.resolve(Manifest.NAME)), kind.directory() + " has no manifest");
      KINDS.add(new Kind(kind.directory(), path, kind::load));
    }
  }

  /** The files a manifest covers: every file but Hadoop's checksums and markers. */
  private static List<String> dataFiles(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(Files::isRegularFile)
          .map(p -> root.relativize(p).toString().replace('\\', '/'))
          .filter(n -> !n.endsWith(".crc") && !n.endsWith("_SUCCESS") && !n.equals(Manifest.NAME))
          .sorted()
          .toList();
    }
  }

  private static int copies;

  /** A copy of {@code from} without any {@code .crc} file, as most copy tools leave it. */
  private static Path copyWithoutChecksums(Path from) throws IOException {
    Path to = dir.resolve("copies").resolve(from.getFileName() + "-" + copies++);
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

  private static void assertRefusedNaming(Kind kind, Path path, String file) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> kind.load().load(path.toString()));
    String message = e.getMessage();
    assertTrue(!message.contains("\n"), message);
    String rest = message.substring(message.indexOf(path.toString()) + path.toString().length());
    assertTrue(rest.contains(file), "'" + file + "' not named in: " + message);
  }

  private enum Tamper {
    FLIP_BYTE {
      @Override
      void apply(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(file, bytes);
      }
    },
    APPEND_BYTE {
      @Override
      void apply(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1);
        Files.write(file, longer);
      }
    },
    DROP_FILE {
      @Override
      void apply(Path file) throws IOException {
        Files.delete(file);
      }
    };

    abstract void apply(Path file) throws IOException;
  }

  @TestFactory
  Stream<DynamicTest> everyFileOfEveryKindTamperedIsRefusedNamingTheFile() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (Kind kind : KINDS) {
      List<String> files = dataFiles(kind.saved());
      assertTrue(files.size() >= 3, kind.name() + ": " + files);
      for (String file : files) {
        for (Tamper tamper : Tamper.values()) {
          tests.add(
              DynamicTest.dynamicTest(
                  kind.name() + " " + file + " " + tamper,
                  () -> {
                    Path copy = copyWithoutChecksums(kind.saved());
                    tamper.apply(copy.resolve(file));
                    assertRefusedNaming(kind, copy, file);
                  }));
        }
      }
      tests.add(
          DynamicTest.dynamicTest(
              kind.name() + " a file added",
              () -> {
                Path copy = copyWithoutChecksums(kind.saved());
                Files.writeString(copy.resolve("data/summary/part-99999-extra.parquet"), "x");
                assertRefusedNaming(kind, copy, "data/summary/part-99999-extra.parquet");
              }));
      tests.add(
          DynamicTest.dynamicTest(
              kind.name() + " untouched loads",
              () -> kind.load().load(copyWithoutChecksums(kind.saved()).toString())));
    }
    return tests.stream();
  }

  /** A number edited in the metadata JSON (the same length, so only the digest differs). */
  @Test
  void aDigitEditedInTheMetadataIsRefusedNamingIt() throws IOException {
    for (Kind kind : KINDS) {
      Path copy = copyWithoutChecksums(kind.saved());
      String metadata =
          dataFiles(copy).stream().filter(f -> f.startsWith("metadata/part-")).findFirst().get();
      String json = Files.readString(copy.resolve(metadata));
      int at = json.indexOf("\"timestamp\":") + "\"timestamp\":".length();
      char digit = json.charAt(at + 3);
      String edited = json.substring(0, at + 3) + (digit == '9' ? '8' : (char) (digit + 1));
      Files.writeString(copy.resolve(metadata), edited + json.substring(at + 4));
      assertRefusedNaming(kind, copy, metadata);
    }
  }

  /** A model saved before manifests loads, scoring as the saved one (with a warning). */
  @Test
  void aModelWithoutManifestStillLoads() throws IOException {
    Kind nystrom = KINDS.get(0);
    Path copy = copyWithoutChecksums(nystrom.saved());
    SavedModelKinds.dropManifest(copy);
    NystromKernelPCAModel loaded = NystromKernelPCAModel.load(copy.toString());
    NystromKernelPCAModel original = NystromKernelPCAModel.load(nystrom.saved().toString());
    assertEquals(
        original.transform(DATA).select("kpca").collectAsList().toString(),
        loaded.transform(DATA).select("kpca").collectAsList().toString());
  }

  // Without a manifest: the cross-checks of the stored numbers.

  /** A copy without manifest and checksums, {@code edit} applied. */
  private static Path unmanifested(Kind kind, Consumer<Path> edit) throws IOException {
    Path copy = copyWithoutChecksums(kind.saved());
    SavedModelKinds.dropManifest(copy);
    edit.accept(copy);
    return copy;
  }

  private static void mapField(Path path, String table, String field, UnaryOperator<Object> f) {
    SavedModelKinds.mapField(path, table, field, f);
  }

  private static void editMetadata(Path path, UnaryOperator<ObjectNode> edit) {
    SavedModelKinds.editMetadata(path.toString(), edit);
  }

  private static Vector scaled(Object vector, double factor) {
    double[] values = ((Vector) vector).toArray().clone();
    for (int i = 0; i < values.length; i++) {
      values[i] *= factor;
    }
    return new DenseVector(values);
  }

  private static void assertRefusedSaying(Kind kind, Path path, String... parts) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> kind.load().load(path.toString()));
    String message = e.getMessage();
    assertTrue(!message.contains("\n"), message);
    String rest = message.substring(message.indexOf(path.toString()) + path.toString().length());
    for (String part : parts) {
      assertTrue(rest.contains(part), "'" + part + "' missing from: " + message);
    }
  }

  @TestFactory
  Stream<DynamicTest> storedNumbersAreCrossChecked() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Kind kind : KINDS.subList(0, 2)) {
      tests.add(
          DynamicTest.dynamicTest(
              kind.name() + ": count 61 against numRows 60",
              () ->
                  assertRefusedSaying(
                      kind,
                      unmanifested(kind, p -> mapField(p, "statistics", "count", c -> 61L)),
                      "data/statistics records count = 61",
                      "numRows = 60")));
      tests.add(
          DynamicTest.dynamicTest(
              kind.name() + ": count and numRows 2^62",
              () ->
                  assertRefusedSaying(
                      kind,
                      unmanifested(
                          kind,
                          p -> {
                            mapField(p, "statistics", "count", c -> 1L << 62);
                            mapField(p, "summary", "numRows", c -> 1L << 62);
                          }),
                      "data/summary")));
      tests.add(
          DynamicTest.dynamicTest(
              kind.name() + ": the spectrum doubled",
              () ->
                  assertRefusedSaying(
                      kind,
                      unmanifested(
                          kind, p -> mapField(p, "summary", "spectrum", v -> scaled(v, 2))),
                      "data/summary")));
      tests.add(
          DynamicTest.dynamicTest(
              kind.name() + ": centered flipped in the summary",
              () ->
                  assertRefusedSaying(
                      kind,
                      unmanifested(kind, p -> mapField(p, "summary", "centered", c -> false)),
                      "centered = true",
                      "data/summary records centered = false")));
    }
    Kind nystrom = KINDS.get(0);
    tests.add(
        DynamicTest.dynamicTest(
            "nystrom: gamma changed in both places of the metadata",
            () ->
                assertRefusedSaying(
                    nystrom,
                    unmanifested(
                        nystrom,
                        p ->
                            editMetadata(
                                p,
                                root -> {
                                  double gamma = root.path("kernel").path("gamma").asDouble();
                                  ((ObjectNode) root.get("kernel")).put("gamma", 1.5 * gamma);
                                  ((ObjectNode) root.get("paramMap")).put("gamma", 1.5 * gamma);
                                  return root;
                                })),
                    "data/landmarks row",
                    "another kernel or gamma")));
    tests.add(
        DynamicTest.dynamicTest(
            "nystrom: the weights scaled",
            () ->
                assertRefusedSaying(
                    nystrom,
                    unmanifested(
                        nystrom, p -> mapField(p, "landmarks", "weights", v -> scaled(v, 1.01))),
                    "data/landmarks row")));
    Kind exact = KINDS.get(2);
    tests.add(
        DynamicTest.dynamicTest(
            "exact: the spectrum doubled",
            () ->
                assertRefusedSaying(
                    exact,
                    unmanifested(exact, p -> mapField(p, "summary", "spectrum", v -> scaled(v, 2))),
                    "data/summary: the spectrum")));
    tests.add(
        DynamicTest.dynamicTest(
            "exact: centered flipped in the summary",
            () ->
                assertRefusedSaying(
                    exact,
                    unmanifested(exact, p -> mapField(p, "summary", "centered", c -> false)),
                    "centered")));
    return tests.stream();
  }
}
