package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.testing.LocalSpark;
import io.github.sparkkpca.testing.Reference;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/** The exact reference estimator against the textbook definition of kernel PCA. */
class KernelPCATest {

  /** Training scores satisfy y_c(x_i) = √(nλ_c) v_ci, i.e. K̃ y_c = nλ_c y_c with ‖y_c‖² = nλ_c. */
  @Test
  void scoresAreEigenvectorsOfTheCentredGramMatrix() {
    double[][] x = LocalSpark.clusters(90, 4, 21);
    Dataset<Row> df = LocalSpark.frame(x, 3);
    KernelPCAModel model = new KernelPCA().setKernel("laplacian").setGamma(0.3).setK(4).fit(df);
    double[][] centred =
        Reference.center(
            Reference.gram(
                new Kernel(io.github.sparkkpca.kernel.KernelType.LAPLACIAN, 0.3, 3, 1), x));
    double[][] y = LocalSpark.collect(model.transform(df), "kpca");
    int n = x.length;
    for (int c = 0; c < 4; c++) {
      double lambda = model.explainedVariance().apply(c);
      double norm = 0;
      for (int i = 0; i < n; i++) {
        double ky = 0;
        for (int j = 0; j < n; j++) {
          ky += centred[i][j] * y[j][c];
        }
        assertEquals(
            n * lambda * y[i][c], ky, 1e-9 * n * lambda, "K̃y = nλy, component " + c + " row " + i);
        norm += y[i][c] * y[i][c];
      }
      assertEquals(n * lambda, norm, 1e-9 * n * lambda);
    }
    double trace = 0;
    for (int i = 0; i < n; i++) {
      trace += centred[i][i] / n;
    }
    assertEquals(trace, model.totalVariance(), 1e-12);
  }

  @Test
  void linearKernelEqualsPCAEigenvalues() {
    double[][] x = LocalSpark.clusters(80, 5, 2);
    KernelPCAModel model = new KernelPCA().setKernel("linear").setK(5).fit(LocalSpark.frame(x, 2));
    double[] expected = Reference.eigenvalues(Reference.covariance(x), 1.0);
    for (int i = 0; i < 5; i++) {
      assertEquals(expected[i], model.explainedVariance().apply(i), 1e-10 * expected[0]);
    }
  }

  @Test
  void refusesMoreRowsThanMaxRowsBeforeCollecting() {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(50, 3, 1), 2);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> new KernelPCA().setK(2).setMaxRows(49).fit(df));
    assertTrue(
        e.getMessage().contains("maxRows = 49") && e.getMessage().contains("n = 50"),
        e.getMessage());
    IllegalArgumentException rank =
        assertThrows(
            IllegalArgumentException.class,
            () -> new KernelPCA().setKernel("linear").setK(4).fit(df));
    assertTrue(rank.getMessage().contains("numerical rank"), rank.getMessage());
  }
}
