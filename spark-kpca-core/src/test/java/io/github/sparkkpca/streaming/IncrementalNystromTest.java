package io.github.sparkkpca.streaming;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.linalg.IncrementalEigen;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import java.util.Arrays;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/** A Nyström model grown landmark by landmark equals the batch fit with the same landmarks. */
class IncrementalNystromTest {

  private static final double[][] X = LocalSpark.clusters(240, 4, 61);
  private static final Dataset<Row> DF = LocalSpark.frame(X, 3);

  private static final NystromKernelPCAModel[] BASE = new NystromKernelPCAModel[2];

  private static synchronized NystromKernelPCAModel base(boolean centered) {
    int slot = centered ? 1 : 0;
    if (BASE[slot] == null) {
      BASE[slot] = fitBase(centered);
    }
    return BASE[slot];
  }

  private static NystromKernelPCAModel fitBase(boolean centered) {
    return new NystromKernelPCA()
        .setNumLandmarks(8)
        .setK(4)
        .setGamma(0.3)
        .setSeed(7)
        .setCentered(centered)
        .setInputCol("features")
        .setOutputCol("kpca")
        .fit(DF);
  }

  private static Vector[] rows(int... indices) {
    Vector[] out = new Vector[indices.length];
    for (int i = 0; i < indices.length; i++) {
      out[i] = new DenseVector(X[indices[i]]);
    }
    return out;
  }

  private static void assertSameModel(NystromKernelPCAModel batch, NystromKernelPCAModel grown) {
    assertEquals(batch.numSupportPoints(), grown.numSupportPoints());
    assertEquals(batch.rank(), grown.rank());
    double top = batch.eigenvalues().apply(0);
    assertEquals(batch.eigenvalues().size(), grown.eigenvalues().size());
    for (int j = 0; j < batch.eigenvalues().size(); j++) {
      assertEquals(
          batch.eigenvalues().apply(j),
          grown.eigenvalues().apply(j),
          1e-9 * top,
          "eigenvalue " + j);
    }
    assertEquals(batch.totalVariance(), grown.totalVariance(), 1e-10 * batch.totalVariance());
    double[][] a = LocalSpark.collect(batch.transform(DF), "kpca");
    double[][] b = LocalSpark.collect(grown.transform(DF), "kpca");
    for (int c = 0; c < batch.numComponents(); c++) {
      double sign = Math.signum(a[0][c] * b[0][c]);
      for (int i = 0; i < a.length; i++) {
        assertEquals(a[i][c], sign * b[i][c], 1e-7, "score " + i + "," + c);
      }
    }
  }

  private static Vector[] concat(NystromKernelPCAModel model, Vector[] added) {
    double[] rows = model.landmarks().transpose().toArray();
    int m = model.numSupportPoints();
    int d = model.numFeatures();
    Vector[] out = Arrays.copyOf(new Vector[0], m + added.length);
    for (int j = 0; j < m; j++) {
      out[j] = new DenseVector(Arrays.copyOfRange(rows, j * d, (j + 1) * d));
    }
    System.arraycopy(added, 0, out, m, added.length);
    return out;
  }

  @Test
  void grownLandmarkByLandmarkEqualsBatchFitWithTheSameLandmarks() {
    NystromKernelPCAModel model = base(true);
    Vector[] added = rows(3, 17, 40, 41, 77, 90, 101, 130, 150, 151, 170, 199, 200, 220, 239);
    IncrementalNystrom.Growth growth =
        IncrementalNystrom.grow(model, DF, added, IncrementalEigen.Monitoring.defaults());
    NystromKernelPCAModel batch =
        new NystromKernelPCA()
            .setLandmarks(concat(model, added))
            .setK(4)
            .setGamma(0.3)
            .setInputCol("features")
            .setOutputCol("kpca")
            .fit(DF);
    assertSameModel(batch, growth.model());
    IncrementalNystrom.Drift drift = growth.drift();
    assertEquals(8, drift.initialLandmarks());
    assertEquals(23, drift.landmarks());
    assertEquals(30, drift.stats().rankOneUpdates(), "two rank-one updates per landmark");
    assertTrue(drift.eigenvalueDrift() < 1e-12, drift.toString());
    assertTrue(drift.orthogonality() < 1e-12, drift.toString());
    assertTrue(drift.inverseDrift() < 1e-8, drift.toString());
    assertEquals(drift.rankBatch(), drift.rankIncremental());
    assertTrue(growth.model().landmarkSelection().contains("grown incrementally by 15 to 23"));
  }

  @Test
  void aRepeatedLandmarkGivesTheRankDeficientBatchModel() {
    NystromKernelPCAModel model = base(false);
    double[] first = Arrays.copyOfRange(model.landmarks().transpose().toArray(), 0, 4);
    Vector[] added = {
      new DenseVector(X[5]), new DenseVector(first), new DenseVector(X[60]), new DenseVector(X[5])
    };
    IncrementalNystrom.Growth growth =
        IncrementalNystrom.grow(model, DF, added, IncrementalEigen.Monitoring.defaults());
    NystromKernelPCAModel batch =
        new NystromKernelPCA()
            .setLandmarks(concat(model, added))
            .setK(4)
            .setGamma(0.3)
            .setCentered(false)
            .setInputCol("features")
            .setOutputCol("kpca")
            .fit(DF);
    assertEquals(10, batch.rank(), "two of the 12 landmarks repeat others");
    assertEquals(2, growth.model().droppedRank());
    assertSameModel(batch, growth.model());
    assertTrue(growth.drift().stats().deflated() > 0, growth.drift().toString());
  }

  @Test
  void sampledLandmarksAreSeededAndNew() {
    NystromKernelPCAModel model = base(true);
    IncrementalNystrom.Growth a =
        IncrementalNystrom.grow(model, DF, 6, 7L, IncrementalEigen.Monitoring.defaults());
    IncrementalNystrom.Growth b =
        IncrementalNystrom.grow(model, DF, 6, 7L, IncrementalEigen.Monitoring.defaults());
    assertArrayEquals(a.model().landmarks().toArray(), b.model().landmarks().toArray(), 0.0);
    assertEquals(14, a.model().numSupportPoints());
    assertEquals(
        14, a.model().rank(), "the same seed as the fit must not draw the fit's landmarks again");
    double[] grown = a.model().landmarks().transpose().toArray();
    double[] original = model.landmarks().transpose().toArray();
    assertArrayEquals(
        original, Arrays.copyOf(grown, original.length), 0.0, "old landmarks first, unchanged");
  }

  @Test
  void rejectsBadLandmarksAndCounts() {
    NystromKernelPCAModel model = base(true);
    IncrementalEigen.Monitoring monitoring = IncrementalEigen.Monitoring.defaults();
    assertThrows(
        IllegalArgumentException.class,
        () -> IncrementalNystrom.grow(model, DF, 0, 1L, monitoring));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            IncrementalNystrom.grow(
                model, DF, new Vector[] {new DenseVector(new double[3])}, monitoring));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            IncrementalNystrom.grow(
                model,
                DF,
                new Vector[] {new DenseVector(new double[] {0, 0, Double.NaN, 0})},
                monitoring));
    IllegalArgumentException tooMany =
        assertThrows(
            IllegalArgumentException.class,
            () -> IncrementalNystrom.grow(model, DF, 240, 1L, monitoring));
    assertTrue(tooMany.getMessage().contains("fewer than the 240"), tooMany.getMessage());
  }
}
