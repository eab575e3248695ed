package io.github.sparkkpca.execution;

import io.github.sparkkpca.linalg.RowSet;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * Landmarks given by the user instead of sampled: validated (same size, finite values), sparse
 * vectors kept as their non-zeros ({@link RowSet#of}), and their place in a saved estimator ({@code
 * data/landmarks}: index, landmark, sparse vectors stored sparse).
 *
 * @param points the m landmarks
 */
public record SuppliedLandmarks(RowSet points) {

  private static final String DIRECTORY = "data/landmarks";

  /**
   * The vectors of {@code column} in {@code landmarks}, collected to the driver: at most one more
   * than the most landmarks a fit takes ({@link FitMemory#MAX_SUPPLIED_LANDMARKS}), so that a large
   * table is refused by the fit, not collected.
   */
  public static Vector[] collect(org.apache.spark.sql.Dataset<?> landmarks, String column) {
    java.util.List<org.apache.spark.sql.Row> rows =
        landmarks
            .select(QuotedColumns.column(landmarks, column))
            .limit(FitMemory.MAX_SUPPLIED_LANDMARKS + 1)
            .collectAsList();
    Vector[] vectors = new Vector[rows.size()];
    for (int i = 0; i < vectors.length; i++) {
      vectors[i] = (Vector) rows.get(i).get(0);
    }
    return vectors;
  }

  /**
   * Validates and copies the vectors.
   *
   * @throws IllegalArgumentException naming the landmark that is null, of another size or not
   *     finite, or when there is none or more than {@link FitMemory#MAX_SUPPLIED_LANDMARKS}
   */
  public static SuppliedLandmarks of(Vector... landmarks) {
    if (landmarks == null || landmarks.length == 0) {
      throw new IllegalArgumentException("landmarks: at least one landmark is needed");
    }
    if (landmarks.length > FitMemory.MAX_SUPPLIED_LANDMARKS) {
      throw new IllegalArgumentException(
          "landmarks: "
              + landmarks.length
              + " supplied, more than "
              + FitMemory.MAX_SUPPLIED_LANDMARKS
              + ", the most landmarks a fit takes");
    }
    if (landmarks[0] == null) {
      throw new IllegalArgumentException("landmarks: landmark 0 is null");
    }
    int d = landmarks[0].size();
    for (int j = 0; j < landmarks.length; j++) {
      InputVectors.require(landmarks[j], d, "landmarks: landmark " + j);
    }
    return new SuppliedLandmarks(RowSet.of(landmarks.clone(), d));
  }

  /** m×d row-major (a new array when the landmarks are held sparse). */
  public double[] rows() {
    return points.toDense();
  }

  /** m. */
  public int count() {
    return points.count();
  }

  /** d. */
  public int dim() {
    return points.dim();
  }

  /**
   * Validates and copies m×d row-major landmarks.
   *
   * @throws IllegalArgumentException naming the landmark that is not finite
   */
  public static SuppliedLandmarks ofRows(double[] rows, int m, int d) {
    Vector[] landmarks = new Vector[m];
    for (int j = 0; j < m; j++) {
      landmarks[j] = new DenseVector(Arrays.copyOfRange(rows, j * d, (j + 1) * d));
    }
    return of(landmarks);
  }

  /** Landmark j as a vector (sparse when the landmarks are held sparse). */
  public Vector landmark(int j) {
    return points.row(j);
  }

  /** Writes the landmarks under {@code path/data/landmarks}. */
  public void save(String path, SparkSession spark) {
    List<Row> table = new ArrayList<>(count());
    for (int j = 0; j < count(); j++) {
      table.add(RowFactory.create(j, landmark(j)));
    }
    StructType schema =
        new StructType().add("index", "int").add("landmark", SQLDataTypes.VectorType());
    spark.createDataFrame(table, schema).write().parquet(path + "/" + DIRECTORY);
  }

  /**
   * The landmarks saved under {@code path}, or null when it holds none.
   *
   * @throws IllegalArgumentException naming the path when it cannot be read
   */
  public static SuppliedLandmarks load(String path, SparkSession spark, String what) {
    Path landmarksPath = new Path(path, DIRECTORY);
    try {
      FileSystem fs = landmarksPath.getFileSystem(spark.sparkContext().hadoopConfiguration());
      if (!fs.exists(landmarksPath)) {
        return null;
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "Cannot load " + what + " from '" + path + "': " + e.getMessage(), e);
    }
    List<Row> table =
        spark.read().parquet(landmarksPath.toString()).orderBy("index").collectAsList();
    Vector[] landmarks = new Vector[table.size()];
    for (int j = 0; j < landmarks.length; j++) {
      landmarks[j] = (Vector) table.get(j).get(1);
    }
    return of(landmarks);
  }
}
