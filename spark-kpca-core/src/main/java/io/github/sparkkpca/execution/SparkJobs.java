package io.github.sparkkpca.execution;

/** Column references that take names literally. */
public final class SparkJobs {

  private SparkJobs() {}

  /** The column named {@code name}, quoted so names with dots or backticks are taken literally. */
  public static org.apache.spark.sql.Column column(
      org.apache.spark.sql.Dataset<?> dataset, String name) {
    return dataset.col("`" + name.replace("`", "``") + "`");
  }
}
