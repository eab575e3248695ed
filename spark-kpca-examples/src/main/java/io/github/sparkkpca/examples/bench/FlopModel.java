package io.github.sparkkpca.examples.bench;

/**
 * Floating-point operation counts of a Nyström kernel PCA fit and transform (docs/design.md, cost
 * model): a multiply-add counts as two flops, and only the triangle of a triangular or symmetric
 * product is counted.
 *
 * <ul>
 *   <li>fit: 2·n·m·d (kernel block GEMM) + n·m·r (F = Wᵀ K with the triangular W of a full-rank
 *       K_mm, TRMM) + n·r² (SYRK of the centred features), plus n·m exponentials and O(m³) on the
 *       driver, which are not counted. A rank-deficient K_mm (r &lt; m) makes F a dense GEMM of
 *       2·n·m·r flops; the model still counts n·m·r, so such fits are measured against the stricter
 *       bound;
 *   <li>transform: 2·n·m·d (kernel block GEMM) + 2·n·m·k (Pᵀ K GEMM), plus n·m exponentials.
 * </ul>
 *
 * @param n rows
 * @param d input dimension
 * @param m landmarks
 * @param r numerical rank of K_mm kept by the fit (r ≤ m)
 * @param k components
 */
public record FlopModel(long n, int d, int m, int r, int k) {

  public FlopModel {
    if (n < 1 || d < 1 || m < 1 || r < 0 || r > m || k < 0) {
      throw new IllegalArgumentException(
          "bad sizes n=" + n + ", d=" + d + ", m=" + m + ", r=" + r + ", k=" + k);
    }
  }

  /** 2·n·m·d: the kernel block GEMMs. */
  public double kernelFlops() {
    return 2.0 * n * m * d;
  }

  /** n·m·r: F = Wᵀ K with W triangular (r = m). */
  public double featureFlops() {
    return (double) n * m * r;
  }

  /** n·r²: the SYRK updates of the scatter matrix. */
  public double scatterFlops() {
    return (double) n * r * r;
  }

  /** The fit's flops: kernel + feature + scatter. */
  public double fitFlops() {
    return kernelFlops() + featureFlops() + scatterFlops();
  }

  /** The transform's flops: kernel + 2·n·m·k. */
  public double transformFlops() {
    return kernelFlops() + 2.0 * n * m * k;
  }

  /** n·m exponentials (rbf kernel), per fit and per transform. */
  public double exponentials() {
    return (double) n * m;
  }

  /** The fastest possible time for {@code flops} at {@code gflops} GFLOP/s. */
  public static double boundSeconds(double flops, double gflops) {
    return flops / (gflops * 1e9);
  }
}
