package io.github.sparkkpca.evaluation;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;

/**
 * The input-space metrics of {@link ReconstructionErrorEvaluator}: the mean of ‖x − x̂‖² over the
 * rows and, for the relative one, the rows' total variance (1/n) Σ‖x − x̄‖², in one pass. Each
 * partition keeps n, Σ‖x − x̂‖², the mean x̄ and Σ‖x − x̄‖² (Welford); partitions merge by Chan et
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

  static double evaluate(
      Dataset<?> dataset, String inputCol, String reconstructionCol, boolean relative) {
    StructType schema = dataset.schema();
    for (String[] column :
        new String[][] {{"inputCol", inputCol}, {"reconstructionCol", reconstructionCol}}) {
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
                    ? "; set reconstructionCol (and preimageMethod ridge) on the kernel PCA"
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
    InputSpaceError total =
        dataset
            .toDF()
            .select(
                org.apache.spark.sql.functions.col(quote(inputCol)),
                org.apache.spark.sql.functions.col(quote(reconstructionCol)))
            .javaRDD()
            .mapPartitionsWithIndex(
                (partition, rows) -> scan(partition, rows, inputCol, reconstructionCol), true)
            .reduce(InputSpaceError::merge);
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
      int partition, Iterator<Row> rows, String inputCol, String reconstructionCol) {
    InputSpaceError acc = new InputSpaceError();
    long position = 0;
    while (rows.hasNext()) {
      Row row = rows.next();
      if (row.isNullAt(0) || row.isNullAt(1)) {
        throw new IllegalArgumentException(
            "ReconstructionErrorEvaluator: column '"
                + (row.isNullAt(0) ? inputCol : reconstructionCol)
                + "' is null at position "
                + position
                + " of partition "
                + partition);
      }
      Vector x = row.getAs(0);
      Vector r = row.getAs(1);
      if (x.size() != r.size()) {
        throw new IllegalArgumentException(
            "ReconstructionErrorEvaluator: at position "
                + position
                + " of partition "
                + partition
                + " the vector of '"
                + inputCol
                + "' has size "
                + x.size()
                + " and the pre-image in '"
                + reconstructionCol
                + "' size "
                + r.size());
      }
      acc.add(x, r.toArray());
      position++;
    }
    return Collections.singletonList(acc).iterator();
  }

  /**
   * Adds a row. The pre-image r is dense by nature, so the work is O(d) per row whatever x's form
   * (pre-images of data too wide for dense d-wide arrays are refused where they are made).
   */
  private void add(Vector input, double[] r) {
    int d = input.size();
    if (mean == null) {
      mean = new double[d];
    }
    if (row == null || row.length != d) {
      row = new double[d];
      delta = new double[d];
    }
    io.github.sparkkpca.linalg.RowSet.scatter(input, row, 0);
    double[] x = row;
    n++;
    double e = 0;
    double deltaOld = 0;
    for (int t = 0; t < x.length; t++) {
      double diff = x[t] - r[t];
      e += diff * diff;
      delta[t] = x[t] - mean[t];
      mean[t] += delta[t] / n;
    }
    for (int t = 0; t < x.length; t++) {
      deltaOld += delta[t] * (x[t] - mean[t]);
    }
    squaredErrors += e;
    scatter += deltaOld;
  }

  private static InputSpaceError merge(InputSpaceError a, InputSpaceError b) {
    if (a.n == 0) {
      return b;
    }
    if (b.n == 0) {
      return a;
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
