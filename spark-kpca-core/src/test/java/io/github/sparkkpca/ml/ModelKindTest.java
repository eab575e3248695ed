package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.persistence.ModelKind;
import io.github.sparkkpca.testing.LocalSpark;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.ml.Estimator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table of model kinds names the real classes: every row's model and estimator class exists,
 * each estimator fits a model of its row's kind with the row's feature map, and loading through the
 * table gives back a model of that class that scores as the saved one.
 */
class ModelKindTest {

  @TempDir Path dir;

  @Test
  void everyRowNamesItsClasses() throws ClassNotFoundException {
    Map<ModelKind, Class<?>> models =
        Map.of(
            ModelKind.EXACT, KernelPCAModel.class,
            ModelKind.NYSTROM, NystromKernelPCAModel.class,
            ModelKind.RANDOM_FEATURES, RandomFeatureKernelPCAModel.class);
    Map<ModelKind, Class<?>> estimators =
        Map.of(
            ModelKind.EXACT, KernelPCA.class,
            ModelKind.NYSTROM, NystromKernelPCA.class,
            ModelKind.RANDOM_FEATURES, RandomFeatureKernelPCA.class);
    assertEquals(ModelKind.values().length, models.size());
    for (ModelKind kind : ModelKind.values()) {
      assertEquals(models.get(kind).getName(), kind.modelClassName(), kind.name());
      assertEquals(estimators.get(kind).getName(), kind.estimatorClassName(), kind.name());
      assertTrue(
          AbstractKernelPCAModel.class.isAssignableFrom(Class.forName(kind.modelClassName())));
      assertTrue(Estimator.class.isAssignableFrom(Class.forName(kind.estimatorClassName())));
      assertEquals(Optional.of(kind), ModelKind.ofModelClass(kind.modelClassName()));
      assertEquals(Optional.of(kind), ModelKind.ofEstimatorClass(kind.estimatorClassName()));
    }
    assertArrayEquals(new String[] {"nystrom", "rff"}, ModelKind.FEATURE_MAP_NAMES);
    assertFalse(ModelKind.EXACT.isStreamable());
    assertTrue(ModelKind.NYSTROM.isStreamable() && ModelKind.RANDOM_FEATURES.isStreamable());
    assertEquals(Optional.empty(), ModelKind.ofModelClass(KernelPCA.class.getName()));
    IllegalArgumentException unknown =
        assertThrows(IllegalArgumentException.class, () -> ModelKind.ofFeatureMap("orf"));
    assertEquals(
        "unknown feature map kind 'orf' (this library reads nystrom, rff)", unknown.getMessage());
  }

  @Test
  void eachEstimatorFitsItsKindAndLoadsBackThroughTheTable() throws java.io.IOException {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(40, 3, 7), 2);
    AbstractKernelPCAModel<?>[] fitted = {
      new KernelPCA().setK(2).fit(df),
      new NystromKernelPCA().setK(2).setNumLandmarks(12).setSeed(3).fit(df),
      new RandomFeatureKernelPCA().setK(2).setNumRandomFeatures(30).setSeed(3).fit(df)
    };
    for (AbstractKernelPCAModel<?> model : fitted) {
      ModelKind kind = ModelKind.ofModelClass(model.getClass().getName()).orElseThrow();
      assertEquals(kind.hasFeatureMap(), model.solution().isUpdatable(), kind.name());
      if (kind.hasFeatureMap()) {
        assertEquals(kind.paramName(), model.solution().featurePCA().map().kind());
        assertEquals(kind, ModelKind.ofFeatureMap(kind.paramName()));
      }
      String path = dir.resolve(kind.paramName()).toString();
      model.write().save(path);
      assertEquals(kind, ModelKind.ofSaved(path, LocalSpark.spark()));
      AbstractKernelPCAModel<?> loaded = kind.load(path, AbstractKernelPCAModel.class);
      assertInstanceOf(model.getClass(), loaded);
      assertEquals(model.uid(), loaded.uid());
      assertArrayEquals(
          LocalSpark.collect(model.transform(df), "kpca")[5],
          LocalSpark.collect(loaded.transform(df), "kpca")[5],
          0.0);
    }
  }

  /**
   * {@link AbstractKernelPCAModel#loadAny} reads the class name before the files are hashed (the
   * class's reader hashes them, once): a metadata edited to name another class is still reported as
   * a changed file, not as that class, and so is a changed table of a model that names its class.
   */
  @Test
  void loadAnyReportsAChangedFileWhateverClassTheMetadataNames() throws java.io.IOException {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(30, 3, 7), 1);
    String path = dir.resolve("m").toString();
    new NystromKernelPCA().setK(2).setNumLandmarks(10).setSeed(3).fit(df).write().save(path);
    java.nio.file.Path metadata;
    try (java.util.stream.Stream<java.nio.file.Path> files =
        java.nio.file.Files.list(dir.resolve("m/metadata"))) {
      metadata =
          files.filter(f -> f.getFileName().toString().startsWith("part-")).findFirst().get();
    }
    String original = java.nio.file.Files.readString(metadata);
    // Same length, so only the digest tells: a Spark class name padded to the model's.
    String model = NystromKernelPCAModel.class.getName();
    String other = "org.apache.spark.ml.feature.PCAModel";
    String edited =
        original.replace(
            "\"" + model + "\"", "\"" + other + " ".repeat(model.length() - other.length()) + "\"");
    assertEquals(original.length(), edited.length());
    java.nio.file.Files.writeString(metadata, edited);
    // Hadoop's checksum files would refuse the edit first; copy tools drop them.
    dropChecksum(metadata);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> AbstractKernelPCAModel.loadAny(path));
    assertTrue(
        e.getMessage().contains(dir.relativize(metadata).toString().substring(2))
            && e.getMessage().contains("does not match its SHA-256"),
        e.getMessage());
    java.nio.file.Files.writeString(metadata, original);
    assertEquals(ModelKind.NYSTROM, ModelKind.ofSaved(path, LocalSpark.spark()));
    java.nio.file.Path landmarks;
    try (java.util.stream.Stream<java.nio.file.Path> files =
        java.nio.file.Files.list(dir.resolve("m/data/landmarks"))) {
      landmarks =
          files.filter(f -> f.getFileName().toString().startsWith("part-")).findFirst().get();
    }
    byte[] bytes = java.nio.file.Files.readAllBytes(landmarks);
    bytes[bytes.length / 2] ^= 1;
    java.nio.file.Files.write(landmarks, bytes);
    dropChecksum(landmarks);
    e = assertThrows(IllegalArgumentException.class, () -> AbstractKernelPCAModel.loadAny(path));
    assertTrue(
        e.getMessage().contains("data/landmarks/" + landmarks.getFileName())
            && e.getMessage().contains("does not match its SHA-256"),
        e.getMessage());
  }

  private static void dropChecksum(java.nio.file.Path file) throws java.io.IOException {
    java.nio.file.Files.deleteIfExists(file.resolveSibling("." + file.getFileName() + ".crc"));
  }
}
