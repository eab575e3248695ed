package io.github.sparkkpca.examples.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.StageInfo;

/**
 * Console progress of long Spark jobs for the command line: every {@code interval} a line per job
 * that has run longer than that, with its description (the library names each phase of a fit, e.g.
 * "accumulate the r×r Nyström statistics"), the tasks done and the elapsed time, and a closing line
 * when such a job ends. Short jobs print nothing. The lines go to the command's output, like its
 * other progress lines.
 *
 * <p>Task counts come from Spark's listener events: tasks that finished successfully over all tasks
 * of the job's stages (skipped stages never finish, so a job may end below 100%).
 */
final class ConsoleProgress extends SparkListener implements AutoCloseable {

  private final SparkContext context;
  private final PrintWriter out;
  private final long intervalNanos;
  private final ScheduledExecutorService ticker;
  private final Map<Integer, Job> jobs = new ConcurrentHashMap<>();
  private final Map<Integer, Job> jobOfStage = new ConcurrentHashMap<>();

  private static final class Job {
    final String description;
    final int tasks;
    final long start = System.nanoTime();
    final AtomicInteger done = new AtomicInteger();
    volatile boolean reported;

    Job(String description, int tasks) {
      this.description = description;
      this.tasks = tasks;
    }
  }

  private ConsoleProgress(SparkContext context, PrintWriter out, double intervalSeconds) {
    this.context = context;
    this.out = out;
    this.intervalNanos = (long) (intervalSeconds * 1e9);
    this.ticker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "spark-kpca-progress");
              t.setDaemon(true);
              return t;
            });
    long millis = Math.max(1, (long) (intervalSeconds * 1000));
    ticker.scheduleAtFixedRate(this::report, millis, millis, TimeUnit.MILLISECONDS);
  }

  /**
   * Starts reporting the jobs of {@code context} every {@code intervalSeconds} (finite and ≥ 0, as
   * {@link SparkOptions#validate} checks it); null (nothing to close) when the interval is 0, which
   * turns progress off.
   */
  static ConsoleProgress start(SparkContext context, PrintWriter out, double intervalSeconds) {
    if (intervalSeconds == 0) {
      return null;
    }
    ConsoleProgress progress = new ConsoleProgress(context, out, intervalSeconds);
    context.addSparkListener(progress);
    return progress;
  }

  @Override
  public void onJobStart(SparkListenerJobStart event) {
    String description =
        event.properties() == null ? null : event.properties().getProperty("spark.job.description");
    // Scala's own iterator: the collection converters differ between Scala 2.12 and 2.13.
    java.util.List<StageInfo> stages = new java.util.ArrayList<>();
    for (scala.collection.Iterator<StageInfo> it = event.stageInfos().iterator(); it.hasNext(); ) {
      stages.add(it.next());
    }
    int tasks = stages.stream().mapToInt(StageInfo::numTasks).sum();
    Job job = new Job(description != null ? description : "Spark job " + event.jobId(), tasks);
    jobs.put(event.jobId(), job);
    stages.forEach(stage -> jobOfStage.put(stage.stageId(), job));
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd event) {
    Job job = jobOfStage.get(event.stageId());
    if (job != null && event.taskInfo() != null && event.taskInfo().successful()) {
      job.done.incrementAndGet();
    }
  }

  @Override
  public void onJobEnd(SparkListenerJobEnd event) {
    Job job = jobs.remove(event.jobId());
    if (job == null) {
      return;
    }
    jobOfStage.values().removeIf(j -> j == job);
    if (job.reported) {
      print(job, "done");
    }
  }

  private void report() {
    long now = System.nanoTime();
    for (Job job : jobs.values()) {
      if (now - job.start >= intervalNanos) {
        job.reported = true;
        print(job, "running");
      }
    }
  }

  private void print(Job job, String state) {
    double seconds = (System.nanoTime() - job.start) / 1e9;
    int done = job.done.get();
    String line =
        String.format(
            Locale.ROOT,
            "spark-kpca: [%s %.0f s] %s: %d/%d tasks (%.0f%%)",
            state,
            seconds,
            job.description,
            done,
            job.tasks,
            job.tasks == 0 ? 100.0 : 100.0 * done / job.tasks);
    synchronized (out) {
      out.println(line);
      out.flush();
    }
  }

  @Override
  public void close() {
    context.removeSparkListener(this);
    ticker.shutdownNow();
  }
}
