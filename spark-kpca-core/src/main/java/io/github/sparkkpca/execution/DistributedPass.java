package io.github.sparkkpca.execution;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;
import org.apache.spark.Partitioner;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import scala.Tuple2;

/**
 * The one way this library runs a pass over the data: broadcast a read-only value, reduce every
 * partition to one summary, merge the summaries, all under a job description that the Spark UI
 * shows.
 *
 * <p><b>Merging.</b> Summaries can be large (an r×r scatter matrix is 8r² bytes), so they are
 * merged on the executors, not on the driver: the partition summaries are shuffled to ⌈√p⌉ groups
 * (when p > 16) and then to one, and each reducer merges them in partition order. The driver
 * receives exactly one summary whatever the partition count, so {@code spark.driver.maxResultSize}
 * bounds a single summary (Spark's {@code treeAggregate} sends the driver up to p summaries for
 * small p), and the merge order, hence the rounding, is the same on every run of the same
 * partitioning.
 */
public final class DistributedPass {

  /** Partition counts up to this are merged in one level. */
  private static final int ONE_LEVEL = 16;

  private static final String DESCRIPTION = "spark.job.description";

  /** The most bytes of summaries the driver collects directly (see the class comment). */
  static final long DIRECT_BYTES = 64L << 20;

  /** A summary size the caller cannot bound: always merged on the executors. */
  public static final long UNBOUNDED = -1;

  private DistributedPass() {}

  /** Reduces one partition (its index and rows) to a summary, with the broadcast value. */
  @FunctionalInterface
  public interface PartitionSummary<B, T, S> extends Serializable {
    S summarise(B shared, int partition, Iterator<T> rows) throws Exception;
  }

  /** Merges b into a, returning the merged summary (may be a). */
  @FunctionalInterface
  public interface Merge<S> extends Serializable {
    S merge(S a, S b);
  }

  /**
   * Runs the pass and returns the merged summary of all partitions.
   *
   * @param description the job description (prefixed by the caller with the stage and its uid)
   * @param shared broadcast to the executors for the pass, destroyed afterwards (null: none)
   * @param rows the rows; without partitions, the summary of one empty partition
   */
  public static <T, B, S extends Serializable> S run(
      SparkContext sc,
      String description,
      JavaRDD<T> rows,
      B shared,
      Class<B> sharedClass,
      PartitionSummary<B, T, S> perPartition,
      Merge<S> merge) {
    return run(sc, description, rows, shared, sharedClass, perPartition, merge, UNBOUNDED);
  }

  /**
   * As {@link #run(SparkContext, String, JavaRDD, Object, Class, PartitionSummary, Merge)}, for
   * summaries of at most {@code summaryBytes} serialized bytes each ({@link #UNBOUNDED}: unknown),
   * which lets few small summaries go straight to the driver (see the class comment).
   */
  public static <T, B, S extends Serializable> S run(
      SparkContext sc,
      String description,
      JavaRDD<T> rows,
      B shared,
      Class<B> sharedClass,
      PartitionSummary<B, T, S> perPartition,
      Merge<S> merge,
      long summaryBytes) {
    if (rows.getNumPartitions() == 0) {
      // A dataset without partitions (an empty RDD's DataFrame) is a dataset without rows: its
      // summary is that of one empty partition, so callers say what they say of no rows.
      try {
        return perPartition.summarise(shared, 0, Collections.emptyIterator());
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
    Broadcast<B> broadcast =
        shared == null
            ? null
            : sc.broadcast(shared, scala.reflect.ClassTag$.MODULE$.apply(sharedClass));
    try {
      return described(
          sc,
          description,
          () -> {
            JavaRDD<S> summaries =
                rows.mapPartitionsWithIndex(
                    (index, it) ->
                        Collections.singletonList(
                                perPartition.summarise(
                                    broadcast == null ? null : broadcast.value(), index, it))
                            .iterator(),
                    true);
            return mergesOnDriver(sc, summaries.getNumPartitions(), summaryBytes)
                ? mergeOnDriver(summaries, merge)
                : mergeOnExecutors(summaries, merge);
          });
    } finally {
      if (broadcast != null) {
        broadcast.destroy();
      }
    }
  }

  /**
   * Whether p summaries of at most {@code summaryBytes} each are collected by the driver: p ≤ 16
   * (one merge level, so the order is the executors' one), within {@link #DIRECT_BYTES} and a
   * quarter of {@code spark.driver.maxResultSize} (0: unlimited).
   */
  static boolean mergesOnDriver(SparkContext sc, int p, long summaryBytes) {
    if (summaryBytes < 0 || p > ONE_LEVEL) {
      return false;
    }
    long maxResult = sc.getConf().getSizeAsBytes("spark.driver.maxResultSize", "1g");
    long limit = maxResult > 0 ? Math.min(DIRECT_BYTES, maxResult / 4) : DIRECT_BYTES;
    return (double) p * summaryBytes <= limit;
  }

  /** Collects one summary per partition and merges them in partition order on the driver. */
  static <S extends Serializable> S mergeOnDriver(JavaRDD<S> summaries, Merge<S> merge) {
    if (summaries.getNumPartitions() == 0) {
      throw new IllegalArgumentException("the input has no partitions");
    }
    S merged = null;
    for (S next : summaries.collect()) {
      merged = merged == null ? next : merge.merge(merged, next);
    }
    return merged;
  }

  /** Merges one summary per partition into one, on the executors, in partition order. */
  static <S extends Serializable> S mergeOnExecutors(JavaRDD<S> summaries, Merge<S> merge) {
    int p = summaries.getNumPartitions();
    if (p == 0) {
      throw new IllegalArgumentException("the input has no partitions");
    }
    JavaPairRDD<Integer, S> keyed =
        summaries
            .mapPartitionsWithIndex(
                (index, it) -> {
                  List<Tuple2<Integer, S>> out = new ArrayList<>(1);
                  while (it.hasNext()) {
                    out.add(new Tuple2<>(index, it.next()));
                  }
                  return out.iterator();
                },
                true)
            .mapToPair(t -> t);
    int count = p;
    while (count > 1) {
      int groups = count > ONE_LEVEL ? (int) Math.ceil(Math.sqrt(count)) : 1;
      int groupSize = (count + groups - 1) / groups;
      keyed =
          keyed
              .repartitionAndSortWithinPartitions(new Consecutive(groups, groupSize))
              .mapPartitionsWithIndex(
                  (group, it) -> {
                    S merged = null;
                    while (it.hasNext()) {
                      S next = it.next()._2();
                      merged = merged == null ? next : merge.merge(merged, next);
                    }
                    return merged == null
                        ? Collections.<Tuple2<Integer, S>>emptyIterator()
                        : Collections.singletonList(new Tuple2<>(group, merged)).iterator();
                  },
                  true)
              .mapToPair(t -> t);
      count = groups;
    }
    List<Tuple2<Integer, S>> result = keyed.collect();
    if (result.size() != 1) {
      throw new IllegalStateException("expected one merged summary, got " + result.size());
    }
    return result.get(0)._2();
  }

  /** Keys 0..n−1 to ⌈n/size⌉ partitions of consecutive keys. */
  private static final class Consecutive extends Partitioner {
    private final int partitions;
    private final int size;

    Consecutive(int partitions, int size) {
      this.partitions = partitions;
      this.size = size;
    }

    @Override
    public int numPartitions() {
      return partitions;
    }

    @Override
    public int getPartition(Object key) {
      return Math.min(partitions - 1, (Integer) key / size);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Consecutive c && c.partitions == partitions && c.size == size;
    }

    @Override
    public int hashCode() {
      return 31 * partitions + size;
    }
  }

  /**
   * Runs {@code body} with a Spark job description (shown in the Spark UI), restoring the previous
   * one.
   */
  public static <T> T described(SparkContext sc, String description, Supplier<T> body) {
    String previous = sc.getLocalProperty(DESCRIPTION);
    sc.setJobDescription(description);
    try {
      return body.get();
    } finally {
      sc.setLocalProperty(DESCRIPTION, previous);
    }
  }
}
