package io.github.sparkkpca.persistence;

import io.github.sparkkpca.feature.KernelExpansion;
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
 * The table of a kernel expansion, {@code data/support}, which an expansion model (exact kernel
 * PCA) and a regression model store alike: row j holds j, the support point z_j and its c expansion
 * coefficients (α_{j,t})_t. Written and read by this one codec; checked finite both ways and
 * against the recorded sizes before anything of their size is allocated. Messages complete "Cannot
 * load X from 'path': ".
 */
public final class ExpansionTable {

  /** The table's schema. */
  public static final StructType SCHEMA =
      new StructType()
          .add("index", DataTypes.IntegerType, false)
          .add("point", SQLDataTypes.VectorType(), false)
          .add("coefficients", SQLDataTypes.VectorType(), false);

  private static final String TABLE = "data/support";

  private ExpansionTable() {}

  /**
   * Writes {@code expansion}'s points and coefficients to {@code dir}, refusing non-finite ones.
   */
  public static void write(KernelExpansion expansion, String dir, SparkSession spark) {
    LandmarkKernel support = expansion.support();
    int m = support.numLandmarks();
    int c = expansion.columns();
    ModelChecks.Finite.require(support.points().values(), "the support points");
    ModelChecks.Finite.require(expansion.coefficients(), "the expansion coefficients");
    List<Row> rows = new ArrayList<>(m);
    double[] b = expansion.coefficients();
    for (int j = 0; j < m; j++) {
      double[] coefficients = new double[c];
      for (int t = 0; t < c; t++) {
        coefficients[t] = b[j + t * m];
      }
      rows.add(RowFactory.create(j, support.landmark(j), new DenseVector(coefficients)));
    }
    ModelTables.write(rows, SCHEMA, dir, spark);
  }

  /** The table's rows (m of them), read from {@code dir}. */
  public static List<Row> read(SparkSession spark, String dir, String what) {
    return ModelTables.read(spark, dir, SCHEMA, what);
  }

  /**
   * The expansion the rows hold with {@code kernel}: their sizes checked against d and c first.
   *
   * @param columns c, the coefficients each row must hold
   * @param columnsRecorded where c comes from ("data/summary records numComponents")
   */
  public static KernelExpansion expansion(
      List<Row> rows, Kernel kernel, int d, int columns, String columnsRecorded) {
    int m = rows.size();
    ModelChecks.Sizes.vectors(rows, 1, d, "numFeatures", TABLE, "values in its point");
    ModelChecks.Sizes.sized(rows, 2, columns, columnsRecorded, TABLE, "coefficients");
    Vector[] points = new Vector[m];
    double[] coefficients = new double[m * columns];
    boolean[] seen = new boolean[m];
    for (Row row : rows) {
      int j = row.getInt(0);
      Vector point = (Vector) row.get(1);
      Vector b = (Vector) row.get(2);
      if (j < 0 || j >= m || seen[j] || point.size() != d || b.size() != columns) {
        throw new IllegalArgumentException(
            TABLE
                + " row "
                + j
                + " is inconsistent with m = "
                + m
                + ", d = "
                + d
                + " and "
                + columns
                + " coefficients");
      }
      seen[j] = true;
      points[j] = ModelChecks.Finite.require(point, TABLE + " row " + j + ": the point");
      double[] values =
          ModelChecks.Finite.require(b.toArray(), TABLE + " row " + j + ": the coefficients");
      for (int t = 0; t < columns; t++) {
        coefficients[j + t * m] = values[t];
      }
    }
    return new KernelExpansion(
        new LandmarkKernel(kernel, RowSet.of(points, d)), coefficients, columns);
  }
}
