package io.github.sparkkpca.kernel;

import java.util.List;

/**
 * A kernel defined outside the library, following the recipe "Adding a kernel" of docs/design.md:
 * the Cauchy (rational quadratic with α = 1) kernel k(x,y) = 1 / (1 + γ‖x−y‖²), registered by its
 * {@link Provider}, named in {@code META-INF/services/io.github.sparkkpca.kernel.KernelProvider} in
 * the test resources. An enum constant, so that it stays one instance after serialization to the
 * executors.
 */
public enum CauchyKernel implements KernelFamily {
  CAUCHY;

  /** Registers {@link #CAUCHY} (the class {@link java.util.ServiceLoader} instantiates). */
  public static final class Provider implements KernelProvider {
    @Override
    public List<KernelFamily> kernels() {
      return List.of(CAUCHY);
    }
  }

  @Override
  public String paramName() {
    return "cauchy";
  }

  @Override
  public List<String> aliases() {
    return List.of("rational-quadratic");
  }

  @Override
  public String formula() {
    return "1/(1+gamma*||x-y||^2)";
  }

  @Override
  public boolean isShiftInvariant() {
    return true;
  }

  @Override
  public double apply(Kernel k, double[] x, double[] y) {
    return 1.0 / (1.0 + k.gamma() * Distances.squaredEuclidean(x, y));
  }

  @Override
  public double diagonal(Kernel k, double sqNorm) {
    return 1.0;
  }

  @Override
  public void mapInnerProducts(
      Kernel k, double[] out, double[] rowSqNorms, int b, double[] landmarkSqNorms, int m) {
    for (int i = 0; i < b; i++) {
      for (int j = 0; j < m; j++) {
        double sq = Math.max(0, rowSqNorms[i] + landmarkSqNorms[j] - 2 * out[i * m + j]);
        out[i * m + j] = 1.0 / (1.0 + k.gamma() * sq);
      }
    }
  }

  @Override
  public double medianHeuristicGamma(double[] points, int m, int d, int maxPoints) {
    return 1.0 / PairwiseMedian.of(points, m, d, maxPoints, true);
  }

  @Override
  public String gammaDefault() {
    return "1/median ||x-y||^2";
  }

  @Override
  public double diagonalBound() {
    return 1.0;
  }
}
