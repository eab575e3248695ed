package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.testing.LocalSpark;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random-feature kernel PCA of wide sparse rows (about 1 % non-zeros: the features take the sparse
 * path, one axpy of length D per non-zero) equals the fit of the same rows as dense vectors (the
 * GEMM path) to rounding, and does not depend on the number of partitions.
 */
class RandomFeatureSparseInputTest {

  private static final int N = 160;
  private static final int D_IN = 3000;
  private static final int NON_ZEROS = 30;

  /** Rows of two "topics" (column ranges), NON_ZEROS non-zeros each, L2-normalised. */
  private static List<Vector> rows(boolean sparse) {
    Random random = new Random(17);
    List<Vector> out = new ArrayList<>(N);
    for (int i = 0; i < N; i++) {
      double[] x = new double[D_IN];
      int topic = i % 2;
      double sq = 0;
      for (int p = 0; p < NON_ZEROS; p++) {
        int t = topic * (D_IN / 2) + random.nextInt(D_IN / 2);
        x[t] += 1 + random.nextDouble();
      }
      for (double v : x) {
        sq += v * v;
      }
      for (int t = 0; t < D_IN; t++) {
        x[t] /= Math.sqrt(sq);
      }
      Vector v = Vectors.dense(x);
      out.add(sparse ? v.toSparse() : v);
    }
    return out;
  }

  private static double[][] scores(RandomFeatureKernelPCAModel model, Dataset<Row> df) {
    return LocalSpark.collect(model.transform(df), model.getOutputCol());
  }

  @ParameterizedTest
  @ValueSource(strings = {"rbf", "laplacian"})
  void sparseRowsGiveTheDenseModelWhateverThePartitions(String kernel) {
    RandomFeatureKernelPCA estimator =
        new RandomFeatureKernelPCA()
            .setKernel(kernel)
            .setGamma(0.5)
            .setK(4)
            .setNumRandomFeatures(200)
            .setSeed(3);
    Dataset<Row> dense = LocalSpark.vectors(rows(false), 2);
    RandomFeatureKernelPCAModel reference = estimator.fit(dense);
    double[][] expected = scores(reference, dense);
    double[] lambda = reference.eigenvalues().toArray();
    assertTrue(lambda[0] > 1e-3 && lambda[3] > 0, "a non-trivial spectrum: " + lambda[3]);
    for (int partitions : new int[] {1, 2, 5}) {
      Dataset<Row> sparse = LocalSpark.vectors(rows(true), partitions);
      RandomFeatureKernelPCAModel model = estimator.fit(sparse);
      String what = kernel + ", " + partitions + " partitions";
      assertArrayEquals(lambda, model.eigenvalues().toArray(), 1e-12 * lambda[0], what);
      assertEquals(reference.numRows(), model.numRows(), what);
      double[][] actual = scores(model, sparse);
      double worst = 0;
      for (int i = 0; i < N; i++) {
        for (int j = 0; j < expected[i].length; j++) {
          worst = Math.max(worst, Math.abs(expected[i][j] - actual[i][j]));
        }
      }
      assertTrue(worst < 1e-9, what + ": scores differ by " + worst);
      // The sparse fit scores dense rows as the dense fit does (the model is the same).
      assertArrayEquals(expected[0], scores(model, dense)[0], 1e-9, what);
    }
  }
}
