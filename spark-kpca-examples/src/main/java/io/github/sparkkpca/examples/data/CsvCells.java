package io.github.sparkkpca.examples.data;

import com.univocity.parsers.csv.CsvParser;
import com.univocity.parsers.csv.CsvParserSettings;
import com.univocity.parsers.csv.UnescapedQuoteHandling;

/**
 * Splits one CSV line into cells as Spark's CSV reader splits it with its default options
 * (delimiter {@code ,}, quote {@code "}, escape {@code \}, no comments, cells not trimmed, one
 * record per line), using the same parser Spark uses (univocity, which Spark brings).
 */
final class CsvCells {

  /** Spark's default {@code maxColumns}. */
  private static final int MAX_COLUMNS = 20480;

  private CsvCells() {}

  /** A parser with Spark's default CSV settings; not thread-safe, one per task. */
  static CsvParser parser() {
    CsvParserSettings settings = new CsvParserSettings();
    settings.getFormat().setDelimiter(',');
    settings.getFormat().setQuote('"');
    settings.getFormat().setQuoteEscape('\\');
    settings.getFormat().setComment('\0');
    settings.setCommentProcessingEnabled(false);
    settings.setIgnoreLeadingWhitespaces(false);
    settings.setIgnoreTrailingWhitespaces(false);
    settings.setMaxColumns(MAX_COLUMNS);
    settings.setMaxCharsPerColumn(-1);
    settings.setUnescapedQuoteHandling(UnescapedQuoteHandling.STOP_AT_DELIMITER);
    settings.setNullValue("");
    settings.setEmptyValue("");
    return new CsvParser(settings);
  }

  /** The cells of {@code line}, or null when it cannot be parsed. */
  static String[] split(CsvParser parser, String line) {
    try {
      return parser.parseLine(line);
    } catch (RuntimeException e) {
      return null;
    }
  }
}
