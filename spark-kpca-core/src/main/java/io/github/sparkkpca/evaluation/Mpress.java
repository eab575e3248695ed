package io.github.sparkkpca.evaluation;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.SymmetricEigen;
import java.util.List;
import java.util.OptionalLong;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;

/**
 * Leave-one-out choice of the number of kernel principal components, k, by MPRESS (Hallgren, <i>Kernel PCA
 * and the Nyström method</i>, PhD thesis, University College London, 2021, chapter 5).
 *
 * <p>For each row i, uncentred kernel PCA is fitted to the other n − 1 rows: (U_k, Λ_k) are the top-k
 * eigenpairs of K₍₋ᵢ₎, the kernel matrix with row and column i deleted, and the unit principal axes are
 * V_k = Φ₍₋ᵢ₎ᵀ U_k Λ_k^{-1/2}. The held-out row's squared feature-space residual is
 * e_i²(k) = ‖φ(x_i) − V_k V_kᵀ φ(x_i)‖². With k₋ᵢ the i-th column of K without entry i, the thesis writes it
 * as k(x_i,x_i) − 2 k₋ᵢᵀU_kΛ_k⁻¹U_kᵀk₋ᵢ + k₋ᵢᵀU_kΛ_k⁻¹U_kᵀK₍₋ᵢ₎U_kΛ_k⁻¹U_kᵀk₋ᵢ; since
 * K₍₋ᵢ₎U_k = U_kΛ_k the last term equals the middle one, so
 * <pre>  e_i²(k) = k(x_i,x_i) − Σ_{j≤k} (u_jᵀk₋ᵢ)² / λ_j,</pre>
 * one projection z = Uᵀk₋ᵢ and a running sum give every k at once. As the feature dimension is unknown, the
 * thesis replaces the linear-PCA divisor n(d − k) by n(n − k), which penalises large k:
 * <pre>  MPRESS(k) = Σ_i e_i²(k) / (n(n − k)),  k̂ = argmin_k MPRESS(k).</pre>
 * The kernel matrix is not centred, as in the thesis (its Algorithm 6 also scales K by 1/(n − 1), which
 * scales every e_i² alike and leaves k̂ unchanged; it is not applied here).
 *
 * <p>Cost: n eigendecompositions of (n − 1)×(n − 1) matrices (only the leading maxK eigenvectors are formed),
 * O(n⁴) in all, on the driver: exact only for small n, hence the row limit. Eigenvalues near zero make the
 * e_i² explode (the thesis restricts k to clearly non-zero eigenvalues), so maxK must stay below the
 * numerical rank of K: by Cauchy interlacing λ_k(K₍₋ᵢ₎) ≥ λ_{k+1}(K), so maxK ≤ rank(K) − 1 keeps every
 * leave-one-out eigenvalue used above the threshold. Both limits are checked before the expensive work. The
 * decremental eigendecomposition of the thesis' chapter 3 is not used; each K₍₋ᵢ₎ is decomposed afresh.
 */
public final class Mpress {

  /** The default largest number of rows; about 20 s at n = 300 on one core. */
  public static final int DEFAULT_MAX_ROWS = 300;

  /** Relative threshold below which an eigenvalue of K counts as zero (rank check). */
  public static final double RCOND = 1e-10;

  private Mpress() {
  }

  /**
   * The MPRESS curve and its minimiser.
   *
   * @param mpress MPRESS(k) for k = 1..maxK (index k − 1)
   * @param k      the selected number of components, argmin_k MPRESS(k) (the smallest on ties)
   * @param n      the number of rows used
   */
  public record Curve(double[] mpress, int k, int n) {
  }

  /**
   * MPRESS for the rows of {@code column} (vectors of equal length). With more than {@code maxRows} rows
   * it fails, unless {@code subsampleSeed} is given: then it runs on a seeded uniform subsample of
   * maxRows rows (reproducible for the same input and partitioning).
   *
   * @throws IllegalArgumentException naming the limit when the input is too large, or the parameter when
   *                                  maxK is out of range
   */
  public static Curve compute(Dataset<?> dataset, String column, Kernel kernel, int maxK, int maxRows,
      OptionalLong subsampleSeed) {
    Sample sample = sample(dataset, column, maxRows, subsampleSeed);
    return compute(kernel, sample.points(), sample.n(), sample.d(), maxK);
  }

  /**
   * Row-major points (n×d) collected on the driver.
   *
   * @param points the rows, row-major
   * @param n      the number of rows
   * @param d      the length of each row
   */
  public record Sample(double[] points, int n, int d) {
  }

  /**
   * The rows of {@code column} on the driver, at most {@code maxRows} of them: more fail (counted before
   * anything is collected), unless {@code subsampleSeed} is given, which takes a seeded uniform subsample of
   * maxRows rows (reproducible for the same input and partitioning).
   *
   * @throws IllegalArgumentException naming the limit when the input is too large, or the row of a null or
   *                                  mis-sized vector
   */
  public static Sample sample(Dataset<?> dataset, String column, int maxRows, OptionalLong subsampleSeed) {
    if (maxRows < 2) {
      throw new IllegalArgumentException("maxRows must be at least 2, got " + maxRows);
    }
    Dataset<?> input = dataset;
    long n = dataset.count();
    if (n > maxRows) {
      if (subsampleSeed.isEmpty()) {
        throw new IllegalArgumentException("MPRESS is exact and costs O(n^4) on the driver: it accepts at most "
            + "maxRows = " + maxRows + " rows, the input has n = " + n + "; raise maxRows or ask for a seeded "
            + "subsample of maxRows rows");
      }
      input = dataset.orderBy(functions.rand(subsampleSeed.getAsLong())).limit(maxRows);
    }
    List<Row> rows = input.select(functions.col(column)).collectAsList();
    int size = rows.size();
    int d = size == 0 || rows.get(0).get(0) == null ? 0 : ((Vector) rows.get(0).get(0)).size();
    double[] points = new double[size * d];
    for (int i = 0; i < size; i++) {
      Vector v = (Vector) rows.get(i).get(0);
      if (v == null || v.size() != d) {
        throw new IllegalArgumentException("Column '" + column + "': row " + i + " is " + (v == null ? "null"
            : "of length " + v.size()) + ", expected a vector of length " + d);
      }
      System.arraycopy(v.toArray(), 0, points, i * d, d);
    }
    return new Sample(points, size, d);
  }

  /**
   * MPRESS for n points given row-major in {@code points} (n×d).
   *
   * @throws IllegalArgumentException when n &lt; 3 or maxK is not in [1, min(n − 1, rank(K) − 1)]
   */
  public static Curve compute(Kernel kernel, double[] points, int n, int d, int maxK) {
    if (n < 3) {
      throw new IllegalArgumentException("MPRESS needs at least 3 rows, got n = " + n);
    }
    if (maxK < 1 || maxK > n - 1) {
      throw new IllegalArgumentException("maxK must be in [1, n - 1] = [1, " + (n - 1) + "], got " + maxK);
    }
    double[] gram = new LandmarkKernel(kernel, points, n, d).gram();
    int rank = SymmetricEigen.of(gram, n).rank(RCOND);
    if (maxK > rank - 1) {
      throw new IllegalArgumentException("maxK = " + maxK + " needs eigenvalues the kernel matrix does not have: "
          + "its numerical rank is " + rank + " (n = " + n + "), so maxK must be at most " + (rank - 1)
          + " (near-zero eigenvalues make the leave-one-out errors explode)");
    }
    int m = n - 1;
    double[] sums = new double[maxK];
    double[] reduced = new double[m * m];
    double[] column = new double[m];
    for (int i = 0; i < n; i++) {
      // K₍₋ᵢ₎ (column-major) and k₋ᵢ.
      for (int c = 0, cc = 0; c < n; c++) {
        if (c == i) {
          continue;
        }
        for (int r = 0, rr = 0; r < n; r++) {
          if (r != i) {
            reduced[rr++ + cc * m] = gram[r + c * n];
          }
        }
        column[cc] = gram[c + i * n];
        cc++;
      }
      SymmetricEigen eig = SymmetricEigen.leading(reduced, m, maxK);
      double error = gram[i + i * n];
      for (int j = 0; j < maxK; j++) {
        double z = 0;
        for (int r = 0; r < m; r++) {
          z += eig.vectors()[r + j * m] * column[r];
        }
        error -= z * z / eig.values()[j];
        sums[j] += error;
      }
    }
    double[] mpress = new double[maxK];
    int best = 0;
    for (int j = 0; j < maxK; j++) {
      int k = j + 1;
      mpress[j] = sums[j] / ((double) n * (n - k));
      if (mpress[j] < mpress[best]) {
        best = j;
      }
    }
    return new Curve(mpress, best + 1, n);
  }
}
