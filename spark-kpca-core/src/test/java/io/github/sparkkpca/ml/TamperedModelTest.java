package io.github.sparkkpca.ml;

import static io.github.sparkkpca.testing.SavedModelKinds.editMetadata;
import static io.github.sparkkpca.testing.SavedModelKinds.metadata;
import static io.github.sparkkpca.testing.SavedModelKinds.setField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkkpca.testing.SavedModelKinds;
import io.github.sparkkpca.testing.SavedModelKinds.Kind;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Models whose stored sizes were tampered with (a hand-edited or corrupted {@code data/summary} or
 * metadata) are refused on load with one line naming the path, the field and both values, before
 * anything of the claimed size is allocated; and a model written again (after {@code update})
 * records the sizes its fitted state really has. The models of every kind are {@link
 * SavedModelKinds}'.
 */
class TamperedModelTest {

  @TempDir Path dir;

  private static final int BILLION = 1_000_000_000;

  private static final Dataset<Row> DATA = SavedModelKinds.rows();

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

  @ParameterizedTest
  @EnumSource(Kind.class)
  void aModelWithAHugeFeatureCountIsRefusedNamingBothSizes(Kind kind) {
    String path = kind.saveTo(dir, "").toString();
    setField(path, "summary", "numFeatures", BILLION);
    assertRefused(
        () -> kind.load(path), kind.className(), path, "numFeatures", String.valueOf(BILLION), "3");
  }

  @Test
  void aHugeComponentCountIsRefusedNamingBothSizes() {
    String path = Kind.NYSTROM.saveTo(dir, "-k").toString();
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
  void aMetadataLandmarkCountOtherThanTheDataIsRefused() {
    String path = Kind.NYSTROM.saveTo(dir, "-m").toString();
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

    String rffPath = Kind.RANDOM_FEATURES.saveTo(dir, "-d").toString();
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
        ((NystromKernelPCAModel) Kind.NYSTROM.model()).copy(ParamMap.empty());
    // A value set on the model (as a tampered metadata once did) is not what the model holds.
    model.set(model.numLandmarks(), 999);
    NystromKernelPCAModel updated = model.update(DATA);
    String path = dir.resolve("updated").toString();
    updated.write().save(path);
    JsonNode params = metadata(path).path("paramMap");
    assertEquals(10, params.path("numLandmarks").asInt(), params.toString());
    assertEquals(10, NystromKernelPCAModel.load(path).numSupportPoints());

    RandomFeatureKernelPCAModel rff =
        ((RandomFeatureKernelPCAModel) Kind.RANDOM_FEATURES.model()).copy(ParamMap.empty());
    rff.set(rff.numRandomFeatures(), 7);
    String rffPath = dir.resolve("rff-updated").toString();
    rff.update(DATA).write().save(rffPath);
    assertEquals(20, metadata(rffPath).path("paramMap").path("numRandomFeatures").asInt());
  }
}
