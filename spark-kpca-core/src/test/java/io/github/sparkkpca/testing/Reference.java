package io.github.sparkkpca.testing;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.linalg.SymmetricEigen;
import java.util.Random;

/**
 * Independent reference computations for the tests: everything here is written from the textbook
 * definitions with plain loops, sharing no code path with the library but the LAPACK call.
 */
public final class Reference {

  private Reference() {}

  /** K[i][j] = k(x_i, x_j) by direct evaluation. */
  public static double[][] gram(Kernel kernel, double[][] x) {
    int n = x.length;
    double[][] k = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        k[i][j] = kernel.apply(x[i], x[j]);
        k[j][i] = k[i][j];
      }
    }
    return k;
  }

  /** HKH, H = I − 11ᵀ/n. */
  public static double[][] center(double[][] k) {
    int n = k.length;
    double[] rowMean = new double[n];
    double grand = 0;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        rowMean[i] += k[i][j] / n;
      }
      grand += rowMean[i] / n;
    }
    double[][] c = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        c[i][j] = k[i][j] - rowMean[i] - rowMean[j] + grand;
      }
    }
    return c;
  }

  /** Eigenvalues (descending) of a symmetric matrix divided by {@code scale}. */
  public static double[] eigenvalues(double[][] a, double scale) {
    int n = a.length;
    double[] flat = new double[n * n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        flat[i + j * n] = a[i][j];
      }
    }
    double[] values = SymmetricEigen.of(flat, n).values();
    for (int i = 0; i < n; i++) {
      values[i] /= scale;
    }
    return values;
  }

  /** The population covariance (1/n) Σ (x − x̄)(x − x̄)ᵀ. */
  public static double[][] covariance(double[][] x) {
    int n = x.length;
    int d = x[0].length;
    double[] mean = mean(x);
    double[][] c = new double[d][d];
    for (double[] row : x) {
      for (int a = 0; a < d; a++) {
        for (int b = 0; b < d; b++) {
          c[a][b] += (row[a] - mean[a]) * (row[b] - mean[b]) / n;
        }
      }
    }
    return c;
  }

  public static double[] mean(double[][] x) {
    double[] mean = new double[x[0].length];
    for (double[] row : x) {
      for (int t = 0; t < mean.length; t++) {
        mean[t] += row[t] / x.length;
      }
    }
    return mean;
  }

  /** Sample variance with denominator n of column c of the score rows. */
  public static double variance(double[][] scores, int c) {
    double mean = 0;
    for (double[] s : scores) {
      mean += s[c] / scores.length;
    }
    double v = 0;
    for (double[] s : scores) {
      v += (s[c] - mean) * (s[c] - mean) / scores.length;
    }
    return v;
  }

  /** max_i | |a_i| − |b_i| | relative to max |b|: equality up to the sign of each column. */
  public static double maxAbsDiffUpToSign(double[][] a, double[][] b, int column) {
    double scale = 0;
    double sameSign = 0;
    double flipped = 0;
    for (int i = 0; i < a.length; i++) {
      scale = Math.max(scale, Math.abs(b[i][column]));
      sameSign = Math.max(sameSign, Math.abs(a[i][column] - b[i][column]));
      flipped = Math.max(flipped, Math.abs(a[i][column] + b[i][column]));
    }
    return Math.min(sameSign, flipped) / Math.max(scale, 1e-300);
  }

  /**
   * Test data: n sparse rows of dimension d sharing column 0 = {@code offset} (a bias, a year, an
   * id-like feature), plus {@code small} values N(0, 0.1²) in columns 1..19; row {@code lacking}
   * (if ≥ 0) has no column 0.
   */
  public static double[][] sharedLargeColumn(
      int n, int d, double offset, int small, int lacking, long seed) {
    Random random = new Random(seed);
    double[][] x = new double[n][d];
    for (int i = 0; i < n; i++) {
      x[i][0] = i == lacking ? 0 : offset;
      for (int e = 0; e < small; e++) {
        x[i][1 + random.nextInt(19)] = 0.1 * random.nextGaussian();
      }
    }
    return x;
  }
}
