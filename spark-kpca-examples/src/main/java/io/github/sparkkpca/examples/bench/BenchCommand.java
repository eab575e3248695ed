package io.github.sparkkpca.examples.bench;

import io.github.sparkkpca.examples.data.DataSources;
import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.examples.data.SourceOptions;
import io.github.sparkkpca.examples.data.SyntheticData;
import io.github.sparkkpca.feature.StatisticsRoute;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.pca.SpectrumExtent;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca bench}: whole fits and transforms over a grid of (n, d, m, k), each against the
 * cost model's lower bound at the dgemm rate measured in the same JVM, with optional baselines
 * measured in the same run (scikit-learn's Nystroem + PCA, Spark ML's PCA on Nyström features from
 * a UDF).
 *
 * <p>Writes {@code bench.csv} (one line per grid point, {@link BenchRow#COLUMNS}), {@code
 * compare.csv} when baselines ran ({@link CompareRow#COLUMNS}) and the PNG plots of {@link
 * BenchCharts} into {@code --out}, and prints a table. Load time is excluded: the input is loaded
 * and cached once per (n, d) before its fits. Fit time is the wall time of {@code
 * NystromKernelPCA.fit} (validating scan, landmarks, K_mm eigendecomposition, the statistics pass
 * and the driver's solve); transform time is that of scoring every row into Spark's {@code noop}
 * sink.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    subcommands = {ScoreStreamBench.class, IngestBench.class, StreamBench.class, SparseBench.class},
    sortOptions = false,
    description = {
      "Benchmark fits and transforms over a grid against the dgemm bound (measured in the same JVM), "
          + "optionally against scikit-learn and Spark ML PCA; `bench ingest` times the CSV and "
          + "Parquet load.",
      "Example: spark-kpca bench --input synthetic --n 100000,1000000 --d 50 --m 500,1000 --k 20"
    })
public final class BenchCommand implements Callable<Integer> {

  /** How the input is cached before the fits. */
  enum Cache {
    MEMORY,
    DISK,
    NONE
  }

  @Spec CommandSpec spec;

  @Option(
      names = "--input",
      paramLabel = "SOURCE",
      defaultValue = "synthetic",
      description =
          "synthetic[:seed=S,clusters=C] (n and d from --n/--d), mnist:train, mnist:test, or a file "
              + "as for fit. Default: ${DEFAULT-VALUE}.")
  String input;

  @Option(
      names = "--n",
      split = ",",
      paramLabel = "N",
      description = "Rows, comma-separated (synthetic only).")
  List<Long> ns;

  @Option(
      names = "--d",
      split = ",",
      paramLabel = "D",
      description = "Dimensions, comma-separated (synthetic " + "only; default 50).")
  List<Integer> ds;

  // Required, but checked in call(): picocli would ask for it before `bench ingest` too.
  @Option(
      names = "--m",
      split = ",",
      paramLabel = "M",
      description = "Landmarks, comma-separated (required, except by the subcommands).")
  List<Integer> ms;

  @Option(
      names = "--k",
      split = ",",
      paramLabel = "K",
      defaultValue = "20",
      description = "Components, comma-separated. Default: ${DEFAULT-VALUE}.")
  List<Integer> ks;

  @Option(
      names = "--gamma",
      paramLabel = "G",
      description = "rbf gamma (default: the median heuristic).")
  Double gamma;

  @Option(
      names = "--seed",
      paramLabel = "S",
      defaultValue = "1",
      description = "Seed of the landmarks (and of the baselines). Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(
      names = "--partitions",
      paramLabel = "P",
      description = "Partitions of the input (default: Spark's " + "default parallelism).")
  Integer partitions;

  @Option(
      names = "--block-size",
      paramLabel = "B",
      description = "Rows per BLAS block (default: automatic).")
  Integer blockSize;

  @Option(
      names = "--repeat",
      paramLabel = "R",
      defaultValue = "1",
      description =
          "Fits (and transforms) per grid point; the best time is kept. Default: ${DEFAULT-VALUE}.")
  int repeat;

  @Option(
      names = "--spectrum",
      paramLabel = "EXTENT",
      defaultValue = "leading",
      description =
          "The fits' spectrum param: leading (the default of the library) or full (every eigenvalue by "
              + "the dense solver, the behaviour before 0.2.0; a baseline for the driver phase). Default: "
              + "${DEFAULT-VALUE}.")
  String spectrum;

  @Option(
      names = "--statistics-route",
      split = ",",
      paramLabel = "ROUTE",
      defaultValue = "auto",
      description =
          "Statistics routes of the Nyström fit, comma-separated, each measured at every grid point: "
              + "auto, whitened, gram, gram-checked (see fit --statistics-route). Default: ${DEFAULT-VALUE}.")
  List<String> routes;

  @Option(names = "--no-transform", description = "Do not time the transform.")
  boolean noTransform;

  @Option(
      names = "--cache",
      paramLabel = "MODE",
      defaultValue = "memory",
      description =
          "Cache the input before the fits: memory (memory and disk), disk (disk only: the heap holds "
              + "no data), none (the fit caches its own input, and load time is part of it). Default: ${DEFAULT-VALUE}.")
  String cache;

  @Option(
      names = "--compare",
      split = ",",
      paramLabel = "SYSTEM",
      description =
          "Baselines measured after each fit on the same data, m, k and gamma: sklearn (scikit-learn "
              + "Nystroem + PCA via --python), spark-pca (Spark ML PCA on UDF Nyström features, same landmarks).")
  List<String> compare;

  @Option(
      names = "--python",
      paramLabel = "EXE",
      defaultValue = "python3",
      description = "Python with scikit-learn for --compare sklearn. Default: ${DEFAULT-VALUE}.")
  String python;

  @Option(
      names = "--sklearn-script",
      paramLabel = "FILE",
      defaultValue = "spark-kpca-examples/bench/sklearn_nystroem.py",
      description = "The scikit-learn script. Default: ${DEFAULT-VALUE}.")
  Path sklearnScript;

  @Option(
      names = "--sklearn-max-memory",
      paramLabel = "SIZE",
      description =
          "Address-space cap of the scikit-learn process, e.g. 8G (it then fails with MemoryError "
              + "instead of exhausting the machine).")
  String sklearnMaxMemory;

  @Option(
      names = "--mnist-dir",
      paramLabel = "DIR",
      description = "Directory of the MNIST IDX files.")
  String mnistDir;

  @Option(
      names = "--dgemm-size",
      paramLabel = "S",
      defaultValue = "2000",
      description = "Size of the dgemm that measures the BLAS rate. Default: ${DEFAULT-VALUE}.")
  int dgemmSize;

  @Option(names = "--no-warmup", description = "Skip the small warm-up fit (JIT) before the grid.")
  boolean noWarmup;

  @Option(names = "--no-plots", description = "Do not write the PNG plots.")
  boolean noPlots;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = "bench-results",
      description =
          "Output directory for bench.csv, compare.csv and the plots. Default: ${DEFAULT-VALUE}.")
  Path out;

  @Option(
      names = "--master",
      paramLabel = "URL",
      description =
          "Spark master when no session is running " + "(default: spark.master, else local[*]).")
  String master;

  private PrintWriter console;
  private final JobTimes jobTimes = new JobTimes();

  @Override
  public Integer call() throws Exception {
    console = spec.commandLine().getOut();
    require(ms != null && !ms.isEmpty(), "Missing required option: '--m=M'");
    Cache cacheMode = parseCache();
    List<String> inputs = inputs();
    require(repeat >= 1, "--repeat must be >= 1, got " + repeat);
    require(dgemmSize >= 1, "--dgemm-size must be >= 1, got " + dgemmSize);
    require(blockSize == null || blockSize >= 1, "--block-size must be >= 1, got " + blockSize);
    require(
        gamma == null || (gamma > 0 && Double.isFinite(gamma)),
        "--gamma must be finite and > 0, got " + gamma);
    for (String route : routes) {
      require(
          Arrays.asList(StatisticsRoute.NAMES).contains(route),
          "--statistics-route: expected one of "
              + String.join(", ", StatisticsRoute.NAMES)
              + ", got '"
              + route
              + "'");
    }
    require(
        Arrays.asList(SpectrumExtent.NAMES).contains(spectrum),
        "--spectrum must be one of "
            + String.join(", ", SpectrumExtent.NAMES)
            + ", got '"
            + spectrum
            + "'");
    for (int m : ms) {
      require(m >= 1, "--m must be >= 1, got " + m);
      for (int k : ks) {
        require(k >= 1 && k <= m, "--k " + k + " must be in 1.." + m + " (--m)");
      }
    }
    List<String> systems =
        compare == null
            ? List.of()
            : compare.stream().map(s -> s.trim().toLowerCase(Locale.ROOT)).toList();
    for (String s : systems) {
      require(
          s.equals("sklearn") || s.equals("spark-pca"),
          "--compare: expected sklearn or spark-pca, got '" + s + "'");
      if (s.equals("sklearn")) {
        for (String in : inputs) {
          require(
              SklearnRunner.scriptInput(in) != null,
              "--compare sklearn reads mnist:train, mnist:test and "
                  + "synthetic inputs only, not "
                  + in);
        }
      }
    }
    Files.createDirectories(out);

    List<BenchRow> rows = new ArrayList<>();
    List<CompareRow> comparisons = new ArrayList<>();
    try (BenchSession bench = BenchSession.open(master)) {
      SparkSession spark = bench.session();
      spark.sparkContext().addSparkListener(jobTimes);
      try {
        int slots = spark.sparkContext().defaultParallelism();
        String threads = System.getenv().getOrDefault("OPENBLAS_NUM_THREADS", "default");
        say(
            "BLAS %s, OPENBLAS_NUM_THREADS=%s, master %s (%d task slots), Java %s, %d cores, heap max %s MB, "
                + "load average %.2f",
            io.github.sparkkpca.linalg.Blas.implementation(),
            threads,
            spark.sparkContext().master(),
            slots,
            System.getProperty("java.version"),
            Runtime.getRuntime().availableProcessors(),
            BenchRow.mb(PeakMemory.heapMaxBytes()),
            PeakMemory.loadAverage());
        DgemmRate rate = measureDgemm(slots);
        boolean warm = noWarmup;
        for (String in : inputs) {
          LoadedData data = load(spark, in, cacheMode);
          try {
            if (!warm) {
              warmUp(data);
              warm = true;
            }
            for (int m : ms) {
              for (int k : ks) {
                double[] first = null;
                for (String route : routes) {
                  BenchRow row = measure(in, data, m, k, rate, threads, slots, route, first);
                  if (first == null) {
                    first = lastModel.explainedVariance().toArray();
                  }
                  rows.add(row);
                  printRow(row, rows.size() == 1);
                  for (String s : systems) {
                    comparisons.add(
                        s.equals("sklearn") ? sklearn(in, row) : sparkPca(in, data, row));
                  }
                }
              }
            }
          } finally {
            data.unpersist();
          }
        }
        DgemmRate after = measureDgemm(slots);
        if (after.gflops() > rate.gflops()) {
          List<BenchRow> better = new ArrayList<>();
          for (BenchRow r : rows) {
            better.add(withRate(r, after));
          }
          rows = better;
        }
      } finally {
        spark.sparkContext().removeSparkListener(jobTimes);
      }
    }
    writeResults(rows, comparisons);
    return 0;
  }

  private DgemmRate measureDgemm(int slots) {
    // Concurrent callers: as many as task slots or cores, whichever is larger, so the bound is the
    // machine's
    // best rate even when fewer task slots than cores are configured.
    DgemmRate rate =
        DgemmRate.measure(
            dgemmSize, 5, Math.max(Math.max(1, slots), Runtime.getRuntime().availableProcessors()));
    say(
        "dgemm %d^3 (%s): one call %.1f GFLOP/s, %d concurrent calls %.1f GFLOP/s in total; bound uses %.1f",
        dgemmSize,
        rate.implementation(),
        rate.singleGflops(),
        rate.threads(),
        rate.concurrentGflops(),
        rate.gflops());
    return rate;
  }

  private static BenchRow withRate(BenchRow r, DgemmRate rate) {
    return new BenchRow(
        r.input(),
        r.n(),
        r.d(),
        r.m(),
        r.r(),
        r.k(),
        r.gamma(),
        r.partitions(),
        r.blockSize(),
        r.fitSeconds(),
        r.scanSeconds(),
        r.statsSeconds(),
        r.otherJobSeconds(),
        r.transformSeconds(),
        rate,
        r.openblasThreads(),
        r.taskSlots(),
        r.peakRssBytes(),
        r.peakHeapBytes(),
        r.loadStart(),
        r.loadEnd(),
        r.explainedVarianceSum(),
        r.statisticsRoute(),
        r.conditionEstimate(),
        r.eigenvalueDifference());
  }

  /** One grid point: best-of-repeat fit and transform. */
  private BenchRow measure(
      String in,
      LoadedData data,
      int m,
      int k,
      DgemmRate rate,
      String threads,
      int slots,
      String route,
      double[] firstRoute) {
    double loadStart = PeakMemory.loadAverage();
    PeakMemory.reset();
    double fitSeconds = Double.POSITIVE_INFINITY;
    double[] phases = new double[3];
    NystromKernelPCAModel model = null;
    for (int i = 0; i < repeat; i++) {
      NystromKernelPCA estimator = estimator(data, m, k).setStatisticsRoute(route);
      jobTimes.reset();
      long start = System.nanoTime();
      NystromKernelPCAModel fitted = estimator.fit(data.data());
      double s = (System.nanoTime() - start) / 1e9;
      jobTimes.awaitJobEnds();
      if (s < fitSeconds) {
        fitSeconds = s;
        model = fitted;
        phases =
            new double[] {
              jobTimes.seconds(JobTimes.SCAN),
              jobTimes.seconds(JobTimes.STATISTICS),
              jobTimes.seconds(JobTimes.OTHER)
            };
      }
    }
    double transformSeconds = Double.NaN;
    if (!noTransform) {
      transformSeconds = Double.POSITIVE_INFINITY;
      for (int i = 0; i < repeat; i++) {
        long start = System.nanoTime();
        model.transform(data.data()).write().format("noop").mode("overwrite").save();
        transformSeconds = Math.min(transformSeconds, (System.nanoTime() - start) / 1e9);
      }
    }
    lastModel = model;
    long rss = PeakMemory.rssPeakBytes();
    long heap = PeakMemory.heapPeakBytes();
    double[] explained = model.explainedVariance().toArray();
    double evSum = Arrays.stream(explained).sum();
    double difference = Double.NaN;
    if (firstRoute != null) {
      difference = 0;
      for (int i = 0; i < explained.length; i++) {
        difference = Math.max(difference, Math.abs(explained[i] - firstRoute[i]) / firstRoute[0]);
      }
    }
    say(
        "%s: statistics route %s (cond(K_mm) ~ %.3g; %s)%s",
        in,
        model.getStatisticsRouteTaken(),
        model.getLandmarkConditionEstimate(),
        model.getStatisticsRouteCheck(),
        firstRoute == null
            ? ""
            : String.format(
                Locale.ROOT,
                "; eigenvalues differ from the first route's by %.3g of lambda_1",
                difference));
    int b =
        blockSize != null
            ? blockSize
            : model.effectiveBlockSize(model.numSupportPoints(), model.numFeatures(), model.rank());
    return new BenchRow(
        in,
        model.numRows(),
        model.numFeatures(),
        model.numSupportPoints(),
        model.rank(),
        k,
        model.fittedKernel().gamma(),
        data.data().rdd().getNumPartitions(),
        b,
        fitSeconds,
        phases[0],
        phases[1],
        phases[2],
        transformSeconds,
        rate,
        threads,
        slots,
        rss,
        heap,
        loadStart,
        PeakMemory.loadAverage(),
        evSum,
        model.getStatisticsRouteTaken(),
        model.getLandmarkConditionEstimate(),
        difference);
  }

  private NystromKernelPCA estimator(LoadedData data, int m, int k) {
    NystromKernelPCA estimator =
        new NystromKernelPCA()
            .setInputCol(data.featuresCol())
            .setOutputCol("kpca")
            .setK(k)
            .setNumLandmarks(m)
            .setSeed(seed)
            .setSpectrum(spectrum);
    if (gamma != null) {
      estimator.setGamma(gamma);
    }
    if (blockSize != null) {
      estimator.setBlockSize(blockSize);
    }
    return estimator;
  }

  /** A small fit and transform first, so the timed ones run compiled code. */
  private void warmUp(LoadedData data) {
    long start = System.nanoTime();
    Dataset<Row> small = data.data().limit(20_000).persist(StorageLevel.MEMORY_ONLY());
    try {
      int m = Math.min(200, ms.get(0));
      NystromKernelPCAModel model =
          estimator(data, m, Math.min(ks.get(0), m)).setStatisticsRoute(routes.get(0)).fit(small);
      model.transform(small).write().format("noop").mode("overwrite").save();
    } finally {
      small.unpersist(false);
    }
    say("warm-up fit and transform (20000 rows) in %.1f s", (System.nanoTime() - start) / 1e9);
  }

  private CompareRow sklearn(String in, BenchRow ours) throws IOException, InterruptedException {
    say(
        "scikit-learn Nystroem(n_components=%d, gamma=%s) + PCA(%d) on %s...",
        ours.m(), BenchRow.num(ours.gamma()), ours.k(), in);
    SklearnRunner runner = new SklearnRunner(python, sklearnScript, mnistDir, sklearnMaxMemory);
    SklearnRunner.Result r = runner.run(in, ours.m(), ours.k(), ours.gamma(), seed, repeat, out);
    double evDiff = Double.NaN;
    double evrDiff = Double.NaN;
    String note =
        r.status().equals("ok")
            ? "PCA solver " + r.solver() + "; " + r.blas()
            : r.message()
                + "; the n x m float64 feature "
                + "matrix needs "
                + String.format(Locale.ROOT, "%.1f GiB", r.featureMatrixBytes() / 1073741824.0)
                + (sklearnMaxMemory == null
                    ? ""
                    : " (address space capped at " + sklearnMaxMemory + ")");
    if (r.status().equals("ok") && lastModel != null) {
      evDiff =
          CompareRow.maxRelDiff(r.explainedVariance(), lastModel.explainedVariance().toArray());
    }
    CompareRow row =
        new CompareRow(
            r.system() + " Nystroem+PCA",
            in,
            ours.n(),
            ours.d(),
            ours.m(),
            ours.k(),
            ours.gamma(),
            r.fitSeconds(),
            ours.fitSeconds(),
            evDiff,
            evrDiff,
            r.peakRssBytes(),
            r.status(),
            note);
    printComparison(row);
    return row;
  }

  private CompareRow sparkPca(String in, LoadedData data, BenchRow ours) {
    say(
        "Spark ML PCA(k=%d) on Nyström features from a UDF (m = %d, same landmarks and gamma)...",
        ours.k(), ours.m());
    PeakMemory.reset();
    SparkPcaBaseline.Result r =
        SparkPcaBaseline.fit(
            data.data(), data.featuresCol(), lastModel.landmarks(), ours.gamma(), ours.k());
    double[] eigen = lastModel.eigenvalues().toArray();
    // Spark ML's ratios divide by the sum of all eigenvalues of the features' covariance: its
    // trace.
    double total = lastModel.statistics().trace(lastModel.getCentered());
    double[] ratios = new double[ours.k()];
    for (int i = 0; i < ratios.length; i++) {
      ratios[i] = eigen[i] / total;
    }
    CompareRow row =
        new CompareRow(
            "Spark ML PCA on UDF Nystroem features",
            in,
            ours.n(),
            ours.d(),
            ours.m(),
            ours.k(),
            ours.gamma(),
            r.seconds(),
            ours.fitSeconds(),
            Double.NaN,
            CompareRow.maxAbsDiff(r.explainedVarianceRatio(), ratios),
            PeakMemory.heapPeakBytes(),
            "ok",
            "same JVM; peak is the JVM heap");
    printComparison(row);
    return row;
  }

  /** The model of the last measured grid point (for the baselines' landmarks and spectra). */
  private NystromKernelPCAModel lastModel;

  private LoadedData load(SparkSession spark, String in, Cache mode) {
    long start = System.nanoTime();
    LoadedData data =
        DataSources.load(
            spark, new SourceOptions(in, null, "features", null, partitions, mnistDir, null));
    long rows;
    switch (mode) {
      case MEMORY -> rows = data.persistAndValidate();
      case DISK -> {
        data.data().persist(StorageLevel.DISK_ONLY());
        rows = data.data().count();
      }
      default -> rows = data.data().count();
    }
    say(
        "loaded %s: %d rows, %d partitions, cache %s (%.1f s)",
        data.description(),
        rows,
        data.data().rdd().getNumPartitions(),
        mode.name().toLowerCase(Locale.ROOT),
        (System.nanoTime() - start) / 1e9);
    return data;
  }

  /** The inputs of the grid: one per (n, d) for synthetic, else the input itself. */
  List<String> inputs() {
    String lower = input.trim().toLowerCase(Locale.ROOT);
    boolean synthetic = lower.equals("synthetic") || lower.startsWith("synthetic:");
    if (!synthetic) {
      require(
          ns == null && ds == null,
          "--n and --d apply to synthetic inputs only; " + input + " has its own size");
      return List.of(input.trim());
    }
    Map<String, String> base = new LinkedHashMap<>();
    String params = lower.contains(":") ? input.trim().substring(input.indexOf(':') + 1) : "";
    for (String part : params.split(",")) {
      if (!part.isBlank()) {
        int eq = part.indexOf('=');
        require(eq > 0, "--input: expected key=value, got '" + part + "'");
        base.put(
            part.substring(0, eq).trim().toLowerCase(Locale.ROOT), part.substring(eq + 1).trim());
      }
    }
    require(ns == null || !base.containsKey("n"), "give n either in --input or with --n, not both");
    require(ds == null || !base.containsKey("d"), "give d either in --input or with --d, not both");
    base.putIfAbsent("seed", Long.toString(seed));
    List<String> nValues =
        ns != null
            ? ns.stream().map(String::valueOf).toList()
            : List.of(base.getOrDefault("n", String.valueOf(SyntheticData.Spec.DEFAULT_N)));
    List<String> dValues =
        ds != null
            ? ds.stream().map(String::valueOf).toList()
            : List.of(base.getOrDefault("d", "50"));
    List<String> out = new ArrayList<>();
    for (String n : nValues) {
      for (String d : dValues) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("n", n);
        p.put("d", d);
        base.forEach(
            (key, value) -> {
              if (!key.equals("n") && !key.equals("d")) {
                p.put(key, value);
              }
            });
        StringBuilder s = new StringBuilder("synthetic:");
        p.forEach(
            (key, value) ->
                s.append(s.length() > "synthetic:".length() ? "," : "")
                    .append(key)
                    .append('=')
                    .append(value));
        try {
          SyntheticData.Spec.parse(s.substring("synthetic:".length()));
        } catch (IllegalArgumentException e) {
          throw new ParameterException(spec.commandLine(), "--input/--n/--d: " + e.getMessage());
        }
        out.add(s.toString());
      }
    }
    return out;
  }

  private Cache parseCache() {
    try {
      return Cache.valueOf(cache.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(
          spec.commandLine(), "--cache: expected memory, disk or none, got '" + cache + "'");
    }
  }

  private void writeResults(List<BenchRow> rows, List<CompareRow> comparisons) throws IOException {
    Path csv = out.resolve("bench.csv");
    List<String> lines = new ArrayList<>(List.of(BenchRow.header()));
    rows.forEach(r -> lines.add(r.csvLine()));
    Files.write(csv, lines, StandardCharsets.UTF_8);
    say("wrote %s", csv);
    if (!comparisons.isEmpty()) {
      Path cmp = out.resolve("compare.csv");
      List<String> c = new ArrayList<>(List.of(CompareRow.header()));
      comparisons.forEach(r -> c.add(r.csvLine()));
      Files.write(cmp, c, StandardCharsets.UTF_8);
      say("wrote %s", cmp);
    }
    if (!noPlots && !rows.isEmpty()) {
      BenchRow first = rows.get(0);
      String subtitle =
          String.format(
              Locale.ROOT,
              " (%s, %.0f GFLOP/s dgemm)",
              first.dgemm().implementation(),
              first.dgemm().gflops());
      for (Path p : BenchCharts.writeAll(rows, out, subtitle)) {
        say("wrote %s", p);
      }
      if (!comparisons.isEmpty()) {
        say("wrote %s", BenchCharts.comparison(comparisons, out, subtitle));
      }
    }
  }

  private void printRow(BenchRow r, boolean header) {
    if (header) {
      console.println(
          String.format(
              Locale.ROOT,
              "%-38s %9s %4s %5s %5s %4s %8s %7s %8s %7s %8s %8s %6s %12s %6s %8s %8s %8s %7s",
              "input",
              "n",
              "d",
              "m",
              "r",
              "k",
              "fit s",
              "scan s",
              "stats s",
              "drv s",
              "GFLOP",
              "bound s",
              "eff",
              "transform/s",
              "t.eff",
              "RSS MB",
              "heap MB",
              "route",
              "min.eff"));
    }
    console.println(
        String.format(
            Locale.ROOT,
            "%-38s %9d %4d %5d %5d %4d %8.2f %7.2f %8.2f %7.2f %8.0f %8.2f %6.3f %12s %6s %8s %8s %8s %7.3f",
            r.input(),
            r.n(),
            r.d(),
            r.m(),
            r.r(),
            r.k(),
            r.fitSeconds(),
            r.scanSeconds(),
            r.statsSeconds(),
            r.driverSeconds(),
            r.flops().fitFlops() / 1e9,
            r.fitBoundSeconds(),
            r.fitEfficiency(),
            Double.isFinite(r.transformSeconds())
                ? String.format(Locale.ROOT, "%.0f", r.transformRowsPerSecond())
                : "-",
            Double.isFinite(r.transformSeconds())
                ? String.format(Locale.ROOT, "%.3f", r.transformEfficiency())
                : "-",
            BenchRow.mb(r.peakRssBytes()),
            BenchRow.mb(r.peakHeapBytes()),
            r.statisticsRoute(),
            r.minimalBoundSeconds() / r.fitSeconds()));
    console.flush();
  }

  private void printComparison(CompareRow c) {
    console.println(
        String.format(
            Locale.ROOT,
            "  vs %s: %s, fit %s s vs spark-kpca %.2f s: spark-kpca %s× faster; "
                + "explained variance max rel. diff %s, ratio max abs. diff %s; peak %s MB",
            c.system(),
            c.status(),
            BenchRow.num(c.seconds()),
            c.sparkKpcaSeconds(),
            BenchRow.num(c.speedup()),
            BenchRow.num(c.evMaxRelDiff()),
            BenchRow.num(c.evrMaxAbsDiff()),
            BenchRow.mb(c.peakRssBytes())));
    if (!c.note().isEmpty()) {
      console.println("     " + c.note());
    }
    console.flush();
  }

  private void say(String format, Object... args) {
    console.println("spark-kpca bench: " + String.format(Locale.ROOT, format, args));
    console.flush();
  }

  private void require(boolean condition, String message) {
    if (!condition) {
      throw new ParameterException(spec.commandLine(), message);
    }
  }
}
