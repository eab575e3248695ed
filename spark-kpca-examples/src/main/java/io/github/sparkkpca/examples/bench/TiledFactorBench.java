package io.github.sparkkpca.examples.bench;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.kernel.LandmarkGramTiles;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.DenseWhitening;
import io.github.sparkkpca.linalg.DriverThreads;
import io.github.sparkkpca.linalg.PivotedCholesky;
import io.github.sparkkpca.linalg.TiledCholesky;
import io.github.sparkkpca.linalg.TiledSymmetricMatrix;
import java.util.Locale;
import java.util.Random;

/**
 * K_mm and its factor on the driver at m beyond one Java array (issue 47): synthetic landmarks, m
 * points of N(0, I_d), rbf with the median-heuristic γ. {@code factor=tiled}: the K_mm tile fill
 * ({@link LandmarkGramTiles#gram}), the tiled Cholesky ({@link TiledCholesky}, m³/3 flops, rated
 * against this JVM's dgemm rate, {@link DgemmRate}) and W·Q, Wᵀ·Y for an m×l panel (m²·l flops
 * each). {@code factor=pivoted}: the pivoted Cholesky from kernel columns ({@link PivotedCholesky},
 * stopped at rcond·max diag K or at {@code maxRank}), its whitening and the same panel products.
 * {@code factor=fill}: the tile fill alone (the memory of K_mm at m where the factorisation takes
 * long). Each step prints its wall seconds; peak RSS comes from {@code /usr/bin/time -v}.
 *
 * <p>Usage (name=value, all optional), from the repository root after {@code mvn -B -q -pl
 * spark-kpca-examples -am package -DskipTests}:
 *
 * <pre>
 * OPENBLAS_NUM_THREADS=1 /usr/bin/time -v java -Xmx14g --add-modules=jdk.incubator.vector -cp \
 *   "$(ls spark-kpca-examples/target/spark-kpca-examples_*.jar | grep -v -e sources -e tests | head -n 1):$(cat \
 *   spark-kpca-examples/target/classpath.txt)" io.github.sparkkpca.examples.bench.TiledFactorBench \
 *   m=50000 d=50 tile=512 l=60 factor=tiled
 * </pre>
 */
public final class TiledFactorBench {

  private TiledFactorBench() {}

  public static void main(String[] args) {
    int m = 20_000;
    int d = 50;
    int tile = TiledSymmetricMatrix.DEFAULT_TILE;
    int l = 60;
    double rcond = 1e-12;
    int maxRank = 4000;
    String factor = "tiled";
    long seed = 1;
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("argument '" + arg + "' is not name=value");
      }
      String value = arg.substring(eq + 1);
      switch (arg.substring(0, eq)) {
        case "m" -> m = Integer.parseInt(value);
        case "d" -> d = Integer.parseInt(value);
        case "tile" -> tile = Integer.parseInt(value);
        case "l" -> l = Integer.parseInt(value);
        case "rcond" -> rcond = Double.parseDouble(value);
        case "maxRank" -> maxRank = Integer.parseInt(value);
        case "factor" -> factor = value;
        case "seed" -> seed = Long.parseLong(value);
        default ->
            throw new IllegalArgumentException(
                "unknown argument '" + arg + "' (m, d, tile, l, rcond, maxRank, factor, seed)");
      }
    }
    Random random = new Random(seed);
    double[] points = new double[Math.multiplyExact(m, d)];
    for (int i = 0; i < points.length; i++) {
      points[i] = random.nextGaussian();
    }
    double gamma = Kernel.medianHeuristicGamma(KernelType.RBF, points, m, d);
    LandmarkKernel kernel = new LandmarkKernel(Kernel.rbf(gamma), points, m, d);
    int threads = DriverThreads.count();
    print(
        "m = %d, d = %d, rbf gamma = %.4g (median heuristic), factor = %s, tile = %d, l = %d, "
            + "rcond = %.1e, driver threads = %d, BLAS %s",
        m, d, gamma, factor, tile, l, rcond, threads, Blas.implementation());
    DgemmRate rate = DgemmRate.measure(2000, 3, threads);
    print(
        "dgemm rate: %.1f GFLOP/s (one call %.1f, %d concurrent %.1f)",
        rate.gflops(), rate.singleGflops(), rate.threads(), rate.concurrentGflops());
    double[] panel = new double[Math.multiplyExact(m, l)];
    for (int i = 0; i < panel.length; i++) {
      panel[i] = random.nextGaussian();
    }
    if (factor.equals("tiled") || factor.equals("fill")) {
      long t0 = System.nanoTime();
      TiledSymmetricMatrix gram = LandmarkGramTiles.gram(kernel, tile, threads);
      double fill = seconds(t0);
      print(
          "K_mm tile fill: %.1f s (%.2f GB of tiles)",
          fill, TiledSymmetricMatrix.bytes(m, tile) / 1e9);
      if (factor.equals("fill")) {
        return;
      }
      t0 = System.nanoTime();
      TiledCholesky cholesky;
      try {
        cholesky = TiledCholesky.factor(gram, threads);
      } catch (TiledCholesky.NotPositiveDefinite e) {
        print("tiled Cholesky: %.1f s, %s", seconds(t0), e.getMessage());
        return;
      }
      double seconds = seconds(t0);
      double flops = (double) m * m * m / 3;
      print(
          "tiled Cholesky: %.1f s, %.1f GFLOP/s (m³/3 flops), %.0f %% of the dgemm rate",
          seconds, flops / seconds / 1e9, 100 * flops / seconds / 1e9 / rate.gflops());
      products(cholesky, panel, m, l, (double) m * m * l);
    } else if (factor.equals("pivoted")) {
      long t0 = System.nanoTime();
      PivotedCholesky.Factor f =
          PivotedCholesky.factor(LandmarkGramTiles.columns(kernel), rcond, maxRank, threads);
      if (f == null) {
        print("pivoted Cholesky: %.1f s, rank above maxRank = %d", seconds(t0), maxRank);
        return;
      }
      print(
          "pivoted Cholesky: %.1f s, rank %d, tr(K - LLᵀ) = %.3g (%.3g of tr K)",
          seconds(t0), f.rank(), f.residualTrace(), f.residualTrace() / m);
      t0 = System.nanoTime();
      DenseWhitening w = f.whitening(rcond).w();
      print("whitening L·V·Σ⁻¹: %.1f s, retained rank %d", seconds(t0), w.rank());
      products(w, panel, m, l, 2.0 * m * w.rank() * l);
    } else {
      throw new IllegalArgumentException(
          "factor must be tiled, fill or pivoted, not '" + factor + "'");
    }
  }

  private static void products(
      io.github.sparkkpca.linalg.WhiteningFactor w, double[] panel, int m, int l, double flops) {
    long t0 = System.nanoTime();
    double[] z = w.transposeTimes(panel, l);
    double forward = seconds(t0);
    t0 = System.nanoTime();
    double[] q = java.util.Arrays.copyOf(z, w.rank() * l);
    double[] x = w.times(q, l);
    double backward = seconds(t0);
    print(
        "Wᵀ·Y (m×%d): %.2f s (%.1f GFLOP/s); W·Q: %.2f s (%.1f GFLOP/s); ‖WWᵀY‖_F = %.4g",
        l,
        forward,
        flops / forward / 1e9,
        backward,
        flops / backward / 1e9,
        Blas.blas().dnrm2(x.length, x, 1));
  }

  private static double seconds(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }

  private static void print(String format, Object... args) {
    System.out.println(String.format(Locale.ROOT, format, args));
    System.out.flush();
  }
}
