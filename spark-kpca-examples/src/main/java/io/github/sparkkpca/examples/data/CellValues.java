package io.github.sparkkpca.examples.data;

import com.fasterxml.jackson.core.io.NumberInput;

/**
 * The numbers of text cells and the words of their errors, shared by the parsers of CSV lines
 * ({@link CsvLines}), libsvm lines ({@link LibsvmLines}) and Parquet columns ({@link
 * ColumnAssembler}).
 */
final class CellValues {

  /** The longest value an error message quotes in full. */
  private static final int MAX_VALUE_CHARS = 40;

  private CellValues() {}

  /** {@code s}, cut to {@value #MAX_VALUE_CHARS} characters and "..." when longer. */
  static String abbreviate(String s) {
    return s.length() <= MAX_VALUE_CHARS ? s : s.substring(0, MAX_VALUE_CHARS) + "...";
  }

  /**
   * The number {@link Double#parseDouble} reads in {@code text}, bit for bit, read by the copy of
   * Randelshofer's FastDoubleParser in Jackson (jackson-core 2.14 and later; every Spark line
   * carries one for its JSON): the same syntax, correctly rounded as the JDK's, and faster, which
   * matters as parsing is most of the cost of reading a CSV file (spark-kpca bench ingest, parsing
   * alone against Spark's reader: 1.12 with the JDK's parser, 1.37 with this one; bench README §7).
   * Text the fast parser refuses is given to {@link Double#parseDouble}, so exactly the texts the
   * JDK reads are read.
   *
   * @throws NumberFormatException when {@link Double#parseDouble} throws
   */
  static double parseNumber(String text) {
    try {
      return NumberInput.parseDouble(text, true);
    } catch (NumberFormatException e) {
      return Double.parseDouble(text);
    }
  }

  /**
   * Parses the cell of feature {@code column} into {@code values[j]}; returns null, or the reason
   * it is not a finite number (empty, non-numeric, non-finite), naming the column.
   */
  static String parseFeature(String cell, String column, double[] values, int j) {
    if (cell == null || cell.isEmpty()) {
      return "column '" + column + "' is empty";
    }
    double v;
    try {
      v = parseNumber(cell);
    } catch (NumberFormatException e) {
      return "column '" + column + "' has a non-numeric value '" + abbreviate(cell.trim()) + "'";
    }
    return acceptFeature(v, column, values, j);
  }

  /** Stores a feature's number in {@code values[j]}; returns null, or why it is not finite. */
  static String acceptFeature(double v, String column, double[] values, int j) {
    if (!Double.isFinite(v)) {
      return "column '" + column + "' has a non-finite value " + v;
    }
    values[j] = v;
    return null;
  }
}
