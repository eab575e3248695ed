package io.github.sparkkpca.examples.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sparkkpca.examples.data.DataSources;
import io.github.sparkkpca.examples.data.InputFormat;
import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.examples.data.SourceOptions;
import io.github.sparkkpca.ml.NystromKernelPCA;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca bench sparse-scoring}: a sparse model's life after the fit, each part in its
 * own process with the driver heap a user gets by default ({@code --heap}, Spark's default 1 GiB),
 * on the text rows of {@code bench sparse} ({@link SparseFiles}, cosine kernel):
 *
 * <ul>
 *   <li><b>cli-fit</b>, <b>cli-transform</b>: {@code bin/spark-kpca fit} on {@code --fit-rows} rows
 *       (m = {@code --m}, k = {@code --k}), then {@code bin/spark-kpca transform} of the same rows
 *       with the saved model, each timed as a whole process (JVM start, session, read, work,
 *       write); the ratio transform / fit. Budget: at most 1.
 *   <li><b>load</b>: {@code NystromKernelPCAModel.load} of that model in a fresh JVM, once cold and
 *       then {@code --repeats} times warm ({@link SparseScoringChild}); the warm loads' median and
 *       the peak heap and resident set. Budget: at most 5 s, within the heap.
 *   <li><b>score</b>: a model fitted (in this JVM) on {@code --score-fit-rows} rows with m seeded
 *       landmark rows, saved, then loaded in a fresh JVM that scores {@code --score-rows} rows of
 *       the same generator into Parquet (read and cache excluded); rows/s and peak memory, against
 *       scikit-learn's {@code Nystroem} + {@code PCA} fitted on the same rows with the same
 *       landmark rows, transforming the same rows read as {@code scipy.sparse} and saving the
 *       scores ({@code sklearn_sparse_score.py}, read and fit excluded). Both sides' sum of squared
 *       scores, which neither the components' signs nor their order changes, must agree.
 * </ul>
 *
 * <p>A child that runs out of memory, fails or passes {@code --timeout} gives its line with that
 * status and its log's last line instead of stopping the bench: the "before" numbers of a loader
 * that densifies are such lines.
 */
@Command(
    name = "sparse-scoring",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Time what follows the fit of a sparse model (load, CLI transform against CLI fit, scoring "
          + "many rows against scikit-learn), each in a child process with Spark's default 1 GiB "
          + "driver heap.",
      "Example: spark-kpca bench sparse-scoring --score-rows 1000000 --compare sklearn "
          + "--work sparse-data --out sparse-scoring.csv"
    })
public final class SparseScoringBench implements Callable<Integer> {

  /** The columns of {@code --out}. */
  public static final String COLUMNS =
      "step,rows,d,nnz,m,k,heap,status,seconds,first_s,times_s,reference,reference_s,ratio,"
          + "rows_per_s,peak_heap_mb,live_heap_mb,peak_rss_mb,reference_rows_per_s,"
          + "reference_peak_rss_mb,sumsq_rel_diff,budget,met,load_average,message";

  private static final List<String> STEPS = List.of("load", "cli", "score");

  @Spec CommandSpec spec;

  @Option(
      names = "--steps",
      split = ",",
      paramLabel = "STEP",
      defaultValue = "load,cli,score",
      description = "Of load, cli, score (comma-separated). Default: ${DEFAULT-VALUE}.")
  List<String> steps;

  @Option(
      names = "--fit-rows",
      paramLabel = "N",
      defaultValue = "2000",
      description = "Rows of the model that load and cli fit. Default: ${DEFAULT-VALUE}.")
  long fitRows;

  @Option(
      names = "--score-fit-rows",
      paramLabel = "N",
      defaultValue = "20000",
      description = "Rows of the model that score fits. Default: ${DEFAULT-VALUE}.")
  long scoreFitRows;

  @Option(
      names = "--score-rows",
      paramLabel = "N",
      defaultValue = "1000000",
      description = "Rows that score scores. Default: ${DEFAULT-VALUE}.")
  long scoreRows;

  @Option(
      names = "--d",
      paramLabel = "D",
      defaultValue = "262144",
      description = "Columns of the text rows (2^18). Default: ${DEFAULT-VALUE}.")
  int d;

  @Option(
      names = "--nnz",
      paramLabel = "NNZ",
      defaultValue = "60",
      description = "Term draws per text row. Default: ${DEFAULT-VALUE}.")
  int nnz;

  @Option(names = "--m", paramLabel = "M", defaultValue = "1000", description = "Default: 1000.")
  int m;

  @Option(names = "--k", paramLabel = "K", defaultValue = "50", description = "Default: 50.")
  int k;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Default: 1.")
  long seed;

  @Option(
      names = "--repeats",
      paramLabel = "R",
      defaultValue = "5",
      description = "Warm loads after the first, cold one. Default: ${DEFAULT-VALUE}.")
  int repeats;

  @Option(
      names = "--heap",
      paramLabel = "SIZE",
      defaultValue = "1g",
      description =
          "-Xmx of the child JVMs (Spark's default driver memory is 1g). Default: ${DEFAULT-VALUE}.")
  String heap;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      defaultValue = "900",
      description = "A child still running after this is killed. Default: ${DEFAULT-VALUE}.")
  long timeout;

  @Option(
      names = "--cli",
      paramLabel = "FILE",
      defaultValue = "bin/spark-kpca",
      description = "The launcher of the child JVMs. Default: ${DEFAULT-VALUE}.")
  Path cli;

  @Option(
      names = "--compare",
      paramLabel = "SYSTEM",
      description = "sklearn: score the same rows with scikit-learn's Nystroem + PCA.")
  String compare;

  @Option(
      names = "--python",
      paramLabel = "PYTHON",
      defaultValue = "python3",
      description = "Python with scikit-learn and scipy. Default: python3.")
  String python;

  @Option(
      names = "--sklearn-script",
      paramLabel = "FILE",
      defaultValue = "spark-kpca-examples/bench/sklearn_sparse_score.py",
      description = "The scikit-learn script. Default: ${DEFAULT-VALUE}.")
  Path sklearnScript;

  @Option(
      names = "--sklearn-chunk-rows",
      paramLabel = "N",
      defaultValue = "100000",
      description =
          "Rows scikit-learn transforms at a time (its m-wide Nystroem features of all 10^6 rows "
              + "would take 8 GB). Default: ${DEFAULT-VALUE}.")
  int sklearnChunkRows;

  @Option(
      names = "--work",
      paramLabel = "DIR",
      required = true,
      description = "Directory for the generated files (reused), models, scores and child logs.")
  Path work;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      required = true,
      description = "A CSV file, one line per step: " + COLUMNS + ".")
  Path out;

  @Option(
      names = "--master",
      paramLabel = "URL",
      defaultValue = "local[2]",
      description = "Spark master of every JVM. Default: ${DEFAULT-VALUE}.")
  String master;

  private PrintWriter console;

  @Override
  public Integer call() throws IOException, InterruptedException {
    console = spec.commandLine().getOut();
    for (String step : steps) {
      require(STEPS.contains(step), "--steps: expected load, cli or score, got '" + step + "'");
    }
    require(k >= 1 && m >= k, "--m " + m + " must be >= --k " + k + " >= 1");
    require(fitRows >= m, "--fit-rows " + fitRows + " must be >= --m " + m);
    require(scoreFitRows >= m, "--score-fit-rows " + scoreFitRows + " must be >= --m " + m);
    require(scoreRows >= 1, "--score-rows must be >= 1, got " + scoreRows);
    require(d >= 2 && nnz >= 1, "--d must be >= 2 and --nnz >= 1");
    require(repeats >= 1, "--repeats must be >= 1, got " + repeats);
    require(timeout >= 1, "--timeout must be >= 1, got " + timeout);
    require(sklearnChunkRows >= 1, "--sklearn-chunk-rows must be >= 1");
    require(heap.matches("[0-9]+[kKmMgG]?"), "--heap: expected a -Xmx size like 1g, got " + heap);
    require(
        compare == null || compare.equals("sklearn"),
        "--compare: expected sklearn, got '" + compare + "'");
    require(Files.isRegularFile(cli), "--cli: no file " + cli + " (run from the repository root)");
    require(
        compare == null || Files.isRegularFile(sklearnScript),
        "--sklearn-script: no file " + sklearnScript + " (run from the repository root)");
    if (Files.exists(out)) {
      throw new ParameterException(spec.commandLine(), "--out " + out + " exists; give a new file");
    }
    Files.createDirectories(work);
    List<String> lines = new ArrayList<>(List.of(COLUMNS));
    if (steps.contains("load") || steps.contains("cli")) {
      lines.addAll(afterCliFit());
    }
    if (steps.contains("score")) {
      lines.add(score());
    }
    BenchOutput.writeLines(out, lines);
    say("wrote %s", out);
    return 0;
  }

  /** cli-fit, then cli-transform and load of its model. */
  private List<String> afterCliFit() throws IOException, InterruptedException {
    SparseFiles.Generated file = new SparseFiles(work, fitRows, seed).text(d, nnz);
    Path model = work.resolve("model-n" + fitRows + "-m" + m);
    List<String> input =
        List.of(
            "--input",
            file.path().toString(),
            "--format",
            "libsvm",
            "--num-features",
            Integer.toString(d),
            "--master",
            master);
    List<String> fit = new ArrayList<>(List.of("fit"));
    fit.addAll(input);
    fit.addAll(
        List.of(
            "--kernel",
            "cosine",
            "--landmarks",
            Integer.toString(m),
            "--k",
            Integer.toString(k),
            "--seed",
            Long.toString(seed),
            "--model-out",
            model.toString(),
            "--overwrite"));
    double load = PeakMemory.loadAverage();
    ChildProcess.Outcome fitRun = launch("cli-fit", fit);
    Map<String, String> fitLine = base("cli-fit", fitRows, file.nonZeros(), load, fitRun);
    fitLine.put("peak_rss_mb", mb(fitRun));
    if (fitRun.ok()) {
      fitLine.put("seconds", BenchRow.num(fitRun.seconds()));
      say("cli-fit: %.2f s, peak RSS %s MiB", fitRun.seconds(), mb(fitRun));
    } else {
      say("cli-fit: %s", fitRun.message());
    }
    List<String> lines = new ArrayList<>(List.of(line(fitLine)));
    if (steps.contains("cli")) {
      List<String> transform = new ArrayList<>(List.of("transform", "--model", model.toString()));
      transform.addAll(input);
      transform.addAll(List.of("--output", work.resolve("scores-cli").toString(), "--overwrite"));
      load = PeakMemory.loadAverage();
      ChildProcess.Outcome run = fitRun.ok() ? launch("cli-transform", transform) : null;
      Map<String, String> l = base("cli-transform", fitRows, file.nonZeros(), load, run);
      l.put("reference", "cli-fit");
      l.put("reference_s", BenchRow.num(fitRun.seconds()));
      l.put("budget", "transform <= fit");
      if (run != null && run.ok()) {
        double ratio = run.seconds() / fitRun.seconds();
        l.put("seconds", BenchRow.num(run.seconds()));
        l.put("rows_per_s", BenchRow.num(fitRows / run.seconds()));
        l.put("ratio", BenchRow.num(ratio));
        l.put("met", ratio <= 1 ? "yes" : "no");
        say(
            "cli-transform: %.2f s = %.2f x the fit's %.2f s (budget <= 1), peak RSS %s MiB",
            run.seconds(), ratio, fitRun.seconds(), mb(run));
      } else if (run != null) {
        l.put("met", "no");
        say("cli-transform: %s", run.message());
      }
      if (run != null) {
        l.put("peak_rss_mb", mb(run));
      }
      lines.add(line(l));
    }
    if (steps.contains("load")) {
      load = PeakMemory.loadAverage();
      Path json = work.resolve("load.json");
      ChildProcess.Outcome run =
          fitRun.ok()
              ? launchChild(
                  "load",
                  json,
                  List.of("--model", model.toString(), "--repeats", Integer.toString(repeats)))
              : null;
      Map<String, String> l = base("load", fitRows, file.nonZeros(), load, run);
      l.put("budget", "warm load <= 5 s within -Xmx" + heap);
      if (run != null && run.ok()) {
        JsonNode r = new ObjectMapper().readTree(json.toFile());
        double seconds = r.get("load_s").asDouble();
        l.put("seconds", BenchRow.num(seconds));
        l.put("first_s", BenchRow.num(r.get("first_load_s").asDouble()));
        l.put("times_s", cells(r.get("load_times_s")));
        l.put("peak_heap_mb", BenchRow.num(r.get("peak_heap_mb").asDouble()));
        l.put("live_heap_mb", liveHeap(r));
        l.put("met", seconds <= 5 ? "yes" : "no");
        say(
            "load: %.2f s warm (median of %d; first %.2f s), peak heap %.0f MiB, peak RSS %s MiB "
                + "in -Xmx%s (budget <= 5 s)",
            seconds,
            repeats,
            r.get("first_load_s").asDouble(),
            r.get("peak_heap_mb").asDouble(),
            mb(run),
            heap);
      } else if (run != null) {
        l.put("met", "no");
        say("load: %s", run.message());
      }
      if (run != null) {
        l.put("peak_rss_mb", mb(run));
      }
      lines.add(line(l));
    }
    return lines;
  }

  /** score: the model fitted here, its scoring in a child JVM, scikit-learn's. */
  private String score() throws IOException, InterruptedException {
    SparseFiles fitFiles = new SparseFiles(work, scoreFitRows, seed);
    SparseFiles.Generated fitFile = fitFiles.text(d, nnz);
    // The same generator and seed: the fit's rows are the first rows of the scored ones.
    SparseFiles.Generated scoreFile = new SparseFiles(work, scoreRows, seed).text(d, nnz);
    int[] landmarkRows = fitFiles.sampleRows(m);
    Path model = work.resolve("model-n" + scoreFitRows + "-m" + m + "-k" + k);
    try (BenchSession bench = BenchSession.open(master)) {
      LoadedData loaded =
          DataSources.load(
              bench.session(),
              new SourceOptions(
                      fitFile.path().toString(),
                      InputFormat.LIBSVM,
                      "features",
                      null,
                      null,
                      null,
                      null)
                  .withExpectedFeatures(d));
      loaded.persistAndValidate();
      try {
        long start = System.nanoTime();
        new NystromKernelPCA()
            .setK(k)
            .setNumLandmarks(m)
            .setKernel("cosine")
            .setSeed(seed)
            .setLandmarks(SparseFiles.readRows(fitFile, landmarkRows))
            .fit(loaded.data())
            .write()
            .overwrite()
            .save(model.toString());
        say(
            "score: model of %d rows fitted and saved in %.2f s",
            scoreFitRows, (System.nanoTime() - start) / 1e9);
      } finally {
        loaded.unpersist();
      }
    }
    double load = PeakMemory.loadAverage();
    Path json = work.resolve("score.json");
    ChildProcess.Outcome run =
        launchChild(
            "score",
            json,
            List.of(
                "--model",
                model.toString(),
                "--input",
                scoreFile.path().toString(),
                "--num-features",
                Integer.toString(d),
                "--output",
                work.resolve("scores-spark").toString()));
    Map<String, String> l = base("score", scoreRows, scoreFile.nonZeros(), load, run);
    l.put("budget", "reported: rows/s and peak memory against scikit-learn");
    l.put("peak_rss_mb", mb(run));
    double sparkSeconds = Double.NaN;
    double sparkSumsq = Double.NaN;
    if (run.ok()) {
      JsonNode r = new ObjectMapper().readTree(json.toFile());
      sparkSeconds = r.get("score_s").asDouble();
      sparkSumsq = r.get("score_sumsq").asDouble();
      l.put("seconds", BenchRow.num(sparkSeconds));
      l.put("first_s", BenchRow.num(r.get("load_s").asDouble()));
      l.put("rows_per_s", BenchRow.num(r.get("rows_per_s").asDouble()));
      l.put("peak_heap_mb", BenchRow.num(r.get("peak_heap_mb").asDouble()));
      l.put("live_heap_mb", liveHeap(r));
      say(
          "score: %d rows in %.2f s, %.0f rows/s (model load %.2f s, read and cache %.2f s "
              + "excluded), peak heap %.0f MiB, peak RSS %s MiB in -Xmx%s",
          scoreRows,
          sparkSeconds,
          r.get("rows_per_s").asDouble(),
          r.get("load_s").asDouble(),
          r.get("read_s").asDouble(),
          r.get("peak_heap_mb").asDouble(),
          mb(run),
          heap);
    } else {
      say("score: %s", run.message());
    }
    if (compare != null) {
      l.put("reference", "scikit-learn transform");
      JsonNode sk;
      try {
        sk = sklearn(fitFile, scoreFile, landmarkRows);
      } catch (IllegalStateException e) {
        // Keep spark-kpca's line: the failure is the reference's, named in the message.
        l.put("message", (l.get("message") + " " + e.getMessage()).trim());
        say("score: %s", e.getMessage());
        return line(l);
      }
      double skSeconds = sk.get("transform_s").asDouble();
      l.put("reference_s", BenchRow.num(skSeconds));
      l.put("reference_rows_per_s", BenchRow.num(sk.get("rows_per_s").asDouble()));
      l.put("reference_peak_rss_mb", BenchRow.num(sk.get("peak_rss_mb").asDouble()));
      say(
          "score: scikit-learn %.2f s, %.0f rows/s (read %.2f s excluded), peak RSS %.0f MiB",
          skSeconds,
          sk.get("rows_per_s").asDouble(),
          sk.get("read_s").asDouble(),
          sk.get("peak_rss_mb").asDouble());
      if (run.ok()) {
        double skSumsq = sk.get("score_sumsq").asDouble();
        double diff = Math.abs(sparkSumsq - skSumsq) / Math.abs(skSumsq);
        l.put("ratio", BenchRow.num(sparkSeconds / skSeconds));
        l.put("sumsq_rel_diff", BenchRow.num(diff));
        say(
            "score: spark-kpca / scikit-learn = %.3f (time); sums of squared scores differ by "
                + "%.2e (relative)",
            sparkSeconds / skSeconds, diff);
      }
    }
    return line(l);
  }

  private JsonNode sklearn(
      SparseFiles.Generated fitFile, SparseFiles.Generated scoreFile, int[] landmarkRows)
      throws IOException, InterruptedException {
    Path rowsFile = work.resolve("landmark-rows-n" + scoreFitRows + "-m" + m + ".txt");
    Files.write(rowsFile, Arrays.stream(landmarkRows).mapToObj(Integer::toString).toList());
    Path json = Files.createTempFile(work, "sklearn-score-", ".json");
    return SklearnRunner.runScript(
        List.of(
            python,
            sklearnScript.toString(),
            "--fit-input",
            fitFile.path().toString(),
            "--landmark-rows",
            rowsFile.toString(),
            "--score-input",
            scoreFile.path().toString(),
            "--num-features",
            Integer.toString(d),
            "--kernel",
            "cosine",
            "--m",
            Integer.toString(m),
            "--k",
            Integer.toString(k),
            "--seed",
            Long.toString(seed),
            "--chunk-rows",
            Integer.toString(sklearnChunkRows),
            "--output",
            work.resolve("scores-sklearn.npy").toString(),
            "--json-out",
            json.toString()),
        json);
  }

  /** {@code bin/spark-kpca ARGS} with {@code JAVA_OPTS=-Xmx<heap>}, its log in the work dir. */
  private ChildProcess.Outcome launch(String name, List<String> args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(cli.toString()));
    command.addAll(args);
    say("%s: %s", name, String.join(" ", command));
    return ChildProcess.run(
        command, Map.of("JAVA_OPTS", "-Xmx" + heap), work.resolve(name + ".log"), timeout);
  }

  /** {@link SparseScoringChild} in its own JVM. */
  private ChildProcess.Outcome launchChild(String mode, Path json, List<String> args)
      throws IOException, InterruptedException {
    Files.deleteIfExists(json);
    List<String> command =
        new ArrayList<>(List.of("bench", "sparse-scoring-child", mode, "--json-out"));
    command.add(json.toString());
    command.addAll(List.of("--master", master));
    command.addAll(args);
    return launch(mode, command);
  }

  /** The cells every line has: what was measured, on what, and how the child ended. */
  private Map<String, String> base(
      String step, long rows, long nonZeros, double load, ChildProcess.Outcome run) {
    Map<String, String> l = new HashMap<>();
    l.put("step", step);
    l.put("rows", Long.toString(rows));
    l.put("d", Integer.toString(d));
    l.put("nnz", Long.toString(nonZeros));
    l.put("m", Integer.toString(m));
    l.put("k", Integer.toString(k));
    l.put("heap", heap);
    l.put("status", run == null ? "skipped: the cli-fit failed" : run.status());
    l.put("message", run == null ? "" : run.message());
    l.put("load_average", BenchRow.num(load));
    return l;
  }

  /** The line of {@code cells} in {@link #COLUMNS}' order; a name not among them is refused. */
  static String line(Map<String, String> cells) {
    List<String> columns = List.of(COLUMNS.split(","));
    for (String name : cells.keySet()) {
      if (!columns.contains(name)) {
        throw new IllegalArgumentException("no column " + name);
      }
    }
    List<String> out = new ArrayList<>();
    for (String c : columns) {
      out.add(BenchRow.quote(cells.getOrDefault(c, "")));
    }
    return String.join(",", out);
  }

  private static String liveHeap(JsonNode r) {
    double live = r.get("live_heap_mb").asDouble();
    return live < 0 ? "" : BenchRow.num(live);
  }

  private static String cells(JsonNode array) {
    double[] v = new double[array.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = array.get(i).asDouble();
    }
    return BenchOutput.cells(v);
  }

  private static String mb(ChildProcess.Outcome run) {
    return BenchRow.mb(run.peakRssBytes());
  }

  private void require(boolean condition, String message) {
    BenchOutput.require(spec, condition, message);
  }

  private void say(String format, Object... args) {
    BenchOutput.say(console, "bench sparse-scoring", format, args);
  }
}
