package io.github.sparkkpca.examples.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.examples.data.MnistIdx;
import io.github.sparkkpca.ml.KernelPCA;
import io.github.sparkkpca.ml.KernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import java.io.IOException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Ky Fan maximum principle on real data (MNIST digit 5, raw pixels, γ = 1e-7 as in Sterge et
 * al.): Nyström KPCA is the PCA of the covariance compressed onto H_m, so for every ℓ the sum of
 * its top ℓ eigenvalues is at most the exact one, and its training reconstruction error is at least
 * the exact one. The MNIST files are fetched by the build (bin/fetch-mnist); the test fails, not
 * skips, without them.
 */
class KyFanMnistTest {

  private static final int N = 2000;
  private static final int K = 60;
  private static Dataset<Row> digits;

  @BeforeAll
  static void load() throws IOException {
    MnistIdx mnist = MnistIdx.read(MnistIdx.defaultDirectory(), true);
    digits = mnist.toDataFrame(LocalSpark.spark(), 5, N).repartition(4).cache();
    assertEquals(N, digits.count());
  }

  @Test
  void nystromPartialSumsNeverExceedExactOnes() {
    for (boolean centered : new boolean[] {true, false}) {
      KernelPCAModel exact =
          new KernelPCA().setGamma(1e-7).setK(K).setCentered(centered).fit(digits);
      double[] exactValues = exact.explainedVariance().toArray();
      double[] exactError = exact.reconstructionError().toArray();
      for (int m : new int[] {100, 400}) {
        NystromKernelPCAModel nystrom =
            new NystromKernelPCA()
                .setGamma(1e-7)
                .setK(Math.min(K, m - 1))
                .setNumLandmarks(m)
                .setCentered(centered)
                .setSeed(m)
                .fit(digits);
        double[] values = nystrom.explainedVariance().toArray();
        double[] error = nystrom.reconstructionError().toArray();
        double exactSum = 0;
        double sum = 0;
        for (int l = 0; l < values.length; l++) {
          exactSum += exactValues[l];
          sum += values[l];
          String where = (centered ? "centred" : "uncentred") + " m = " + m + ", ℓ = " + (l + 1);
          assertTrue(sum <= exactSum * (1 + 1e-10), where + ": " + sum + " > " + exactSum);
          assertTrue(
              error[l] >= exactError[l] * (1 - 1e-10),
              where + ": error " + error[l] + " < " + exactError[l]);
        }
        // Not vacuous: the leading components are well approximated (within 5% at m = 400).
        if (m == 400) {
          assertTrue(
              sum > 0.95 * exactSum,
              "m = 400 captures " + sum / exactSum + " of the exact variance");
        }
      }
    }
  }
}
