package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.execution.FitMemory;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;

/**
 * Ends a command at once, with one line, when its JVM runs out of memory in any thread.
 *
 * <p>Why: an {@link OutOfMemoryError} in one of Spark's driver threads (e.g. {@code
 * task-result-getter-0} deserializing a large task result) kills that thread only; the job then
 * waits for a result that never comes, and the command hangs. In local mode a task's {@code
 * OutOfMemoryError} makes Spark exit the JVM with code 52 after one cryptic log line. So a session
 * the command line starts (never one it reuses, {@link ManagedSession}) gets this guard: it is the
 * JVM's default uncaught-exception handler, and on an {@code OutOfMemoryError} in any thread it
 * records one line naming the thread, the Spark job running and the memory setting to raise, and
 * stops the SparkContext, which fails the job the command waits for; the command then reports that
 * line ({@link SparkKpcaCli}, exit code 2, as for the memory checks made before the work). A local
 * session also sets {@value #KILL_ON_FATAL_ERROR_DEPTH} = 0, so that a task's {@code
 * OutOfMemoryError} fails its task (and the job) instead of exiting the JVM.
 */
final class OutOfMemoryGuard implements Thread.UncaughtExceptionHandler, AutoCloseable {

  /** Spark's setting of how deep a task's error is searched for a fatal one that exits the JVM. */
  static final String KILL_ON_FATAL_ERROR_DEPTH = "spark.executor.killOnFatalError.depth";

  /** The line of the last out-of-memory failure of this JVM's command, or null. */
  private static final AtomicReference<String> FAILURE = new AtomicReference<>();

  /** Whether the guarded session runs its tasks in the driver's JVM (local mode). */
  private static volatile boolean localTasks = true;

  /** The description of the Spark job the guarded session started last, or null. */
  private static final AtomicReference<String> LAST_JOB = new AtomicReference<>();

  private final Thread.UncaughtExceptionHandler previous;
  private final Supplier<String> job;
  private final Runnable stop;

  /**
   * @param job the description of the Spark job last started, or null
   * @param stop stops the SparkContext (run once, in a thread of its own)
   */
  OutOfMemoryGuard(Supplier<String> job, Runnable stop) {
    this.previous = Thread.getDefaultUncaughtExceptionHandler();
    this.job = job;
    this.stop = stop;
  }

  /** Installs the guard as the JVM's default uncaught-exception handler for {@code sc}. */
  static OutOfMemoryGuard install(SparkContext sc) {
    FAILURE.set(null);
    LAST_JOB.set(null);
    localTasks = sc.isLocal();
    sc.addSparkListener(
        new SparkListener() {
          @Override
          public void onJobStart(SparkListenerJobStart start) {
            String description =
                start.properties() == null
                    ? null
                    : start.properties().getProperty("spark.job.description");
            LAST_JOB.updateAndGet(
                previous ->
                    jobName(
                        description,
                        start.stageInfos().isEmpty() ? null : start.stageInfos().head().name(),
                        start.stageInfos().isEmpty() ? null : start.stageInfos().head().details(),
                        previous));
          }
        });
    OutOfMemoryGuard guard = new OutOfMemoryGuard(LAST_JOB::get, sc::stop);
    Thread.setDefaultUncaughtExceptionHandler(guard);
    return guard;
  }

  /**
   * The name of a job for the line: its description (the step that set it), else its call site when
   * the job was started from this project's code ({@code details}, the stage's long call site,
   * holds one of its frames), else {@code previous}, the step running: a job Spark starts on a
   * thread of its own (a broadcast or subquery, {@code CompletableFuture}) would otherwise be named
   * by a frame of Spark's or the JDK's, such as "$anonfun$withThreadLocalCaptured$2 at
   * CompletableFuture.java:1768".
   */
  static String jobName(String description, String callSite, String details, String previous) {
    if (description != null && !description.isBlank()) {
      return description;
    }
    if (callSite != null && details != null && details.contains(PROJECT_FRAME)) {
      return callSite;
    }
    return previous;
  }

  /** The package prefix of this project's frames in a call site. */
  private static final String PROJECT_FRAME = "io.github.sparkkpca.";

  @Override
  public void uncaughtException(Thread thread, Throwable error) {
    OutOfMemoryError oom = find(error);
    if (oom == null) {
      if (previous != null) {
        previous.uncaughtException(thread, error);
      } else {
        // What the JVM does without a default handler.
        System.err.print("Exception in thread \"" + thread.getName() + "\" ");
        error.printStackTrace(System.err);
      }
      return;
    }
    // A thread of this JVM: the driver's heap is the one to raise.
    if (FAILURE.compareAndSet(null, line(oom, thread.getName(), job.get(), true))) {
      Thread stopping = new Thread(stop, "spark-kpca-out-of-memory-stop");
      stopping.setDaemon(true);
      stopping.start();
    }
  }

  /** Restores the handler that was the default before {@link #install}. */
  @Override
  public void close() {
    if (Thread.getDefaultUncaughtExceptionHandler() == this) {
      Thread.setDefaultUncaughtExceptionHandler(previous);
    }
  }

  /**
   * The one-line report of an out-of-memory failure of the command: the one a guard recorded, or
   * {@code error}'s when it holds an {@link OutOfMemoryError} (a task's, or the command thread's);
   * null when neither.
   */
  static String report(Throwable error) {
    String recorded = FAILURE.get();
    if (recorded != null) {
      return recorded;
    }
    OutOfMemoryError oom = find(error);
    if (oom == null) {
      return null;
    }
    // A task's error reaches the command as the cause of the SparkException that failed its job;
    // on a cluster it ran in an executor.
    boolean task = false;
    for (Throwable t = error; t != oom; t = t.getCause()) {
      task |= t instanceof org.apache.spark.SparkException;
    }
    return line(oom, null, LAST_JOB.get(), !task || localTasks);
  }

  /** The first {@link OutOfMemoryError} in the cause chain of {@code error}, or null. */
  static OutOfMemoryError find(Throwable error) {
    int depth = 0;
    for (Throwable t = error; t != null && depth < 50; t = t.getCause(), depth++) {
      if (t instanceof OutOfMemoryError oom) {
        return oom;
      }
    }
    return null;
  }

  /** Forgets a recorded failure and job (for a test that records one). */
  static void clear() {
    FAILURE.set(null);
    LAST_JOB.set(null);
  }

  /**
   * "out of memory (Java heap space) in thread T during 'job'; raise ...".
   *
   * @param thread the thread that failed, or null when unknown
   * @param job the Spark job running, or null
   * @param driver whether the driver's heap is the one to raise (else the executors')
   */
  static String line(OutOfMemoryError oom, String thread, String job, boolean driver) {
    String what = oom.getMessage() == null || oom.getMessage().isBlank() ? "" : oom.getMessage();
    return "out of memory"
        + (what.isEmpty() ? "" : " (" + what + ")")
        + (thread == null ? "" : " in thread " + thread)
        + (job == null || job.isBlank() ? "" : " during '" + job + "'")
        + "; raise "
        + (driver ? "the driver's heap (" + FitMemory.HEAP_SETTING + ")" : "spark.executor.memory")
        + " or give the command smaller sizes (landmarks, features, rows per block)";
  }
}
