package io.github.sparkkpca.examples.cli;

import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import scala.Option;

/**
 * The SparkSession of one command: reuses a running session (tests, notebooks, an application
 * calling {@link SparkKpcaCli#run}) and leaves it running, or builds one and stops it when the
 * command ends.
 *
 * <p>A new session is named {@code spark-kpca}. Its master is {@code --master} when given, else
 * {@code spark.master} from the configuration (set by {@code spark-submit}), else {@code local[*]},
 * so the plain-{@code java} launcher runs locally on all cores. Console logging is kept to
 * warnings, and an {@link OutOfMemoryError} in any thread ends the command ({@link
 * OutOfMemoryGuard}).
 */
final class ManagedSession implements AutoCloseable {

  static final String APP_NAME = "spark-kpca";

  private final SparkSession session;
  private final boolean owned;
  private final OutOfMemoryGuard guard;

  private ManagedSession(SparkSession session, boolean owned) {
    this.session = session;
    this.owned = owned;
    this.guard = owned ? OutOfMemoryGuard.install(session.sparkContext()) : null;
  }

  /**
   * The running session if there is one (then {@code master} is ignored), else a new one.
   *
   * @param master the master URL, or null for the default described above
   */
  static ManagedSession open(String master) {
    SparkSession existing = running(SparkSession.getActiveSession());
    if (existing == null) {
      existing = running(SparkSession.getDefaultSession());
    }
    if (existing != null) {
      return new ManagedSession(existing, false);
    }
    ConsoleLogging.quietIfUnconfigured();
    SparkConf conf = new SparkConf();
    String effectiveMaster = master != null ? master : conf.get("spark.master", "local[*]");
    SparkSession.Builder builder = SparkSession.builder().master(effectiveMaster);
    if (!conf.contains("spark.app.name")) {
      builder = builder.appName(APP_NAME);
    }
    if (effectiveMaster.startsWith("local")) {
      // A task's OutOfMemoryError fails its job, reported in one line (OutOfMemoryGuard), instead
      // of Spark exiting the JVM, which here is the command's own.
      builder =
          builder
              .config("spark.ui.showConsoleProgress", "false")
              .config(OutOfMemoryGuard.KILL_ON_FATAL_ERROR_DEPTH, "0");
    }
    SparkSession session = builder.getOrCreate();
    session.sparkContext().setLogLevel("WARN");
    return new ManagedSession(session, true);
  }

  private static SparkSession running(Option<SparkSession> session) {
    return session.isDefined() && !session.get().sparkContext().isStopped() ? session.get() : null;
  }

  SparkSession session() {
    return session;
  }

  /** Whether this command started the session (and will stop it). */
  boolean owned() {
    return owned;
  }

  @Override
  public void close() {
    if (owned) {
      session.stop();
      guard.close();
    }
  }
}
