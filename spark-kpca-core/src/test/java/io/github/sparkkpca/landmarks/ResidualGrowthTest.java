package io.github.sparkkpca.landmarks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.execution.RowHash;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.commons.math3.distribution.FDistribution;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.Matrix;
import org.junit.jupiter.api.Test;

/**
 * Landmarks by residual growth, checked against residuals computed independently: k(x,x) −
 * uᵀK_mm⁻¹u by Gaussian elimination, the probe rows and candidate order rebuilt from the row
 * hashes.
 */
class ResidualGrowthTest {

  static final Kernel KERNEL = Kernel.rbf(0.5);

  /** k(x,x) − uᵀK⁻¹u for the landmarks s, by Gaussian elimination with partial pivoting. */
  static double residual(Kernel kernel, List<double[]> s, double[] x) {
    int m = s.size();
    double[][] a = new double[m][m + 1];
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < m; j++) {
        a[i][j] = kernel.apply(s.get(i), s.get(j));
      }
      a[i][m] = kernel.apply(s.get(i), x);
    }
    for (int c = 0; c < m; c++) {
      int pivot = c;
      for (int r = c + 1; r < m; r++) {
        if (Math.abs(a[r][c]) > Math.abs(a[pivot][c])) {
          pivot = r;
        }
      }
      double[] t = a[c];
      a[c] = a[pivot];
      a[pivot] = t;
      for (int r = c + 1; r < m; r++) {
        double f = a[r][c] / a[c][c];
        for (int j = c; j <= m; j++) {
          a[r][j] -= f * a[c][j];
        }
      }
    }
    double[] sol = new double[m];
    for (int r = m - 1; r >= 0; r--) {
      double sum = a[r][m];
      for (int j = r + 1; j < m; j++) {
        sum -= a[r][j] * sol[j];
      }
      sol[r] = sum / a[r][r];
    }
    double quad = 0;
    for (int i = 0; i < m; i++) {
      quad += kernel.apply(s.get(i), x) * sol[i];
    }
    return kernel.apply(x, x) - quad;
  }

  /** The distinct rows in the seeded order: unsigned row hash, then the values. */
  static List<double[]> seededOrder(double[][] x, long seed) {
    List<double[]> rows = new ArrayList<>(Arrays.asList(x));
    Comparator<double[]> order =
        Comparator.<double[]>comparingLong(
                r -> RowHash.hash(new DenseVector(r), seed) ^ Long.MIN_VALUE)
            .thenComparing(Arrays::compare);
    rows.sort(order);
    return rows;
  }

  static List<double[]> rows(Matrix landmarks) {
    List<double[]> out = new ArrayList<>();
    for (int i = 0; i < landmarks.numRows(); i++) {
      double[] r = new double[landmarks.numCols()];
      for (int t = 0; t < r.length; t++) {
        r[t] = landmarks.apply(i, t);
      }
      out.add(r);
    }
    return out;
  }

  static double meanResidual(List<double[]> s, List<double[]> points) {
    double sum = 0;
    for (double[] p : points) {
      sum += residual(KERNEL, s, p);
    }
    return sum / points.size();
  }

  @Test
  void meetsItsToleranceOnHeldOutRowsForAnyPartitioning() {
    double[][] all = LocalSpark.clusters(700, 3, 3);
    double[][] train = Arrays.copyOfRange(all, 0, 400);
    List<double[]> fresh = Arrays.asList(Arrays.copyOfRange(all, 400, 700));
    double tau = 0.1;
    int probe = 100; // at most a quarter of the 400 rows
    NystromKernelPCAModel first = null;
    for (int partitions : new int[] {1, 4}) {
      NystromKernelPCAModel model =
          new NystromKernelPCA()
              .setK(3)
              .setGamma(0.5)
              .setSeed(7)
              .setNumLandmarksAuto(tau)
              .setLandmarkProbeSize(probe)
              .fit(LocalSpark.frame(train, partitions));
      if (first == null) {
        first = model;
      } else {
        assertArrayEquals(
            first.landmarks().toArray(),
            model.landmarks().toArray(),
            0.0,
            "partitions " + partitions);
        assertArrayEquals(first.getLandmarkResidualCurve(), model.getLandmarkResidualCurve(), 0.0);
      }
    }
    List<double[]> landmarks = rows(first.landmarks());
    int m = landmarks.size();
    double[] curve = first.getLandmarkResidualCurve();
    assertEquals(m, curve.length);
    assertTrue(m > 3 && m < 200, "m = " + m);
    assertTrue(first.landmarkSelection().contains("tolerance reached"), first.landmarkSelection());
    for (int j = 1; j < m; j++) {
      assertTrue(curve[j] <= curve[j - 1] + 1e-12, "the residual never increases");
    }
    assertTrue(
        curve[m - 1] <= tau && curve[m - 2] > tau, "stops at the first m within the tolerance");

    // The probe rows, rebuilt independently: the first P of the seeded order; never landmarks.
    List<double[]> probeRows = seededOrder(train, 7).subList(0, probe);
    for (double[] z : landmarks) {
      assertFalse(
          probeRows.stream().anyMatch(p -> Arrays.equals(p, z)), "a probe row became a landmark");
    }
    double probeResidual = meanResidual(landmarks, probeRows);
    assertEquals(curve[m - 1], probeResidual, 1e-9, "the reported curve is the probe residual");
    assertTrue(probeResidual <= tau, "probe residual " + probeResidual);
    double freshResidual = meanResidual(landmarks, fresh);
    assertTrue(
        freshResidual <= 1.5 * tau,
        "mean residual of 300 fresh rows " + freshResidual + " vs tau " + tau);
  }

  @Test
  void stopsAtMaxLandmarksAndKeepsTheCurveWhenSaved(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws java.io.IOException {
    NystromKernelPCAModel model =
        new NystromKernelPCA()
            .setK(2)
            .setGamma(0.5)
            .setSeed(1)
            .setNumLandmarksAuto(1e-6)
            .setMaxLandmarks(6)
            .setLandmarkProbeSize(16)
            .fit(LocalSpark.frame(LocalSpark.clusters(200, 3, 5), 2));
    assertEquals(6, model.numSupportPoints());
    assertEquals(6, model.getLandmarkResidualCurve().length);
    assertTrue(
        model.landmarkSelection().contains("maxLandmarks = 6 reached"), model.landmarkSelection());
    String path = dir.resolve("model").toString();
    model.save(path);
    NystromKernelPCAModel loaded = NystromKernelPCAModel.load(path);
    assertArrayEquals(model.getLandmarkResidualCurve(), loaded.getLandmarkResidualCurve(), 0.0);
    assertEquals(model.landmarkSelection(), loaded.landmarkSelection());
  }

  /** The F-test replayed with residuals from Gaussian elimination: every admission and the stop. */
  @Test
  void fTestEvaluatesTheThesisStatistic() {
    double[][] x = LocalSpark.clusters(150, 2, 9);
    int probe = 20;
    double alpha = 0.05;
    NystromKernelPCAModel model =
        new NystromKernelPCA()
            .setK(1)
            .setGamma(0.5)
            .setSeed(3)
            .setLandmarkSampling("residual")
            .setLandmarkTest("f")
            .setLandmarkAlpha(alpha)
            .setLandmarkProbeSize(probe)
            .fit(LocalSpark.frame(x, 3));
    List<double[]> fitted = rows(model.landmarks());
    List<double[]> order = seededOrder(x, 3);
    List<double[]> probeRows = order.subList(0, probe);
    int half = probe / 2;
    List<double[]> s = new ArrayList<>();
    boolean stoppedByF = false;
    for (double[] c : order.subList(probe, order.size())) {
      if (residual(KERNEL, s, c) <= 1e-10) {
        continue;
      }
      List<double[]> withC = new ArrayList<>(s);
      withC.add(c);
      double numerator = 0;
      double denominator = 0;
      for (int t = 0; t < half; t++) {
        numerator += residual(KERNEL, s, probeRows.get(2 * t));
        denominator += residual(KERNEL, withC, probeRows.get(2 * t + 1));
      }
      double f = numerator / denominator;
      double df = (double) half * (x.length - s.size());
      double critical = new FDistribution(df, df).inverseCumulativeProbability(1 - alpha);
      if (f > critical) {
        assertTrue(
            s.size() < fitted.size(), "the fit stopped although F = " + f + " > " + critical);
        assertArrayEquals(c, fitted.get(s.size()), 0.0, "landmark " + s.size());
        s = withC;
      } else {
        stoppedByF = true;
        break;
      }
    }
    assertTrue(stoppedByF, "the replay must end by the test");
    assertEquals(s.size(), fitted.size(), model.landmarkSelection());
    assertTrue(fitted.size() >= 2, model.landmarkSelection());
    assertTrue(model.landmarkSelection().contains("H0 not rejected"), model.landmarkSelection());
  }
}
