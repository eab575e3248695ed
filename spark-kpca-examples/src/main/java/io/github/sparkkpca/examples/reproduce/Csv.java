package io.github.sparkkpca.examples.reproduce;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Writes small CSV files (comma-separated, header row, numbers in Locale.ROOT, no quoting needed).
 */
final class Csv {

  private Csv() {}

  /**
   * Formats a number compactly with 10 significant digits; integers stay integers; NaN is empty.
   */
  static String num(double v) {
    if (Double.isNaN(v)) {
      return "";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return String.format(Locale.ROOT, "%.10g", v)
        .replaceFirst("(\\.\\d*?)0+(e|$)", "$1$2")
        .replaceFirst("\\.(e|$)", "$1");
  }

  /** Writes {@code header} and {@code rows} (each already a list of cells) to {@code file}. */
  static Path write(Path file, String header, List<String> rows) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        w.write(header);
        w.write('\n');
        for (String row : rows) {
          w.write(row);
          w.write('\n');
        }
      }
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Writes {@code header} and one row per item of {@code items}, its cells given by {@code cells}
   * (joined by {@link #row}), to {@code file}.
   */
  static <T> Path table(Path file, String header, List<T> items, Function<T, Object[]> cells) {
    List<String> rows = new java.util.ArrayList<>(items.size());
    for (T item : items) {
      rows.add(row(cells.apply(item)));
    }
    return write(file, header, rows);
  }

  /**
   * Reads a file written by {@link #write}: the rows after the header, split at commas outside
   * quotes.
   */
  static List<String[]> read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException("Cannot read " + file + ": " + e.getMessage(), e);
    }
    List<String[]> rows = new java.util.ArrayList<>();
    for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
      if (line.isBlank()) {
        continue;
      }
      List<String> cells = new java.util.ArrayList<>();
      StringBuilder cell = new StringBuilder();
      boolean quoted = false;
      for (char ch : line.toCharArray()) {
        if (ch == '"') {
          quoted = !quoted;
        } else if (ch == ',' && !quoted) {
          cells.add(cell.toString());
          cell.setLength(0);
        } else {
          cell.append(ch);
        }
      }
      cells.add(cell.toString());
      rows.add(cells.toArray(String[]::new));
    }
    return rows;
  }

  /** Parses a number cell; empty is NaN. */
  static double parse(String cell) {
    return cell.isEmpty() ? Double.NaN : Double.parseDouble(cell);
  }

  /** Joins cells with commas. */
  static String row(Object... cells) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < cells.length; i++) {
      if (i > 0) {
        b.append(',');
      }
      Object c = cells[i];
      b.append(c instanceof Double d ? num(d) : String.valueOf(c));
    }
    return b.toString();
  }
}
