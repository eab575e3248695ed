package io.github.sparkkpca.examples.cli;

import static org.apache.spark.sql.functions.col;

import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.examples.data.SourceOptions;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spark-kpca demo}: the main job end to end with nothing to download — a synthetic mixture
 * of Gaussian clusters (generated on the executors), an rbf Nyström kernel PCA with the
 * median-heuristic γ, the spectrum table and the first rows' scores. It takes a few seconds on two
 * cores.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Run the main job on a built-in synthetic data set (no download needed).")
public final class DemoCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--n",
      paramLabel = "N",
      defaultValue = "20000",
      description = "Rows. Default: ${DEFAULT-VALUE}.")
  long n;

  @Option(
      names = "--d",
      paramLabel = "D",
      defaultValue = "20",
      description = "Dimension. Default: ${DEFAULT-VALUE}.")
  int d;

  @Option(
      names = "--k",
      paramLabel = "K",
      defaultValue = "5",
      description = "Components. Default: ${DEFAULT-VALUE}.")
  int k;

  @Option(
      names = "--landmarks",
      paramLabel = "M",
      defaultValue = "200",
      description = "Landmarks. Default: ${DEFAULT-VALUE}.")
  int landmarks;

  @Option(
      names = "--seed",
      paramLabel = "S",
      defaultValue = "1",
      description = "Seed of the data and the landmark sample. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(
      names = "--partitions",
      paramLabel = "P",
      description = "Partitions to generate (default: all cores).")
  Integer partitions;

  @Option(
      names = "--rows",
      paramLabel = "R",
      defaultValue = "5",
      description = "Rows of scores to print. Default: ${DEFAULT-VALUE}.")
  int rows;

  @Mixin OverwriteOption output;

  @Mixin PlotOptions plotOptions;

  @Mixin SparkOptions sparkOptions;

  @Override
  public Integer call() throws java.io.IOException {
    SparkKpcaCli.require(spec, n >= 1, "--n must be >= 1, got " + n);
    SparkKpcaCli.require(spec, d >= 1, "--d must be >= 1, got " + d);
    SparkKpcaCli.require(spec, k >= 1, "--k must be >= 1, got " + k);
    SparkKpcaCli.require(spec, k <= landmarks, "--k " + k + " exceeds --landmarks " + landmarks);
    SparkKpcaCli.require(spec, landmarks <= n, "--landmarks " + landmarks + " exceeds --n " + n);
    SparkKpcaCli.require(spec, rows >= 0, "--rows must be >= 0, got " + rows);
    plotOptions.validate(spec);
    sparkOptions.validate(spec);
    PrintWriter out = spec.commandLine().getOut();
    String source = "synthetic:n=" + n + ",d=" + d + ",seed=" + seed;
    try (ManagedSession spark = ManagedSession.open(sparkOptions.master);
        ConsoleProgress progress = sparkOptions.progress(spark, out)) {
      plotOptions.prepare(output.targetsReading(spark, List.of()));
      LoadedData data =
          SparkKpcaCli.loadAndCache(
              spark, SourceOptions.of(source).withPartitions(partitions), out);
      try {
        SparkKpcaCli.progress(
            out,
            "fitting rbf kernel PCA (k = %d, m = %d, gamma by the median heuristic)...",
            k,
            landmarks);
        long start = System.nanoTime();
        NystromKernelPCAModel model =
            new NystromKernelPCA()
                .setInputCol(data.featuresCol())
                .setK(k)
                .setNumLandmarks(landmarks)
                .setKernel("rbf")
                .setSeed(seed)
                .fit(data.data());
        FitSummary summary = FitSummary.of(model, (System.nanoTime() - start) / 1e9);
        summary.print(out);
        if (rows > 0) {
          printScores(out, model, data);
        }
        plotOptions.write(
            out,
            model,
            data,
            seed,
            String.format(
                Locale.ROOT, "rbf kernel PCA, m = %d, of %s", landmarks, data.description()));
      } finally {
        data.unpersist();
      }
    }
    return 0;
  }

  private void printScores(PrintWriter out, NystromKernelPCAModel model, LoadedData data) {
    List<Row> first =
        model
            .transform(data.data().filter(col("id").lt(rows)))
            .orderBy("id")
            .select("id", data.labelCol(), model.getOutputCol())
            .collectAsList();
    out.printf(Locale.ROOT, "first %d rows' scores (label = cluster):%n", first.size());
    StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%6s %6s", "id", "label"));
    for (int i = 1; i <= model.numComponents(); i++) {
      header.append(String.format(Locale.ROOT, " %10s", "pc_" + i));
    }
    out.println(header);
    for (Row row : first) {
      StringBuilder line =
          new StringBuilder(String.format(Locale.ROOT, "%6d %6s", row.getLong(0), row.get(1)));
      for (double v : ((Vector) row.get(2)).toArray()) {
        line.append(String.format(Locale.ROOT, " %10.5f", v));
      }
      out.println(line);
    }
    out.flush();
  }
}
