package io.github.sparkkpca.examples.data;

import com.univocity.parsers.csv.CsvParser;
import com.univocity.parsers.csv.CsvParserSettings;
import com.univocity.parsers.csv.UnescapedQuoteHandling;

/**
 * Counts the cells of one CSV line as Spark's CSV reader splits it with its default options
 * (delimiter {@code ,}, quote {@code "}, escape {@code \}, no comments, cells not trimmed), using
 * the same parser Spark uses (univocity, which Spark brings). Only rows Spark already flagged as
 * malformed are counted, to name the count in the error message.
 */
final class CsvCells {

  /** Spark's default {@code maxColumns}. */
  private static final int MAX_COLUMNS = 20480;

  private CsvCells() {}

  /** The number of cells of {@code line}, or -1 when it cannot be parsed. */
  static int count(String line) {
    CsvParserSettings settings = new CsvParserSettings();
    settings.getFormat().setDelimiter(',');
    settings.getFormat().setQuote('"');
    settings.getFormat().setQuoteEscape('\\');
    settings.setCommentProcessingEnabled(false);
    settings.setIgnoreLeadingWhitespaces(false);
    settings.setIgnoreTrailingWhitespaces(false);
    settings.setMaxColumns(MAX_COLUMNS);
    settings.setMaxCharsPerColumn(-1);
    settings.setUnescapedQuoteHandling(UnescapedQuoteHandling.STOP_AT_DELIMITER);
    try {
      String[] cells = new CsvParser(settings).parseLine(line);
      return cells == null ? -1 : cells.length;
    } catch (RuntimeException e) {
      return -1;
    }
  }
}
