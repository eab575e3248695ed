package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.testing.LocalSpark;
import io.github.sparkkpca.testing.Reference;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.feature.PCA;
import org.apache.spark.ml.feature.PCAModel;
import org.apache.spark.ml.linalg.DenseMatrix;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/** Correctness of the Nyström estimator against closed forms and independent computations. */
class NystromKernelPCATest {

  /** With the linear kernel and m ≥ d landmarks in general position, H_m = R^d: ordinary PCA. */
  @Test
  void linearKernelEqualsOrdinaryPCA() {
    double[][] x = LocalSpark.clusters(300, 6, 1);
    Dataset<Row> df = LocalSpark.frame(x, 3);
    NystromKernelPCAModel model =
        new NystromKernelPCA().setKernel("linear").setK(3).setNumLandmarks(40).setSeed(2).fit(df);
    assertEquals(6, model.rank(), "K_mm of the linear kernel has rank d");
    assertEquals(34, model.droppedRank());

    double[] expected = Reference.eigenvalues(Reference.covariance(x), 1.0);
    double[] actual = model.eigenvalues().toArray();
    for (int i = 0; i < 6; i++) {
      assertEquals(expected[i], actual[i], 1e-9 * expected[0], "eigenvalue " + i);
    }
    // Total variance is tr(C) exactly, so the ratios are PCA's.
    double trace = 0;
    for (double v : expected) {
      trace += v;
    }
    assertEquals(trace, model.totalVariance(), 1e-9 * trace);

    // Scores equal Spark ML's PCA projections of the centred data, up to each component's sign.
    PCAModel pca = new PCA().setInputCol("features").setOutputCol("pca").setK(3).fit(df);
    double[] mean = Reference.mean(x);
    DenseMatrix pc = pca.pc();
    double[][] sparkScores = new double[x.length][3];
    for (int i = 0; i < x.length; i++) {
      for (int c = 0; c < 3; c++) {
        for (int t = 0; t < 6; t++) {
          sparkScores[i][c] += pc.apply(t, c) * (x[i][t] - mean[t]);
        }
      }
    }
    double[][] ours = LocalSpark.collect(model.transform(df), "kpca");
    for (int c = 0; c < 3; c++) {
      assertTrue(Reference.maxAbsDiffUpToSign(ours, sparkScores, c) < 1e-8, "component " + c);
      assertEquals(actual[c], Reference.variance(ours, c), 1e-9 * actual[0]);
    }
    assertEquals(
        3, AttributeGroup.fromStructField(model.transform(df).schema().apply("kpca")).size());
  }

  /**
   * m = n: the Nyström estimator is exact centred kernel PCA (and uncentred = eigenvalues of K/n).
   */
  @Test
  void allPointsAsLandmarksIsExactKernelPCA() {
    double[][] x = LocalSpark.clusters(120, 5, 4);
    Dataset<Row> df = LocalSpark.frame(x, 2);
    Kernel kernel = Kernel.rbf(0.2);
    double[] centred = Reference.eigenvalues(Reference.center(Reference.gram(kernel, x)), x.length);
    double[] uncentred = Reference.eigenvalues(Reference.gram(kernel, x), x.length);

    NystromKernelPCAModel nystrom =
        new NystromKernelPCA().setGamma(0.2).setK(8).setNumLandmarks(120).fit(df);
    KernelPCAModel exact = new KernelPCA().setGamma(0.2).setK(8).fit(df);
    for (int i = 0; i < 8; i++) {
      assertEquals(
          centred[i], nystrom.explainedVariance().apply(i), 1e-8 * centred[i], "Nyström λ" + i);
      assertEquals(
          centred[i], exact.explainedVariance().apply(i), 1e-10 * centred[0], "exact λ" + i);
    }
    assertEquals(exact.totalVariance(), nystrom.totalVariance(), 1e-9 * exact.totalVariance());
    double[][] a = LocalSpark.collect(nystrom.transform(df), "kpca");
    double[][] b = LocalSpark.collect(exact.transform(df), "kpca");
    for (int c = 0; c < 8; c++) {
      assertTrue(Reference.maxAbsDiffUpToSign(a, b, c) < 1e-7, "scores of component " + c);
      assertEquals(centred[c], Reference.variance(b, c), 1e-9 * centred[0]);
    }

    NystromKernelPCAModel raw =
        new NystromKernelPCA()
            .setGamma(0.2)
            .setK(8)
            .setNumLandmarks(120)
            .setCentered(false)
            .fit(df);
    for (int i = 0; i < 8; i++) {
      assertEquals(
          uncentred[i], raw.explainedVariance().apply(i), 1e-8 * uncentred[i], "uncentred λ" + i);
    }
    assertEquals(1.0, raw.totalVariance(), 1e-12, "(1/n) tr K = 1 for the Gaussian kernel");
    assertTrue(raw.totalVarianceMethod().startsWith("exact"));
  }

  /** Training scores are uncorrelated with variances Σ_i; mean residual = R(k). */
  @Test
  void scoresAreUncorrelatedAndResidualsAverageToTheReconstructionError() {
    double[][] x = LocalSpark.clusters(400, 8, 9);
    Dataset<Row> df = LocalSpark.frame(x, 4);
    NystromKernelPCAModel model =
        new NystromKernelPCA()
            .setK(5)
            .setNumLandmarks(60)
            .setSeed(3)
            .setResidualCol("residual")
            .fit(df);
    Dataset<Row> out = model.transform(df);
    double[][] y = LocalSpark.collect(out, "kpca");
    double[] lambda = model.explainedVariance().toArray();
    for (int a = 0; a < 5; a++) {
      for (int b = 0; b < 5; b++) {
        double cov = 0;
        for (double[] row : y) {
          cov += row[a] * row[b] / y.length;
        }
        assertEquals(a == b ? lambda[a] : 0.0, cov, 1e-9 * lambda[0], "cov(" + a + "," + b + ")");
      }
    }
    double meanResidual =
        out.agg(org.apache.spark.sql.functions.avg("residual")).first().getDouble(0);
    double[] error = model.reconstructionError().toArray();
    assertEquals(error[4], meanResidual, 1e-9 * model.totalVariance());
    for (int l = 1; l < 5; l++) {
      assertTrue(error[l] <= error[l - 1], "R(ℓ) non-increasing");
    }
    double ratioSum = 0;
    for (double v : model.explainedVarianceRatio().toArray()) {
      assertTrue(v > 0 && v < 1);
      ratioSum += v;
    }
    assertTrue(ratioSum < 1);
    assertTrue(model.totalVarianceMethod().startsWith("nystrom-mean"));
  }

  /** Same seed ⇒ same landmarks and model for 1, 3 and 8 partitions. */
  @Test
  void sameSeedGivesTheSameModelForAnyPartitioning() {
    double[][] x = LocalSpark.clusters(500, 7, 5);
    List<NystromKernelPCAModel> models = new ArrayList<>();
    for (int partitions : new int[] {1, 3, 8}) {
      models.add(
          new NystromKernelPCA()
              .setK(4)
              .setNumLandmarks(50)
              .setSeed(42)
              .fit(LocalSpark.frame(x, partitions)));
    }
    NystromKernelPCAModel first = models.get(0);
    for (NystromKernelPCAModel other : models.subList(1, 3)) {
      assertArrayEquals(first.landmarks().toArray(), other.landmarks().toArray(), 0.0, "landmarks");
      assertEquals(first.getGamma(), other.getGamma(), 0.0);
      assertArrayEquals(
          first.eigenvalues().toArray(),
          other.eigenvalues().toArray(),
          1e-11 * first.eigenvalues().apply(0));
      assertArrayEquals(first.projector().toArray(), other.projector().toArray(), 1e-8);
      assertArrayEquals(first.offset().toArray(), other.offset().toArray(), 1e-8);
    }
    NystromKernelPCAModel otherSeed =
        new NystromKernelPCA().setK(4).setNumLandmarks(50).setSeed(43).fit(LocalSpark.frame(x, 3));
    assertTrue(
        !java.util.Arrays.equals(first.landmarks().toArray(), otherSeed.landmarks().toArray()));
  }

  @Test
  void sparseAndDenseInputGiveTheSameModel() {
    double[][] x = LocalSpark.clusters(200, 10, 8);
    List<Vector> dense = new ArrayList<>();
    List<Vector> sparse = new ArrayList<>();
    for (double[] row : x) {
      double[] thinned = row.clone();
      for (int t = 0; t < thinned.length; t += 2) {
        thinned[t] = 0;
      }
      dense.add(Vectors.dense(thinned));
      sparse.add(Vectors.dense(thinned).toSparse());
    }
    NystromKernelPCA estimator =
        new NystromKernelPCA()
            .setK(3)
            .setNumLandmarks(30)
            .setSeed(1)
            .setKernel("polynomial")
            .setDegree(2)
            .setGamma(0.1);
    NystromKernelPCAModel a = estimator.fit(LocalSpark.vectors(dense, 2));
    NystromKernelPCAModel b = estimator.fit(LocalSpark.vectors(sparse, 3));
    assertArrayEquals(a.landmarks().toArray(), b.landmarks().toArray(), 0.0);
    assertArrayEquals(
        a.eigenvalues().toArray(), b.eigenvalues().toArray(), 1e-10 * a.eigenvalues().apply(0));
    double[][] ya = LocalSpark.collect(a.transform(LocalSpark.vectors(sparse, 2)), "kpca");
    double[][] yb = LocalSpark.collect(b.transform(LocalSpark.vectors(dense, 2)), "kpca");
    for (int i = 0; i < ya.length; i++) {
      assertArrayEquals(ya[i], yb[i], 1e-8);
    }
  }

  /** Supplied landmarks are used as given; every kernel fits and the median heuristic sets γ. */
  @Test
  void suppliedLandmarksAndEveryKernel() {
    double[][] x = LocalSpark.clusters(150, 4, 12);
    Dataset<Row> df = LocalSpark.frame(x, 2);
    Vector[] landmarks = {
      Vectors.dense(x[0]),
      Vectors.dense(x[5]),
      Vectors.dense(x[9]),
      Vectors.dense(x[20]),
      Vectors.dense(x[33]),
      Vectors.dense(x[70])
    };
    NystromKernelPCAModel model = new NystromKernelPCA().setK(2).setLandmarks(landmarks).fit(df);
    assertEquals(6, model.numSupportPoints());
    assertArrayEquals(
        x[5], java.util.Arrays.copyOfRange(model.landmarks().transpose().toArray(), 4, 8), 0);
    double[] flat = new double[6 * 4];
    for (int j = 0; j < 6; j++) {
      System.arraycopy(landmarks[j].toArray(), 0, flat, j * 4, 4);
    }
    assertEquals(
        Kernel.medianHeuristicGamma(KernelType.RBF, flat, 6, 4, 1000), model.getGamma(), 0);

    for (String kernel :
        new String[] {"laplacian", "polynomial", "linear", "cosine", "sigmoid", "gaussian"}) {
      NystromKernelPCAModel m =
          new NystromKernelPCA().setK(2).setNumLandmarks(30).setKernel(kernel).setSeed(1).fit(df);
      double[] ev = m.explainedVariance().toArray();
      assertTrue(
          ev[0] >= ev[1] && ev[1] > 0, kernel + " eigenvalues " + java.util.Arrays.toString(ev));
      assertTrue(m.explainedVarianceRatio().apply(0) <= 1 + 1e-12, kernel);
    }
  }
}
