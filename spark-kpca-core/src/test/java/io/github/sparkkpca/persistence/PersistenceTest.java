package io.github.sparkkpca.persistence;

import static io.github.sparkkpca.testing.SavedModelKinds.deleteTree;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.KernelPCA;
import io.github.sparkkpca.ml.KernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import io.github.sparkkpca.testing.SavedModelKinds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.feature.StandardScaler;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Save → load round trips of models, estimators and pipelines, and clear errors on corrupt
 * directories.
 */
class PersistenceTest {

  @TempDir Path dir;

  /**
   * A refusal from saveImpl (the pre-save check of a model its loader would refuse) names the path
   * the user passed to save, not the hidden sibling saveImpl writes into, which it used to name.
   */
  @Test
  void saveImplNamesTheRequestedPathNotItsHiddenSibling() {
    LocalSpark.spark();
    String[] seen = new String[2];
    StageWriter writer =
        new StageWriter() {
          @Override
          public void saveImpl(String path) {
            seen[0] = path;
            seen[1] = requestedPath(path);
            throw new IllegalArgumentException("refused");
          }
        };
    String target = dir.resolve("my model").toString();
    assertThrows(IllegalArgumentException.class, () -> writer.save(target));
    assertTrue(!seen[0].equals(target), "saveImpl writes into a sibling: " + seen[0]);
    assertEquals(target, seen[1]);
  }

  private static void assertSameOutput(Dataset<Row> a, Dataset<Row> b, String... columns) {
    for (String column : columns) {
      double[][] x = LocalSpark.collect(a, column);
      double[][] y = LocalSpark.collect(b, column);
      assertEquals(x.length, y.length);
      for (int i = 0; i < x.length; i++) {
        assertArrayEquals(x[i], y[i], 0.0, column + " row " + i);
      }
    }
  }

  @Test
  void nystromModelRoundTripGivesIdenticalOutput() throws IOException {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(200, 5, 3), 2);
    NystromKernelPCAModel model =
        new NystromKernelPCA()
            .setK(3)
            .setNumLandmarks(25)
            .setSeed(7)
            .setResidualCol("residual")
            .fit(df);
    String path = dir.resolve("model").toString();
    model.write().save(path);
    NystromKernelPCAModel loaded = NystromKernelPCAModel.load(path);
    assertEquals(model.uid(), loaded.uid());
    assertEquals(model.getGamma(), loaded.getGamma(), 0);
    assertEquals("residual", loaded.getResidualCol());
    assertEquals(model.numRows(), loaded.numRows());
    assertEquals(model.rank(), loaded.rank());
    assertEquals(model.totalVarianceMethod(), loaded.totalVarianceMethod());
    assertArrayEquals(model.eigenvalues().toArray(), loaded.eigenvalues().toArray(), 0);
    assertArrayEquals(
        model.reconstructionError().toArray(), loaded.reconstructionError().toArray(), 0);
    Dataset<Row> a = model.transform(df);
    Dataset<Row> b = loaded.transform(df);
    assertSameOutput(a, b, "kpca");
    assertEquals(
        a.orderBy("id").select("residual").collectAsList(),
        b.orderBy("id").select("residual").collectAsList());

    assertThrows(Exception.class, () -> model.write().save(path), "no silent overwrite");
    model.write().overwrite().save(path);
    assertEquals(model.uid(), NystromKernelPCAModel.load(path).uid());
  }

  @Test
  void exactModelAndEstimatorsRoundTrip() throws IOException {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(60, 3, 3), 2);
    KernelPCAModel exact = new KernelPCA().setK(2).setKernel("polynomial").setDegree(2).fit(df);
    exact.write().save(dir.resolve("exact").toString());
    assertSameOutput(
        exact.transform(df),
        KernelPCAModel.load(dir.resolve("exact").toString()).transform(df),
        "kpca");

    NystromKernelPCA estimator =
        new NystromKernelPCA()
            .setK(2)
            .setKernel("laplacian")
            .setGamma(0.5)
            .setLandmarks(Vectors.dense(1, 2, 3), Vectors.dense(0, 1, 0), Vectors.dense(2, 2, 2));
    estimator.write().save(dir.resolve("estimator").toString());
    NystromKernelPCA reloaded = NystromKernelPCA.load(dir.resolve("estimator").toString());
    assertEquals("laplacian", reloaded.getKernel());
    assertTrue(reloaded.hasSuppliedLandmarks());
    assertArrayEquals(
        estimator.fit(df).landmarks().toArray(), reloaded.fit(df).landmarks().toArray(), 0);

    KernelPCA exactEstimator = new KernelPCA().setK(3).setMaxRows(77);
    exactEstimator.write().save(dir.resolve("exactEstimator").toString());
    assertEquals(77, KernelPCA.load(dir.resolve("exactEstimator").toString()).getMaxRows());
  }

  @Test
  void worksInsideAPipeline() throws IOException {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(150, 4, 8), 3);
    Pipeline pipeline =
        new Pipeline()
            .setStages(
                new PipelineStage[] {
                  new StandardScaler().setInputCol("features").setOutputCol("scaled"),
                  new NystromKernelPCA()
                      .setInputCol("scaled")
                      .setOutputCol("kpca")
                      .setK(2)
                      .setNumLandmarks(20)
                });
    PipelineModel fitted = pipeline.fit(df);
    String path = dir.resolve("pipeline").toString();
    fitted.write().save(path);
    PipelineModel loaded = PipelineModel.load(path);
    assertTrue(loaded.stages()[1] instanceof NystromKernelPCAModel);
    assertSameOutput(fitted.transform(df), loaded.transform(df), "kpca");
    pipeline.write().save(dir.resolve("unfitted").toString());
    assertEquals(2, Pipeline.load(dir.resolve("unfitted").toString()).getStages().length);
  }

  @Test
  void aPipelineGivenForAModelNamesItsKernelPcaStage() throws IOException {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(80, 3, 5), 2);
    NystromKernelPCA kpca =
        new NystromKernelPCA().setInputCol("scaled").setK(2).setNumLandmarks(10).setSeed(1);
    PipelineModel fitted =
        new Pipeline()
            .setStages(
                new PipelineStage[] {
                  new StandardScaler().setInputCol("features").setOutputCol("scaled"), kpca
                })
            .fit(df);
    String path = dir.resolve("pipeline").toString();
    fitted.write().save(path);
    String stage = path + "/stages/1_" + fitted.stages()[1].uid();
    IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> AbstractKernelPCAModel.loadAny(path));
    assertEquals(
        "Cannot load a model from '"
            + path
            + "': the directory holds a 'org.apache.spark.ml.PipelineModel', not a kernel PCA model"
            + " of this library; a pipeline's kernel PCA stage loads on its own: give its directory, "
            + stage,
        refused.getMessage());
    AbstractKernelPCAModel<?> loaded = AbstractKernelPCAModel.loadAny(stage);
    assertSameOutput(
        fitted.transform(df), loaded.transform(fitted.stages()[0].transform(df)), "kpca");
  }

  @Test
  void corruptDirectoriesGiveClearErrors() throws IOException {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(60, 3, 3), 2);
    NystromKernelPCAModel model = new NystromKernelPCA().setK(2).setNumLandmarks(10).fit(df);
    Path path = dir.resolve("m");
    model.write().save(path.toString());

    IllegalArgumentException missing =
        assertThrows(
            IllegalArgumentException.class,
            () -> NystromKernelPCAModel.load(dir.resolve("nothing-here").toString()));
    assertTrue(
        missing.getMessage().endsWith("'" + dir.resolve("nothing-here") + "': path does not exist"),
        missing.getMessage());
    // A directory without its metadata: named as such.
    java.nio.file.Files.createDirectories(dir.resolve("empty-dir"));
    IllegalArgumentException noMetadata =
        assertThrows(
            IllegalArgumentException.class,
            () -> NystromKernelPCAModel.load(dir.resolve("empty-dir").toString()));
    assertTrue(noMetadata.getMessage().contains("no readable metadata"), noMetadata.getMessage());

    IllegalArgumentException wrongClass =
        assertThrows(IllegalArgumentException.class, () -> KernelPCAModel.load(path.toString()));
    assertTrue(wrongClass.getMessage().contains("NystromKernelPCAModel"), wrongClass.getMessage());

    deleteTree(path.resolve("data/landmarks"));
    IllegalArgumentException noData =
        assertThrows(
            IllegalArgumentException.class, () -> NystromKernelPCAModel.load(path.toString()));
    assertTrue(
        noData.getMessage().contains("data/landmarks/part-")
            && noData.getMessage().contains("is missing (_manifest.json lists it)"),
        noData.getMessage());
    // Without its manifest (as saved by an older release) the reader finds the data missing.
    SavedModelKinds.dropManifest(path);
    IllegalArgumentException noManifest =
        assertThrows(
            IllegalArgumentException.class, () -> NystromKernelPCAModel.load(path.toString()));
    assertTrue(
        noManifest.getMessage().contains("missing or unreadable model data"),
        noManifest.getMessage());

    Path other = dir.resolve("m2");
    model.write().save(other.toString());
    try (var files = Files.list(other.resolve("metadata"))) {
      for (Path f : files.toList()) {
        String name = f.getFileName().toString();
        if (name.startsWith("part-")) {
          Files.writeString(f, "{not json");
        } else if (name.endsWith(".crc")) {
          Files.delete(f); // let the reader reach the JSON parser rather than fail the checksum
        }
      }
    }
    IllegalArgumentException edited =
        assertThrows(
            IllegalArgumentException.class, () -> NystromKernelPCAModel.load(other.toString()));
    assertTrue(
        edited.getMessage().startsWith("Cannot load NystromKernelPCAModel from")
            && edited.getMessage().contains("metadata/part-"),
        edited.getMessage());
    Files.delete(other.resolve(Manifest.NAME));
    IllegalArgumentException badJson =
        assertThrows(
            IllegalArgumentException.class, () -> NystromKernelPCAModel.load(other.toString()));
    assertTrue(
        badJson.getMessage().startsWith("Cannot load NystromKernelPCAModel from")
            && badJson.getMessage().contains("no readable metadata"),
        badJson.getMessage());
  }
}
