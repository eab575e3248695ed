package io.github.sparkkpca.ml;

import java.util.function.Supplier;
import org.apache.spark.SparkContext;

/** Small helpers for running the distributed passes. */
final class SparkJobs {

  private static final String DESCRIPTION = "spark.job.description";

  private SparkJobs() {
  }

  /** Runs {@code body} with a Spark job description (shown in the Spark UI), restoring the previous one. */
  static <T> T described(SparkContext sc, String description, Supplier<T> body) {
    String previous = sc.getLocalProperty(DESCRIPTION);
    sc.setJobDescription(description);
    try {
      return body.get();
    } finally {
      sc.setLocalProperty(DESCRIPTION, previous);
    }
  }

  /** The column named {@code name}, quoted so names with dots or backticks are taken literally. */
  static org.apache.spark.sql.Column column(org.apache.spark.sql.Dataset<?> dataset, String name) {
    return dataset.col("`" + name.replace("`", "``") + "`");
  }

  /**
   * The {@code treeAggregate} depth that keeps what the driver receives under half of
   * {@code spark.driver.maxResultSize}: with p partitions and objects of s bytes, depth ℓ sends about
   * p^(1/ℓ) objects to the driver. At least 2.
   */
  static int aggregationDepth(SparkContext sc, int partitions, long objectBytes) {
    long maxResult = sc.getConf().getSizeAsBytes("spark.driver.maxResultSize", "1g");
    if (partitions <= 2 || maxResult <= 0) {
      return 2;
    }
    double fanIn = Math.max(2.0, maxResult / (2.0 * Math.max(1, objectBytes)));
    int depth = (int) Math.ceil(Math.log(partitions) / Math.log(fanIn));
    return Math.max(2, Math.min(depth, 10));
  }
}
