package io.github.sparkkpca.examples.bench;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;

/**
 * Wall time of the Spark jobs of a fit, by phase, from the job descriptions NystromKernelPCA sets:
 * the validating scan ("validate ..."), the statistics pass ("accumulate ...") and any other job.
 * The fit's wall time minus these is the driver's own work (K_mm and covariance
 * eigendecompositions, broadcasts). Times are the scheduler's event timestamps (milliseconds); the
 * estimator runs its jobs one after the other.
 */
final class JobTimes extends SparkListener {

  private final Map<Integer, long[]> started = new ConcurrentHashMap<>();
  private final Map<Integer, String> phases = new ConcurrentHashMap<>();
  private final Map<String, Long> millis = new ConcurrentHashMap<>();

  static final String SCAN = "scan";
  static final String STATISTICS = "statistics";
  static final String OTHER = "other";

  @Override
  public void onJobStart(SparkListenerJobStart jobStart) {
    String description =
        jobStart.properties() == null
            ? null
            : jobStart.properties().getProperty("spark.job.description");
    String phase =
        description == null
            ? OTHER
            : description.contains(": validate ")
                ? SCAN
                : description.contains(": accumulate ") ? STATISTICS : OTHER;
    phases.put(jobStart.jobId(), phase);
    started.put(jobStart.jobId(), new long[] {jobStart.time()});
  }

  @Override
  public void onJobEnd(SparkListenerJobEnd jobEnd) {
    long[] start = started.remove(jobEnd.jobId());
    String phase = phases.remove(jobEnd.jobId());
    if (start != null && phase != null) {
      millis.merge(phase, jobEnd.time() - start[0], Long::sum);
    }
  }

  /** Waits (up to 5 s) until every started job's end event has been delivered. */
  void awaitJobEnds() {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (!started.isEmpty() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Clears the totals. */
  void reset() {
    millis.clear();
  }

  /** Seconds spent in jobs of the phase since the last reset. */
  double seconds(String phase) {
    return millis.getOrDefault(phase, 0L) / 1e3;
  }
}
