package io.github.sparkkpca.examples.bench;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.udf;

import dev.ludovic.netlib.lapack.LAPACK;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.feature.PCA;
import org.apache.spark.ml.feature.PCAModel;
import org.apache.spark.ml.linalg.DenseMatrix;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.Matrix;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.storage.StorageLevel;
import org.netlib.util.intW;

/**
 * The baseline a Spark user can build today without this library: Nyström features computed row by
 * row in a UDF, then Spark ML's linear {@link PCA} on them.
 *
 * <p>What it does, as a user would write it: on the driver, K_mm from the landmarks and its inverse
 * square root W = V Λ^{-1/2} Vᵀ (eigenvalues ≤ 1e-12·λ_max dropped, LAPACK {@code dsyev});
 * broadcast the landmarks and W; a UDF maps each row x to φ(x) = W k_x with k_x[j] = exp(−γ‖x −
 * z_j‖²) ({@code Vectors.sqdist}) and W k_x by {@code Matrix.multiply} (a BLAS gemv); the feature
 * column is cached, because {@code PCA.fit} reads it twice (column statistics, then the Gramian),
 * and {@code PCA} with k components is fitted on it. The landmarks are handed in (the same ones as
 * the compared {@code NystromKernelPCA} fit), so sampling them costs the baseline nothing.
 *
 * <p>φ here equals the library's features up to an orthogonal rotation, so the PCA spectra agree;
 * the explained variance ratios are returned for that check.
 */
public final class SparkPcaBaseline {

  private SparkPcaBaseline() {}

  /**
   * The fitted baseline.
   *
   * @param seconds wall time from the landmarks to the fitted PCAModel (feature caching included)
   * @param explainedVarianceRatio Spark's explained variance: component variance / total variance
   *     of φ
   */
  public record Result(double seconds, double[] explainedVarianceRatio) {}

  /**
   * Fits the baseline.
   *
   * @param data the rows, with the vector column {@code inputCol}
   * @param landmarks m×d landmarks (one per row)
   * @param gamma the rbf kernel's γ
   * @param k components
   */
  public static Result fit(
      Dataset<Row> data, String inputCol, Matrix landmarks, double gamma, int k) {
    long start = System.nanoTime();
    int m = landmarks.numRows();
    Vector[] z = new Vector[m];
    for (int j = 0; j < m; j++) {
      double[] row = new double[landmarks.numCols()];
      for (int t = 0; t < row.length; t++) {
        row[t] = landmarks.apply(j, t);
      }
      z[j] = Vectors.dense(row);
    }
    DenseMatrix w = inverseSquareRoot(kernelMatrix(z, gamma), m);
    Broadcast<Vector[]> zb =
        data.sparkSession()
            .sparkContext()
            .broadcast(z, scala.reflect.ClassTag$.MODULE$.apply(Vector[].class));
    Broadcast<DenseMatrix> wb =
        data.sparkSession()
            .sparkContext()
            .broadcast(w, scala.reflect.ClassTag$.MODULE$.apply(DenseMatrix.class));
    UserDefinedFunction nystrom =
        udf(
            (UDF1<Vector, Vector>)
                x -> {
                  Vector[] lm = zb.value();
                  double[] kx = new double[lm.length];
                  for (int j = 0; j < lm.length; j++) {
                    kx[j] = Math.exp(-gamma * Vectors.sqdist(x, lm[j]));
                  }
                  return wb.value().multiply(new DenseVector(kx));
                },
            SQLDataTypes.VectorType());
    Dataset<Row> features =
        data.select(nystrom.apply(col(inputCol)).as("nystrom"))
            .persist(StorageLevel.MEMORY_AND_DISK());
    try {
      PCAModel pca = new PCA().setInputCol("nystrom").setOutputCol("pca").setK(k).fit(features);
      double seconds = (System.nanoTime() - start) / 1e9;
      return new Result(seconds, pca.explainedVariance().toArray());
    } finally {
      features.unpersist(false);
      zb.destroy();
      wb.destroy();
    }
  }

  /** K_mm, column-major. */
  static double[] kernelMatrix(Vector[] z, double gamma) {
    int m = z.length;
    double[] kmm = new double[m * m];
    for (int i = 0; i < m; i++) {
      for (int j = i; j < m; j++) {
        double v = Math.exp(-gamma * Vectors.sqdist(z[i], z[j]));
        kmm[i + j * m] = v;
        kmm[j + i * m] = v;
      }
    }
    return kmm;
  }

  /** V Λ^{-1/2} Vᵀ over the eigenvalues above 1e-12·λ_max (the pseudo-inverse square root). */
  static DenseMatrix inverseSquareRoot(double[] symmetric, int m) {
    double[] a = symmetric.clone();
    double[] values = new double[m];
    intW info = new intW(0);
    double[] query = new double[1];
    LAPACK lapack = LAPACK.getInstance();
    lapack.dsyev("V", "U", m, a, m, values, query, -1, info);
    double[] work = new double[(int) query[0]];
    lapack.dsyev("V", "U", m, a, m, values, work, work.length, info);
    if (info.val != 0) {
      throw new IllegalStateException("dsyev failed: info = " + info.val);
    }
    double max = values[m - 1];
    double[] scaled = new double[m * m];
    for (int c = 0; c < m; c++) {
      double s = values[c] > 1e-12 * max ? 1.0 / Math.sqrt(values[c]) : 0.0;
      for (int i = 0; i < m; i++) {
        scaled[i + c * m] = a[i + c * m] * s;
      }
    }
    double[] w = new double[m * m];
    // W = (V Λ^{-1/2}) Vᵀ
    dev.ludovic
        .netlib
        .blas
        .BLAS
        .getInstance()
        .dgemm("N", "T", m, m, m, 1.0, scaled, m, a, m, 0.0, w, m);
    return new DenseMatrix(m, m, w);
  }
}
