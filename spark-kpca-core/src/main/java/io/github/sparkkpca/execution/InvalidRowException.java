package io.github.sparkkpca.execution;

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

  InvalidRowException(String column, int partition, long position, String problem) {
    super("Column '" + column + "': the vector " + where(partition, position) + " " + problem);
    this.partition = partition;
    this.position = position;
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
