package io.github.sparkkpca.examples.data;

import com.univocity.parsers.csv.CsvParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;

/**
 * Parses the lines of CSV files (Spark's text source: the line, its file and the start of its
 * split) straight into dense feature vectors, matching every file's columns by the names in its own
 * header.
 *
 * <p>Lines are split as Spark's CSV reader splits them ({@link CsvCells}); blank lines are skipped
 * and the first non-blank line of a file is its header (Spark's rules). A split that does not start
 * at the beginning of its file reads the header from the file. Each cell is parsed once ({@link
 * CellValues#parseNumber}: the JDK's numbers, by a faster parser) into the row's vector, so the
 * common path does less work than Spark's own CSV reader with a numeric schema.
 *
 * <p>Nothing is thrown: a row whose file names a column twice or has other column names than the
 * reference header, a row with more or fewer cells than the header, or else the first feature cell
 * of a row that is empty, not a number or not finite, is described in {@link LoadedData#ERROR_COL}
 * (which {@link LoadedData#persistAndValidate()} and {@link LoadedData#validateMicroBatch} report
 * with the file and row) and the row gets a zero vector.
 *
 * <p>Output columns: the vector, the label (a string, null when empty) if any, {@link
 * LoadedData#FILE_COL}, then {@link LoadedData#ERROR_COL}.
 */
final class CsvLines implements MapPartitionsFunction<Row, Row> {

  private static final long serialVersionUID = 1L;

  private final CsvHeader reference;
  private final String referenceFile;
  private final String[] featureNames;
  private final String label;
  private final Broadcast<SerializableConfiguration> conf;
  private final boolean numberLines;

  /**
   * @param reference the header every file must match by names (the first file's, or the columns a
   *     model reads)
   * @param referenceFile the file of {@code reference}, for messages; null when it lists a model's
   *     columns
   * @param features the columns to assemble, in order
   * @param label the label column, or null
   * @param conf the Hadoop configuration, to read the header of a file whose split starts later
   * @param numberLines whether an error carries its line in the file ({@link LoadedData#located}; a
   *     stream, which keeps no row positions), when the line's split starts the file
   */
  CsvLines(
      CsvHeader reference,
      String referenceFile,
      List<String> features,
      String label,
      Broadcast<SerializableConfiguration> conf,
      boolean numberLines) {
    this.reference = reference;
    this.referenceFile = referenceFile;
    this.featureNames = features.toArray(new String[0]);
    this.label = label;
    this.conf = conf;
    this.numberLines = numberLines;
  }

  /** The schema of the parsed rows. */
  static StructType outputSchema(String featuresCol, int d, String label) {
    StructType out = new StructType().add(new AttributeGroup(featuresCol, d).toStructField());
    if (label != null) {
      out = out.add(label, DataTypes.StringType, true);
    }
    return out.add(LoadedData.FILE_COL, DataTypes.StringType, true)
        .add(LoadedData.ERROR_COL, DataTypes.StringType, true);
  }

  @Override
  public Iterator<Row> call(Iterator<Row> lines) {
    return new Parser(lines);
  }

  /** One partition's lines: one file split after the other. */
  private final class Parser extends ParsedRows {
    private final Iterator<Row> lines;
    private final CsvParser parser = CsvCells.parser();
    private String file;
    private long start = -1;
    private boolean headerPending;
    private int[] featureIndex;
    private int labelIndex = -1;
    private int width;
    private String fileError;
    private long lineNumber;

    Parser(Iterator<Row> lines) {
      this.lines = lines;
    }

    @Override
    Row parseNext() {
      while (lines.hasNext()) {
        Row row = lines.next();
        String line = row.getString(0);
        String rowFile = row.getString(1);
        long rowStart = row.isNullAt(2) ? 0 : row.getLong(2);
        if (!rowFile.equals(file) || rowStart != start) {
          file = rowFile;
          start = rowStart;
          headerPending = rowStart <= 0;
          lineNumber = 0;
          if (!headerPending) {
            layout(headerOf(rowFile));
          }
        }
        lineNumber++;
        if (CsvHeader.blank(line)) {
          continue;
        }
        if (headerPending) {
          headerPending = false;
          layout(CsvHeader.parse(line));
          continue;
        }
        return parse(line);
      }
      return null;
    }

    private void layout(CsvHeader header) {
      fileError = null;
      if (header != null && header.duplicate() != null) {
        fileError = CsvHeader.duplicated(LoadedData.displayPath(file), header);
        return;
      }
      if (header == null || !header.sameNames(reference)) {
        fileError =
            CsvHeader.mismatch(
                LoadedData.displayPath(file),
                header,
                referenceFile == null ? null : LoadedData.displayPath(referenceFile),
                reference);
        return;
      }
      width = header.width();
      featureIndex = new int[featureNames.length];
      for (int j = 0; j < featureNames.length; j++) {
        featureIndex[j] = header.indexOf(featureNames[j]);
      }
      labelIndex = label == null ? -1 : header.indexOf(label);
    }

    private CsvHeader headerOf(String uri) {
      try {
        return CsvHeader.read(conf.value().value(), new Path(new URI(uri)));
      } catch (IOException e) {
        throw new UncheckedIOException("reading the header of " + uri + ": " + e.getMessage(), e);
      } catch (URISyntaxException e) {
        throw new IllegalStateException(uri, e);
      }
    }

    private Row parse(String line) {
      double[] values = new double[featureNames.length];
      String error = fileError;
      String[] cells = null;
      if (error == null) {
        cells = CsvCells.split(parser, line);
        if (cells == null) {
          error = "the line cannot be split into cells";
        } else if (cells.length != width) {
          error = cells.length + " cells instead of the header's " + width;
        }
      }
      for (int j = 0; error == null && j < featureNames.length; j++) {
        error = CellValues.parseFeature(cells[featureIndex[j]], featureNames[j], values, j);
      }
      if (error != null) {
        java.util.Arrays.fill(values, 0.0);
        if (numberLines && start <= 0) {
          error += LoadedData.LINE_MARK + lineNumber;
        }
      }
      DenseVector vector = new DenseVector(values);
      if (label == null) {
        return RowFactory.create(vector, file, error);
      }
      String labelValue = null;
      if (cells != null && labelIndex >= 0 && labelIndex < cells.length) {
        String cell = cells[labelIndex];
        labelValue = cell == null || cell.isEmpty() ? null : cell;
      }
      return RowFactory.create(vector, labelValue, file, error);
    }
  }
}
