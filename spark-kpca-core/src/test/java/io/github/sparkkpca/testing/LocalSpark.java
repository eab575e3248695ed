package io.github.sparkkpca.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** The test suite's local SparkSession (one per JVM) and seeded data generators. */
public final class LocalSpark {

  private static SparkSession session;

  private LocalSpark() {}

  /** A real local Spark with 2 cores, shared by all tests of this JVM. */
  public static synchronized SparkSession spark() {
    if (session == null) {
      session =
          SparkSession.builder()
              .master("local[2]")
              .appName("spark-kpca-tests")
              .config("spark.ui.enabled", "false")
              .config("spark.sql.shuffle.partitions", "4")
              .config("spark.driver.host", "127.0.0.1")
              .config("spark.driver.bindAddress", "127.0.0.1")
              .getOrCreate();
      session.sparkContext().setLogLevel("WARN");
    }
    return session;
  }

  /**
   * n rows of a seeded mixture: three Gaussian clusters in a 2-D subspace of R^d plus isotropic
   * noise (so the kernel PCA spectrum has structure), as a row-major n×d array.
   */
  public static double[][] clusters(int n, int d, long seed) {
    Random random = new Random(seed);
    double[][] basis = new double[2][d];
    for (double[] b : basis) {
      for (int t = 0; t < d; t++) {
        b[t] = random.nextGaussian();
      }
    }
    double[][] centres = {{0, 0}, {3, 1}, {-1, 3}};
    double[][] x = new double[n][d];
    for (int i = 0; i < n; i++) {
      double[] c = centres[i % 3];
      double a = c[0] + 0.5 * random.nextGaussian();
      double b = c[1] + 0.5 * random.nextGaussian();
      for (int t = 0; t < d; t++) {
        x[i][t] = a * basis[0][t] + b * basis[1][t] + 0.3 * random.nextGaussian();
      }
    }
    return x;
  }

  /**
   * A DataFrame with a {@code features} vector column (size metadata set) and an {@code id} column,
   * split into {@code partitions} consecutive slices: row i of the array is row i of the DataFrame
   * for any number of partitions (the landmark sample depends on the rows in their order, not on
   * the split).
   */
  public static Dataset<Row> frame(double[][] rows, int partitions) {
    List<Row> out = new ArrayList<>(rows.length);
    for (int i = 0; i < rows.length; i++) {
      out.add(RowFactory.create((long) i, new DenseVector(rows[i])));
    }
    StructType schema =
        new StructType()
            .add("id", DataTypes.LongType, false)
            .add(
                new AttributeGroup("features", rows.length == 0 ? 1 : rows[0].length)
                    .toStructField());
    return slices(out, schema, partitions);
  }

  /**
   * A DataFrame of {@code id}, {@code features} (size metadata set) and a double {@code label}
   * column, split into {@code partitions} consecutive slices as {@link #frame}.
   */
  public static Dataset<Row> labelled(double[][] x, double[] y, int partitions) {
    List<Row> rows = new ArrayList<>(x.length);
    for (int i = 0; i < x.length; i++) {
      rows.add(RowFactory.create((long) i, new DenseVector(x[i]), y[i]));
    }
    StructType schema =
        new StructType()
            .add("id", DataTypes.LongType, false)
            .add(new AttributeGroup("features", x[0].length).toStructField())
            .add("label", DataTypes.DoubleType, false);
    return slices(rows, schema, partitions);
  }

  /**
   * A DataFrame of the given vectors (any may be null or sparse), without size metadata, split into
   * {@code partitions} consecutive slices (so row i of the list is row i of the DataFrame).
   */
  public static Dataset<Row> vectors(List<Vector> vectors, int partitions) {
    List<Row> out = new ArrayList<>(vectors.size());
    for (int i = 0; i < vectors.size(); i++) {
      out.add(RowFactory.create((long) i, vectors.get(i)));
    }
    StructType schema =
        new StructType()
            .add("id", DataTypes.LongType, false)
            .add("features", org.apache.spark.ml.linalg.SQLDataTypes.VectorType(), true);
    return slices(out, schema, partitions);
  }

  /** The rows as a DataFrame of {@code schema}, in {@code partitions} consecutive slices. */
  private static Dataset<Row> slices(List<Row> rows, StructType schema, int partitions) {
    org.apache.spark.api.java.JavaSparkContext jsc =
        org.apache.spark.api.java.JavaSparkContext.fromSparkContext(spark().sparkContext());
    return spark().createDataFrame(jsc.parallelize(rows, partitions), schema);
  }

  /** The vectors of {@code column}, ordered by {@code id}, as arrays. */
  public static double[][] collect(Dataset<Row> df, String column) {
    List<Row> rows = df.orderBy("id").select(column).collectAsList();
    double[][] out = new double[rows.size()][];
    for (int i = 0; i < out.length; i++) {
      out[i] = ((Vector) rows.get(i).get(0)).toArray();
    }
    return out;
  }
}
