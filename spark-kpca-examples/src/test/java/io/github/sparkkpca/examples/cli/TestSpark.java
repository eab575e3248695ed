package io.github.sparkkpca.examples.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.SparkSession;

/**
 * The tests' shared local[2] SparkSession (started once per test JVM and left to Spark's shutdown
 * hook, so test classes do not pay for a new context each) and a helper that runs the CLI
 * in-process.
 *
 * <p>Shuffle partitions are few and AQE does not coalesce them, so sorted transform output really
 * is spread over several part files and the row-order tests exercise the multi-file case.
 */
public final class TestSpark {

  private static SparkSession session;

  private TestSpark() {}

  /** The shared session; the CLI reuses it (and does not stop it). */
  public static synchronized SparkSession session() {
    if (session == null || session.sparkContext().isStopped()) {
      ConsoleLogging.quietIfUnconfigured();
      session =
          SparkSession.builder()
              .master("local[2]")
              .appName("spark-kpca-examples-tests")
              .config("spark.ui.enabled", "false")
              .config("spark.ui.showConsoleProgress", "false")
              .config("spark.sql.shuffle.partitions", "5")
              .config("spark.sql.adaptive.coalescePartitions.enabled", "false")
              .getOrCreate();
      session.sparkContext().setLogLevel("WARN");
    }
    SparkSession.setActiveSession(session);
    SparkSession.setDefaultSession(session);
    return session;
  }

  /** The outcome of one in-process CLI run. */
  public record Result(int code, String out, String err) {
    /** stderr's non-empty lines. */
    public List<String> errLines() {
      return Arrays.stream(err.split("\\R")).filter(l -> !l.isBlank()).toList();
    }

    @Override
    public String toString() {
      return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  /** Runs {@code spark-kpca args...} in this JVM on the shared session. */
  public static Result cli(String... args) {
    session();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = SparkKpcaCli.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Result(code, out.toString(), err.toString());
  }
}
