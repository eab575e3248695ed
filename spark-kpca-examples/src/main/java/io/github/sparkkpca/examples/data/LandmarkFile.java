package io.github.sparkkpca.examples.data;

import io.github.sparkkpca.execution.FitMemory;
import io.github.sparkkpca.execution.InputVectors;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The landmarks of {@code fit --landmarks-file}: a local headerless CSV file, one landmark per
 * line, numbers separated by commas (blank lines skipped). Read on the driver before any Spark job;
 * every problem fails with one line naming the file, the 1-based line and column, and the vectors
 * pass the same check as data rows ({@link InputVectors}).
 */
public final class LandmarkFile {

  /** Files larger than this are refused: landmarks are read and held on the driver. */
  static final long MAX_BYTES = 1L << 30;

  private LandmarkFile() {}

  /** The landmarks of {@code file}, in file order. */
  public static Vector[] read(Path file) {
    String name = "--landmarks-file " + file;
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(name + ": no such file");
    }
    List<Vector> rows = new ArrayList<>();
    int width = -1;
    int widthLine = 0;
    try {
      if (Files.size(file) > MAX_BYTES) {
        throw new IllegalArgumentException(
            name + ": larger than 1 GiB; landmarks are held on the driver");
      }
      try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        String line;
        int number = 0;
        while ((line = reader.readLine()) != null) {
          number++;
          if (line.isBlank()) {
            continue;
          }
          if (rows.size() == FitMemory.MAX_SUPPLIED_LANDMARKS) {
            throw new IllegalArgumentException(
                name
                    + ": line "
                    + number
                    + " is landmark "
                    + (rows.size() + 1)
                    + ", more than "
                    + FitMemory.MAX_SUPPLIED_LANDMARKS
                    + ", the most landmarks a fit takes");
          }
          String[] cells = line.split(",", -1);
          if (width < 0) {
            width = cells.length;
            widthLine = number;
          } else if (cells.length != width) {
            throw new IllegalArgumentException(
                name
                    + ": line "
                    + number
                    + " has "
                    + cells.length
                    + " columns, line "
                    + widthLine
                    + " has "
                    + width);
          }
          double[] values = new double[width];
          for (int c = 0; c < width; c++) {
            values[c] = parse(cells[c], name, number, c + 1);
          }
          Vector v = new DenseVector(values);
          InputVectors.require(v, width, name + ": the landmark on line " + number);
          rows.add(v);
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(name + ": cannot be read: " + e.getMessage(), e);
    }
    if (rows.isEmpty()) {
      throw new IllegalArgumentException(
          name + ": holds no landmarks (headerless CSV, one landmark per line)");
    }
    return rows.toArray(new Vector[0]);
  }

  private static double parse(String cell, String name, int line, int column) {
    String text = cell.strip();
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          name
              + ": line "
              + line
              + ", column "
              + column
              + ": '"
              + cell
              + "' is not a number"
              + (line == 1 ? " (the file must have no header line)" : ""));
    }
  }

  /** Refuses landmarks whose size differs from the input vectors', naming the file. */
  public static void requireDimension(
      Path file, Vector[] landmarks, Dataset<Row> data, String column) {
    int size = AttributeGroup.fromStructField(data.schema().apply(column)).size();
    if (size < 0) {
      List<Row> first = data.select(LoadedData.column(column)).limit(1).collectAsList();
      size =
          first.isEmpty() || first.get(0).get(0) == null
              ? -1
              : ((Vector) first.get(0).get(0)).size();
    }
    if (size >= 0 && landmarks[0].size() != size) {
      throw new IllegalArgumentException(
          "--landmarks-file "
              + file
              + ": the landmarks have "
              + landmarks[0].size()
              + " columns but the input vectors have "
              + size);
    }
  }
}
