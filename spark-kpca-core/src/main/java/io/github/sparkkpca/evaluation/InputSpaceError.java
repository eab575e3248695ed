package io.github.sparkkpca.evaluation;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructType;

/**
 * The input-space metrics of {@link ReconstructionErrorEvaluator}: the mean of ‖x − x̂‖² over the
 * rows and, for the relative one, the rows' total variance (1/n) Σ‖x − x̄‖², in one pass. ‖x − x̂‖²
 * is read from the models' {@code preimageErrorCol} when the dataset has it (computed at sparse
 * cost by the model, O(1) per row here), else from {@code inputCol} and the pre-images of {@code
 * reconstructionCol} (O(d) per row). Each partition keeps n, Σ‖x − x̂‖² and, for the relative
 * metric only, the mean x̄ and Σ‖x − x̄‖² (Welford, O(d) per row); partitions merge by Chan et
 * al.'s rule, which stays accurate when the data sit far from the origin.
 */
final class InputSpaceError implements Serializable {

  private static final long serialVersionUID = 1L;

  private long n;
  private double squaredErrors;
  private double[] mean;
  private double scatter;

  /** x scattered into d values, reused row after row (a sparse x is not copied per row). */
  private transient double[] row;

  /** x − x̄ before the mean's update, reused row after row. */
  private transient double[] delta;

  private InputSpaceError() {}

  /**
   * The metric; {@code errorCol} is used when the dataset has it, else {@code inputCol} and {@code
   * reconstructionCol}.
   */
  static double evaluate(
      Dataset<?> dataset,
      String inputCol,
      String reconstructionCol,
      String errorCol,
      boolean relative) {
    StructType schema = dataset.schema();
    boolean fromErrors = Arrays.asList(schema.fieldNames()).contains(errorCol);
    if (fromErrors && !(schema.apply(errorCol).dataType() instanceof NumericType)) {
      throw new IllegalArgumentException(
          "ReconstructionErrorEvaluator: preimageErrorCol '"
              + errorCol
              + "' has type "
              + schema.apply(errorCol).dataType().simpleString()
              + ", expected a number");
    }
    List<String[]> vectorColumns = new ArrayList<>();
    if (!fromErrors || relative) {
      vectorColumns.add(new String[] {"inputCol", inputCol});
    }
    if (!fromErrors) {
      vectorColumns.add(new String[] {"reconstructionCol", reconstructionCol});
    }
    for (String[] column : vectorColumns) {
      if (!Arrays.asList(schema.fieldNames()).contains(column[1])) {
        throw new IllegalArgumentException(
            "ReconstructionErrorEvaluator: "
                + column[0]
                + " '"
                + column[1]
                + "' is not a column of the dataset (columns: "
                + String.join(", ", schema.fieldNames())
                + ")"
                + (column[0].equals("reconstructionCol")
                    ? "; set preimageErrorCol '"
                        + errorCol
                        + "' (or reconstructionCol) and preimageMethod ridge on the kernel PCA"
                        + " estimator so that its models produce it"
                    : ""));
      }
      if (!schema.apply(column[1]).dataType().equals(SQLDataTypes.VectorType())) {
        throw new IllegalArgumentException(
            "ReconstructionErrorEvaluator: "
                + column[0]
                + " '"
                + column[1]
                + "' has type "
                + schema.apply(column[1]).dataType().simpleString()
                + ", expected a vector");
      }
    }
    List<org.apache.spark.sql.Column> read = new ArrayList<>();
    if (fromErrors) {
      read.add(functions.col(quote(errorCol)).cast("double"));
      if (relative) {
        read.add(functions.col(quote(inputCol)));
      }
    } else {
      read.add(functions.col(quote(inputCol)));
      read.add(functions.col(quote(reconstructionCol)));
    }
    String[] names =
        fromErrors ? new String[] {errorCol, inputCol} : new String[] {inputCol, reconstructionCol};
    // Collected and merged on the driver from an empty start: a dataset without partitions
    // evaluates like one without rows.
    InputSpaceError total = new InputSpaceError();
    for (InputSpaceError part :
        dataset
            .toDF()
            .select(read.toArray(new org.apache.spark.sql.Column[0]))
            .javaRDD()
            .mapPartitionsWithIndex(
                (partition, rows) -> scan(partition, rows, names, fromErrors, relative), true)
            .collect()) {
      total = merge(total, part);
    }
    if (total.n == 0) {
      throw new IllegalArgumentException(
          "ReconstructionErrorEvaluator: the dataset has no rows to evaluate");
    }
    double error = total.squaredErrors / total.n;
    if (!relative) {
      return error;
    }
    double variance = total.scatter / total.n;
    return variance > 0 ? error / variance : (error > 0 ? Double.POSITIVE_INFINITY : 0.0);
  }

  private static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }

  private static Iterator<InputSpaceError> scan(
      int partition, Iterator<Row> rows, String[] names, boolean fromErrors, boolean relative) {
    InputSpaceError acc = new InputSpaceError();
    int width = fromErrors && !relative ? 1 : 2;
    long position = 0;
    while (rows.hasNext()) {
      Row row = rows.next();
      for (int c = 0; c < width; c++) {
        if (row.isNullAt(c)) {
          throw new IllegalArgumentException(
              "ReconstructionErrorEvaluator: column '"
                  + names[c]
                  + "' is null at position "
                  + position
                  + " of partition "
                  + partition);
        }
      }
      if (fromErrors) {
        acc.add(relative ? (Vector) row.getAs(1) : null, row.getDouble(0));
      } else {
        Vector x = row.getAs(0);
        Vector r = row.getAs(1);
        if (x.size() != r.size()) {
          throw new IllegalArgumentException(
              "ReconstructionErrorEvaluator: at position "
                  + position
                  + " of partition "
                  + partition
                  + " the vector of '"
                  + names[0]
                  + "' has size "
                  + x.size()
                  + " and the pre-image in '"
                  + names[1]
                  + "' size "
                  + r.size());
        }
        acc.add(relative ? x : null, squaredDistance(x, r.toArray(), acc.scattered(x.size())));
      }
      position++;
    }
    return Collections.singletonList(acc).iterator();
  }

  /** x scattered into the reused row array of size d. */
  private double[] scattered(int d) {
    if (row == null || row.length != d) {
      row = new double[d];
      delta = new double[d];
    }
    return row;
  }

  /**
   * ‖x − r‖², x scattered into {@code row} first. The pre-image r is dense by nature, so the work
   * is O(d) per row whatever x's form (pre-images of data too wide for dense d-wide arrays are
   * refused where they are made; their distances come from {@code preimageErrorCol}).
   */
  private static double squaredDistance(Vector input, double[] r, double[] row) {
    io.github.sparkkpca.linalg.RowSet.scatter(input, row, 0);
    double e = 0;
    for (int t = 0; t < row.length; t++) {
      double diff = row[t] - r[t];
      e += diff * diff;
    }
    return e;
  }

  /**
   * Adds a row's squared error and, when {@code input} is not null, the row to the variance
   * (Welford, O(d)).
   */
  private void add(Vector input, double error) {
    n++;
    squaredErrors += error;
    if (input == null) {
      return;
    }
    int d = input.size();
    if (mean == null) {
      mean = new double[d];
    }
    double[] x = scattered(d);
    io.github.sparkkpca.linalg.RowSet.scatter(input, x, 0);
    double deltaOld = 0;
    for (int t = 0; t < d; t++) {
      delta[t] = x[t] - mean[t];
      mean[t] += delta[t] / n;
    }
    for (int t = 0; t < d; t++) {
      deltaOld += delta[t] * (x[t] - mean[t]);
    }
    scatter += deltaOld;
  }

  private static InputSpaceError merge(InputSpaceError a, InputSpaceError b) {
    if (a.n == 0) {
      return b;
    }
    if (b.n == 0) {
      return a;
    }
    if (a.mean == null || b.mean == null) {
      InputSpaceError out = new InputSpaceError();
      out.n = a.n + b.n;
      out.squaredErrors = a.squaredErrors + b.squaredErrors;
      return out;
    }
    if (a.mean.length != b.mean.length) {
      throw new IllegalArgumentException(
          "ReconstructionErrorEvaluator: the input vectors have different sizes ("
              + a.mean.length
              + " and "
              + b.mean.length
              + ")");
    }
    InputSpaceError out = new InputSpaceError();
    out.n = a.n + b.n;
    out.squaredErrors = a.squaredErrors + b.squaredErrors;
    out.mean = new double[a.mean.length];
    double shift = 0;
    for (int t = 0; t < a.mean.length; t++) {
      double delta = b.mean[t] - a.mean[t];
      shift += delta * delta;
      out.mean[t] = a.mean[t] + delta * b.n / out.n;
    }
    out.scatter = a.scatter + b.scatter + shift * ((double) a.n * b.n / out.n);
    return out;
  }
}
