package io.github.sparkkpca.examples.data;

import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.sql.Row;

/**
 * A partition's parsed rows, read ahead one at a time from its lines: {@link #parseNext} consumes
 * lines (skipping those that hold no row, such as blank lines or a header) until it has a row. The
 * iterator of the line parsers {@link CsvLines} and {@link LibsvmLines}.
 */
abstract class ParsedRows implements Iterator<Row> {

  private Row next;

  /** The next row parsed from the lines, or null when no line is left. */
  abstract Row parseNext();

  @Override
  public final boolean hasNext() {
    if (next == null) {
      next = parseNext();
    }
    return next != null;
  }

  @Override
  public final Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Row row = next;
    next = null;
    return row;
  }
}
