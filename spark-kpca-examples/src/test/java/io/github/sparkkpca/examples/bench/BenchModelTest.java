package io.github.sparkkpca.examples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** Flop counts, the dgemm rate, /proc parsing and the scikit-learn result, without Spark. */
class BenchModelTest {

  @Test
  void flopCountsFollowTheCostModel() {
    FlopModel f = new FlopModel(1_000_000, 50, 1000, 990, 20);
    assertEquals(2.0 * 1e6 * 1000 * 50, f.kernelFlops(), 0);
    assertEquals(1e6 * 1000 * 990, f.featureFlops(), 0);
    assertEquals(1e6 * 990 * 990, f.scatterFlops(), 0);
    assertEquals(1e11 + 9.9e11 + 9.801e11, f.fitFlops(), 1);
    assertEquals(1e11 + 2.0 * 1e6 * 1000 * 20, f.transformFlops(), 0);
    assertEquals(1e9, f.exponentials(), 0);
    assertEquals(2.0, FlopModel.boundSeconds(200e9, 100), 1e-12);
    assertThrows(IllegalArgumentException.class, () -> new FlopModel(10, 5, 8, 9, 2));
  }

  @Test
  void dgemmRateIsPositiveAndBoundUsesTheBetterRate() {
    DgemmRate rate = DgemmRate.measure(64, 2, 2);
    assertTrue(rate.singleGflops() > 0 && rate.concurrentGflops() > 0, rate::toString);
    assertEquals(Math.max(rate.singleGflops(), rate.concurrentGflops()), rate.gflops(), 0);
    assertEquals(2.0 * 64 * 64 * 64, DgemmRate.flops(64), 0);
  }

  @Test
  void procStatusFieldsAreParsedInBytes() {
    String status =
        "Name:\tjava\nVmPeak:\t 9000 kB\nVmHWM:\t  123456 kB\nVmRSS:\t  100 kB\nThreads:\t42\n";
    assertEquals(123456L * 1024, PeakMemory.parseStatusField(status, "VmHWM:"));
    assertEquals(100L * 1024, PeakMemory.parseStatusField(status, "VmRSS:"));
    assertEquals(42, PeakMemory.parseStatusField(status, "Threads:"));
    assertEquals(-1, PeakMemory.parseStatusField(status, "VmSwap:"));
    assertTrue(PeakMemory.heapPeakBytes() > 0);
  }

  @Test
  void scikitLearnInputsAndResults() throws Exception {
    assertEquals("mnist:train", SklearnRunner.scriptInput("mnist:train"));
    assertEquals(
        "synthetic:n=10,d=3,seed=2",
        SklearnRunner.scriptInput("synthetic:n=10,d=3,partitions=4,seed=2"));
    assertNull(SklearnRunner.scriptInput("data.csv"));
    SklearnRunner.Result ok =
        SklearnRunner.parse(
            new ObjectMapper()
                .readTree(
                    "{\"system\":\"scikit-learn 1.2.1\","
                        + "\"status\":\"ok\",\"n\":60000,\"d\":784,\"fit_s\":12.5,\"explained_variance\":[0.5,0.25],"
                        + "\"explained_variance_ratio\":[0.1,0.05],\"peak_rss_mb\":2048,\"feature_matrix_bytes\":960000000,"
                        + "\"pca_svd_solver\":\"randomized\"}"));
    assertEquals(12.5, ok.fitSeconds(), 0);
    assertEquals(2048L * 1048576, ok.peakRssBytes());
    assertEquals(0.25, ok.explainedVariance()[1], 0);
    SklearnRunner.Result failed =
        SklearnRunner.parse(
            new ObjectMapper()
                .readTree(
                    "{\"status\":\"MemoryError\","
                        + "\"message\":\"Unable to allocate 74.5 GiB\",\"n\":5000000,\"feature_matrix_bytes\":80000000000}"));
    assertTrue(Double.isNaN(failed.fitSeconds()));
    assertEquals(80_000_000_000L, failed.featureMatrixBytes());
    assertEquals(0.0, CompareRow.maxRelDiff(new double[] {1, 2}, new double[] {1, 2}), 0);
    assertEquals(0.5, CompareRow.maxRelDiff(new double[] {1, 3}, new double[] {1, 2}), 1e-15);
  }
}
