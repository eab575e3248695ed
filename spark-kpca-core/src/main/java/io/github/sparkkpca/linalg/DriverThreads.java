package io.github.sparkkpca.linalg;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * Threads for the driver's O(m³) factorisations and eigensolver products, which run while the
 * executors wait.
 *
 * <p>With a single-threaded BLAS (native OpenBLAS under {@code OPENBLAS_NUM_THREADS=1}, the setting
 * Spark's tuning guide recommends and that local mode needs so that the task slots do not
 * oversubscribe the cores; or the pure-Java fallback) one LAPACK call uses one core, so the
 * driver's Cholesky factorisation and triangular inverse split their level-3 work into independent
 * BLAS calls over the JVM's cores. With a multi-threaded native BLAS each call already uses every
 * core and the work is not split. The property {@code sparkkpca.driverThreads} overrides the choice
 * (1 disables the split).
 */
public final class DriverThreads {

  /** Upper limit of the split (each part is still a large level-3 call). */
  private static final int MAX_THREADS = 16;

  private static final String PROPERTY = "sparkkpca.driverThreads";

  private DriverThreads() {}

  /** The number of threads the driver's factorisations use. */
  public static int count() {
    String forced = System.getProperty(PROPERTY);
    if (forced != null) {
      try {
        return Math.max(1, Math.min(MAX_THREADS, Integer.parseInt(forced.trim())));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "-D" + PROPERTY + " must be a whole number of threads, not '" + forced + "'");
      }
    }
    boolean nativeBlas = Blas.implementation().toUpperCase(Locale.ROOT).contains("JNI");
    return nativeBlas && !singleThreadedNativeBlas()
        ? 1
        : Math.min(MAX_THREADS, Runtime.getRuntime().availableProcessors());
  }

  private static boolean singleThreadedNativeBlas() {
    for (String variable :
        new String[] {"OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS"}) {
      String value = System.getenv(variable);
      if (value != null && !value.isBlank()) {
        return "1".equals(value.trim());
      }
    }
    return false;
  }

  /**
   * Column boundaries first = b₀ &lt; … &lt; b_p = end of p parts of equal work: equal widths, or
   * for {@code triangular} work (column j costs ∝ j − first + 1) at first + (end − first)·√(i/p).
   * Parts of no columns are dropped.
   */
  public static int[] split(int first, int end, int parts, boolean triangular) {
    return boundaries(first, end, parts, triangular ? 0.5 : 1.0);
  }

  /**
   * As {@link #split}, for work that grows with the square of the column (column j costs ∝ (j −
   * first + 1)², as a triangular multiply restricted to each column's leading rows): boundaries at
   * first + (end − first)·(i/p)^{1/3}.
   */
  public static int[] splitQuadratic(int first, int end, int parts) {
    return boundaries(first, end, parts, 1.0 / 3);
  }

  private static int[] boundaries(int first, int end, int parts, double exponent) {
    int width = end - first;
    int[] b = new int[parts + 1];
    int count = 0;
    b[count++] = first;
    for (int i = 1; i <= parts; i++) {
      double fraction = (double) i / parts;
      int boundary =
          i == parts ? end : first + (int) Math.round(width * Math.pow(fraction, exponent));
      if (boundary > b[count - 1]) {
        b[count++] = boundary;
      }
    }
    return Arrays.copyOf(b, count);
  }

  /**
   * A team of {@code threads} threads (the caller's among them) for a sequence of parallel steps;
   * close it to release the others.
   */
  public static Team team(int threads) {
    return new Team(threads);
  }

  /** Threads that run the parallel steps of one factorisation. */
  public static final class Team implements AutoCloseable {
    private final int threads;
    private final ExecutorService pool;

    private Team(int threads) {
      this.threads = Math.max(1, threads);
      this.pool =
          this.threads == 1
              ? null
              : Executors.newFixedThreadPool(
                  this.threads - 1,
                  runnable -> {
                    Thread thread = new Thread(runnable, "spark-kpca-driver-linalg");
                    thread.setDaemon(true);
                    return thread;
                  });
    }

    public int threads() {
      return threads;
    }

    /**
     * Runs {@code task.accept(i)} for i = 0 … tasks − 1, each thread taking the next index when
     * free (callers order the tasks largest first), and returns when all have finished. With one
     * thread, or one task, runs them in order on the calling thread.
     */
    public void forEach(int tasks, IntConsumer task) {
      int workers = Math.min(threads, tasks);
      if (workers <= 1) {
        for (int i = 0; i < tasks; i++) {
          task.accept(i);
        }
        return;
      }
      AtomicInteger next = new AtomicInteger();
      Runnable worker =
          () -> {
            for (int i = next.getAndIncrement(); i < tasks; i = next.getAndIncrement()) {
              task.accept(i);
            }
          };
      List<Future<?>> futures = new ArrayList<>(workers - 1);
      for (int w = 1; w < workers; w++) {
        futures.add(pool.submit(worker));
      }
      RuntimeException failure = null;
      try {
        worker.run();
      } catch (RuntimeException e) {
        failure = e;
      }
      for (Future<?> future : futures) {
        try {
          future.get();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted during a driver factorisation", e);
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof Error error) {
            throw error;
          }
          if (failure == null) {
            failure =
                cause instanceof RuntimeException runtime
                    ? runtime
                    : new IllegalStateException(cause);
          }
        }
      }
      if (failure != null) {
        throw failure;
      }
    }

    @Override
    public void close() {
      if (pool != null) {
        pool.shutdownNow();
      }
    }
  }
}
