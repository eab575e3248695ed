package io.github.sparkkpca.examples.data;

import java.util.Arrays;
import java.util.Iterator;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import scala.Option;

/**
 * A test hook for fault tolerance on a real cluster: with the Spark configuration {@value
 * #CONF}{@code =p} (e.g. {@code spark-submit --conf
 * spark.kpca.test.failFirstAttemptOfPartition=3}), the first attempt of every task that computes
 * partition p of the loaded input throws, so Spark has to run it again. The job then succeeds only
 * when tasks are retried ({@code spark.task.maxFailures} ≥ 2 on a cluster, {@code local[N,F]} with
 * F ≥ 2 locally) and the retry gives the same rows.
 *
 * <p>"First attempt" is per stage: {@link TaskContext#attemptNumber()} counts the attempts of one
 * task within one stage attempt, so a stage that has to recompute the partition later (its cached
 * copy lost with an executor) fails once more on it. Unset, which is the default, the hook adds
 * nothing to the plan: {@link #apply} returns its argument. It is not meant for production jobs.
 */
public final class InjectedTaskFailure {

  /** The Spark configuration key: the index of the partition whose first attempt throws. */
  public static final String CONF = "spark.kpca.test.failFirstAttemptOfPartition";

  private InjectedTaskFailure() {}

  /**
   * The rows unchanged when {@value #CONF} is not set in the rows' session; otherwise the rows
   * behind a step that throws in the first attempt of the configured partition. Columns and their
   * metadata are kept.
   *
   * @throws IllegalArgumentException when the configuration is not a partition index (an integer ≥
   *     0)
   */
  static Dataset<Row> apply(Dataset<Row> rows) {
    Option<String> value = rows.sparkSession().conf().getOption(CONF);
    if (value.isEmpty()) {
      return rows;
    }
    int partition = partitionIndex(value.get());
    StructType schema = rows.schema();
    Dataset<Row> failing =
        rows.mapPartitions(new FailFirstAttempt(partition), Encoders.row(schema));
    // A typed map drops field metadata (the vector size among it); put every column's back.
    Column[] columns =
        Arrays.stream(schema.fields())
            .map(field -> LoadedData.column(field.name()).as(field.name(), field.metadata()))
            .toArray(Column[]::new);
    return failing.select(columns);
  }

  private static int partitionIndex(String value) {
    try {
      int partition = Integer.parseInt(value.trim());
      if (partition >= 0) {
        return partition;
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw new IllegalArgumentException(
        CONF + " must be a partition index (an integer >= 0), got '" + value + "'");
  }

  /** Passes a partition's rows through, except in the first attempt of the chosen partition. */
  static final class FailFirstAttempt implements MapPartitionsFunction<Row, Row> {
    private static final long serialVersionUID = 1L;
    private final int partition;

    FailFirstAttempt(int partition) {
      this.partition = partition;
    }

    @Override
    public Iterator<Row> call(Iterator<Row> rows) {
      TaskContext task = TaskContext.get();
      if (task != null && task.partitionId() == partition && task.attemptNumber() == 0) {
        throw new IllegalStateException(
            CONF
                + "="
                + partition
                + ": injected failure of attempt 0 of partition "
                + partition
                + " in stage "
                + task.stageId());
      }
      return rows;
    }
  }
}
