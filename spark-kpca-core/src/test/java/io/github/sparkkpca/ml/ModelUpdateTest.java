package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.testing.LocalSpark;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A model absorbs rows exactly: fit(A).update(B) equals a fit on A ∪ B with A's landmarks, whatever
 * the partitioning and the block size, and it survives save and load.
 */
class ModelUpdateTest {

  @TempDir Path dir;

  private static final double TOLERANCE = 1e-9;

  /**
   * Rows i of x as vectors; sparse ones carry explicit zeros at the columns that are (rounded)
   * small.
   */
  private static List<Vector> vectors(double[][] x, boolean sparse) {
    List<Vector> out = new ArrayList<>(x.length);
    for (double[] row : x) {
      double[] values = row.clone();
      for (int t = 0; t < values.length; t += 2) {
        values[t] = 0; // half the columns zero, so the sparse encoding really is sparse
      }
      out.add(sparse ? Vectors.dense(values).toSparse() : Vectors.dense(values));
    }
    return out;
  }

  private static List<Vector> concat(List<Vector> a, List<Vector> b) {
    List<Vector> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  static void assertSameModel(
      NystromKernelPCAModel expected,
      NystromKernelPCAModel actual,
      Dataset<Row> rows,
      String what) {
    assertEquals(expected.numRows(), actual.numRows(), what + ": n");
    double[] ev = expected.eigenvalues().toArray();
    double[] av = actual.eigenvalues().toArray();
    assertEquals(ev.length, av.length, what + ": rank");
    for (int i = 0; i < ev.length; i++) {
      assertEquals(ev[i], av[i], TOLERANCE * ev[0], what + ": eigenvalue " + i);
    }
    assertEquals(
        expected.totalVariance(),
        actual.totalVariance(),
        TOLERANCE * expected.totalVariance(),
        what + ": total variance");
    assertArrayEquals(
        expected.landmarks().toArray(), actual.landmarks().toArray(), 0.0, what + ": landmarks");
    double[][] es = LocalSpark.collect(expected.setResidualCol("residual").transform(rows), "kpca");
    double[][] as = LocalSpark.collect(actual.setResidualCol("residual").transform(rows), "kpca");
    List<Row> er = expected.transform(rows).orderBy("id").select("residual").collectAsList();
    List<Row> ar = actual.transform(rows).orderBy("id").select("residual").collectAsList();
    for (int i = 0; i < es.length; i++) {
      assertArrayEquals(es[i], as[i], 1e-7, what + ": scores of row " + i);
      assertEquals(
          er.get(i).getDouble(0), ar.get(i).getDouble(0), 1e-7, what + ": residual of row " + i);
    }
  }

  @ParameterizedTest(name = "sparse={0}, centered={1}")
  @CsvSource({"false,true", "false,false", "true,true", "true,false"})
  void updateEqualsFitOnTheUnion(boolean sparse, boolean centered) {
    List<Vector> a = vectors(LocalSpark.clusters(120, 6, 1), sparse);
    List<Vector> b = vectors(LocalSpark.clusters(70, 6, 2), sparse);
    for (int partitions : new int[] {1, 3, 8}) {
      NystromKernelPCA estimator =
          new NystromKernelPCA()
              .setK(4)
              .setNumLandmarks(30)
              .setSeed(3)
              .setCentered(centered)
              .setResidualCol("residual");
      NystromKernelPCAModel onA = estimator.fit(LocalSpark.vectors(a, partitions));
      NystromKernelPCAModel updated = onA.update(LocalSpark.vectors(b, partitions));
      Dataset<Row> union = LocalSpark.vectors(concat(a, b), partitions);
      NystromKernelPCAModel onUnion =
          new NystromKernelPCA().setLandmarksFrom(onA).setK(4).setCentered(centered).fit(union);
      assertEquals(190, updated.numRows());
      assertSameModel(onUnion, updated, union, partitions + " partitions");
    }
  }

  @Test
  void aChainOfUpdatesEqualsOneFit() {
    List<Vector> a = vectors(LocalSpark.clusters(100, 5, 11), false);
    List<Vector> b = vectors(LocalSpark.clusters(40, 5, 12), false);
    List<Vector> c = vectors(LocalSpark.clusters(55, 5, 13), false);
    List<Vector> d = vectors(LocalSpark.clusters(30, 5, 14), false);
    NystromKernelPCAModel model =
        new NystromKernelPCA().setK(3).setNumLandmarks(25).setSeed(4).fit(LocalSpark.vectors(a, 2));
    NystromKernelPCAModel chained =
        model
            .update(LocalSpark.vectors(b, 3))
            .update(LocalSpark.vectors(c, 1))
            .update(LocalSpark.vectors(d, 2));
    List<Vector> all = concat(concat(concat(a, b), c), d);
    Dataset<Row> union = LocalSpark.vectors(all, 3);
    assertSameModel(
        new NystromKernelPCA().setLandmarksFrom(model).setK(3).fit(union), chained, union, "chain");
    // An empty update changes nothing.
    NystromKernelPCAModel same = chained.update(LocalSpark.vectors(List.of(), 1));
    assertArrayEquals(chained.eigenvalues().toArray(), same.eigenvalues().toArray(), 0.0);
    assertEquals(chained.numRows(), same.numRows());
  }

  @Test
  void blockSizeDoesNotChangeTheModel() {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(150, 4, 5), 2);
    NystromKernelPCAModel auto =
        new NystromKernelPCA().setK(3).setNumLandmarks(20).setSeed(6).fit(df);
    for (int blockSize : new int[] {1, 7}) {
      NystromKernelPCAModel blocked =
          new NystromKernelPCA()
              .setK(3)
              .setNumLandmarks(20)
              .setSeed(6)
              .setBlockSize(blockSize)
              .fit(df);
      assertSameModel(auto, blocked, df, "block size " + blockSize);
      assertSameModel(
          auto.update(df), blocked.update(df), df, "update with block size " + blockSize);
    }
  }

  @Test
  void savedModelsKeepTheirStatisticsAndUpdateAsBefore() throws java.io.IOException {
    Dataset<Row> a = LocalSpark.frame(LocalSpark.clusters(90, 4, 7), 2);
    Dataset<Row> b = LocalSpark.frame(LocalSpark.clusters(50, 4, 8), 3);
    NystromKernelPCAModel model =
        new NystromKernelPCA().setK(2).setNumLandmarks(15).setSeed(8).fit(a);
    String path = dir.resolve("model").toString();
    model.write().save(path);
    NystromKernelPCAModel loaded = NystromKernelPCAModel.load(path);
    assertTrue(loaded.isUpdatable());
    assertEquals(model.statistics().count(), loaded.statistics().count());
    assertArrayEquals(model.statistics().scatter(), loaded.statistics().scatter(), 0.0);
    assertArrayEquals(model.statistics().mean(), loaded.statistics().mean(), 0.0);
    NystromKernelPCAModel fromMemory = model.update(b);
    NystromKernelPCAModel fromDisk = loaded.update(b);
    assertArrayEquals(fromMemory.eigenvalues().toArray(), fromDisk.eigenvalues().toArray(), 0.0);
    assertArrayEquals(fromMemory.projector().toArray(), fromDisk.projector().toArray(), 0.0);
  }

  @Test
  void formatOneModelsRefuseToUpdate() throws Exception {
    LocalSpark.spark(); // the reader needs a session; this test may run first in the class
    NystromKernelPCAModel old =
        NystromKernelPCAModel.load(
            SavedModelCompatibilityTest.fixture("format1", "nystrom-rbf-centered")
                .resolve("model")
                .toString());
    assertFalse(old.isUpdatable());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> old.update(LocalSpark.frame(LocalSpark.clusters(10, 5, 1), 1)));
    assertTrue(
        e.getMessage().contains("format 1") && e.getMessage().contains("setLandmarksFrom"),
        e.getMessage());
  }

  @Test
  void aFittedModelCannotChangeItsKernel() {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(60, 3, 9), 2);
    NystromKernelPCAModel model =
        new NystromKernelPCA().setK(2).setNumLandmarks(10).setSeed(1).fit(df);
    NystromKernelPCAModel other =
        model.copy(
            new org.apache.spark.ml.param.ParamMap().put(model.gamma(), model.getGamma() * 2));
    IllegalArgumentException onTransform =
        assertThrows(IllegalArgumentException.class, () -> other.transform(df));
    assertTrue(
        onTransform.getMessage().contains("cannot change its kernel"), onTransform.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> other.write().save(dir.resolve("other").toString()));
    // Params the kernel does not use may change freely.
    model
        .copy(new org.apache.spark.ml.param.ParamMap().put(model.degree(), 5))
        .transform(df)
        .count();
  }
}
