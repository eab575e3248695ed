package io.github.sparkkpca.execution;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * A row that scoring (transform, predictions) cannot use, found by a task at action time. Its
 * message is one line that names the column and the row: "Column 'features': the vector in row 5
 * (partition 0, position 5) has a non-finite value (NaN)" in the fit's words when the row's global
 * number is known to the task (in partition 0), else "the vector at position 3 of partition 2 ...":
 * a scoring task does not know how many rows the partitions before its own hold, and counting them
 * would cost a pass on every transform. Spark wraps it in the {@code SparkException} that fails the
 * job; the Python package finds it in that exception's causes and raises its message alone.
 */
public final class InvalidRowException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final int partition;
  private final long position;
  private final String column;
  private final int dim;
  private final String problem;

  InvalidRowException(String column, int partition, long position, String problem) {
    this(column, partition, position, -1, problem);
  }

  /** A row refused by {@link InputVectors#problem(Object, int, String)} for dimension dim. */
  InvalidRowException(String column, int partition, long position, int dim, String problem) {
    super("Column '" + column + "': the vector " + where(partition, position) + " " + problem);
    this.partition = partition;
    this.position = position;
    this.column = column;
    this.dim = dim;
    this.problem = problem;
  }

  /**
   * This error's message with the row's global 0-based number, in the fit's words ("the vector in
   * row 13 (partition 1, position 3) ..."), when {@code input} is the dataset the failed scoring
   * read: one job counts the rows of the partitions before the row's and checks that the row there
   * has the same problem. For the failure path only (nothing is counted on success). Null when the
   * row there does not have it (another dataset) or the problem is not the row's own (non-finite
   * outputs).
   */
  public String messageWithRow(Dataset<?> input) {
    if (dim < 0 || !java.util.Arrays.asList(input.schema().fieldNames()).contains(column)) {
      return null;
    }
    int p = partition;
    long q = position;
    int d = dim;
    String expected = problem;
    List<long[]> found =
        input
            .toDF()
            .select(QuotedColumns.column(input.toDF(), column))
            .javaRDD()
            .mapPartitionsWithIndex(
                (index, rows) -> {
                  if (index > p) {
                    return java.util.Collections.<long[]>emptyIterator();
                  }
                  long count = 0;
                  while (rows.hasNext()) {
                    Row row = rows.next();
                    if (index == p && count == q) {
                      boolean same =
                          expected.equals(InputVectors.problem(row.get(0), d, "the model expects"));
                      return List.of(new long[] {index, same ? 1 : 0}).iterator();
                    }
                    count++;
                  }
                  return List.of(new long[] {index, index == p ? 0 : -1 - count}).iterator();
                },
                true)
            .collect();
    long before = 0;
    boolean same = false;
    for (long[] f : found) {
      if (f[0] < p) {
        before += -1 - f[1];
      } else {
        same = f[1] == 1;
      }
    }
    if (!same) {
      return null;
    }
    return "Column '"
        + column
        + "': the vector in row "
        + (before + q)
        + " (partition "
        + p
        + ", position "
        + q
        + ") "
        + problem;
  }

  /** The index of the row's partition. */
  public int partition() {
    return partition;
  }

  /** The row's 0-based position within its partition. */
  public long position() {
    return position;
  }

  private static String where(int partition, long position) {
    return partition == 0
        ? "in row " + position + " (partition 0, position " + position + ")"
        : "at position " + position + " of partition " + partition;
  }
}
