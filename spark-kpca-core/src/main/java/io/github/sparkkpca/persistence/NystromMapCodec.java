package io.github.sparkkpca.persistence;

import io.github.sparkkpca.feature.FeatureMap;
import io.github.sparkkpca.feature.NystromFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.RowSet;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The Nyström map on disk: {@code data/nystrom} (one row: the rank r and whether W is the
 * triangular inverse Cholesky factor) and {@code data/landmarks} (landmark j with row j of W, m
 * rows). W is stored as fitted, not recomputed, so a loaded model scores exactly as the saved one.
 */
final class NystromMapCodec implements FeatureMapCodec {

  private static final StructType HEADER =
      new StructType()
          .add("rank", DataTypes.IntegerType, false)
          .add("triangular", DataTypes.BooleanType, false);

  private static final StructType LANDMARKS =
      new StructType()
          .add("index", DataTypes.IntegerType, false)
          .add("point", SQLDataTypes.VectorType(), false)
          .add("weights", SQLDataTypes.VectorType(), false);

  @Override
  public void write(FeatureMap featureMap, String dataDir, SparkSession spark) {
    NystromFeatureMap map = (NystromFeatureMap) featureMap;
    LandmarkKernel lk = map.landmarkKernel();
    int m = lk.numLandmarks();
    int d = lk.dim();
    int r = map.rank();
    ModelChecks.Finite.require(lk.points().values(), "the landmarks");
    ModelChecks.Finite.require(map.weights(), "the whitening W");
    spark
        .createDataFrame(List.of(RowFactory.create(r, map.isTriangular())), HEADER)
        .coalesce(1)
        .write()
        .parquet(dataDir + "/nystrom");
    double[] w = map.weights();
    List<Row> rows = new ArrayList<>(m);
    for (int j = 0; j < m; j++) {
      double[] weights = new double[r];
      for (int c = 0; c < r; c++) {
        weights[c] = w[j + c * m];
      }
      rows.add(RowFactory.create(j, lk.landmark(j), new DenseVector(weights)));
    }
    ModelTables.write(rows, LANDMARKS, dataDir + "/landmarks", spark);
  }

  @Override
  public FeatureMap read(String dataDir, SparkSession spark, Kernel kernel, int dim) {
    List<Row> header = ModelTables.read(spark, dataDir + "/nystrom", HEADER, "");
    if (header.size() != 1) {
      throw new IllegalArgumentException(
          "data/nystrom holds " + header.size() + " rows, expected 1");
    }
    int r = header.get(0).getInt(0);
    boolean triangular = header.get(0).getBoolean(1);
    List<Row> rows = ModelTables.read(spark, dataDir + "/landmarks", LANDMARKS, "");
    int m = rows.size();
    if (r < 1 || r > m || (triangular && r != m)) {
      throw new IllegalArgumentException(
          "data/nystrom records rank "
              + r
              + (triangular ? " (triangular)" : "")
              + " for "
              + m
              + " landmarks");
    }
    // The sizes the summary and header record, checked against the rows before any allocation.
    ModelChecks.Sizes.vectors(
        rows, 1, dim, "numFeatures", "data/landmarks", "values in its landmark");
    ModelChecks.Sizes.sized(rows, 2, r, "data/nystrom records rank", "data/landmarks", "weights");
    Vector[] points = new Vector[m];
    double[] w = new double[Math.multiplyExact(m, r)];
    boolean[] seen = new boolean[m];
    for (Row row : rows) {
      int j = row.getInt(0);
      Vector point = (Vector) row.get(1);
      Vector weights = (Vector) row.get(2);
      if (j < 0 || j >= m || seen[j] || point.size() != dim || weights.size() != r) {
        throw new IllegalArgumentException(
            "data/landmarks row "
                + j
                + " is inconsistent with m = "
                + m
                + ", d = "
                + dim
                + ", r = "
                + r);
      }
      seen[j] = true;
      points[j] = ModelChecks.Finite.require(point, "data/landmarks row " + j + ": the landmark");
      double[] values =
          ModelChecks.Finite.require(
              weights.toArray(), "data/landmarks row " + j + ": the weights");
      for (int c = 0; c < r; c++) {
        w[j + c * m] = values[c];
      }
    }
    return NystromFeatureMap.of(
        new LandmarkKernel(kernel, RowSet.of(points, dim)), w, r, triangular);
  }
}
