package io.github.sparkkpca.examples.bench;

import io.github.sparkkpca.examples.data.MnistIdx;
import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.feature.NystromFeatureMap;
import io.github.sparkkpca.feature.StatisticsRoute;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.Cholesky;
import io.github.sparkkpca.linalg.DriverThreads;
import io.github.sparkkpca.linalg.Inertia;
import io.github.sparkkpca.pca.FeaturePCA;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.Vector;

/**
 * The driver's steps of a Nyström fit by the Gram route, one at a time, on MNIST: where the driver
 * phase of {@code bench} goes at large m. m distinct training images (a seeded shuffle) are the
 * landmarks (rbf, γ = 1e-7 by default); the statistics of the kernel columns of the first {@code
 * rows} training images stand in for the distributed pass (accumulated here on one thread, not part
 * of the driver phase). Then, as {@code NystromKernelPCA.fit} runs them with {@code statisticsRoute
 * = gram-checked}: the feature map ({@link NystromFeatureMap#fit}: K_mm, λ_max, the inverse
 * Cholesky factor and the full-rank test), the whitening Wᵀ M W, the k + 1 leading eigenpairs, the
 * landmark weights and the a-posteriori check; and, first and separately, the parts of the feature
 * map's fit (K_mm, power iteration, inverse factor). Each step prints its wall seconds and, where
 * its flops are known, its rate; the driver total sums the driver steps.
 *
 * <p>Usage (arguments as name=value, all optional), from the repository root after {@code mvn -B -q
 * -pl spark-kpca-examples -am package -DskipTests} and {@code bin/fetch-mnist}:
 *
 * <pre>
 * OPENBLAS_NUM_THREADS=1 java -Xmx12g --add-modules=jdk.incubator.vector -cp "$(ls \
 *   spark-kpca-examples/target/spark-kpca-examples_*.jar | grep -v -e sources -e tests | head -n 1):$(cat \
 *   spark-kpca-examples/target/classpath.txt)" io.github.sparkkpca.examples.bench.DriverPhaseBench m=8000 rows=6000 k=50
 * </pre>
 */
public final class DriverPhaseBench {

  private DriverPhaseBench() {}

  public static void main(String[] args) throws IOException {
    int m = 8000;
    int rows = 6000;
    int k = 50;
    double gamma = 1e-7;
    long seed = 1;
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (eq < 0) {
        usage("argument '" + arg + "' is not name=value");
      }
      String name = arg.substring(0, eq);
      String value = arg.substring(eq + 1);
      try {
        switch (name) {
          case "m" -> m = Integer.parseInt(value);
          case "rows" -> rows = Integer.parseInt(value);
          case "k" -> k = Integer.parseInt(value);
          case "gamma" -> gamma = Double.parseDouble(value);
          case "seed" -> seed = Long.parseLong(value);
          default -> usage("unknown argument '" + name + "' (m, rows, k, gamma, seed)");
        }
      } catch (NumberFormatException e) {
        usage(name + " = '" + value + "' is not a number");
      }
    }
    MnistIdx mnist = MnistIdx.read(MnistIdx.defaultDirectory(), true);
    if (m < 2
        || m > mnist.count()
        || rows < 1
        || rows > mnist.count()
        || k < 1
        || k + 1 > m
        || !(gamma > 0)) {
      usage(
          "need 2 <= m <= "
              + mnist.count()
              + ", 1 <= rows <= "
              + mnist.count()
              + ", 1 <= k < m, gamma > 0");
    }
    int d = mnist.dim();
    int[] order = shuffled(mnist.count(), seed);
    double[] landmarks = new double[m * d];
    for (int j = 0; j < m; j++) {
      System.arraycopy(mnist.image(order[j]), 0, landmarks, j * d, d);
    }
    LandmarkKernel landmarkKernel =
        new LandmarkKernel(new Kernel(KernelType.RBF, gamma, 3, 1.0), landmarks, m, d);
    System.out.printf(
        Locale.ROOT,
        "driver phase, MNIST train, m = %d, k = %d, gamma = %g, BLAS %s, %d driver "
            + "threads, OPENBLAS_NUM_THREADS=%s%n",
        m,
        k,
        gamma,
        Blas.implementation(),
        DriverThreads.count(),
        System.getenv().getOrDefault("OPENBLAS_NUM_THREADS", "unset"));
    double cube = (double) m * m * m;

    long start = System.nanoTime();
    double[] gram = landmarkKernel.gram();
    report("feature map part: K_mm (SYRK and exponentials)", start, (double) m * m * d);
    start = System.nanoTime();
    double largest = Inertia.largestEigenvalue(gram, m, 100);
    report(
        String.format(
            Locale.ROOT, "feature map part: lambda_max by power iteration (%.4g)", largest),
        start,
        Double.NaN);
    start = System.nanoTime();
    double[] inverse = Cholesky.inverseUpperFactor(gram, m);
    report(
        "feature map part: inverse Cholesky factor" + (inverse == null ? " (broke down)" : ""),
        start,
        2 * cube / 3);

    double driver = 0;
    start = System.nanoTime();
    NystromFeatureMap featureMap = NystromFeatureMap.fit(landmarkKernel, 1e-12);
    driver +=
        report(
            String.format(
                Locale.ROOT,
                "driver: feature map (all of the above and the full-rank test): "
                    + "rank %d, cond %.3g",
                featureMap.rank(),
                featureMap.conditionEstimate()),
            start,
            Double.NaN);

    List<Vector> vectors = new ArrayList<>(rows);
    for (int i = 0; i < rows; i++) {
      vectors.add(new DenseVector(mnist.image(i)));
    }
    start = System.nanoTime();
    FeatureStatistics columns =
        featureMap.kernelColumns().accumulate(vectors.iterator(), 500, "features");
    report(
        "(not driver) kernel-column statistics of " + rows + " rows, one thread",
        start,
        (double) rows * (2.0 * m * d + (double) m * m));
    double[] columnVariances = columns.variances();

    start = System.nanoTime();
    FeatureStatistics whitened = featureMap.whiten(columns);
    driver += report("driver: whitening W^T M W", start, 4 * cube / 3);
    start = System.nanoTime();
    FeaturePCA fitted = FeaturePCA.solve(featureMap, whitened, k, true, k + 1);
    driver +=
        report("driver: " + (k + 1) + " leading eigenpairs and the readout", start, Double.NaN);
    start = System.nanoTime();
    double[] weights = featureMap.toLandmarkWeights(fitted.components(), k);
    StatisticsRoute.Check check =
        StatisticsRoute.check(
            StatisticsRoute.accumulationError(m, 500, rows),
            featureMap.conditionEstimate(),
            columnVariances,
            featureMap.weights(),
            m,
            featureMap.rank(),
            weights,
            k,
            fitted.spectrum());
    driver +=
        report(
            "driver: landmark weights and the a-posteriori check ("
                + (check.passed() ? "passed" : "failed")
                + ")",
            start,
            Double.NaN);
    System.out.printf(Locale.ROOT, "%-78s %8.2f s%n", "driver total", driver);
  }

  /** Prints one step's wall time (and rate when its flops are known); returns the seconds. */
  private static double report(String step, long start, double flops) {
    double seconds = (System.nanoTime() - start) / 1e9;
    if (Double.isNaN(flops)) {
      System.out.printf(Locale.ROOT, "%-78s %8.2f s%n", step, seconds);
    } else {
      System.out.printf(
          Locale.ROOT, "%-78s %8.2f s  %6.1f GFLOP/s%n", step, seconds, flops / seconds / 1e9);
    }
    return seconds;
  }

  private static int[] shuffled(int n, long seed) {
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Random random = new Random(seed);
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    return order;
  }

  private static void usage(String message) {
    System.err.println("DriverPhaseBench: " + message);
    System.exit(2);
  }
}
