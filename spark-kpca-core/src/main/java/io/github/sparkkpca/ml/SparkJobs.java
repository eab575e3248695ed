package io.github.sparkkpca.ml;

/** Column references that take names literally. */
final class SparkJobs {

  private SparkJobs() {}

  /** The column named {@code name}, quoted so names with dots or backticks are taken literally. */
  static org.apache.spark.sql.Column column(org.apache.spark.sql.Dataset<?> dataset, String name) {
    return dataset.col("`" + name.replace("`", "``") + "`");
  }
}
