package io.github.sparkkpca.examples.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;

/**
 * The header row of one CSV file: its column names as Spark's CSV reader names them (an empty name
 * becomes {@code _cI}, a name that occurs more than once, ignoring case, gets its position
 * appended), so files can be matched by column name rather than by position.
 */
final class CsvHeader implements Serializable {

  private static final long serialVersionUID = 1L;

  private final String[] names;

  private CsvHeader(String[] names) {
    this.names = names;
  }

  /** The header of the line {@code line} (the first non-blank line of a file). */
  static CsvHeader parse(String line) {
    String[] cells = CsvCells.split(CsvCells.parser(), line);
    if (cells == null) {
      cells = new String[] {line};
    }
    Set<String> seen = new HashSet<>();
    Set<String> duplicates = new HashSet<>();
    for (String cell : cells) {
      if (cell != null && !seen.add(cell.toLowerCase(Locale.ROOT))) {
        duplicates.add(cell.toLowerCase(Locale.ROOT));
      }
    }
    String[] names = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      String cell = cells[i];
      if (cell == null || cell.isEmpty()) {
        names[i] = "_c" + i;
      } else if (duplicates.contains(cell.toLowerCase(Locale.ROOT))) {
        names[i] = cell + i;
      } else {
        names[i] = cell;
      }
    }
    return new CsvHeader(names);
  }

  /** The column names, in the file's order. */
  String[] names() {
    return names.clone();
  }

  int width() {
    return names.length;
  }

  /** The position of column {@code name}, or -1. */
  int indexOf(String name) {
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** Whether both headers hold the same column names, in any order. */
  boolean sameNames(CsvHeader other) {
    return names.length == other.names.length
        && new HashSet<>(Arrays.asList(names)).equals(new HashSet<>(Arrays.asList(other.names)));
  }

  /**
   * Why {@code file}, whose header is {@code header}, cannot be read with {@code reference}, the
   * header of {@code referenceFile}.
   */
  static String mismatch(String file, CsvHeader header, String referenceFile, CsvHeader reference) {
    return "the header of "
        + file
        + " ("
        + header
        + ") and the header of "
        + referenceFile
        + " ("
        + reference
        + ") hold different column names; every file must hold the same columns, in any order "
        + "(they are matched by name)";
  }

  /** The header as written in a message: its names separated by commas. */
  @Override
  public String toString() {
    return String.join(",", names);
  }

  /** A file and its header (null for a file without a non-blank line). */
  record Located(Path file, CsvHeader header) {}

  /**
   * The files Spark's file sources read for {@code input} (a file, a directory's files that are not
   * hidden, or a glob of them), sorted by path, each with its header.
   */
  static List<Located> readAll(Configuration conf, String input) {
    Path path = new Path(input);
    try {
      FileSystem fs = path.getFileSystem(conf);
      List<FileStatus> files = new ArrayList<>();
      FileStatus[] matches = fs.globStatus(path);
      for (FileStatus match : matches == null ? new FileStatus[0] : matches) {
        if (match.isDirectory()) {
          for (FileStatus file : fs.listStatus(match.getPath())) {
            if (file.isFile() && !hidden(file.getPath())) {
              files.add(file);
            }
          }
        } else {
          files.add(match);
        }
      }
      files.sort(Comparator.comparing(f -> f.getPath().toString()));
      List<Located> headers = new ArrayList<>();
      for (FileStatus file : files) {
        headers.add(new Located(file.getPath(), read(conf, file.getPath())));
      }
      return headers;
    } catch (IOException e) {
      throw new UncheckedIOException("--input " + input + ": " + e.getMessage(), e);
    }
  }

  private static boolean hidden(Path file) {
    String name = file.getName();
    return name.startsWith("_") || name.startsWith(".");
  }

  /** The header of {@code file} (decompressed as Spark would), or null when it has none. */
  static CsvHeader read(Configuration conf, Path file) throws IOException {
    FileSystem fs = file.getFileSystem(conf);
    CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(file);
    try (InputStream raw = fs.open(file);
        InputStream in = codec == null ? raw : codec.createInputStream(raw);
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (!blank(line)) {
          return parse(line);
        }
      }
      return null;
    }
  }

  /** Whether Spark's CSV reader skips the line (it is empty once trimmed). */
  static boolean blank(String line) {
    for (int i = 0; i < line.length(); i++) {
      if (line.charAt(i) > ' ') {
        return false;
      }
    }
    return true;
  }
}
