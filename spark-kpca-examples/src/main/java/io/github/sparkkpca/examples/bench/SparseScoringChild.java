package io.github.sparkkpca.examples.bench;

import static org.apache.spark.ml.functions.vector_to_array;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sparkkpca.examples.data.DataSources;
import io.github.sparkkpca.examples.data.InputFormat;
import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.examples.data.SourceOptions;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The measurements {@code bench sparse-scoring} runs in a child JVM (so that they see the heap a
 * user's driver has, e.g. Spark's default 1 GiB), written as JSON:
 *
 * <ul>
 *   <li><b>load</b>: {@code NystromKernelPCAModel.load} once (cold: the JVM compiles the reader),
 *       then {@code --repeats} times in the same session (warm); the warm loads' median, the peak
 *       heap over all loads and the live heap (after a collection).
 *   <li><b>score</b>: loads the model, reads the libsvm rows and caches them (not timed, as the fit
 *       benches exclude the read), then times {@code model.transform} of every row written as
 *       Parquet (label and scores), what a user scoring a file does; afterwards, untimed, the sum
 *       over rows and components of the squared scores, read back from the Parquet files (rotation-
 *       and sign-free, so comparable with scikit-learn's).
 * </ul>
 */
@Command(
    name = "sparse-scoring-child",
    hidden = true,
    description = "The in-JVM part of bench sparse-scoring: load or score, written as JSON.")
public final class SparseScoringChild implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "MODE", description = "load or score")
  String mode;

  @Option(names = "--model", required = true, paramLabel = "DIR")
  String model;

  @Option(names = "--repeats", paramLabel = "R", defaultValue = "5")
  int repeats;

  @Option(names = "--input", paramLabel = "FILE", description = "score: a libsvm file")
  String input;

  @Option(names = "--num-features", paramLabel = "D")
  Integer numFeatures;

  @Option(names = "--output", paramLabel = "DIR", description = "score: the Parquet output")
  String output;

  @Option(names = "--json-out", required = true, paramLabel = "FILE")
  Path jsonOut;

  @Option(names = "--master", paramLabel = "URL")
  String master;

  @Override
  public Integer call() throws IOException {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("heap_max_mb", PeakMemory.heapMaxBytes() / 1048576.0);
    try (BenchSession bench = BenchSession.open(master)) {
      switch (mode) {
        case "load" -> load(out);
        case "score" -> score(bench.session(), out);
        default -> throw new IllegalArgumentException("mode: expected load or score, got " + mode);
      }
    }
    out.put("peak_rss_mb", PeakMemory.rssPeakBytes() / 1048576.0);
    new ObjectMapper().writeValue(jsonOut.toFile(), out);
    return 0;
  }

  private void load(Map<String, Object> out) {
    System.gc();
    PeakMemory.reset();
    double[] warm = new double[repeats];
    try (PeakMemory.LiveHeap live = new PeakMemory.LiveHeap()) {
      long start = System.nanoTime();
      NystromKernelPCAModel loaded = NystromKernelPCAModel.load(model);
      out.put("first_load_s", (System.nanoTime() - start) / 1e9);
      out.put("m", loaded.landmarks().numRows());
      out.put("d", loaded.numFeatures());
      out.put("k", loaded.numComponents());
      for (int r = 0; r < repeats; r++) {
        start = System.nanoTime();
        NystromKernelPCAModel.load(model);
        warm[r] = (System.nanoTime() - start) / 1e9;
      }
      out.put("live_heap_mb", live.peakBytes() / 1048576.0);
    }
    out.put("load_s", BenchOutput.median(warm));
    out.put("load_times_s", warm);
    out.put("peak_heap_mb", PeakMemory.heapPeakBytes() / 1048576.0);
  }

  private void score(SparkSession spark, Map<String, Object> out) {
    long start = System.nanoTime();
    NystromKernelPCAModel loaded = NystromKernelPCAModel.load(model);
    out.put("load_s", (System.nanoTime() - start) / 1e9);
    SourceOptions source =
        new SourceOptions(input, InputFormat.LIBSVM, "features", null, null, null, null)
            .withExpectedFeatures(numFeatures);
    LoadedData data = DataSources.load(spark, source);
    int slots = spark.sparkContext().defaultParallelism();
    if (data.data().rdd().getNumPartitions() < slots) {
      data = DataSources.load(spark, source.withPartitions(slots));
    }
    start = System.nanoTime();
    long rows = data.persistAndValidate();
    out.put("read_s", (System.nanoTime() - start) / 1e9);
    out.put("rows", rows);
    out.put("partitions", data.data().rdd().getNumPartitions());
    String scores = loaded.getOrDefault(loaded.outputCol());
    try {
      System.gc();
      PeakMemory.reset();
      try (PeakMemory.LiveHeap live = new PeakMemory.LiveHeap()) {
        start = System.nanoTime();
        loaded
            .transform(data.data())
            .select(col(data.labelCol()), col(scores))
            .write()
            .mode("overwrite")
            .parquet(output);
        double seconds = (System.nanoTime() - start) / 1e9;
        out.put("score_s", seconds);
        out.put("rows_per_s", rows / seconds);
        out.put("live_heap_mb", live.peakBytes() / 1048576.0);
      }
      out.put("peak_heap_mb", PeakMemory.heapPeakBytes() / 1048576.0);
    } finally {
      data.unpersist();
    }
    out.put(
        "score_sumsq",
        spark
            .read()
            .parquet(output)
            .select(vector_to_array(col(scores), "float64").as("y"))
            .select(expr("sum(aggregate(y, 0D, (acc, x) -> acc + x * x))"))
            .first()
            .getDouble(0));
  }
}
