package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.evaluation.NystromConfidenceBound;
import io.github.sparkkpca.kernel.CauchyKernel;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelFamilies;
import io.github.sparkkpca.linalg.SymmetricEigen;
import io.github.sparkkpca.testing.LocalSpark;
import java.nio.file.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recipe "Adding a kernel" followed: {@link CauchyKernel} is defined in the tests only, and its
 * definition alone makes it a kernel of every stage: parsed, validated, listed in the help texts,
 * fitted, scored, saved and loaded.
 */
class AddedKernelTest {

  @TempDir Path dir;

  @Test
  void theDefinitionAloneRegistersNamesAndHelpTexts() {
    assertSame(CauchyKernel.CAUCHY, KernelFamilies.parse("Cauchy"));
    assertSame(CauchyKernel.CAUCHY, KernelFamilies.parse("rational-quadratic"));
    assertTrue(KernelFamilies.names().contains("cauchy"), KernelFamilies.names().toString());
    assertTrue(KernelFamilies.names().contains("gaussian"), KernelFamilies.names().toString());
    assertTrue(
        KernelFamilies.descriptions()
            .contains("cauchy (= rational-quadratic) 1/(1+gamma*||x-y||^2)"),
        KernelFamilies.descriptions().toString());
    NystromKernelPCA stage = new NystromKernelPCA();
    assertTrue(stage.kernel().doc().contains("1/(1+gamma*||x-y||^2)"), stage.kernel().doc());
    assertTrue(stage.gamma().doc().contains("cauchy 1/median ||x-y||^2"), stage.gamma().doc());
    assertEquals("cauchy", stage.setKernel("cauchy").getKernel());
    IllegalArgumentException unknown =
        assertThrows(IllegalArgumentException.class, () -> KernelFamilies.parse("cauchyy"));
    assertTrue(unknown.getMessage().contains("cauchy"), unknown.getMessage());
    assertThrows(IllegalArgumentException.class, () -> stage.setKernel("cauchyy"));
    assertEquals(
        1.0, NystromConfidenceBound.kernelBound(new Kernel(CauchyKernel.CAUCHY, 0.5, 3, 1)), 0);
  }

  /**
   * With every row a landmark, Nyström kernel PCA is exact kernel PCA: its eigenvalues are those of
   * the centred Gram matrix H K H / n, here computed from the formula by the test itself.
   */
  @Test
  void fitsTransformsSavesAndLoads() throws Exception {
    int n = 40;
    int d = 3;
    double gamma = 0.3;
    double[][] x = LocalSpark.clusters(n, d, 5);
    Dataset<Row> df = LocalSpark.frame(x, 3);
    NystromKernelPCAModel model =
        new NystromKernelPCA()
            .setKernel("cauchy")
            .setGamma(gamma)
            .setK(3)
            .setNumLandmarks(n)
            .setSpectrum("full")
            .setSeed(2)
            .fit(df);
    assertSame(CauchyKernel.CAUCHY, model.fittedKernel().type());

    double[] gram = new double[n * n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        double sq = 0;
        for (int t = 0; t < d; t++) {
          sq += (x[i][t] - x[j][t]) * (x[i][t] - x[j][t]);
        }
        gram[i * n + j] = 1.0 / (1.0 + gamma * sq);
      }
    }
    double[] rowMean = new double[n];
    double total = 0;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        rowMean[i] += gram[i * n + j] / n;
      }
      total += rowMean[i] / n;
    }
    double[] centred = new double[n * n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        centred[i * n + j] = (gram[i * n + j] - rowMean[i] - rowMean[j] + total) / n;
      }
    }
    double[] expected = SymmetricEigen.of(centred, n).values();
    double[] fitted = model.eigenvalues().toArray();
    for (int c = 0; c < 3; c++) {
      assertEquals(expected[c], fitted[c], 1e-9 * expected[0], "eigenvalue " + c);
    }

    String path = dir.resolve("cauchy").toString();
    model.setOutputCol("scores").write().save(path);
    NystromKernelPCAModel loaded = NystromKernelPCAModel.load(path);
    assertSame(CauchyKernel.CAUCHY, loaded.fittedKernel().type());
    assertEquals(gamma, loaded.getGamma(), 0);
    assertEquals("cauchy", loaded.getKernel());
    double[][] before = LocalSpark.collect(model.transform(df), "scores");
    double[][] after = LocalSpark.collect(loaded.transform(df), "scores");
    assertEquals(n, after.length);
    for (int i = 0; i < n; i++) {
      assertArrayEquals(before[i], after[i], 0.0, "row " + i);
    }
    // The scores are the projections: their variance is the eigenvalue.
    double variance = 0;
    for (double[] row : before) {
      variance += row[0] * row[0] / n;
    }
    assertEquals(expected[0], variance, 1e-9 * expected[0]);
  }

  @Test
  void theMedianHeuristicOfTheDefinitionChoosesGamma() {
    Dataset<Row> df = LocalSpark.frame(new double[][] {{0}, {1}, {3}}, 1);
    NystromKernelPCAModel model =
        new NystromKernelPCA().setKernel("cauchy").setK(1).setNumLandmarks(3).fit(df);
    // Squared distances 1, 4, 9: median 4.
    assertEquals(0.25, model.getGamma(), 0);
  }
}
