package io.github.sparkkpca.examples.bench;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.DefaultConfiguration;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import scala.Option;

/**
 * The benchmark's SparkSession: a running one is reused (tests, notebooks) and left running;
 * otherwise one is built on {@code --master}, else {@code spark.master}, else {@code local[*]}, and
 * stopped at the end.
 */
final class BenchSession implements AutoCloseable {

  private final SparkSession session;
  private final boolean owned;

  private BenchSession(SparkSession session, boolean owned) {
    this.session = session;
    this.owned = owned;
  }

  static BenchSession open(String master) {
    for (Option<SparkSession> s :
        java.util.List.of(SparkSession.getActiveSession(), SparkSession.getDefaultSession())) {
      if (s.isDefined() && !s.get().sparkContext().isStopped()) {
        return new BenchSession(s.get(), false);
      }
    }
    quietLogging();
    SparkConf conf = new SparkConf();
    String effective = master != null ? master : conf.get("spark.master", "local[*]");
    SparkSession.Builder builder = SparkSession.builder().master(effective);
    if (!conf.contains("spark.app.name")) {
      builder = builder.appName("spark-kpca-bench");
    }
    if (effective.startsWith("local")) {
      builder = builder.config("spark.ui.showConsoleProgress", "false");
    }
    SparkSession session = builder.getOrCreate();
    session.sparkContext().setLogLevel("WARN");
    return new BenchSession(session, true);
  }

  /** WARN-level logging when nobody configured log4j (a user's configuration wins). */
  private static void quietLogging() {
    try {
      if (LogManager.getContext(false) instanceof LoggerContext context
          && context.getConfiguration() instanceof DefaultConfiguration) {
        Configurator.setRootLevel(Level.WARN);
        Configurator.setLevel("org.apache.hadoop.util.NativeCodeLoader", Level.ERROR);
        Configurator.setLevel("dev.ludovic.netlib", Level.ERROR);
      }
    } catch (LinkageError | RuntimeException e) {
      // Not log4j-core 2: keep whatever logging there is.
    }
  }

  SparkSession session() {
    return session;
  }

  @Override
  public void close() {
    if (owned) {
      session.stop();
    }
  }
}
