package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.SparkException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An OutOfMemoryError in any thread ends the command with one line: the guard stops the context (so
 * the job the command waits for fails instead of hanging) and the command reports the line.
 */
class OutOfMemoryGuardTest {

  @AfterEach
  void forget() {
    OutOfMemoryGuard.clear();
  }

  @Test
  void anOutOfMemoryErrorInASparkThreadStopsTheContextAndIsReportedInOneLine() throws Exception {
    CountDownLatch stopped = new CountDownLatch(1);
    OutOfMemoryGuard guard =
        new OutOfMemoryGuard(
            () -> "NystromKernelPCA x: validate 'features' and sample 500 landmarks",
            stopped::countDown);
    // As a thread pool's worker dies: its uncaught error goes to the default handler.
    Thread worker =
        new Thread(
            () -> {
              throw new OutOfMemoryError("Java heap space");
            },
            "task-result-getter-0");
    worker.setUncaughtExceptionHandler(guard);
    worker.start();
    worker.join();
    assertTrue(stopped.await(10, TimeUnit.SECONDS), "the context is stopped");
    // The job then fails with Spark's own words; the command reports the recorded line instead.
    String line =
        OutOfMemoryGuard.report(
            new SparkException("Job 4 cancelled because SparkContext was shut down"));
    assertEquals(
        "out of memory (Java heap space) in thread task-result-getter-0 during 'NystromKernelPCA"
            + " x: validate 'features' and sample 500 landmarks'; raise the driver's heap"
            + " (spark.driver.memory with spark-submit, -Xmx for a JVM started with java, e.g."
            + " JAVA_OPTS=-Xmx8g bin/spark-kpca) or give the command smaller sizes (landmarks,"
            + " features, rows per block)",
        line);
    // Only the first error counts and stops the context.
    guard.uncaughtException(worker, new OutOfMemoryError("another"));
    assertEquals(line, OutOfMemoryGuard.report(new RuntimeException()));
  }

  @Test
  void otherErrorsGoToThePreviousHandler() {
    AtomicReference<Throwable> seen = new AtomicReference<>();
    Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
    Thread.setDefaultUncaughtExceptionHandler((t, e) -> seen.set(e));
    try {
      OutOfMemoryGuard guard =
          new OutOfMemoryGuard(
              () -> null,
              () -> {
                throw new AssertionError("not stopped");
              });
      IllegalStateException other = new IllegalStateException("x");
      guard.uncaughtException(Thread.currentThread(), other);
      assertSame(other, seen.get());
      assertNull(OutOfMemoryGuard.report(new SparkException("job failed")));
    } finally {
      Thread.setDefaultUncaughtExceptionHandler(before);
    }
  }

  /** A task's error arrives as the cause of the job's SparkException; the command thread's bare. */
  @Test
  void anOutOfMemoryErrorInTheCauseChainIsReported() {
    String task =
        OutOfMemoryGuard.report(
            new SparkException(
                "Job aborted due to stage failure", new OutOfMemoryError("Java heap space")));
    assertTrue(
        task.startsWith("out of memory (Java heap space); raise the driver's heap (")
            && !task.contains("\n"),
        task);
    assertTrue(
        OutOfMemoryGuard.report(new OutOfMemoryError("Requested array size exceeds VM limit"))
            .startsWith("out of memory (Requested array size exceeds VM limit); raise"));
  }

  /**
   * A job Spark started on a thread of its own was named by its JDK frame ("during
   * '$anonfun$withThreadLocalCaptured$2 at CompletableFuture.java:1768'"): it is named by the step
   * running, the last job started from this project's code or with a description.
   */
  @Test
  void aJobOfSparksOwnThreadIsNamedByTheStepRunning() {
    String step = "collectAsList at ModelData.java:640";
    String ours =
        "org.apache.spark.sql.Dataset.collectAsList(Dataset.scala:3500)\n"
            + "io.github.sparkkpca.persistence.ModelData.readNow(ModelData.java:640)";
    assertEquals(step, OutOfMemoryGuard.jobName(null, step, ours, "earlier"));
    String anonymous = "$anonfun$withThreadLocalCaptured$2 at CompletableFuture.java:1768";
    String spark =
        "org.apache.spark.sql.execution.SQLExecution$.$anonfun$withThreadLocalCaptured$2"
            + "(SQLExecution.scala:300)\n"
            + "java.base/java.util.concurrent.CompletableFuture$AsyncSupply.run"
            + "(CompletableFuture.java:1768)";
    assertEquals(step, OutOfMemoryGuard.jobName(null, anonymous, spark, step));
    assertEquals(
        "statistics pass", OutOfMemoryGuard.jobName("statistics pass", anonymous, spark, step));
    OutOfMemoryError oom = new OutOfMemoryError("Java heap space");
    String line =
        OutOfMemoryGuard.line(
            oom, null, OutOfMemoryGuard.jobName(null, anonymous, spark, step), true);
    assertTrue(line.contains("during '" + step + "'"), line);
    assertTrue(!line.contains("CompletableFuture"), line);
  }
}
