package io.github.sparkkpca.examples.bench;

import io.github.sparkkpca.feature.FeatureMap;
import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.feature.NystromFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.Blas;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.Vector;

/**
 * The executors' work of the two statistics routes alone, on one thread: one partition's {@link
 * FeatureMap#accumulate} with the whitened map φ = Wᵀk_x against the kernel columns k_x (the Gram
 * route), the routes interleaved, with the thread's CPU seconds (the figure least disturbed by
 * other processes on a shared machine) and the dgemm rate measured on the same thread. The driver's
 * whitening of the Gram statistics is timed too.
 *
 * <p>Rows: n standard Gaussian points in R^d, γ = 1/(2d), the first m rows as landmarks, block b as
 * the fit chooses it for (m, d). Usage, after {@code mvn -B -q -pl spark-kpca-examples -am package
 * -DskipTests}:
 *
 * <pre>
 * OPENBLAS_NUM_THREADS=1 java -Xmx4g -cp "$(ls spark-kpca-examples/target/spark-kpca-examples_*.jar \
 *   | grep -v -e sources -e tests | head -n 1):$(cat spark-kpca-examples/target/classpath.txt)" \
 *   io.github.sparkkpca.examples.bench.StatisticsRouteBench n=100000 d=50 m=1000 repeat=2
 * </pre>
 */
public final class StatisticsRouteBench {

  private StatisticsRouteBench() {}

  public static void main(String[] args) {
    int n = 100_000;
    int d = 50;
    int m = 1000;
    int repeat = 2;
    for (String arg : args) {
      String[] kv = arg.split("=", 2);
      switch (kv[0]) {
        case "n" -> n = Integer.parseInt(kv[1]);
        case "d" -> d = Integer.parseInt(kv[1]);
        case "m" -> m = Integer.parseInt(kv[1]);
        case "repeat" -> repeat = Integer.parseInt(kv[1]);
        default ->
            throw new IllegalArgumentException(
                "unknown argument " + arg + "; expected n=, d=, m=, repeat=");
      }
    }
    Random random = new Random(1);
    List<Vector> rows = new ArrayList<>(n);
    double[] landmarks = new double[m * d];
    for (int i = 0; i < n; i++) {
      double[] x = new double[d];
      for (int j = 0; j < d; j++) {
        x[j] = random.nextGaussian();
      }
      if (i < m) {
        System.arraycopy(x, 0, landmarks, i * d, d);
      }
      rows.add(new DenseVector(x));
    }
    NystromFeatureMap map =
        NystromFeatureMap.fit(
            new LandmarkKernel(Kernel.rbf(1.0 / (2 * d)), landmarks, m, d), 1e-12);
    int blockSize = (int) Math.max(16, Math.min(4096, (4L << 20) / (2L * m + d)));
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    double dgemm = dgemmGflops(cpu);
    System.out.printf(
        Locale.ROOT,
        "BLAS %s, one-thread dgemm 2000^3: %.1f GFLOP/s; n = %d, d = %d, m = %d, b = %d, "
            + "cond(K_mm) ~ %.3g%n",
        Blas.implementation(),
        dgemm,
        n,
        d,
        m,
        blockSize,
        map.conditionEstimate());
    double minimal = 2.0 * n * m * d + (double) n * m * m;
    double whitenedFlops = minimal + (double) n * m * m;
    for (int r = 0; r < repeat; r++) {
      for (String route : new String[] {"whitened", "gram"}) {
        FeatureMap accumulated = route.equals("gram") ? map.kernelColumns() : map;
        long start = cpu.getCurrentThreadCpuTime();
        FeatureStatistics stats = accumulated.accumulate(rows.iterator(), blockSize, "features");
        double seconds = (cpu.getCurrentThreadCpuTime() - start) / 1e9;
        String whitening = "";
        if (route.equals("gram")) {
          long w = cpu.getCurrentThreadCpuTime();
          map.whiten(stats);
          whitening =
              String.format(
                  Locale.ROOT,
                  ", driver whitening %.3f s",
                  (cpu.getCurrentThreadCpuTime() - w) / 1e9);
        }
        double flops = route.equals("gram") ? minimal : whitenedFlops;
        System.out.printf(
            Locale.ROOT,
            "%-8s %.2f CPU s, %.1f GFLOP/s (%.2f of dgemm), %.2f µs/row%s%n",
            route,
            seconds,
            flops / seconds / 1e9,
            flops / seconds / 1e9 / dgemm,
            seconds / n * 1e6,
            whitening);
      }
    }
  }

  private static double dgemmGflops(ThreadMXBean cpu) {
    int s = 2000;
    double[] a = new double[s * s];
    double[] c = new double[s * s];
    java.util.Arrays.fill(a, 1e-3);
    double best = 0;
    for (int i = 0; i < 3; i++) {
      long start = cpu.getCurrentThreadCpuTime();
      Blas.blas().dgemm("N", "N", s, s, s, 1.0, a, s, a, s, 0.0, c, s);
      best =
          Math.max(best, 2.0 * s * s * s / ((cpu.getCurrentThreadCpuTime() - start) / 1e9) / 1e9);
    }
    return best;
  }
}
