package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.testing.LocalSpark;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Random-feature kernel PCA (RF-ERM): its spectrum approaches exact kernel PCA as D grows, and it
 * behaves as the Nyström model does where the model family is shared: partition invariance, seeds,
 * update, persistence, Pipelines; what needs landmarks says it has none.
 */
class RandomFeatureKernelPCATest {

  @TempDir Path dir;

  private static double[] scores(
      RandomFeatureKernelPCAModel model, Dataset<Row> df, String column) {
    List<Row> rows = model.transform(df).orderBy("id").select(column).collectAsList();
    List<Double> out = new ArrayList<>();
    for (Row row : rows) {
      Object v = row.get(0);
      if (v instanceof Vector vector) {
        for (double x : vector.toArray()) {
          out.add(x);
        }
      } else {
        out.add((Double) v);
      }
    }
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** max_i |λ_i − λ*_i| / λ*_1 over the first k eigenvalues. */
  private static double spectrumError(double[] actual, double[] exact, int k) {
    double worst = 0;
    for (int i = 0; i < k; i++) {
      worst = Math.max(worst, Math.abs(actual[i] - exact[i]) / exact[0]);
    }
    return worst;
  }

  /** Rows of x as vectors, half the columns zero; sparse-encoded when asked. */
  private static List<Vector> vectors(double[][] x, boolean sparse) {
    List<Vector> out = new ArrayList<>(x.length);
    for (double[] row : x) {
      double[] values = row.clone();
      for (int t = 0; t < values.length; t += 2) {
        values[t] = 0;
      }
      out.add(sparse ? Vectors.dense(values).toSparse() : Vectors.dense(values));
    }
    return out;
  }

  private static void assertSameModel(
      RandomFeatureKernelPCAModel expected,
      RandomFeatureKernelPCAModel actual,
      Dataset<Row> rows,
      double tolerance,
      String what) {
    assertEquals(expected.numRows(), actual.numRows(), what + ": n");
    assertArrayEquals(
        expected.frequencies().toArray(),
        actual.frequencies().toArray(),
        0.0,
        what + ": frequencies");
    assertArrayEquals(
        expected.phases().toArray(), actual.phases().toArray(), 0.0, what + ": phases");
    double[] ev = expected.eigenvalues().toArray();
    assertArrayEquals(
        ev, actual.eigenvalues().toArray(), tolerance * ev[0], what + ": eigenvalues");
    assertEquals(
        expected.totalVariance(),
        actual.totalVariance(),
        tolerance * expected.totalVariance(),
        what + ": total variance");
    assertArrayEquals(
        scores(expected.setResidualCol("residual"), rows, "kpca"),
        scores(actual.setResidualCol("residual"), rows, "kpca"),
        1e3 * tolerance,
        what + ": scores");
    assertArrayEquals(
        scores(expected, rows, "residual"),
        scores(actual, rows, "residual"),
        1e3 * tolerance,
        what + ": residuals");
  }

  /**
   * RF-ERM's eigenvalues converge to those of exact kernel PCA (the centred K/n) as D grows: the
   * error of the leading four, relative to λ*_1 and averaged over two seeds, at D = 800 is below
   * 0.6 times that at D = 50 and below 0.1. (The Monte Carlo rate predicts a quarter; a single
   * draw's error varies by a factor of about 3 around its mean, hence the margin.)
   */
  @Test
  void eigenvaluesApproachExactKernelPCAAsDGrows() {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(120, 4, 31), 2);
    double gamma = 0.1;
    int k = 4;
    for (String kernel : new String[] {"rbf", "laplacian"}) {
      double[] exact =
          new KernelPCA().setK(k).setKernel(kernel).setGamma(gamma).fit(df).eigenvalues().toArray();
      int[] sizes = {50, 800};
      double[] errors = new double[sizes.length];
      for (int s = 0; s < sizes.length; s++) {
        for (long seed : new long[] {17, 18}) {
          RandomFeatureKernelPCAModel model =
              new RandomFeatureKernelPCA()
                  .setK(k)
                  .setKernel(kernel)
                  .setGamma(gamma)
                  .setNumRandomFeatures(sizes[s])
                  .setSeed(seed)
                  .fit(df);
          errors[s] += spectrumError(model.eigenvalues().toArray(), exact, k) / 2;
        }
      }
      assertTrue(
          errors[1] < 0.6 * errors[0],
          kernel
              + ": error at D = 800 ("
              + errors[1]
              + ") is not below 0.6 "
              + "times that at D = 50 ("
              + errors[0]
              + ")");
      assertTrue(errors[1] < 0.1, kernel + ": error at D = 800 is " + errors[1]);
    }
  }

  /** The same rows in the same order, split into 1, 3 or 8 partitions, give the same model. */
  @Test
  void partitionCountDoesNotChangeTheModel() {
    List<Vector> x = vectors(LocalSpark.clusters(150, 5, 4), false);
    RandomFeatureKernelPCAModel first = null;
    for (int partitions : new int[] {1, 3, 8}) {
      Dataset<Row> df = LocalSpark.vectors(x, partitions);
      RandomFeatureKernelPCAModel model =
          new RandomFeatureKernelPCA().setK(3).setNumRandomFeatures(120).setSeed(5).fit(df);
      if (first == null) {
        first = model;
        continue;
      }
      assertEquals(first.getGamma(), model.getGamma(), 0.0, "median-heuristic gamma");
      assertSameModel(first, model, df, 1e-10, partitions + " partitions");
    }
  }

  @Test
  void theSeedFixesTheFeatures() {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(80, 3, 6), 2);
    RandomFeatureKernelPCA estimator =
        new RandomFeatureKernelPCA().setK(2).setNumRandomFeatures(60).setGamma(0.5);
    RandomFeatureKernelPCAModel a = estimator.setSeed(9).fit(df);
    RandomFeatureKernelPCAModel b = estimator.setSeed(9).fit(df);
    RandomFeatureKernelPCAModel c = estimator.setSeed(10).fit(df);
    assertArrayEquals(a.frequencies().toArray(), b.frequencies().toArray(), 0.0);
    assertArrayEquals(a.eigenvalues().toArray(), b.eigenvalues().toArray(), 0.0);
    assertFalse(java.util.Arrays.equals(a.frequencies().toArray(), c.frequencies().toArray()));
    assertFalse(java.util.Arrays.equals(a.eigenvalues().toArray(), c.eigenvalues().toArray()));
    assertEquals(60, a.frequencies().numRows());
    assertEquals(3, a.frequencies().numCols());
  }

  @ParameterizedTest(name = "sparse={0}, centered={1}")
  @CsvSource({"false,true", "true,false"})
  void updateEqualsFitOnTheUnion(boolean sparse, boolean centered) {
    List<Vector> a = vectors(LocalSpark.clusters(100, 6, 1), sparse);
    List<Vector> b = vectors(LocalSpark.clusters(60, 6, 2), sparse);
    List<Vector> all = new ArrayList<>(a);
    all.addAll(b);
    for (int partitions : new int[] {1, 3}) {
      RandomFeatureKernelPCAModel onA =
          new RandomFeatureKernelPCA()
              .setK(3)
              .setNumRandomFeatures(90)
              .setSeed(3)
              .setCentered(centered)
              .fit(LocalSpark.vectors(a, partitions));
      RandomFeatureKernelPCAModel updated = onA.update(LocalSpark.vectors(b, partitions));
      Dataset<Row> union = LocalSpark.vectors(all, partitions);
      RandomFeatureKernelPCAModel onUnion =
          new RandomFeatureKernelPCA()
              .setK(3)
              .setNumRandomFeatures(90)
              .setSeed(3)
              .setGamma(onA.getGamma())
              .setCentered(centered)
              .fit(union);
      assertEquals(160, updated.numRows());
      assertSameModel(onUnion, updated, union, 1e-9, partitions + " partitions");
    }
  }

  /**
   * Scores, residuals and the total variance written out from the model's parts with plain Java
   * math: z(x) = √(2/D)·cos(Ωx + b), y = U_kᵀ(z − z̄), e = ‖z − z̄‖² − ‖y‖², total = (1/n)Σ‖z‖² −
   * ‖z̄‖².
   */
  @Test
  void scoresResidualsAndTotalVarianceAreTheFormulas() {
    double[][] x = LocalSpark.clusters(70, 4, 12);
    Dataset<Row> df = LocalSpark.frame(x, 2);
    int features = 40;
    RandomFeatureKernelPCAModel model =
        new RandomFeatureKernelPCA()
            .setK(3)
            .setNumRandomFeatures(features)
            .setKernel("laplacian")
            .setSeed(2)
            .setResidualCol("residual")
            .fit(df);
    double[][] omega = matrixRows(model.frequencies());
    double[] phase = model.phases().toArray();
    double[][] u = matrixRows(model.components());
    double[] mean = model.statistics().mean();
    double[] offset = model.offset().toArray();
    double[] scores = scores(model, df, "kpca");
    double[] residuals = scores(model, df, "residual");
    double sumSquares = 0;
    for (int i = 0; i < x.length; i++) {
      double[] z = new double[features];
      for (int j = 0; j < features; j++) {
        double dot = phase[j];
        for (int t = 0; t < x[i].length; t++) {
          dot += omega[j][t] * x[i][t];
        }
        z[j] = Math.sqrt(2.0 / features) * Math.cos(dot);
        sumSquares += z[j] * z[j];
      }
      double distance = 0;
      for (int j = 0; j < features; j++) {
        distance += (z[j] - mean[j]) * (z[j] - mean[j]);
      }
      double yy = 0;
      for (int c = 0; c < 3; c++) {
        double y = -offset[c];
        double centredY = 0;
        for (int j = 0; j < features; j++) {
          y += u[j][c] * z[j];
          centredY += u[j][c] * (z[j] - mean[j]);
        }
        assertEquals(y, scores[i * 3 + c], 1e-12, "row " + i + " component " + c);
        assertEquals(
            centredY, scores[i * 3 + c], 1e-12, "row " + i + " component " + c + " (centred form)");
        yy += y * y;
      }
      assertEquals(distance - yy, residuals[i], 1e-12, "residual of row " + i);
    }
    double meanSq = 0;
    for (double v : mean) {
      meanSq += v * v;
    }
    assertEquals(sumSquares / x.length - meanSq, model.totalVariance(), 1e-12);
    assertTrue(model.totalVarianceMethod().startsWith("exact"), model.totalVarianceMethod());
  }

  private static double[][] matrixRows(org.apache.spark.ml.linalg.Matrix m) {
    double[][] out = new double[m.numRows()][m.numCols()];
    for (int i = 0; i < m.numRows(); i++) {
      for (int j = 0; j < m.numCols(); j++) {
        out[i][j] = m.apply(i, j);
      }
    }
    return out;
  }

  @Test
  void saveAndLoadGiveTheSameModel() throws java.io.IOException {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(90, 4, 3), 2);
    RandomFeatureKernelPCAModel model =
        new RandomFeatureKernelPCA()
            .setK(3)
            .setNumRandomFeatures(70)
            .setSeed(7)
            .setResidualCol("residual")
            .fit(df);
    String path = dir.resolve("model").toString();
    model.write().save(path);
    String metadata =
        java.nio.file.Files.readString(
            java.nio.file.Files.list(dir.resolve("model/metadata"))
                .filter(f -> f.getFileName().toString().startsWith("part-"))
                .findFirst()
                .orElseThrow());
    assertTrue(metadata.contains("\"featureMap\":\"rff\""), metadata);
    RandomFeatureKernelPCAModel loaded = RandomFeatureKernelPCAModel.load(path);
    assertEquals(model.uid(), loaded.uid());
    assertEquals(model.getGamma(), loaded.getGamma(), 0.0);
    assertEquals(70, loaded.getNumRandomFeatures());
    assertEquals(model.landmarkSelection(), loaded.landmarkSelection());
    assertArrayEquals(model.frequencies().toArray(), loaded.frequencies().toArray(), 0.0);
    assertArrayEquals(model.phases().toArray(), loaded.phases().toArray(), 0.0);
    assertArrayEquals(model.components().toArray(), loaded.components().toArray(), 0.0);
    assertArrayEquals(model.eigenvalues().toArray(), loaded.eigenvalues().toArray(), 0.0);
    assertArrayEquals(model.statistics().scatter(), loaded.statistics().scatter(), 0.0);
    assertEquals(model.totalVariance(), loaded.totalVariance(), 0.0);
    assertArrayEquals(scores(model, df, "kpca"), scores(loaded, df, "kpca"), 0.0);
    assertArrayEquals(scores(model, df, "residual"), scores(loaded, df, "residual"), 0.0);
    Dataset<Row> more = LocalSpark.frame(LocalSpark.clusters(30, 4, 4), 1);
    assertArrayEquals(
        model.update(more).eigenvalues().toArray(),
        loaded.update(more).eigenvalues().toArray(),
        0.0);
    IllegalArgumentException wrongClass =
        assertThrows(IllegalArgumentException.class, () -> NystromKernelPCAModel.load(path));
    assertTrue(
        wrongClass.getMessage().contains("RandomFeatureKernelPCAModel"), wrongClass.getMessage());
    AbstractKernelPCAModel<?> any = AbstractKernelPCAModel.loadAny(path);
    assertInstanceOf(RandomFeatureKernelPCAModel.class, any);
    assertArrayEquals(
        LocalSpark.collect(model.transform(df), "kpca")[0],
        LocalSpark.collect(any.transform(df), "kpca")[0],
        0.0);

    RandomFeatureKernelPCA estimator =
        new RandomFeatureKernelPCA()
            .setK(2)
            .setFeatureScale(0.5)
            .setSeed(11)
            .setKernel("laplacian");
    estimator.write().save(dir.resolve("estimator").toString());
    RandomFeatureKernelPCA reloaded =
        RandomFeatureKernelPCA.load(dir.resolve("estimator").toString());
    assertEquals(0.5, reloaded.getFeatureScale(), 0.0);
    assertEquals(11, reloaded.getSeed());
    assertEquals("laplacian", reloaded.getKernel());
    IllegalArgumentException notAModel =
        assertThrows(
            IllegalArgumentException.class,
            () -> AbstractKernelPCAModel.loadAny(dir.resolve("estimator").toString()));
    assertTrue(
        notAModel.getMessage().contains("RandomFeatureKernelPCA', not a kernel PCA model"),
        notAModel.getMessage());
  }

  @Test
  void worksInsideAPipeline() throws java.io.IOException {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(60, 3, 5), 2);
    Pipeline pipeline =
        new Pipeline()
            .setStages(
                new PipelineStage[] {
                  new RandomFeatureKernelPCA().setK(2).setNumRandomFeatures(30).setSeed(1)
                });
    PipelineModel fitted = pipeline.fit(df);
    String path = dir.resolve("pipeline").toString();
    fitted.write().save(path);
    PipelineModel loaded = PipelineModel.load(path);
    assertInstanceOf(RandomFeatureKernelPCAModel.class, loaded.stages()[0]);
    assertArrayEquals(
        LocalSpark.collect(fitted.transform(df), "kpca")[5],
        LocalSpark.collect(loaded.transform(df), "kpca")[5],
        0.0);
  }

  @Test
  void whatNeedsLandmarksSaysThereAreNone() {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(40, 3, 8), 1);
    RandomFeatureKernelPCAModel model =
        new RandomFeatureKernelPCA().setK(2).setNumRandomFeatures(50).setSeed(1).fit(df);
    assertFalse(model.hasLandmarks());
    assertEquals(50, model.rank());
    assertEquals(0, model.droppedRank());
    assertTrue(model.toString().contains("r=50"), model.toString());
    String expected = "has no landmarks: it is a random feature model (rff, D = 50)";
    for (org.junit.jupiter.api.function.Executable call :
        new org.junit.jupiter.api.function.Executable[] {
          model::landmarks, model::projector, model::numSupportPoints
        }) {
      UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, call);
      assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
    IllegalArgumentException preimage =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                model
                    .copy(new org.apache.spark.ml.param.ParamMap())
                    .setReconstructionCol("denoised")
                    .transform(df));
    assertTrue(
        preimage.getMessage().contains(expected)
            && preimage.getMessage().contains("reconstructionCol"),
        preimage.getMessage());
    UnsupportedOperationException landmarksFrom =
        assertThrows(
            UnsupportedOperationException.class,
            () -> new NystromKernelPCA().setLandmarksFrom(model));
    assertTrue(landmarksFrom.getMessage().contains(expected), landmarksFrom.getMessage());
  }

  @Test
  void theFeatureCountFollowsTheRateOrIsRefusedClearly() {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(150, 3, 9), 2);
    // D = ceil(0.5 · sqrt(150) · ln 150) = ceil(30.68) = 31.
    RandomFeatureKernelPCAModel model =
        new RandomFeatureKernelPCA().setK(3).setFeatureScale(0.5).setSeed(1).fit(df);
    assertEquals(31, model.getNumRandomFeatures());
    assertEquals(31, model.rank());
    assertEquals(31, model.frequencies().numRows());

    IllegalArgumentException few =
        assertThrows(
            IllegalArgumentException.class,
            () -> new RandomFeatureKernelPCA().setK(3).setFeatureScale(0.01).fit(df));
    assertTrue(
        few.getMessage()
            .contains(
                "featureScale c = 0.01 gives D = ceil(c sqrt(n) ln n) = 1 random features "
                    + "for n = 150 rows, fewer than k = 3"),
        few.getMessage());
    IllegalArgumentException both =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new RandomFeatureKernelPCA()
                    .setK(3)
                    .setFeatureScale(0.5)
                    .setNumRandomFeatures(100)
                    .fit(df));
    assertTrue(
        both.getMessage().contains("set numRandomFeatures (D = 100) or featureScale"),
        both.getMessage());
    IllegalArgumentException kernel =
        assertThrows(
            IllegalArgumentException.class,
            () -> new RandomFeatureKernelPCA().setK(3).setKernel("polynomial").fit(df));
    assertTrue(
        kernel.getMessage().contains("kernel 'polynomial' has no random Fourier features"),
        kernel.getMessage());
    IllegalArgumentException tooManyK =
        assertThrows(
            IllegalArgumentException.class,
            () -> new RandomFeatureKernelPCA().setK(20).setNumRandomFeatures(10).fit(df));
    assertTrue(
        tooManyK.getMessage().contains("k = 20 exceeds the number of random features D = 10"),
        tooManyK.getMessage());
  }
}
