package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.testing.LocalSpark;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Parquet vector column whose rows are partly {@code SparseVector}s and partly {@code
 * DenseVector}s (written by Spark and read back) fits and scores as the same rows all stored dense,
 * on the sparse kernel-block path (sparse data) and on the dense one (denser data).
 */
class MixedVectorColumnTest {

  @TempDir Path dir;

  /** Writes the rows (in order, one file) as Parquet and reads them back. */
  private Dataset<Row> parquet(List<Vector> rows, String name) {
    String path = dir.resolve(name).toString();
    LocalSpark.vectors(rows, 1).coalesce(1).write().parquet(path);
    return LocalSpark.spark().read().parquet(path);
  }

  private void assertMixedEqualsDense(
      List<Vector> rows, NystromKernelPCA estimator, String path, String what) {
    List<Vector> mixed = new ArrayList<>();
    List<Vector> dense = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      Vector v = rows.get(i);
      mixed.add(i % 3 == 0 ? new DenseVector(v.toArray()) : v.toSparse());
      dense.add(new DenseVector(v.toArray()));
    }
    Dataset<Row> mixedRows = parquet(mixed, what + "-mixed");
    Dataset<Row> denseRows = parquet(dense, what + "-dense");
    List<Row> back = mixedRows.select("id", "features").collectAsList();
    long sparseCount = back.stream().filter(r -> r.get(1) instanceof SparseVector).count();
    long denseCount = back.stream().filter(r -> r.get(1) instanceof DenseVector).count();
    assertTrue(sparseCount > 0 && denseCount > 0, what + ": both kinds read back");
    for (int i = 0; i < back.size(); i++) {
      assertEquals(i, back.get(i).getLong(0), what + ": Parquet keeps the row order");
    }

    NystromKernelPCAModel a = estimator.fit(mixedRows);
    NystromKernelPCAModel b = estimator.fit(denseRows);
    assertTrue(a.getKernelBlockPath().startsWith(path), what + ": " + a.getKernelBlockPath());
    assertEquals(a.getKernelBlockPath(), b.getKernelBlockPath(), what);
    Vector[] la = a.landmarkVectors();
    Vector[] lb = b.landmarkVectors();
    assertEquals(lb.length, la.length, what);
    for (int j = 0; j < la.length; j++) {
      assertArrayEquals(lb[j].toArray(), la[j].toArray(), 0.0, what + " landmark " + j);
    }
    double[] ea = a.eigenvalues().toArray();
    double[] eb = b.eigenvalues().toArray();
    assertArrayEquals(eb, ea, 1e-12 * eb[0], what + " eigenvalues");
    double[][] sa = LocalSpark.collect(a.transform(mixedRows), "kpca");
    double[][] sb = LocalSpark.collect(b.transform(denseRows), "kpca");
    double largest = 0;
    for (double[] row : sb) {
      for (double v : row) {
        largest = Math.max(largest, Math.abs(v));
      }
    }
    for (int i = 0; i < sb.length; i++) {
      assertArrayEquals(sb[i], sa[i], 1e-12 * largest, what + " scores of row " + i);
    }
  }

  @Test
  void sparseDataOnTheSparsePath() {
    List<Vector> rows = SparseInputTest.sparseRows(120, 800, 6, 11);
    NystromKernelPCA rbf =
        new NystromKernelPCA().setKernel("rbf").setGamma(0.5).setK(3).setNumLandmarks(25);
    assertMixedEqualsDense(rows, rbf.setSeed(2), "sparse:", "rbf");
    NystromKernelPCA laplacian =
        new NystromKernelPCA().setKernel("laplacian").setGamma(0.3).setK(3).setNumLandmarks(25);
    assertMixedEqualsDense(rows, laplacian.setSeed(2), "sparse:", "laplacian");
  }

  @Test
  void denserDataOnTheDensePath() {
    // 30 columns, about 6 non-zeros a row: landmark density above 0.1, so the dense path runs and
    // the sparse rows are scattered into its blocks.
    List<Vector> rows = SparseInputTest.sparseRows(120, 30, 5, 12);
    NystromKernelPCA rbf =
        new NystromKernelPCA().setKernel("rbf").setGamma(0.2).setK(3).setNumLandmarks(25);
    assertMixedEqualsDense(rows, rbf.setSeed(2), "dense:", "rbf-dense-path");
  }
}
