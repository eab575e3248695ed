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
 * becomes {@code _cI}), so files can be matched by column name rather than by position.
 *
 * <p>A name that occurs more than once, ignoring case, is recorded ({@link #duplicate()}) and the
 * file is refused by its readers: Spark's reader renames such columns (appending their positions,
 * so {@code x,x1,x} and {@code x0,x,x} would both become {@code x0,x1,x2}), but columns are matched
 * by name here, and a renamed column would be matched to another file's or a model's column of the
 * same made-up name.
 */
final class CsvHeader implements Serializable {

  private static final long serialVersionUID = 1L;

  private final String[] names;
  private final String duplicate;

  private CsvHeader(String[] names, String duplicate) {
    this.names = names;
    this.duplicate = duplicate;
  }

  /** A header of the given names (the columns a model reads), for matching files against it. */
  static CsvHeader of(List<String> names) {
    return new CsvHeader(names.toArray(new String[0]), null);
  }

  /** The header of the line {@code line} (the first non-blank line of a file). */
  static CsvHeader parse(String line) {
    String[] cells = CsvCells.split(CsvCells.parser(), line);
    if (cells == null) {
      cells = new String[] {line};
    }
    String[] names = new String[cells.length];
    Set<String> seen = new HashSet<>();
    String duplicate = null;
    for (int i = 0; i < cells.length; i++) {
      String cell = cells[i];
      names[i] = cell == null || cell.isEmpty() ? "_c" + i : cell;
      if (!seen.add(names[i].toLowerCase(Locale.ROOT)) && duplicate == null) {
        duplicate = names[i];
      }
    }
    return new CsvHeader(names, duplicate);
  }

  /** The first name that occurs more than once (ignoring case), or null when all are distinct. */
  String duplicate() {
    return duplicate;
  }

  /** Why {@code file}, whose header names a column twice, cannot be read. */
  static String duplicated(String file, CsvHeader header) {
    return "the header of "
        + file
        + " names column '"
        + header.duplicate
        + "' more than once ("
        + header
        + "); column names must be distinct (ignoring case), since columns are matched by name";
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
    if (referenceFile == null) {
      return modelMismatch(file, header, reference);
    }
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

  /**
   * Why {@code file} cannot be read with a model's feature names: {@code reference} lists the
   * model's features (and the label column, when one is read).
   */
  private static String modelMismatch(String file, CsvHeader header, CsvHeader reference) {
    List<String> missing = new ArrayList<>();
    for (String name : reference.names) {
      if (header == null || header.indexOf(name) < 0) {
        missing.add(name);
      }
    }
    List<String> extra = new ArrayList<>();
    if (header != null) {
      for (String name : header.names) {
        if (reference.indexOf(name) < 0) {
          extra.add(name);
        }
      }
    }
    return "the header of "
        + file
        + " ("
        + (header == null ? "none" : header)
        + ") does not hold the columns the model reads by name ("
        + reference
        + ")"
        + difference(missing, extra)
        + "; give --ignore-feature-names to read the file's columns by position instead";
  }

  /**
   * ": missing a,b; not the model's c": the model's columns a file lacks and the columns it holds
   * beyond them, for the messages that refuse it ("" when neither).
   */
  static String difference(List<String> missing, List<String> extra) {
    return (missing.isEmpty() ? "" : ": missing " + String.join(",", missing))
        + (extra.isEmpty()
            ? ""
            : (missing.isEmpty() ? ": " : "; ") + "not the model's " + String.join(",", extra));
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
