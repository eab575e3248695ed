package io.github.sparkkpca.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(LocalSpark.spark().sparkContext());
    for (int partitions : new int[] {1, 2, 5, 17, 40}) {
      List<Integer> rows = new ArrayList<>();
      for (int i = 0; i < 3 * partitions; i++) {
        rows.add(i);
      }
      JavaRDD<Integer> rdd = jsc.parallelize(rows, partitions);
      // A non-commutative merge (concatenation) shows the order; the broadcast value is read in
      // every task.
      String merged =
          DistributedPass.run(
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
              (a, b) -> a + "," + b);
      assertEquals(expected(partitions), merged, partitions + " partitions");
    }
  }
}
