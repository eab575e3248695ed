package io.github.sparkkpca.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.testing.LocalSpark;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

/** Summaries are merged on the executors, in partition order, into exactly one. */
class DistributedPassTest {

  private static String expected(int partitions) {
    return IntStream.range(0, partitions)
        .mapToObj(Integer::toString)
        .collect(Collectors.joining(","));
  }

  @Test
  void mergesEveryPartitionOnceInPartitionOrder() {
    for (int partitions : new int[] {1, 2, 5, 17, 40}) {
      assertEquals(
          expected(partitions),
          concatenate(partitions, DistributedPass.UNBOUNDED),
          partitions + " partitions");
    }
  }

  /**
   * Small bounded summaries of at most 16 partitions are merged by the driver, in the same order
   * and in one stage instead of two; more partitions, larger or unbounded summaries keep the
   * executors' merge.
   */
  @Test
  void fewSmallSummariesAreMergedOnTheDriverInPartitionOrder() {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(LocalSpark.spark().sparkContext());
    for (int partitions : new int[] {1, 2, 5, 16, 17, 40}) {
      String group = "direct-" + partitions;
      jsc.setJobGroup(group, "test", false);
      try {
        assertEquals(
            expected(partitions), concatenate(partitions, 100), partitions + " partitions");
      } finally {
        jsc.clearJobGroup();
      }
      int[] jobs = jsc.statusTracker().getJobIdsForGroup(group);
      assertEquals(1, jobs.length, group);
      int stages = jsc.statusTracker().getJobInfo(jobs[0]).stageIds().length;
      if (partitions <= 16) {
        assertEquals(1, stages, partitions + " partitions: one stage");
      } else {
        assertTrue(stages >= 2, partitions + " partitions: merged on the executors");
      }
    }
    assertEquals(
        false,
        DistributedPass.mergesOnDriver(jsc.sc(), 2, DistributedPass.DIRECT_BYTES / 2 + 1),
        "two summaries above half the direct limit");
    assertEquals(
        true, DistributedPass.mergesOnDriver(jsc.sc(), 2, DistributedPass.DIRECT_BYTES / 2));
    assertEquals(false, DistributedPass.mergesOnDriver(jsc.sc(), 2, DistributedPass.UNBOUNDED));
  }

  /** The partitions' indices, concatenated by a (non-commutative) merge. */
  private static String concatenate(int partitions, long summaryBytes) {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(LocalSpark.spark().sparkContext());
    List<Integer> rows = new ArrayList<>();
    for (int i = 0; i < 3 * partitions; i++) {
      rows.add(i);
    }
    JavaRDD<Integer> rdd = jsc.parallelize(rows, partitions);
    // The broadcast value is read in every task.
    return DistributedPass.run(
        rdd.context(),
        "test pass",
        rdd,
        ":",
        String.class,
        (suffix, partition, it) -> {
          int count = 0;
          while (it.hasNext()) {
            it.next();
            count++;
          }
          return count == 3 ? Integer.toString(partition) : "wrong count " + count + suffix;
        },
        (a, b) -> a + "," + b,
        summaryBytes);
  }
}
