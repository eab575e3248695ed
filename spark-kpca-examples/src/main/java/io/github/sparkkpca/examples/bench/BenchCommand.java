package io.github.sparkkpca.examples.bench;

import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.feature.StatisticsRoute;
import io.github.sparkkpca.pca.SpectrumExtent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
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
    subcommands = {
      ScoreStreamBench.class,
      IngestBench.class,
      StreamBench.class,
      SparseBench.class,
      SparseScoringBench.class,
      SparseScoringChild.class,
      CsvFloorBench.class
    },
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

  private final JobTimes jobTimes = new JobTimes();

  @Override
  public Integer call() throws Exception {
    GridReport report = new GridReport(spec.commandLine().getOut());
    GridPoints grid = new GridPoints(this, report, jobTimes);
    Baselines baselines = new Baselines(this, report);
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
        report.say(
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
        DgemmRate rate = grid.measureDgemm(slots);
        boolean warm = noWarmup;
        for (String in : inputs) {
          LoadedData data = grid.load(spark, in, cacheMode);
          try {
            if (!warm) {
              grid.warmUp(data);
              warm = true;
            }
            for (int m : ms) {
              for (int k : ks) {
                double[] first = null;
                for (String route : routes) {
                  BenchRow row = grid.measure(in, data, m, k, rate, threads, slots, route, first);
                  if (first == null) {
                    first = grid.lastModel().explainedVariance().toArray();
                  }
                  rows.add(row);
                  report.printRow(row, rows.size() == 1);
                  for (String s : systems) {
                    comparisons.add(baselines.measure(s, in, data, row, grid.lastModel()));
                  }
                }
              }
            }
          } finally {
            data.unpersist();
          }
        }
        DgemmRate after = grid.measureDgemm(slots);
        if (after.gflops() > rate.gflops()) {
          List<BenchRow> better = new ArrayList<>();
          for (BenchRow r : rows) {
            better.add(GridPoints.withRate(r, after));
          }
          rows = better;
        }
      } finally {
        spark.sparkContext().removeSparkListener(jobTimes);
      }
    }
    report.writeResults(out, !noPlots, rows, comparisons);
    return 0;
  }

  /** The inputs of the grid: one per (n, d) for synthetic, else the input itself. */
  List<String> inputs() {
    try {
      return GridInputs.expand(input, ns, ds, seed);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  private Cache parseCache() {
    try {
      return Cache.valueOf(cache.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(
          spec.commandLine(), "--cache: expected memory, disk or none, got '" + cache + "'");
    }
  }

  private void require(boolean condition, String message) {
    BenchOutput.require(spec, condition, message);
  }
}
