package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.persistence.Persistence;
import io.github.sparkkpca.testing.LocalSpark;
import java.nio.file.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One source of truth for the fitted kernel and m: the model's getters read the fitted state, a fit
 * sets neither γ nor m on the model, and the saved params still carry both (readers of format 2
 * build the kernel from them).
 */
class FittedParamsTest {

  @TempDir Path dir;

  @Test
  void gammaAndLandmarksAreReadFromTheFit() {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(200, 3, 4), 2);
    NystromKernelPCAModel model =
        new NystromKernelPCA()
            .setK(2)
            .setNumLandmarksAuto(0.05)
            .setMaxLandmarks(30)
            .setSeed(3)
            .fit(df);
    // m is chosen by residual growth (at most 30), not the numLandmarks default of 100.
    assertEquals(model.numSupportPoints(), model.getNumLandmarks());
    assertTrue(model.getNumLandmarks() <= 30, "m = " + model.getNumLandmarks());
    assertFalse(model.isSet(model.gamma()), "gamma is not mirrored onto the model");
    assertEquals(model.fittedKernel().gamma(), model.getGamma(), 0.0);
    assertTrue(model.getGamma() > 0);

    NystromKernelPCAModel linear =
        new NystromKernelPCA().setKernel("linear").setK(2).setNumLandmarks(10).setSeed(3).fit(df);
    assertTrue(Double.isNaN(linear.getGamma()), "the linear kernel has no gamma");
    assertEquals("linear", linear.getKernel());
  }

  @Test
  void savedParamsCarryTheFittedValues() throws Exception {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(50, 3, 4), 2);
    RandomFeatureKernelPCAModel model =
        new RandomFeatureKernelPCA().setK(2).setFeatureScale(0.5).setSeed(3).fit(df);
    int features = model.featureMap().numFeatures();
    assertEquals(features, model.getNumRandomFeatures());
    assertFalse(model.isSet(model.numRandomFeatures()));
    String path = dir.resolve("rf").toString();
    model.write().save(path);
    JsonNode params =
        Persistence.loadMetadata(path, LocalSpark.spark(), RandomFeatureKernelPCAModel.class)
            .path("paramMap");
    assertEquals(model.getGamma(), params.path("gamma").asDouble(), 0.0);
    assertEquals(features, params.path("numRandomFeatures").asInt());
    RandomFeatureKernelPCAModel loaded = RandomFeatureKernelPCAModel.load(path);
    assertFalse(loaded.isSet(loaded.gamma()), "the saved gamma is not set back on the model");
    assertEquals(model.getGamma(), loaded.getGamma(), 0.0);
    assertEquals(features, loaded.getNumRandomFeatures());
  }
}
