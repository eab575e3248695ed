package io.github.sparkkpca.execution;

/**
 * Column references that take names literally: a column name with dots or backticks is quoted, so
 * Spark does not read it as a nested field or an expression.
 */
public final class QuotedColumns {

  private QuotedColumns() {}

  /** The column named {@code name}, quoted so names with dots or backticks are taken literally. */
  public static org.apache.spark.sql.Column column(
      org.apache.spark.sql.Dataset<?> dataset, String name) {
    return dataset.col("`" + name.replace("`", "``") + "`");
  }
}
