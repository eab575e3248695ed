package io.github.sparkkpca.examples.bench;

import dev.ludovic.netlib.blas.BLAS;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The dgemm rate of this JVM's BLAS ({@code dev.ludovic.netlib.blas.BLAS.getInstance()}, the one
 * the library uses), measured on square size×size×size products, best of a few: the yardstick of
 * the cost model's lower bound.
 *
 * <p>Two rates: one call at a time (OpenBLAS then uses its own threads, {@code
 * OPENBLAS_NUM_THREADS}, default one per core), and {@code threads} concurrent calls from as many
 * Java threads (as Spark's task slots make them). {@link #gflops()} is the larger, the best this
 * machine did with this configuration. With single-threaded OpenBLAS the concurrent rate is the
 * machine's; with multithreaded OpenBLAS and several task slots the concurrent rate shows the cost
 * of oversubscribing the cores.
 *
 * @param size the matrix size
 * @param singleGflops GFLOP/s of one call
 * @param threads the number of concurrent callers measured (≥ 1)
 * @param concurrentGflops total GFLOP/s of {@code threads} concurrent calls
 * @param implementation the BLAS class, e.g. JNIBLAS when native OpenBLAS is loaded
 */
public record DgemmRate(
    int size, double singleGflops, int threads, double concurrentGflops, String implementation) {

  /** The rate for the bound: the better of the single-call and concurrent rates. */
  public double gflops() {
    return Math.max(singleGflops, concurrentGflops);
  }

  /** Flops of one size³ product: 2·size³. */
  public static double flops(int size) {
    return 2.0 * size * size * size;
  }

  /**
   * Measures both rates with {@code repeats} timed products after one warm-up each.
   *
   * @param threads concurrent callers for the second rate; 1 skips it (then it equals the single
   *     rate)
   */
  public static DgemmRate measure(int size, int repeats, int threads) {
    if (size < 1 || repeats < 1 || threads < 1) {
      throw new IllegalArgumentException("size, repeats and threads must be >= 1");
    }
    BLAS blas = BLAS.getInstance();
    double[] a = random(size, 1);
    double[] b = random(size, 2);
    double[] c = new double[size * size];
    blas.dgemm("N", "N", size, size, size, 1.0, a, size, b, size, 0.0, c, size);
    long best = Long.MAX_VALUE;
    for (int i = 0; i < repeats; i++) {
      long start = System.nanoTime();
      blas.dgemm("N", "N", size, size, size, 1.0, a, size, b, size, 0.0, c, size);
      best = Math.min(best, System.nanoTime() - start);
    }
    double single = flops(size) / best;
    double concurrent = threads == 1 ? single : concurrent(blas, a, b, size, repeats, threads);
    return new DgemmRate(size, single, threads, concurrent, blas.getClass().getSimpleName());
  }

  private static double concurrent(
      BLAS blas, double[] a, double[] b, int size, int repeats, int threads) {
    ExecutorService pool =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "dgemm-rate");
              t.setDaemon(true);
              return t;
            });
    try {
      CyclicBarrier barrier = new CyclicBarrier(threads);
      long best = Long.MAX_VALUE;
      for (int round = 0; round <= repeats; round++) {
        List<Future<long[]>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          futures.add(
              pool.submit(
                  () -> {
                    double[] c = new double[size * size];
                    barrier.await();
                    long start = System.nanoTime();
                    blas.dgemm("N", "N", size, size, size, 1.0, a, size, b, size, 0.0, c, size);
                    return new long[] {start, System.nanoTime()};
                  }));
        }
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (Future<long[]> f : futures) {
          long[] span = f.get();
          first = Math.min(first, span[0]);
          last = Math.max(last, span[1]);
        }
        if (round > 0) {
          best = Math.min(best, last - first);
        }
      }
      return threads * flops(size) / best;
    } catch (Exception e) {
      throw new IllegalStateException("concurrent dgemm measurement failed: " + e, e);
    } finally {
      pool.shutdownNow();
    }
  }

  private static double[] random(int size, long seed) {
    Random random = new Random(seed);
    double[] x = new double[size * size];
    for (int i = 0; i < x.length; i++) {
      x[i] = random.nextDouble() - 0.5;
    }
    return x;
  }
}
