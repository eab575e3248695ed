package io.github.sparkkpca.execution;

import io.github.sparkkpca.feature.NystromWhitening;
import io.github.sparkkpca.linalg.TiledSymmetricMatrix;
import java.util.Locale;
import org.apache.spark.SparkContext;

/**
 * Refuses, before any pass over the data, a Nyström fit whose m×m matrices cannot fit: Java arrays
 * hold at most 2³¹ − 1 entries (m ≤ 46,340), and the driver and every task need memory quadratic in
 * m.
 *
 * <p><b>Model</b> (8-byte doubles, r ≤ m): the driver holds K_mm and the copies its factorisations
 * work on while it builds the map (about 3m²), then W, the merged r×r statistics as received and
 * deserialised, the covariance and the eigensolver's copy (about 5m²): {@value #DRIVER_SQUARES}·m²
 * doubles, plus the landmarks. Each task holds its r×r scatter plus its block buffers; each
 * executor holds the broadcast map (m² + m·d) once and, while it merges summaries, two of them. In
 * local mode the driver is the executor, and the two add up. A fit is refused when the estimate
 * exceeds the JVM's maximum heap (driver) or {@code spark.executor.memory} (executors), or when one
 * r×r summary exceeds {@code spark.driver.maxResultSize}.
 */
public final class FitMemory {

  static final int DRIVER_SQUARES = 5;

  /**
   * The largest m whose m×m array Java can allocate: 46,340² = 2,147,395,600 ≤ 2³¹ − 1 &lt;
   * 46,341².
   */
  public static final int MAX_LANDMARKS = 46_340;

  /**
   * The most landmarks a fit takes at all, 2²⁰: above {@link #MAX_LANDMARKS} only the top-k route's
   * whitening, which holds no m×m array, runs ({@code statisticsRoute = top-k} or {@code auto});
   * the landmarks themselves are held on the driver (m·d doubles), and the fit checks its memory
   * before any pass.
   */
  public static final int MAX_SUPPLIED_LANDMARKS = 1 << 20;

  private FitMemory() {}

  /**
   * Where the driver's heap is set: spark-submit starts the driver with {@code
   * spark.driver.memory}; an application started with plain {@code java} (bin/spark-kpca) has the
   * heap it was started with.
   */
  public static final String HEAP_SETTING =
      "spark.driver.memory with spark-submit, -Xmx for a JVM started with java, "
          + "e.g. JAVA_OPTS=-Xmx8g bin/spark-kpca";

  private static final String JAVA_SERIALIZER = "org.apache.spark.serializer.JavaSerializer";

  /**
   * Bytes of one serialized r×r summary at r = m: the packed upper triangle, 4m(m+1), with Spark's
   * default Java serializer ({@code FeatureStatistics} writes only that, as raw bytes, which Java
   * serialization frames in blocks of 1024 bytes with a 5-byte header each); 8m² with another
   * serializer (Kryo).
   */
  static long summaryBytes(long m, String serializer) {
    if (!JAVA_SERIALIZER.equals(serializer)) {
      return 8L * m * m;
    }
    long packed = 4L * m * (m + 1);
    return packed + 5 * ((packed + 1023) / 1024);
  }

  /** Bytes the driver needs for m landmarks of dimension d. */
  static long driverBytes(long m, long d) {
    return driverBytesPerRow(m, 8L * d);
  }

  /**
   * Bytes the driver needs for m landmarks of {@code rowBytes} bytes each (8·d dense, about 12·nnz
   * sparse).
   */
  static long driverBytesPerRow(long m, long rowBytes) {
    return 8L * DRIVER_SQUARES * m * m + 2 * m * rowBytes;
  }

  /** Bytes one executor needs with {@code tasks} concurrent tasks of b-row blocks. */
  static long executorBytes(long m, long d, long b, int tasks) {
    return executorBytesPerRow(m, 8L * d, b, tasks);
  }

  /** The same with landmarks and block rows of {@code rowBytes} bytes each. */
  static long executorBytesPerRow(long m, long rowBytes, long b, int tasks) {
    long perTask = 8L * (m * m + 2 * b * m) + b * rowBytes;
    return 8L * 2 * m * m + m * rowBytes + tasks * perTask;
  }

  /**
   * Bytes a landmark or a block row takes on the sparse kernel-block path: 12 per stored entry
   * (index and value) plus a row offset, for rows of at most {@code maxEntries} stored entries.
   */
  public static long sparseRowBytes(long maxEntries) {
    return 12L * maxEntries + 4;
  }

  /**
   * @throws IllegalArgumentException naming m, the estimate and the memory available
   */
  public static void check(SparkContext sc, int m, int d, int blockSize, String what) {
    check(sc, m, d, blockSize, what, 1);
  }

  /**
   * The same for a fit that carries {@code maps} Nyström maps (one per kernel scale) through one
   * pass: each adds an m×m map to the broadcast, an m×m statistic to every task and two m×m
   * matrices on the driver.
   *
   * @throws IllegalArgumentException naming m, the estimate and the memory available
   */
  public static void check(SparkContext sc, int m, int d, int blockSize, String what, int maps) {
    checkRowBytes(sc, m, 8L * d, blockSize, what, maps);
  }

  /**
   * The same with landmarks and block rows of {@code rowBytes} bytes each: 8·d on the dense
   * kernel-block path, {@link #sparseRowBytes} on the sparse one (memory ∝ the non-zeros, not d).
   *
   * @throws IllegalArgumentException naming m, the estimate and the memory available
   */
  public static void checkRowBytes(
      SparkContext sc, int m, long rowBytes, int blockSize, String what, int maps) {
    if (m > MAX_LANDMARKS) {
      throw arrayLimit(what, m);
    }
    long heap = Runtime.getRuntime().maxMemory();
    boolean local = sc.isLocal();
    int tasks =
        local
            ? Math.max(1, sc.defaultParallelism())
            : Math.max(
                1,
                sc.getConf().getInt("spark.executor.cores", 1)
                    / Math.max(1, sc.getConf().getInt("spark.task.cpus", 1)));
    long extra = 8L * (maps - 1) * m * m;
    long executor = executorBytesPerRow(m, rowBytes, blockSize, tasks) + extra * (2 + tasks);
    long driver = driverBytesPerRow(m, rowBytes) + 2 * extra + (local ? executor : 0);
    if (driver > heap) {
      throw new IllegalArgumentException(
          what
              + " = "
              + m
              + " needs about "
              + gib(driver, heap)
              + " on the driver ("
              + DRIVER_SQUARES
              + " m×m matrices of doubles"
              + (local ? ", plus " + tasks + " local tasks" : "")
              + ") but its heap is "
              + gib(heap, driver)
              + "; lower "
              + what
              + " or raise the driver's heap ("
              + HEAP_SETTING
              + ")");
    }
    if (!local) {
      long executorMemory = sc.getConf().getSizeAsBytes("spark.executor.memory", "1g");
      if (executor > executorMemory) {
        throw new IllegalArgumentException(
            what
                + " = "
                + m
                + " needs about "
                + gib(executor, executorMemory)
                + " per executor ("
                + tasks
                + " tasks with an m×m statistic each, and the broadcast map) but spark.executor.memory is "
                + gib(executorMemory, executor)
                + "; lower "
                + what
                + " or raise spark.executor.memory");
      }
    }
    long maxResult = sc.getConf().getSizeAsBytes("spark.driver.maxResultSize", "1g");
    long summary = maps * summaryBytes(m, sc.getConf().get("spark.serializer", JAVA_SERIALIZER));
    if (maxResult > 0 && summary > maxResult) {
      throw new IllegalArgumentException(
          what
              + " = "
              + m
              + " gives "
              + gib(summary, maxResult)
              + " of statistics, more than "
              + "spark.driver.maxResultSize = "
              + gib(maxResult, summary)
              + "; lower "
              + what
              + " or raise it");
    }
  }

  /**
   * {@link #checkRowBytes(SparkContext, int, long, int, String, int)} for this need: the top-k
   * route's bounds ({@link #checkTopK}) when it has a panel, else the m×m routes'; for {@code
   * statisticsRoute = auto} the m×m routes' when they fit, else the top-k route's.
   */
  static void checkRowBytes(
      SparkContext sc, int m, long rowBytes, int blockSize, String what, KernelPcaFit.Need need) {
    if (need.topK() == null) {
      checkRowBytes(sc, m, rowBytes, blockSize, what, need.maps());
    } else if (!need.squareFirst() || squareRoutesFit(sc, m, rowBytes, blockSize, what) != null) {
      checkTopK(sc, m, rowBytes, blockSize, what, need.panel(), need.topK(), need.squareFirst());
    }
  }

  /**
   * Null when the m×m routes' bounds ({@link #checkRowBytes(SparkContext, int, long, int, String,
   * int)}) hold, else their refusal: what {@code statisticsRoute = auto} reads to take the top-k
   * route's factor with no m×m array instead.
   */
  public static String squareRoutesFit(
      SparkContext sc, int m, long rowBytes, int blockSize, String what) {
    try {
      checkRowBytes(sc, m, rowBytes, blockSize, what, 1);
      return null;
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
  }

  /**
   * Bytes the driver needs for the top-k route: the whitening factor ({@link #topKFactorBytes}),
   * the landmarks twice, the Krylov basis and its products (2·m·l per pass, r ≤ m) and four m×l
   * panels.
   */
  static long topKDriverBytes(long m, long rowBytes, long l, TopKFit.Settings topK, boolean large) {
    return topKFactorBytes(m, topK, large)
        + 2 * m * rowBytes
        + 8L * (2L * topK.maxPasses() + 4) * m * l;
  }

  /**
   * Bytes of the top-k route's whitening on the driver: today's dense map, K_mm, W and one
   * factorisation copy (3m² doubles), up to {@link TopKFit.Settings#denseFactorUpTo} landmarks;
   * above it ({@code large}) the larger of the pivoted attempt (L, W and LᵀL: 2·m·r + r² doubles at
   * r = {@link NystromWhitening#maxPivotedRank}) and K_mm's lower triangle in tiles factorised in
   * place ({@link TiledSymmetricMatrix#bytes}, about 4m² bytes).
   */
  static long topKFactorBytes(long m, TopKFit.Settings topK, boolean large) {
    if (!large) {
      return 8L * 3 * m * m;
    }
    long r = NystromWhitening.maxPivotedRank((int) Math.min(m, Integer.MAX_VALUE));
    return Math.max(8L * (2 * m * r + r * r), TiledSymmetricMatrix.bytes(m, topK.tile()));
  }

  /**
   * Bytes one executor needs for the top-k route: the broadcast landmarks and panel V (m×l), per
   * task the kernel block, T = K_Bᵀ V, its m×l product and the block's rows (8(b·m + b·l + 2·m·l) +
   * b·rowBytes), and two m×l summaries while merging. No m×m term.
   */
  static long topKExecutorBytes(long m, long rowBytes, long b, int tasks, long l) {
    long perTask = 8L * (b * m + b * l + 2 * m * l) + b * rowBytes;
    return m * rowBytes + 8L * m * l + tasks * perTask + 16L * m * l;
  }

  /**
   * The top-k route's limits ({@code statisticsRoute = top-k}), before any pass: {@link
   * #topKDriverBytes} within the driver's heap (with the dense factor, m within one Java array),
   * {@link #topKExecutorBytes} within {@code spark.executor.memory}, one m×l summary within {@code
   * spark.driver.maxResultSize}.
   *
   * @param auto whether {@code statisticsRoute = auto} falls back to this route (it then takes the
   *     factor with no m×m array at any m)
   * @throws IllegalArgumentException naming m, the estimate and the memory or setting to raise
   */
  public static void checkTopK(
      SparkContext sc,
      int m,
      long rowBytes,
      int blockSize,
      String what,
      int l,
      TopKFit.Settings topK,
      boolean auto) {
    boolean large = auto || m > topK.denseFactorUpTo();
    if (!large && m > MAX_LANDMARKS) {
      throw arrayLimit(what, m);
    }
    long heap = Runtime.getRuntime().maxMemory();
    boolean local = sc.isLocal();
    int tasks = tasks(sc);
    long executor = topKExecutorBytes(m, rowBytes, blockSize, tasks, l);
    long driver = topKDriverBytes(m, rowBytes, l, topK, large) + (local ? executor : 0);
    if (driver > heap) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "%s = %d with statisticsRoute = top-k needs about %s on the driver (%s, and the"
                  + " Krylov basis of %d passes of %d columns) but its heap is %s; lower %s or"
                  + " topKMaxPasses, or raise the driver's heap (%s)",
              what,
              m,
              gib(driver, heap),
              large ? "K_mm's lower triangle in tiles" : "K_mm and W, 3 m×m matrices",
              topK.maxPasses(),
              l,
              gib(heap, driver),
              what,
              HEAP_SETTING));
    }
    if (!local) {
      long executorMemory = sc.getConf().getSizeAsBytes("spark.executor.memory", "1g");
      if (executor > executorMemory) {
        throw new IllegalArgumentException(
            String.format(
                Locale.ROOT,
                "%s = %d with statisticsRoute = top-k needs about %s per executor (%d tasks with"
                    + " an m×%d panel product and a %d-row kernel block each) but"
                    + " spark.executor.memory is %s; lower %s or the block size, or raise"
                    + " spark.executor.memory",
                what,
                m,
                gib(executor, executorMemory),
                tasks,
                l,
                blockSize,
                gib(executorMemory, executor),
                what));
      }
    }
    long maxResult = sc.getConf().getSizeAsBytes("spark.driver.maxResultSize", "1g");
    long summary = 8L * m * l;
    if (maxResult > 0 && summary > maxResult) {
      throw new IllegalArgumentException(
          what
              + " = "
              + m
              + " with statisticsRoute = top-k gives "
              + gib(summary, maxResult)
              + " per pass, more than spark.driver.maxResultSize = "
              + gib(maxResult, summary)
              + "; raise it");
    }
  }

  private static int tasks(SparkContext sc) {
    return sc.isLocal()
        ? Math.max(1, sc.defaultParallelism())
        : Math.max(
            1,
            sc.getConf().getInt("spark.executor.cores", 1)
                / Math.max(1, sc.getConf().getInt("spark.task.cpus", 1)));
  }

  private static IllegalArgumentException arrayLimit(String what, long m) {
    return new IllegalArgumentException(
        what
            + " = "
            + m
            + " is too large: an m×m matrix has more entries "
            + "than a Java array can hold (m <= "
            + MAX_LANDMARKS
            + ")");
  }

  /**
   * The part of {@link #checkRowBytes} known before the input's width: m above the array limit, or
   * m×m matrices alone (rows of no stored entries, one-row blocks) beyond the memory. For a caller
   * that knows m before it reads the data (a command line, landmarks read from a file, landmarks
   * added to a model), so that it refuses m before any pass.
   *
   * @throws IllegalArgumentException naming {@code what}, m, the estimate and the memory available
   */
  public static void checkLandmarks(SparkContext sc, long m, String what) {
    if (m > MAX_LANDMARKS) {
      throw arrayLimit(what, m);
    }
    checkRowBytes(sc, (int) m, sparseRowBytes(0), 1, what, 1);
  }

  /**
   * {@link #checkLandmarks(SparkContext, long, String)} for a Nyström fit that may take the top-k
   * route: its bounds ({@link #checkTopK}) with rows of no stored entries and one-row blocks; for
   * {@code statisticsRoute = auto} ({@code auto}) the m×m routes' bounds when they fit, else the
   * top-k route's with its tiled factor.
   *
   * @param l the columns of the route's panels, min(m, k + oversampling)
   * @throws IllegalArgumentException naming {@code what}, m, the estimate and the memory available
   */
  public static void checkLandmarks(
      SparkContext sc, long m, String what, TopKFit.Settings topK, int l, boolean auto) {
    if (m > MAX_SUPPLIED_LANDMARKS) {
      throw new IllegalArgumentException(
          what + " = " + m + " is more than " + MAX_SUPPLIED_LANDMARKS + ", the most a fit takes");
    }
    long rowBytes = sparseRowBytes(0);
    if (auto && m <= MAX_LANDMARKS && squareRoutesFit(sc, (int) m, rowBytes, 1, what) == null) {
      return;
    }
    checkTopK(sc, (int) m, rowBytes, 1, what, l, topK, auto);
  }

  /**
   * The largest m (at most {@code cap}) that {@link #check(SparkContext, int, int, int, String,
   * int)} accepts for this context, with the fit's block size for m: the landmark count a default
   * may use without the fit refusing it.
   */
  public static int largestLandmarks(
      SparkContext sc, int d, java.util.function.IntUnaryOperator blockSize, int maps, int cap) {
    return largestLandmarksRowBytes(sc, 8L * d, blockSize, maps, cap);
  }

  /**
   * {@link #largestLandmarks} for landmarks and block rows of {@code rowBytes} bytes each (8·d
   * dense, {@link #sparseRowBytes} on the sparse kernel-block path), as {@link #checkRowBytes}
   * counts them.
   */
  public static int largestLandmarksRowBytes(
      SparkContext sc,
      long rowBytes,
      java.util.function.IntUnaryOperator blockSize,
      int maps,
      int cap) {
    int lo = 0;
    int hi = Math.min(cap, MAX_LANDMARKS);
    while (lo < hi) {
      int mid = lo + (hi - lo + 1) / 2;
      boolean fits;
      try {
        checkRowBytes(sc, mid, rowBytes, blockSize.applyAsInt(mid), "m", maps);
        fits = true;
      } catch (IllegalArgumentException e) {
        fits = false;
      }
      if (fits) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /**
   * Refuses, before anything is allocated, a computation that holds {@code squares} n×n matrices of
   * doubles on the driver: n above the Java array limit (46,340), or 8·squares·n² bytes above what
   * the JVM's maximum heap has left beside what is in use (the session, cached rows, the sample
   * already collected). When the first measure refuses, garbage is collected and the heap measured
   * again, so that unreachable objects do not count as in use.
   *
   * @param n the number of rows of the n×n matrices
   * @param squares how many n×n matrices of doubles are held at once
   * @param what what is computed, e.g. "MPRESS"
   * @param limit the parameter that sets n, named in the message ("maxRows")
   * @throws IllegalArgumentException naming n, the estimate, the heap, what is in use and the
   *     parameter to lower
   */
  public static void checkSquares(long n, int squares, String what, String limit) {
    Runtime runtime = Runtime.getRuntime();
    long heap = runtime.maxMemory();
    long inUse = runtime.totalMemory() - runtime.freeMemory();
    if (n <= MAX_LANDMARKS && 8L * squares * n * n > heap - inUse) {
      System.gc();
      inUse = runtime.totalMemory() - runtime.freeMemory();
    }
    checkSquares(n, squares, what, limit, heap, inUse);
  }

  static void checkSquares(long n, int squares, String what, String limit, long heap) {
    checkSquares(n, squares, what, limit, heap, 0);
  }

  /** As {@link #checkSquares(long, int, String, String)} for a given heap and its use in bytes. */
  static void checkSquares(long n, int squares, String what, String limit, long heap, long inUse) {
    if (n > MAX_LANDMARKS) {
      throw new IllegalArgumentException(
          what
              + " on n = "
              + n
              + " rows needs an n×n matrix, more entries than a Java array can hold (n <= "
              + MAX_LANDMARKS
              + "); lower "
              + limit);
    }
    long bytes = 8L * squares * n * n;
    if (bytes > heap - inUse) {
      throw new IllegalArgumentException(
          what
              + " on n = "
              + n
              + " rows needs about "
              + gib(bytes, heap - inUse)
              + " on the driver ("
              + squares
              + " n×n matrices of doubles) but its heap is "
              + gib(heap, bytes + inUse)
              + (inUse > 0 ? " with " + gib(inUse, heap - bytes) + " in use" : "")
              + "; lower "
              + limit
              + " or raise the driver's heap ("
              + HEAP_SETTING
              + ")");
    }
  }

  /**
   * {@code bytes} in GiB with as many decimals (1 to 6) as it takes to differ from {@code other}'s
   * figure, the number it is compared with: a refusal never reads "needs about 1.0 GiB but its heap
   * is 1.0 GiB".
   */
  static String gib(long bytes, long other) {
    int decimals = 1;
    while (decimals < 6 && gib(bytes, decimals).equals(gib(other, decimals))) {
      decimals++;
    }
    return gib(bytes, decimals);
  }

  private static String gib(long bytes, int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f GiB", bytes / (double) (1L << 30));
  }
}
