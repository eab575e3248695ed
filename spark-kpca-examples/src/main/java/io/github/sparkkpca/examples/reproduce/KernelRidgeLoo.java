package io.github.sparkkpca.examples.reproduce;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.linalg.SymmetricEigen;

/**
 * The KRR column of Braun, Buhmann and Müller's table: exact kernel ridge regression f(x) = Σ_j α_j
 * k(x, x_j), α = (K + λI)⁻¹Y (no intercept, as the uncentred kPCR), with γ and λ chosen by the
 * closed-form leave-one-out error: with K = VΛVᵀ the hat matrix H = V Λ(Λ + λ)⁻¹ Vᵀ, and the LOO
 * residual of row i is (y_i − f_i)/(1 − H_ii). Squared loss, one eigendecomposition per γ for every
 * λ (O(n³) per γ on the driver).
 *
 * @param gamma the γ chosen
 * @param lambda the λ chosen
 * @param alpha the expansion coefficients over the training rows
 * @param points the training rows, n×d row-major
 */
record KernelRidgeLoo(double gamma, double lambda, double[] alpha, double[][] points) {

  /** The λ grid: 10^-8 .. 10^2 relative to n (λ absorbs the usual factor n), 21 values. */
  static double[] lambdaGrid(int n) {
    double[] grid = new double[21];
    for (int j = 0; j < grid.length; j++) {
      grid[j] = n * Math.pow(10.0, -8.0 + 0.5 * j);
    }
    return grid;
  }

  static KernelRidgeLoo fit(double[][] x, double[] y, double[] gammas) {
    int n = x.length;
    double best = Double.POSITIVE_INFINITY;
    KernelRidgeLoo chosen = null;
    for (double gamma : gammas) {
      Kernel kernel = Kernel.rbf(gamma);
      double[] k = new double[n * n];
      for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++) {
          double v = kernel.apply(x[i], x[j]);
          k[i + j * n] = v;
          k[j + i * n] = v;
        }
      }
      SymmetricEigen eig = SymmetricEigen.of(k, n);
      double[] v = eig.vectors();
      double[] proj = new double[n];
      for (int c = 0; c < n; c++) {
        double s = 0;
        for (int i = 0; i < n; i++) {
          s += v[i + c * n] * y[i];
        }
        proj[c] = s;
      }
      for (double lambda : lambdaGrid(n)) {
        double loo = 0;
        for (int i = 0; i < n; i++) {
          double fitted = 0;
          double hat = 0;
          for (int c = 0; c < n; c++) {
            double l = Math.max(eig.values()[c], 0.0);
            double shrink = l / (l + lambda);
            fitted += v[i + c * n] * shrink * proj[c];
            hat += v[i + c * n] * v[i + c * n] * shrink;
          }
          double e = (y[i] - fitted) / Math.max(1 - hat, 1e-12);
          loo += e * e;
        }
        if (loo < best) {
          best = loo;
          double[] alpha = new double[n];
          for (int c = 0; c < n; c++) {
            double w = proj[c] / (Math.max(eig.values()[c], 0.0) + lambda);
            for (int i = 0; i < n; i++) {
              alpha[i] += v[i + c * n] * w;
            }
          }
          chosen = new KernelRidgeLoo(gamma, lambda, alpha, x);
        }
      }
    }
    return chosen;
  }

  double predict(double[] point) {
    Kernel kernel = Kernel.rbf(gamma);
    double f = 0;
    for (int j = 0; j < points.length; j++) {
      f += alpha[j] * kernel.apply(point, points[j]);
    }
    return f;
  }
}
