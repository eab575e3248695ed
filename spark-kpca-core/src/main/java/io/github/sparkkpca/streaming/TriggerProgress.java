package io.github.sparkkpca.streaming;

import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQueryListener;

/**
 * Reporting of Spark's own share of each micro-batch: a listener of the query's progress that
 * passes the {@link StreamingKernelPCA.TriggerReport} of every micro-batch of the sink's query to
 * the caller's consumer, and removes itself when that query ends. The sink's own share is reported
 * per micro-batch by {@link StreamFolder} ({@link StreamingKernelPCA.BatchReport}).
 */
final class TriggerProgress extends StreamingQueryListener {

  private final Supplier<String> queryId;
  private final Consumer<StreamingKernelPCA.TriggerReport> consumer;

  /**
   * @param queryId the id of the sink's query, null until the sink has seen it
   */
  TriggerProgress(Supplier<String> queryId, Consumer<StreamingKernelPCA.TriggerReport> consumer) {
    this.queryId = queryId;
    this.consumer = consumer;
  }

  @Override
  public void onQueryStarted(QueryStartedEvent event) {}

  @Override
  public void onQueryProgress(QueryProgressEvent event) {
    String id = queryId.get();
    if (id != null && event.progress().id().toString().equals(id)) {
      StreamingKernelPCA.TriggerReport report =
          StreamingKernelPCA.TriggerReport.of(event.progress());
      if (report != null) {
        consumer.accept(report);
      }
    }
  }

  @Override
  public void onQueryIdle(QueryIdleEvent event) {}

  @Override
  public void onQueryTerminated(QueryTerminatedEvent event) {
    String id = queryId.get();
    if (id != null && event.id().toString().equals(id)) {
      SparkSession.active().streams().removeListener(this);
    }
  }
}
