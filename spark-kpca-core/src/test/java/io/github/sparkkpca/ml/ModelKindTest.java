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
}
