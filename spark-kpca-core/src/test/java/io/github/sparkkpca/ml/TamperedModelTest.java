package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkkpca.persistence.Manifest;
import io.github.sparkkpca.persistence.Persistence;
import io.github.sparkkpca.testing.LocalSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Models whose stored sizes were tampered with (a hand-edited or corrupted {@code data/summary} or
 * metadata) are refused on load with one line naming the path, the field and both values, before
 * anything of the claimed size is allocated; and a model written again (after {@code update})
 * records the sizes its fitted state really has.
 */
class TamperedModelTest {

  @TempDir Path dir;

  private static final int BILLION = 1_000_000_000;

  private static final Dataset<Row> DATA = LocalSpark.frame(LocalSpark.clusters(60, 3, 3), 2);

  private String saved(org.apache.spark.ml.util.MLWritable model, String name) throws IOException {
    String path = dir.resolve(name).toString();
    model.write().save(path);
    return path;
  }

  /**
   * Replaces {@code field} of every row of the table {@code data/<table>} by {@code value}, and
   * drops the stage's manifest (as in a model saved before manifests), so that what refuses it is
   * the check of the numbers.
   */
  static void setField(String path, String table, String field, Object value) throws IOException {
    Files.deleteIfExists(Path.of(path, Manifest.NAME));
    Dataset<Row> df = LocalSpark.spark().read().parquet(path + "/data/" + table);
    StructType schema = df.schema();
    int index = schema.fieldIndex(field);
    List<Row> rows = new ArrayList<>();
    for (Row row : df.collectAsList()) {
      Object[] values = new Object[row.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = i == index ? value : row.get(i);
      }
      rows.add(RowFactory.create(values));
    }
    deleteTree(Path.of(path, "data", table));
    LocalSpark.spark()
        .createDataFrame(rows, schema)
        .coalesce(1)
        .write()
        .parquet(path + "/data/" + table);
  }

  /**
   * Rewrites the metadata JSON through {@code edit}, dropping the manifest as {@link #setField}.
   */
  static void editMetadata(String path, Function<ObjectNode, ObjectNode> edit) throws IOException {
    Files.deleteIfExists(Path.of(path, Manifest.NAME));
    try (var files = Files.list(Path.of(path, "metadata"))) {
      for (Path f : files.toList()) {
        String name = f.getFileName().toString();
        if (name.startsWith("part-")) {
          JsonNode root = Persistence.JSON.readTree(Files.readString(f).trim());
          Files.writeString(f, edit.apply((ObjectNode) root).toString() + "\n");
        } else if (name.endsWith(".crc")) {
          Files.delete(f);
        }
      }
    }
  }

  private static void assertRefused(
      org.junit.jupiter.api.function.Executable load,
      String className,
      String path,
      String... parts) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, load);
    String message = e.getMessage();
    assertTrue(message.startsWith("Cannot load " + className + " from '" + path + "'"), message);
    assertTrue(!message.contains("\n"), message);
    // The parts are looked for after the path, whose random digits could hold them.
    String rest = message.substring(("Cannot load " + className + " from '" + path + "'").length());
    for (String part : parts) {
      assertTrue(rest.contains(part), "'" + part + "' missing from: " + message);
    }
  }

  @Test
  void aNystromModelWithAHugeFeatureCountIsRefusedNamingBothSizes() throws IOException {
    NystromKernelPCAModel model =
        new NystromKernelPCA().setK(2).setNumLandmarks(10).setSeed(1).fit(DATA);
    String path = saved(model, "nystrom");
    setField(path, "summary", "numFeatures", BILLION);
    assertRefused(
        () -> NystromKernelPCAModel.load(path),
        "NystromKernelPCAModel",
        path,
        "numFeatures",
        String.valueOf(BILLION),
        "3");
  }

  @Test
  void aHugeComponentCountIsRefusedNamingBothSizes() throws IOException {
    NystromKernelPCAModel model =
        new NystromKernelPCA().setK(2).setNumLandmarks(10).setSeed(1).fit(DATA);
    String path = saved(model, "nystrom-k");
    setField(path, "summary", "numComponents", BILLION);
    assertRefused(
        () -> NystromKernelPCAModel.load(path),
        "NystromKernelPCAModel",
        path,
        "numComponents",
        String.valueOf(BILLION),
        "only 10 eigenvalues");
  }

  @Test
  void aRandomFeatureModelWithAHugeFeatureCountIsRefused() throws IOException {
    RandomFeatureKernelPCAModel model =
        new RandomFeatureKernelPCA()
            .setK(2)
            .setNumRandomFeatures(20)
            .setGamma(0.3)
            .setSeed(5)
            .fit(DATA);
    String path = saved(model, "rff");
    setField(path, "summary", "numFeatures", BILLION);
    assertRefused(
        () -> RandomFeatureKernelPCAModel.load(path),
        "RandomFeatureKernelPCAModel",
        path,
        "numFeatures",
        String.valueOf(BILLION),
        "3");
  }

  @Test
  void anExactModelWithAHugeFeatureCountIsRefused() throws IOException {
    KernelPCAModel model = new KernelPCA().setK(2).fit(DATA);
    String path = saved(model, "exact");
    setField(path, "summary", "numFeatures", BILLION);
    assertRefused(
        () -> KernelPCAModel.load(path),
        "KernelPCAModel",
        path,
        "numFeatures",
        String.valueOf(BILLION),
        "3");
  }

  @Test
  void aRegressionModelWithAHugeFeatureCountIsRefused() throws IOException {
    double[][] x = LocalSpark.clusters(60, 3, 3);
    double[] y = new double[x.length];
    for (int i = 0; i < y.length; i++) {
      y[i] = x[i][0] - x[i][1];
    }
    KernelPCARegressionModel model =
        new KernelPCARegressor()
            .setGamma(0.5)
            .setNumLandmarks(20)
            .setDimension(2)
            .fit(KernelPCARegressionTest.labelled(x, y, 2));
    String path = saved(model, "regression");
    setField(path, "summary", "numFeatures", BILLION);
    assertRefused(
        () -> KernelPCARegressionModel.load(path),
        "KernelPCARegressionModel",
        path,
        "numFeatures",
        String.valueOf(BILLION),
        "3");
  }

  @Test
  void aMetadataLandmarkCountOtherThanTheDataIsRefused() throws IOException {
    NystromKernelPCAModel model =
        new NystromKernelPCA().setK(2).setNumLandmarks(10).setSeed(1).fit(DATA);
    String path = saved(model, "nystrom-m");
    editMetadata(
        path,
        root -> {
          ((ObjectNode) root.get("paramMap")).put("numLandmarks", 999);
          return root;
        });
    assertRefused(
        () -> NystromKernelPCAModel.load(path),
        "NystromKernelPCAModel",
        path,
        "numLandmarks",
        "999",
        "10");

    RandomFeatureKernelPCAModel rff =
        new RandomFeatureKernelPCA()
            .setK(2)
            .setNumRandomFeatures(20)
            .setGamma(0.3)
            .setSeed(5)
            .fit(DATA);
    String rffPath = saved(rff, "rff-d");
    editMetadata(
        rffPath,
        root -> {
          ((ObjectNode) root.get("paramMap")).put("numRandomFeatures", 7);
          return root;
        });
    assertRefused(
        () -> RandomFeatureKernelPCAModel.load(rffPath),
        "RandomFeatureKernelPCAModel",
        rffPath,
        "numRandomFeatures",
        "7",
        "20");
  }

  /** The updated model's metadata records the sizes of its fitted state, whatever was set. */
  @Test
  void anUpdatedModelRecordsTheSizesItHolds() throws IOException {
    NystromKernelPCAModel model =
        new NystromKernelPCA().setK(2).setNumLandmarks(10).setSeed(1).fit(DATA);
    // A value set on the model (as a tampered metadata once did) is not what the model holds.
    model.set(model.numLandmarks(), 999);
    NystromKernelPCAModel updated = model.update(DATA);
    String path = saved(updated, "updated");
    JsonNode params = metadataOf(path).path("paramMap");
    assertEquals(10, params.path("numLandmarks").asInt(), params.toString());
    assertEquals(10, NystromKernelPCAModel.load(path).numSupportPoints());

    RandomFeatureKernelPCAModel rff =
        new RandomFeatureKernelPCA()
            .setK(2)
            .setNumRandomFeatures(20)
            .setGamma(0.3)
            .setSeed(5)
            .fit(DATA);
    rff.set(rff.numRandomFeatures(), 7);
    String rffPath = saved(rff.update(DATA), "rff-updated");
    assertEquals(20, metadataOf(rffPath).path("paramMap").path("numRandomFeatures").asInt());
  }

  private static JsonNode metadataOf(String path) throws IOException {
    try (var files = Files.list(Path.of(path, "metadata"))) {
      for (Path f : files.toList()) {
        if (f.getFileName().toString().startsWith("part-")) {
          return Persistence.JSON.readTree(Files.readString(f).trim());
        }
      }
    }
    throw new IOException("no metadata part file under " + path);
  }

  private static void deleteTree(Path root) throws IOException {
    try (var paths = Files.walk(root)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
