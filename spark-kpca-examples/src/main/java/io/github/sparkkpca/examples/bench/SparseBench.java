package io.github.sparkkpca.examples.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.examples.data.DataSources;
import io.github.sparkkpca.examples.data.InputFormat;
import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.examples.data.SourceOptions;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca bench sparse}: Nyström kernel PCA of wide sparse rows, written as libsvm by a
 * seeded generator that streams its rows (no n×d array), against scikit-learn's {@code Nystroem} +
 * {@code PCA} on the same file read as a {@code scipy.sparse} matrix, in the same run.
 *
 * <ul>
 *   <li><b>text</b>: TF-IDF-like rows over d columns (default 2^18), about {@code --nnz} term draws
 *       per row; kernel cosine.
 *   <li><b>onehot</b>: 20 categorical columns of 10 to {@code --max-categories} categories, one-hot
 *       encoded and concatenated (20 ones per row); kernel rbf.
 * </ul>
 *
 * <p>{@code SparseFiles} tells how they are drawn.
 *
 * <p>Timing: for each (data, m), a first spark-kpca fit warms the JVM up (it compiles the fit's
 * code; reported alone), then {@code --repeats} rounds each fit once with spark-kpca and once with
 * scikit-learn (a fresh Python process per round, loading excluded), one right after the other, so
 * that both systems of a round see the same machine; the ratio is the median of the rounds' ratios,
 * the times the medians of each system's.
 *
 * <p>Each (data, m) gets one line of {@code --out}: rows, d, non-zeros, m, k, the fit seconds of
 * both (spark-kpca: {@code NystromKernelPCA.fit} on the loaded, cached rows; scikit-learn: {@code
 * fit_transform} + {@code PCA.fit}), their ratio, the largest relative difference of their k
 * explained variances (with {@code --landmarks same}, the default, both use the same m rows as
 * landmarks, so these must agree to rounding), the peak resident set and heap of this JVM during
 * the fits (both peaks are reset before each, where Linux allows; the loaded, cached rows are
 * resident already), the live heap (the most heap in use right after a garbage collection during
 * the fits, each started after a full collection with {@code --collect-before-fits}), the
 * kernel-block path the fit took (sparse or dense), the machine's one-minute load average when the
 * fits started, the partitions of the loaded rows and every round's times. Peak memory per size is
 * measured by one run per size (a fresh JVM), as the bench README shows.
 */
@Command(
    name = "sparse",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Time Nyström kernel PCA of generated wide sparse data (TF-IDF-like text, one-hot) written as "
          + "libsvm, optionally against scikit-learn's Nystroem + PCA on the same scipy.sparse "
          + "matrix.",
      "Example: spark-kpca bench sparse --rows 20000 --m 500,2000 --compare sklearn --out sparse.csv"
    })
public final class SparseBench implements Callable<Integer> {

  /** The columns of {@code --out}. */
  public static final String COLUMNS =
      "data,rows,d,nnz,kernel,gamma,m,k,landmarks,spark_fit_s,sklearn_fit_s,ratio,"
          + "max_rel_explained_variance_diff,spark_peak_rss_mb,spark_peak_heap_mb,sklearn_peak_rss_mb,"
          + "kernel_block_path,load_average,repeats,spark_first_fit_s,spark_live_heap_mb,partitions,"
          + "spark_fit_times_s,sklearn_fit_times_s";

  @Spec CommandSpec spec;

  @Option(
      names = "--data",
      split = ",",
      paramLabel = "KIND",
      defaultValue = "text,onehot",
      description = "text, onehot or both (comma-separated). Default: ${DEFAULT-VALUE}.")
  List<String> data;

  @Option(
      names = "--rows",
      paramLabel = "N",
      defaultValue = "20000",
      description = "Rows to generate. Default: ${DEFAULT-VALUE}.")
  long rows;

  @Option(
      names = "--d",
      paramLabel = "D",
      defaultValue = "262144",
      description =
          "Columns of the text data (2^18 = HashingTF's default). Default: ${DEFAULT-VALUE}.")
  int d;

  @Option(
      names = "--nnz",
      paramLabel = "NNZ",
      defaultValue = "60",
      description = "Term draws per text row (about the non-zeros). Default: ${DEFAULT-VALUE}.")
  int nnz;

  @Option(
      names = "--max-categories",
      paramLabel = "C",
      defaultValue = "5000",
      description =
          "Categories of the widest one-hot column (the narrowest has 10). Default: 5000.")
  int maxCategories;

  @Option(
      names = "--m",
      split = ",",
      paramLabel = "M",
      defaultValue = "500,2000",
      description = "Landmarks, comma-separated. Default: ${DEFAULT-VALUE}.")
  List<Integer> ms;

  @Option(names = "--k", paramLabel = "K", defaultValue = "10", description = "Default: 10.")
  int k;

  @Option(
      names = "--gamma",
      paramLabel = "G",
      defaultValue = "0.05",
      description = "rbf gamma of the one-hot fits. Default: ${DEFAULT-VALUE}.")
  double gamma;

  @Option(
      names = "--landmarks",
      paramLabel = "HOW",
      defaultValue = "same",
      description =
          "same: both fit on the same m rows (a seeded uniform sample, given to spark-kpca as "
              + "landmark vectors and to scikit-learn as row numbers), so their explained variances "
              + "must agree to rounding; own: each samples its own. Default: ${DEFAULT-VALUE}.")
  String landmarks;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Default: 1.")
  long seed;

  @Option(
      names = "--repeats",
      paramLabel = "R",
      defaultValue = "3",
      description =
          "Rounds per (data, m), each one spark-kpca fit and then one scikit-learn fit, after a "
              + "first spark-kpca fit that warms the JVM up (reported alone); medians are "
              + "reported, and the ratio is the median of the rounds' ratios. Default: "
              + "${DEFAULT-VALUE}.")
  int repeats;

  @Option(
      names = "--collect-before-fits",
      description =
          "A full garbage collection before each fit (outside the clock), so that the live heap "
              + "measures the fit rather than earlier garbage. For memory runs: the collection "
              + "lets the JVM shrink its heap, which slows the next fit, unless -Xms equals -Xmx.")
  boolean collectBeforeFits;

  @Option(
      names = "--partitions",
      paramLabel = "N",
      description =
          "Partitions of the loaded rows (default: as Spark's reader splits the file, but at "
              + "least Spark's default parallelism, the task slots, so that a file smaller than "
              + "the split size still occupies every core, as scikit-learn's BLAS does). 0: as "
              + "the reader splits the file.")
  Integer partitions;

  @Option(
      names = "--work",
      paramLabel = "DIR",
      required = true,
      description = "Directory for the generated libsvm files (kept and reused).")
  Path work;

  @Option(
      names = "--compare",
      paramLabel = "SYSTEM",
      description = "sklearn: run scikit-learn's Nystroem + PCA on the same file after each fit.")
  String compare;

  @Option(
      names = "--python",
      paramLabel = "PYTHON",
      defaultValue = "python3",
      description = "Python with scikit-learn and scipy for --compare sklearn. Default: python3.")
  String python;

  @Option(
      names = "--sklearn-script",
      paramLabel = "FILE",
      defaultValue = "spark-kpca-examples/bench/sklearn_sparse.py",
      description = "The scikit-learn script. Default: ${DEFAULT-VALUE}.")
  Path sklearnScript;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      required = true,
      description = "A CSV file, one line per (data, m): " + COLUMNS + ".")
  Path out;

  @Option(
      names = "--master",
      paramLabel = "URL",
      description =
          "Spark master when no session is running (default: spark.master, else local[*]).")
  String master;

  @Override
  public Integer call() throws IOException, InterruptedException {
    PrintWriter console = spec.commandLine().getOut();
    require(rows >= 2, "--rows must be >= 2, got " + rows);
    require(d >= 2, "--d must be >= 2, got " + d);
    require(nnz >= 1, "--nnz must be >= 1, got " + nnz);
    require(maxCategories >= 10, "--max-categories must be >= 10, got " + maxCategories);
    require(k >= 1, "--k must be >= 1, got " + k);
    require(repeats >= 1, "--repeats must be >= 1, got " + repeats);
    require(partitions == null || partitions >= 0, "--partitions must be >= 0, got " + partitions);
    require(gamma > 0 && Double.isFinite(gamma), "--gamma must be > 0, got " + gamma);
    for (int m : ms) {
      require(m >= k && m <= rows, "--m " + m + " must be in " + k + ".." + rows);
    }
    for (String kind : data) {
      require(
          kind.equals("text") || kind.equals("onehot"),
          "--data: expected text or onehot, got '" + kind + "'");
    }
    require(
        landmarks.equals("same") || landmarks.equals("own"),
        "--landmarks: expected same or own, got '" + landmarks + "'");
    require(
        compare == null || compare.equals("sklearn"),
        "--compare: expected sklearn, got '" + compare + "'");
    if (compare != null) {
      require(
          Files.isRegularFile(sklearnScript),
          "--sklearn-script: no file "
              + sklearnScript
              + " (run from the repository root or pass the script's path)");
    }
    if (Files.exists(out)) {
      throw new ParameterException(spec.commandLine(), "--out " + out + " exists; give a new file");
    }
    Files.createDirectories(work);
    SparseFiles files = new SparseFiles(work, rows, seed);
    List<String> lines = new ArrayList<>();
    lines.add(COLUMNS);
    try (BenchSession bench = BenchSession.open(master)) {
      SparkSession spark = bench.session();
      // Both systems run on the same OpenBLAS kernels: the scikit-learn process inherits these.
      say(
          console,
          "BLAS %s, OPENBLAS_CORETYPE=%s (inherited by scikit-learn's process)",
          io.github.sparkkpca.linalg.Blas.implementation(),
          System.getenv().getOrDefault("OPENBLAS_CORETYPE", "unset: OpenBLAS's choice"));
      for (String kind : data) {
        SparseFiles.Generated file =
            kind.equals("text") ? files.text(d, nnz) : files.oneHot(maxCategories);
        say(
            console,
            "%s: %d rows x %d columns, %d non-zeros (%.1f per row), %s",
            kind,
            rows,
            file.columns(),
            file.nonZeros(),
            file.nonZeros() / (double) rows,
            file.path());
        SourceOptions source =
            new SourceOptions(
                    file.path().toString(), InputFormat.LIBSVM, "features", null, null, null, null)
                .withExpectedFeatures(file.columns());
        LoadedData loaded = DataSources.load(spark, source);
        Integer spread = partitionsFor(spark, loaded.data().rdd().getNumPartitions());
        if (spread != null) {
          loaded = DataSources.load(spark, source.withPartitions(spread));
        }
        loaded.persistAndValidate();
        int loadedPartitions = loaded.data().rdd().getNumPartitions();
        try {
          String kernel = kind.equals("text") ? "cosine" : "rbf";
          for (int m : ms) {
            NystromKernelPCA estimator =
                new NystromKernelPCA().setK(k).setNumLandmarks(m).setKernel(kernel).setSeed(seed);
            if (kernel.equals("rbf")) {
              estimator.setGamma(gamma);
            }
            int[] landmarkRows = null;
            if (landmarks.equals("same")) {
              landmarkRows = files.sampleRows(m);
              estimator.setLandmarks(SparseFiles.readRows(file, landmarkRows));
            }
            double load = PeakMemory.loadAverage();
            // A first fit warms the JVM up (it compiles the fit's code) and is reported alone; then
            // each round fits once with each system, one right after the other, so that both see
            // the same machine: on a shared machine the load changes within seconds.
            double[] sparkTimes = new double[repeats];
            double[] skTimes = new double[repeats];
            double[] ratios = new double[repeats];
            Arrays.fill(skTimes, Double.NaN);
            Arrays.fill(ratios, Double.NaN);
            double firstFit = Double.NaN;
            NystromKernelPCAModel model = null;
            JsonNode sk = null;
            long rss = -1;
            long heap = -1;
            long live = -1;
            for (int r = -1; r < repeats; r++) {
              if (collectBeforeFits) {
                // Outside the clock: the live heap then measures this fit, not the garbage of the
                // load or of the previous fit.
                System.gc();
              }
              PeakMemory.reset();
              try (PeakMemory.LiveHeap liveHeap = new PeakMemory.LiveHeap()) {
                long start = System.nanoTime();
                model = estimator.fit(loaded.data());
                double seconds = (System.nanoTime() - start) / 1e9;
                rss = Math.max(rss, PeakMemory.rssPeakBytes());
                heap = Math.max(heap, PeakMemory.heapPeakBytes());
                live = Math.max(live, liveHeap.peakBytes());
                if (r < 0) {
                  firstFit = seconds;
                  continue;
                }
                sparkTimes[r] = seconds;
              }
              if (compare != null) {
                sk = sklearn(file, kernel, m, landmarkRows);
                skTimes[r] = sk.get("fit_s").asDouble();
                ratios[r] = sparkTimes[r] / skTimes[r];
              }
            }
            double sparkSeconds = BenchOutput.median(sparkTimes);
            double[] ev = model.explainedVariance().toArray();
            say(
                console,
                "%s m = %d: spark-kpca fit %.2f s (median of %d; first fit %.2f s), %d partitions",
                kind,
                m,
                sparkSeconds,
                repeats,
                firstFit,
                loadedPartitions);
            double skSeconds = Double.NaN;
            double ratio = Double.NaN;
            double diff = Double.NaN;
            double skRss = Double.NaN;
            if (sk != null) {
              skSeconds = BenchOutput.median(skTimes);
              ratio = BenchOutput.median(ratios);
              skRss = sk.path("peak_rss_mb").asDouble(Double.NaN);
              JsonNode skEv = sk.get("explained_variance");
              diff = 0;
              for (int i = 0; i < Math.min(k, skEv.size()); i++) {
                double s = skEv.get(i).asDouble();
                diff = Math.max(diff, Math.abs(ev[i] - s) / Math.abs(s));
              }
              say(
                  console,
                  "%s m = %d: scikit-learn fit %.2f s (median of %d); spark-kpca / scikit-learn = "
                      + "%.3f (median of the rounds' ratios); explained variances differ by %.2e at "
                      + "most (relative)",
                  kind,
                  m,
                  skSeconds,
                  repeats,
                  ratio,
                  diff);
            }
            lines.add(
                String.join(
                    ",",
                    kind,
                    Long.toString(rows),
                    Integer.toString(file.columns()),
                    Long.toString(file.nonZeros()),
                    kernel,
                    kernel.equals("rbf") ? BenchRow.num(gamma) : "",
                    Integer.toString(m),
                    Integer.toString(k),
                    landmarks,
                    BenchRow.num(sparkSeconds),
                    BenchRow.num(skSeconds),
                    BenchRow.num(ratio),
                    BenchRow.num(diff),
                    BenchRow.num(rss / 1048576.0),
                    BenchRow.num(heap / 1048576.0),
                    BenchRow.num(skRss),
                    model.getOrDefault(model.kernelBlockPath()).split(":")[0],
                    BenchRow.num(load),
                    Integer.toString(repeats),
                    BenchRow.num(firstFit),
                    live < 0 ? "" : BenchRow.num(live / 1048576.0),
                    Integer.toString(loadedPartitions),
                    BenchOutput.cells(sparkTimes),
                    BenchOutput.cells(skTimes)));
          }
        } finally {
          loaded.unpersist();
        }
      }
    }
    BenchOutput.writeLines(out, lines);
    say(console, "wrote %s", out);
    return 0;
  }

  /**
   * The partitions to spread the rows over, or null to keep the reader's {@code read}: {@code
   * --partitions}, else the session's default parallelism when the reader gave fewer.
   */
  private Integer partitionsFor(SparkSession spark, int read) {
    if (partitions == null) {
      int slots = spark.sparkContext().defaultParallelism();
      return read < slots ? slots : null;
    }
    return partitions == 0 ? null : partitions;
  }

  private JsonNode sklearn(SparseFiles.Generated file, String kernel, int m, int[] landmarkRows)
      throws IOException, InterruptedException {
    Path json = Files.createTempFile(work, "sklearn-", ".json");
    List<String> command =
        new ArrayList<>(
            List.of(
                python,
                sklearnScript.toString(),
                "--input",
                file.path().toString(),
                "--num-features",
                Integer.toString(file.columns()),
                "--kernel",
                kernel,
                "--gamma",
                Double.toString(gamma),
                "--m",
                Integer.toString(m),
                "--k",
                Integer.toString(k),
                "--seed",
                Long.toString(seed),
                "--repeats",
                "1",
                "--json-out",
                json.toString()));
    Path rowsFile = null;
    if (landmarkRows != null) {
      rowsFile = Files.createTempFile(work, "landmark-rows-", ".txt");
      Files.write(rowsFile, Arrays.stream(landmarkRows).mapToObj(Integer::toString).toList());
      command.addAll(List.of("--landmark-rows", rowsFile.toString()));
    }
    try {
      return SklearnRunner.runScript(command, json);
    } finally {
      if (rowsFile != null) {
        Files.deleteIfExists(rowsFile);
      }
    }
  }

  private void require(boolean condition, String message) {
    BenchOutput.require(spec, condition, message);
  }

  private static void say(PrintWriter console, String format, Object... args) {
    BenchOutput.say(console, "bench sparse", format, args);
  }
}
