package io.github.sparkkpca.examples.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code spark-kpca bench csv-floor}: Spark's own floor for a small command on a CSV file, in a
 * process of its own: a local session, the file read with a header and {@code inferSchema}, and
 * written back as CSV. A {@code transform} of the same file (JVM start, session, model load, read,
 * score, write) is timed against it by {@code spark-kpca-examples/bench/fixed-cost.sh}, which runs
 * both as separate processes in interleaved pairs.
 */
@Command(
    name = "csv-floor",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Spark's floor for a small command: start a session, read a CSV file with a header and "
          + "inferSchema, write it back as CSV, and print the seconds of each step.",
      "Example: spark-kpca bench csv-floor --input data.csv --output /tmp/floor-out"
    })
public final class CsvFloorBench implements Callable<Integer> {

  @Option(names = "--input", paramLabel = "CSV", required = true, description = "A CSV file.")
  Path input;

  @Option(
      names = "--output",
      paramLabel = "DIR",
      required = true,
      description = "The directory to write (must not exist).")
  Path output;

  @Option(
      names = "--master",
      paramLabel = "URL",
      description = "Spark master (default: spark.master, else local[*]).")
  String master;

  @Override
  public Integer call() {
    if (Files.exists(output)) {
      System.err.println("spark-kpca: error: --output " + output + " exists; give a new directory");
      return 2;
    }
    long start = System.nanoTime();
    try (BenchSession bench = BenchSession.open(master)) {
      long session = System.nanoTime();
      Dataset<Row> rows =
          bench
              .session()
              .read()
              .option("header", "true")
              .option("inferSchema", "true")
              .csv(input.toString());
      rows.write().option("header", "true").csv(output.toString());
      long written = System.nanoTime();
      System.out.printf(
          java.util.Locale.ROOT,
          "csv-floor: session %.2f s, read and write %.2f s, %d columns%n",
          (session - start) / 1e9,
          (written - session) / 1e9,
          rows.schema().size());
    }
    return 0;
  }
}
