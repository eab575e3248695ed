package io.github.sparkkpca.examples.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.examples.data.MnistIdx;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Kernel PCA denoising (Mika et al. 1999) on MNIST: a model fitted on clean training digits maps
 * noisy test digits to reconstructions closer to the clean images than the noisy inputs are.
 */
class DenoisingMnistTest {

  private static final double NOISE = 60.0;
  private static NystromKernelPCAModel model;
  private static double[][] clean;
  private static Dataset<Row> noisy;

  @BeforeAll
  static void setUp() throws IOException {
    MnistIdx train = MnistIdx.read(MnistIdx.defaultDirectory(), true);
    MnistIdx test = MnistIdx.read(MnistIdx.defaultDirectory(), false);
    model =
        new NystromKernelPCA()
            .setK(60)
            .setNumLandmarks(400)
            .setSeed(3)
            .fit(train.toDataFrame(LocalSpark.spark(), null, 2000));
    Random random = new Random(17);
    int n = 100;
    clean = new double[n][];
    List<Vector> noisyRows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      clean[i] = test.image(i);
      double[] x = clean[i].clone();
      for (int t = 0; t < x.length; t++) {
        x[t] += NOISE * random.nextGaussian();
      }
      noisyRows.add(Vectors.dense(x));
    }
    noisy = LocalSpark.vectors(noisyRows, 2);
  }

  private static double meanSquaredError(double[][] a) {
    double total = 0;
    for (int i = 0; i < a.length; i++) {
      for (int t = 0; t < a[i].length; t++) {
        total += (a[i][t] - clean[i][t]) * (a[i][t] - clean[i][t]);
      }
    }
    return total / a.length;
  }

  @Test
  void reconstructionsAreCloserToTheCleanImagesThanTheNoisyInputs() {
    double[][] inputs = LocalSpark.collect(noisy, "features");
    double before = meanSquaredError(inputs);
    for (String method : new String[] {"fixed-point", "ridge"}) {
      Dataset<Row> out =
          model
              .copy(org.apache.spark.ml.param.ParamMap.empty())
              .setReconstructionCol("denoised")
              .setPreimageMethod(method)
              .transform(noisy);
      assertEquals(784, AttributeGroup.fromStructField(out.schema().apply("denoised")).size());
      double after = meanSquaredError(LocalSpark.collect(out, "denoised"));
      System.out.printf(
          "%s: mean squared error to clean %.0f -> %.0f (ratio %.3f)%n",
          method, before, after, after / before);
      assertTrue(after < 0.45 * before, method + ": " + after + " vs noisy " + before);
    }
  }

  @Test
  void fixedPointNeedsTheGaussianKernel() {
    NystromKernelPCAModel poly =
        new NystromKernelPCA().setKernel("polynomial").setK(2).setNumLandmarks(20).fit(noisy);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> poly.setReconstructionCol("x").transform(noisy));
    assertTrue(e.getMessage().contains("set preimageMethod to ridge"), e.getMessage());
    assertEquals(100, poly.setPreimageMethod("ridge").transform(noisy).count());
  }
}
