package io.github.sparkkpca.examples.cli;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.ConsoleAppender;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.DefaultConfiguration;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.config.builder.impl.BuiltConfiguration;

/**
 * Keeps Spark's console logging to warnings for command-line runs.
 *
 * <p>{@code SparkContext.setLogLevel("WARN")} only takes effect after the context has started, and
 * by then Spark has logged a screenful of INFO lines (it installs its own INFO defaults when log4j
 * is unconfigured). So, <em>only when nobody configured log4j</em> (no {@code log4j2.properties}),
 * this installs a WARN-level console configuration on stderr before the session is built; Spark
 * then sees a configured log4j and leaves it alone. A user's own configuration always wins. Under
 * {@code spark-submit} Spark has configured log4j before this runs (and re-initializes it while the
 * context starts), so there only {@code setLogLevel("WARN")} applies, once the context is up;
 * {@code conf/log4j2.properties} quiets the start-up lines. Without log4j-core on the classpath it
 * does nothing.
 *
 * <p>Log lines carry no stack traces, and Spark's reports of failed tasks ({@link
 * #TASK_FAILURE_LOGGERS}: the executor's, whose task-set message holds the whole trace) are off: a
 * failure reaches the user as the command's one-line error (with the full trace under {@code
 * --debug}); a user's own log4j configuration can still ask for them.
 */
final class ConsoleLogging {

  /** Spark's loggers of task failures, silenced on the CLI's console (not in a user's config). */
  static final java.util.List<String> TASK_FAILURE_LOGGERS =
      java.util.List.of(
          "org.apache.spark.executor.Executor", "org.apache.spark.scheduler.TaskSetManager");

  private ConsoleLogging() {}

  /** Installs the quiet configuration if log4j still runs on its built-in default. */
  static void quietIfUnconfigured() {
    try {
      if (!(LogManager.getContext(false) instanceof LoggerContext context)
          || !(context.getConfiguration() instanceof DefaultConfiguration)) {
        return;
      }
      ConfigurationBuilder<BuiltConfiguration> b =
          ConfigurationBuilderFactory.newConfigurationBuilder();
      b.setConfigurationName("spark-kpca-console");
      b.add(
          b.newAppender("console", "Console")
              .addAttribute("target", ConsoleAppender.Target.SYSTEM_ERR)
              .add(
                  b.newLayout("PatternLayout")
                      .addAttribute("pattern", "%d{HH:mm:ss} %p %c{1}: %m%n")
                      .addAttribute("alwaysWriteExceptions", false)));
      b.add(b.newRootLogger(Level.WARN).add(b.newAppenderRef("console")));
      // A local run without Hadoop's native libraries is normal, not worth a warning.
      b.add(b.newLogger("org.apache.hadoop.util.NativeCodeLoader", Level.ERROR));
      b.add(b.newLogger("org.sparkproject.jetty", Level.WARN));
      // Which BLAS netlib falls back to (e.g. no incubator Vector API) is a hint, not a problem.
      b.add(b.newLogger("dev.ludovic.netlib", Level.ERROR));
      b.add(b.newLogger("org.apache.parquet.CorruptStatistics", Level.ERROR));
      // A failed task fails its job, which the command reports as its one error line; Spark's own
      // reports of the task (the executor's, and the task set's, whose message holds the task's
      // whole stack trace) would repeat it in 30 to 50 lines.
      for (String logger : TASK_FAILURE_LOGGERS) {
        b.add(b.newLogger(logger, Level.OFF));
      }
      Configurator.reconfigure(b.build());
    } catch (LinkageError | RuntimeException e) {
      // Not log4j-core 2 (or an incompatible one): keep whatever logging there is.
    }
  }
}
