package io.github.sparkkpca.evaluation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.ml.KernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.ml.RandomFeatureKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import java.util.Arrays;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Captured held-out variance under the exact kernel, against a direct computation in plain loops;
 * the optimum equals exact kernel PCA of the same rows, and a Nyström model never exceeds it (Ky
 * Fan).
 */
class CapturedVarianceTest {

  private static final int K = 3;

  /**
   * (1/n)Σ_i (g_j(x_i) − ḡ_j)² (or the second moment), g_j = Σ_l P_lj k(·, z_l), in plain loops.
   */
  private static double directCaptured(
      NystromKernelPCAModel model, double[][] x, boolean centered) {
    Kernel kernel = model.fittedKernel();
    double[] landmarks = model.landmarks().toArray();
    double[] p = model.projector().toArray();
    int m = model.numSupportPoints();
    int d = x[0].length;
    double total = 0;
    for (int j = 0; j < K; j++) {
      double[] g = new double[x.length];
      for (int i = 0; i < x.length; i++) {
        for (int l = 0; l < m; l++) {
          double[] z = new double[d];
          for (int t = 0; t < d; t++) {
            z[t] = landmarks[l + t * m]; // column-major m×d
          }
          g[i] += p[l + j * m] * kernel.apply(x[i], z);
        }
      }
      double mean = centered ? Arrays.stream(g).average().orElseThrow() : 0.0;
      for (double v : g) {
        total += (v - mean) * (v - mean) / x.length;
      }
    }
    return total;
  }

  @ParameterizedTest(name = "centered={0}")
  @ValueSource(booleans = {true, false})
  void nystromCapturedMatchesDirectAndStaysBelowTheOptimum(boolean centered) {
    double[][] rows = LocalSpark.clusters(220, 4, 21);
    Dataset<Row> train = LocalSpark.frame(Arrays.copyOfRange(rows, 0, 150), 2);
    double[][] x = Arrays.copyOfRange(rows, 150, 220);
    Dataset<Row> heldOut = LocalSpark.frame(x, 3);
    NystromKernelPCAModel model =
        new NystromKernelPCA()
            .setK(K)
            .setNumLandmarks(25)
            .setCentered(centered)
            .setSeed(4)
            .fit(train);
    CapturedVariance.Result result = CapturedVariance.evaluate(model, heldOut, 5000, 1L);
    assertEquals(70, result.n());
    assertEquals(70, result.sampleRows());
    double direct = directCaptured(model, x, centered);
    assertEquals(
        direct, result.capturedVariance(), 1e-9 * direct, "captured vs the plain-loop formula");
    double exact =
        Arrays.stream(
                new KernelPCA()
                    .setK(K)
                    .setKernel("rbf")
                    .setGamma(model.getGamma())
                    .setCentered(centered)
                    .fit(heldOut)
                    .explainedVariance()
                    .toArray())
            .sum();
    assertEquals(
        exact, result.optimalVariance(), 1e-9 * exact, "optimum = exact KPCA of the held-out rows");
    assertTrue(
        result.capturedVariance() <= result.optimalVariance() * (1 + 1e-12),
        "Ky Fan: " + result.capturedVariance() + " <= " + result.optimalVariance());
    assertTrue(
        result.capturedVariance() > 0.8 * result.optimalVariance(),
        "the model captures most of it");

    // A seeded subsample when the rows exceed N: the optimum is then that of the sampled rows.
    CapturedVariance.Result sampled = CapturedVariance.evaluate(model, heldOut, 40, 1L);
    assertEquals(40, sampled.sampleRows());
    assertEquals(
        result.capturedVariance(), sampled.capturedVariance(), 1e-12, "captured uses every row");
  }

  @ParameterizedTest(name = "centered={0}")
  @ValueSource(booleans = {true, false})
  void randomFeatureCapturedIsTheRayleighQuotientOfTheLiftedComponents(boolean centered) {
    double[][] rows = LocalSpark.clusters(210, 4, 21);
    Dataset<Row> train = LocalSpark.frame(Arrays.copyOfRange(rows, 0, 150), 2);
    double[][] x = Arrays.copyOfRange(rows, 150, 210);
    Dataset<Row> heldOut = LocalSpark.frame(x, 2);
    RandomFeatureKernelPCAModel model =
        new RandomFeatureKernelPCA()
            .setK(K)
            .setNumRandomFeatures(200)
            .setCentered(centered)
            .setSeed(8)
            .fit(train);
    CapturedVariance.Result result = CapturedVariance.evaluate(model, heldOut, 5000, 1L);
    // Directly: v_j = scores on the rows (centred), K exact (centred), Σ_j v_jᵀKv_j / (n v_jᵀv_j).
    double[][] scores = LocalSpark.collect(model.transform(heldOut), "kpca");
    int n = x.length;
    Kernel kernel = model.fittedKernel();
    double[][] kk = new double[n][n];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        kk[a][b] = kernel.apply(x[a], x[b]);
      }
    }
    if (centered) {
      double[] row = new double[n];
      double all = 0;
      for (int a = 0; a < n; a++) {
        row[a] = Arrays.stream(kk[a]).average().orElseThrow();
        all += row[a] / n;
      }
      for (int a = 0; a < n; a++) {
        for (int b = 0; b < n; b++) {
          kk[a][b] += all - row[a] - row[b];
        }
      }
    }
    double expected = 0;
    for (int j = 0; j < K; j++) {
      double[] v = new double[n];
      for (int i = 0; i < n; i++) {
        v[i] = scores[i][j];
      }
      double mean = centered ? Arrays.stream(v).average().orElseThrow() : 0.0;
      double norm = 0;
      double quad = 0;
      for (int a = 0; a < n; a++) {
        norm += (v[a] - mean) * (v[a] - mean);
        for (int b = 0; b < n; b++) {
          quad += (v[a] - mean) * kk[a][b] * (v[b] - mean);
        }
      }
      expected += quad / (n * norm);
    }
    assertEquals(expected, result.capturedVariance(), 1e-9 * expected);
    assertTrue(result.capturedVariance() > 0 && result.optimalVariance() > 0);
  }

  @org.junit.jupiter.api.Test
  void severalModelsShareOneKernelMatrixAndEqualTheSeparateEvaluations() {
    double[][] rows = LocalSpark.clusters(200, 4, 23);
    Dataset<Row> train = LocalSpark.frame(Arrays.copyOfRange(rows, 0, 140), 2);
    Dataset<Row> heldOut = LocalSpark.frame(Arrays.copyOfRange(rows, 140, 200), 2);
    NystromKernelPCAModel nystrom =
        new NystromKernelPCA()
            .setK(K)
            .setNumLandmarks(20)
            .setKernel("rbf")
            .setGamma(0.3)
            .setSeed(5)
            .fit(train);
    RandomFeatureKernelPCAModel rf =
        new RandomFeatureKernelPCA()
            .setK(K)
            .setNumRandomFeatures(150)
            .setGamma(0.3)
            .setSeed(6)
            .fit(train);
    java.util.List<CapturedVariance.Result> together =
        CapturedVariance.evaluate(java.util.List.of(nystrom, rf), heldOut, 5000, 1L);
    CapturedVariance.Result[] apart = {
      CapturedVariance.evaluate(nystrom, heldOut, 5000, 1L),
      CapturedVariance.evaluate(rf, heldOut, 5000, 1L)
    };
    assertEquals(2, together.size());
    for (int i = 0; i < 2; i++) {
      assertEquals(
          apart[i].capturedVariance(), together.get(i).capturedVariance(), 1e-12, "model " + i);
      assertEquals(
          apart[i].optimalVariance(), together.get(i).optimalVariance(), 1e-12, "optimum " + i);
      assertEquals(apart[i].method(), together.get(i).method());
      assertEquals(60, together.get(i).n());
    }
    assertTrue(
        together.get(0).capturedVariance() != together.get(1).capturedVariance(),
        "two different models");
    RandomFeatureKernelPCAModel otherGamma =
        new RandomFeatureKernelPCA()
            .setK(K)
            .setNumRandomFeatures(150)
            .setGamma(0.4)
            .setSeed(6)
            .fit(train);
    IllegalArgumentException refused =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> CapturedVariance.evaluate(java.util.List.of(rf, otherGamma), heldOut, 5000, 1L));
    assertTrue(refused.getMessage().contains("model 2 differs"), refused.getMessage());
  }
}
