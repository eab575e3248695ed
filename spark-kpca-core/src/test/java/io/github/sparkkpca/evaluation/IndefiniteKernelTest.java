package io.github.sparkkpca.evaluation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.feature.NystromFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.SymmetricEigen;
import io.github.sparkkpca.ml.KernelPCA;
import io.github.sparkkpca.ml.KernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import io.github.sparkkpca.testing.Reference;
import java.util.Random;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kernels that are not positive definite (sigmoid, polynomial with c₀ &lt; 0): the model is the PCA
 * of the positive-part surrogate k̃ = ⟨φ(x),φ(y)⟩, which at m = n is K₊, the positive part of K;
 * every reported variance is k̃'s (so "captured ≤ optimum" and "ratios ≤ 1" hold), and the
 * quantities that need k(x,x) to be a squared norm are refused with one line (docs/kernels.md).
 */
class IndefiniteKernelTest {

  private static final int K = 4;

  /** n×d standard normal rows. */
  static double[][] gaussian(int n, int d, long seed) {
    Random random = new Random(seed);
    double[][] x = new double[n][d];
    for (double[] row : x) {
      for (int t = 0; t < d; t++) {
        row[t] = random.nextGaussian();
      }
    }
    return x;
  }

  static NystromKernelPCA nystrom(String kernel) {
    NystromKernelPCA estimator =
        new NystromKernelPCA().setKernel(kernel).setGamma(0.2).setK(K).setSeed(3);
    return kernel.equals("polynomial") ? estimator.setDegree(3).setCoef0(-1) : estimator;
  }

  static Kernel kernel(String name) {
    return name.equals("polynomial")
        ? new Kernel(KernelType.POLYNOMIAL, 0.2, 3, -1)
        : new Kernel(KernelType.SIGMOID, 0.2, 3, 1);
  }

  /**
   * m = n: the eigenvalues and the total variance are those of H K₊ H / n, K₊ = Σ_{λ>0} λ v vᵀ the
   * positive part of the exact kernel matrix, computed here from K directly (to 1e-10 of λ₁).
   */
  @ParameterizedTest
  @ValueSource(strings = {"sigmoid", "polynomial"})
  void allRowsAsLandmarksIsThePcaOfThePositivePart(String name) {
    double[][] x = gaussian(150, 5, 11);
    int n = x.length;
    Kernel kernel = kernel(name);
    double[][] gram = Reference.gram(kernel, x);
    double[] flat = new double[n * n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        flat[i + j * n] = gram[i][j];
      }
    }
    SymmetricEigen eig = SymmetricEigen.of(flat, n);
    double[] values = eig.values();
    double[] vectors = eig.vectors();
    assertTrue(
        values[n - 1] < -1e-3 * values[0],
        name + ": the test needs a clearly indefinite K, λ_min = " + values[n - 1]);
    double[][] positive = new double[n][n];
    double diagonal = 0;
    for (int c = 0; c < n && values[c] > 0; c++) {
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          positive[i][j] += values[c] * vectors[i + c * n] * vectors[j + c * n];
        }
      }
    }
    for (int i = 0; i < n; i++) {
      diagonal += gram[i][i];
    }
    double[][] centred = Reference.center(positive);
    double total = 0;
    double positiveTrace = 0;
    for (int i = 0; i < n; i++) {
      total += centred[i][i] / n;
      positiveTrace += positive[i][i] / n;
    }
    double[] expected = Reference.eigenvalues(centred, n);

    Dataset<Row> df = LocalSpark.frame(x, 2);
    NystromKernelPCAModel model = nystrom(name).setNumLandmarks(n).fit(df);
    double[] found = model.explainedVariance().toArray();
    for (int i = 0; i < K; i++) {
      assertEquals(expected[i], found[i], 1e-10 * expected[0], name + " λ" + i);
    }
    assertEquals(total, model.totalVariance(), 1e-10 * total, name + " total variance");
    // The method names the surrogate and gives (1/n) tr K₊ next to (1/n) tr K.
    String method = model.totalVarianceMethod();
    assertTrue(method.startsWith("positive-part surrogate"), method);
    assertTrue(
        method.contains(String.format(java.util.Locale.ROOT, "= %.6g against", positiveTrace))
            && method.contains(String.format(java.util.Locale.ROOT, "= %.6g", diagonal / n)),
        method + " (expected " + positiveTrace + " and " + diagonal / n + ")");
    assertTrue(positiveTrace > diagonal / n, "tr K₊ > tr K when K has negative eigenvalues");
  }

  /**
   * The documented "captured ≤ optimum" (Ky Fan) holds for indefinite kernels: both are the
   * surrogate's. Before, the optimum was taken from the exact k, far below the surrogate's captured
   * variance.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sigmoid", "polynomial"})
  void capturedNeverExceedsTheOptimum(String name) {
    Dataset<Row> train = LocalSpark.frame(gaussian(1000, 5, 19), 2);
    Dataset<Row> heldOut = LocalSpark.frame(gaussian(400, 5, 20), 2);
    for (int m : new int[] {60, 100}) {
      NystromKernelPCAModel model = nystrom(name).setNumLandmarks(m).fit(train);
      CapturedVariance.Result result = CapturedVariance.evaluate(model, heldOut, 5000, 1);
      assertEquals(400, result.sampleRows());
      assertTrue(
          result.capturedVariance() <= result.optimalVariance() * (1 + 1e-10),
          name
              + " m = "
              + m
              + ": captured "
              + result.capturedVariance()
              + " > optimum "
              + result.optimalVariance());
      assertTrue(result.capturedVariance() > 0.5 * result.optimalVariance(), result.toString());
      assertTrue(result.method().contains("positive-part surrogate"), result.method());
      double ratios = 0;
      for (double r : model.explainedVarianceRatio().toArray()) {
        ratios += r;
      }
      assertTrue(ratios <= 1 + 1e-12, "ratios sum to " + ratios);
    }
  }

  /** Quantities with no meaning for an indefinite kernel are refused, naming it and why. */
  @Test
  void meaninglessQuantitiesAreRefused() {
    Dataset<Row> df = LocalSpark.frame(gaussian(80, 5, 2), 2);
    IllegalArgumentException residual =
        assertThrows(
            IllegalArgumentException.class,
            () -> nystrom("sigmoid").setNumLandmarks(20).setResidualCol("residual").fit(df));
    assertOneLine(residual, "residualCol 'residual'", "kernel sigmoid", "not positive definite");
    NystromKernelPCAModel model = nystrom("polynomial").setNumLandmarks(20).fit(df);
    IllegalArgumentException transform =
        assertThrows(IllegalArgumentException.class, () -> model.setResidualCol("r").transform(df));
    assertOneLine(transform, "residualCol 'r'", "kernel polynomial", "coef0 = -1.0");

    IllegalArgumentException mpress =
        assertThrows(
            IllegalArgumentException.class,
            () -> Mpress.compute(kernel("sigmoid"), new double[30 * 2], 30, 2, 3));
    assertOneLine(mpress, "MPRESS", "kernel sigmoid", "not positive definite");

    IllegalArgumentException bound =
        assertThrows(
            IllegalArgumentException.class,
            () -> NystromConfidenceBound.kernelBound(kernel("polynomial")));
    assertOneLine(bound, "confidence bound", "not positive definite");

    KernelPCAModel exact = new KernelPCA().setKernel("sigmoid").setGamma(0.2).setK(2).fit(df);
    IllegalArgumentException captured =
        assertThrows(
            IllegalArgumentException.class, () -> CapturedVariance.evaluate(exact, df, 100, 1));
    assertOneLine(captured, "captured variance", "kernel sigmoid", "not positive definite");

    // Positive definite kernels keep them: polynomial with c₀ ≥ 0 has a residual.
    NystromKernelPCAModel definite =
        new NystromKernelPCA()
            .setKernel("polynomial")
            .setGamma(0.2)
            .setCoef0(1)
            .setK(2)
            .setNumLandmarks(20)
            .setResidualCol("residual")
            .fit(df);
    assertEquals(80, definite.transform(df).filter("residual >= 0").count());
  }

  private static void assertOneLine(Exception e, String... fragments) {
    String message = e.getMessage();
    assertTrue(!message.contains("\n"), "one line: " + message);
    for (String f : fragments) {
      assertTrue(message.contains(f), "'" + f + "' missing in: " + message);
    }
  }

  /**
   * The whitening keeps the eigenvalues of K_mm above rcond·max|λ|, not rcond·λ_max: with
   * polynomial c₀ &lt; 0 of degree 1 the largest eigenvalue in magnitude is the negative one (≈
   * c₀·m along the constant vector), and the positive ones below rcond·max|λ| are dropped.
   */
  @Test
  void whiteningThresholdIsRelativeToTheSpectralRadius() {
    int m = 12;
    int d = 3;
    Random random = new Random(5);
    double[] points = new double[m * d];
    for (int i = 0; i < points.length; i++) {
      points[i] = (1 + i % d) * random.nextGaussian();
    }
    Kernel kernel = new Kernel(KernelType.POLYNOMIAL, 1.0, 1, -1000);
    LandmarkKernel landmarks = new LandmarkKernel(kernel, points, m, d);
    double[] values = SymmetricEigen.of(landmarks.gram(), m).values();
    double radius = Math.max(values[0], -values[m - 1]);
    assertTrue(-values[m - 1] > 10 * values[0], "the negative eigenvalue dominates");
    // rcond between the two: the smallest positive eigenvalue is kept relative to λ_max, not to ρ.
    int positives = 0;
    while (values[positives] > 1e-9 * radius) {
      positives++;
    }
    assertTrue(positives >= 2, java.util.Arrays.toString(values));
    double rcond = 1.01 * values[positives - 1] / radius;
    int expected = 0;
    while (values[expected] > rcond * radius) {
      expected++;
    }
    assertTrue(
        expected == positives - 1 && rcond * values[0] < values[positives - 1],
        "rcond separates the two thresholds");
    NystromFeatureMap map = NystromFeatureMap.fit(landmarks, rcond);
    assertEquals(expected, map.rank(), java.util.Arrays.toString(values));
  }
}
