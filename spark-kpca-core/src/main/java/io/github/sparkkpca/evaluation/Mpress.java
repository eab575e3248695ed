package io.github.sparkkpca.evaluation;

import io.github.sparkkpca.execution.FitMemory;
import io.github.sparkkpca.execution.RowHash;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.DeletedRowEigen;
import io.github.sparkkpca.linalg.RankOneEigenUpdate;
import io.github.sparkkpca.linalg.SymmetricEigen;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import scala.Tuple2;

/**
 * Leave-one-out choice of the number of kernel principal components, k, by MPRESS (Hallgren,
 * <i>Kernel PCA and the Nyström method</i>, PhD thesis, University College London, 2021, chapter
 * 5).
 *
 * <p>For each row i, uncentred kernel PCA is fitted to the other n − 1 rows: (U_k, Λ_k) are the
 * top-k eigenpairs of K₍₋ᵢ₎, the kernel matrix with row and column i deleted, and the unit
 * principal axes are V_k = Φ₍₋ᵢ₎ᵀ U_k Λ_k^{-1/2}. The held-out row's squared feature-space residual
 * is e_i²(k) = ‖φ(x_i) − V_k V_kᵀ φ(x_i)‖². With k₋ᵢ the i-th column of K without entry i, the
 * thesis writes it as k(x_i,x_i) − 2 k₋ᵢᵀU_kΛ_k⁻¹U_kᵀk₋ᵢ + k₋ᵢᵀU_kΛ_k⁻¹U_kᵀK₍₋ᵢ₎U_kΛ_k⁻¹U_kᵀk₋ᵢ;
 * since K₍₋ᵢ₎U_k = U_kΛ_k the last term equals the middle one, so
 *
 * <pre>  e_i²(k) = k(x_i,x_i) − Σ_{j≤k} (u_jᵀk₋ᵢ)² / λ_j,</pre>
 *
 * one projection z = Uᵀk₋ᵢ and a running sum give every k at once. As the feature dimension is
 * unknown, the thesis replaces the linear-PCA divisor n(d − k) by n(n − k), which penalises large
 * k:
 *
 * <pre>  MPRESS(k) = Σ_i e_i²(k) / (n(n − k)),  k̂ = argmin_k MPRESS(k).</pre>
 *
 * The kernel matrix is not centred, as in the thesis (its Algorithm 6 also scales K by 1/(n − 1),
 * which scales every e_i² alike and leaves k̂ unchanged; it is not applied here).
 *
 * <p>Cost: n eigendecompositions of (n − 1)×(n − 1) matrices (only the leading maxK eigenvectors
 * are formed), O(n⁴) in all, on the driver: exact only for small n, hence the row limit.
 * Eigenvalues near zero make the e_i² explode (the thesis restricts k to clearly non-zero
 * eigenvalues), so maxK must stay below the numerical rank of K: by Cauchy interlacing λ_k(K₍₋ᵢ₎) ≥
 * λ_{k+1}(K), so maxK ≤ rank(K) − 1 keeps every leave-one-out eigenvalue used above the threshold.
 * Both limits are checked before the expensive work.
 *
 * <p><b>Decremental routes.</b> K = QΛQᵀ is decomposed once, and each K₍₋ᵢ₎'s eigenpairs are
 * derived from it instead of decomposing K₍₋ᵢ₎ afresh ({@link Method#BATCH}):
 *
 * <ul>
 *   <li>{@link Method#RANK_ONE}, the thesis' decremental algorithm (§3.2, Algorithm 3, suggested
 *       for this use in ch. 5): two rank-one modifications K − σk₁k₁ᵀ + σk₀k₀ᵀ (σ = 4/k_ii, k₁, k₀
 *       column i of K with k_ii/2 resp. k_ii/4 at i), after which e_i is an eigenvector and the
 *       other eigenpairs are those of K₍₋ᵢ₎. Only eigen-coordinates are carried ({@link
 *       RankOneEigenUpdate#transposeTimes}), so each row costs O(n²) (two full secular solves);
 *   <li>{@link Method#DELETION}: the eigenvalues of K₍₋ᵢ₎ are the roots of Σⱼ Q_ij²/(λⱼ − μ) = 0
 *       and the projections uⱼᵀk₋ᵢ follow from Qᵀk̃ᵢ ({@link DeletedRowEigen}), so only the maxK
 *       leading roots are solved: O(n·maxK) per row after one O(n³) product Qᵀ(K − diag K).
 * </ul>
 *
 * Both are exact in exact arithmetic and have the backward error of a batch decomposition (the
 * rank-one route: ε(λ_max + σ‖k₁‖²) ≤ 5ελ_max, since (K²)ᵢᵢ ≤ λ_max k_ii). A row whose k_ii is not
 * positive, whose deleted eigenvector is not cleanly e_i, or whose leave-one-out eigenvalues fall
 * below the rank threshold, is decomposed afresh (counted in {@link Run#fallbackRows}). {@link
 * Method#AUTO} takes the deletion route from {@link #DECREMENTAL_FROM_ROWS} rows on; measured times
 * are in the project's docs/incremental.md.
 */
public final class Mpress {

  /** The default largest number of rows; about 20 s at n = 300 on one core. */
  public static final int DEFAULT_MAX_ROWS = 300;

  /** AUTO uses the decremental route from this many rows on. */
  public static final int DECREMENTAL_FROM_ROWS = 40;

  /** How each leave-one-out eigendecomposition is obtained. */
  public enum Method {
    /** A new decomposition of each K₍₋ᵢ₎ (leading maxK eigenvectors). */
    BATCH,
    /** The thesis' decremental algorithm: two rank-one downdates of K's decomposition per row. */
    RANK_ONE,
    /** The leading roots of the deleted row's secular equation, from K's decomposition. */
    DELETION,
    /** DELETION from {@link #DECREMENTAL_FROM_ROWS} rows on, else BATCH. */
    AUTO
  }

  /** Relative threshold below which an eigenvalue of K counts as zero (rank check). */
  public static final double RCOND = 1e-10;

  private Mpress() {}

  /**
   * The MPRESS curve and its minimiser.
   *
   * @param mpress MPRESS(k) for k = 1..maxK (index k − 1)
   * @param k the selected number of components, argmin_k MPRESS(k) (the smallest on ties)
   * @param n the number of rows used
   */
  public record Curve(double[] mpress, int k, int n) {}

  /**
   * MPRESS for the rows of {@code column} (vectors of equal length). With more than {@code maxRows}
   * rows it fails, unless {@code subsampleSeed} is given: then it runs on a seeded uniform
   * subsample of maxRows rows (reproducible for the same input and partitioning).
   *
   * @throws IllegalArgumentException naming the limit when the input is too large, or the parameter
   *     when maxK is out of range
   */
  public static Curve compute(
      Dataset<?> dataset,
      String column,
      Kernel kernel,
      int maxK,
      int maxRows,
      OptionalLong subsampleSeed) {
    Sample sample = sample(dataset, column, maxRows, subsampleSeed);
    return run(kernel, sample.rows(), maxK, Method.AUTO).curve();
  }

  /**
   * Rows collected on the driver, as given: sparse rows stay their non-zeros ({@link
   * io.github.sparkkpca.linalg.RowSet#of}), so a sample of wide sparse data takes memory
   * proportional to its non-zeros and its kernel matrix the sparse block path.
   *
   * @param rows the rows
   */
  public record Sample(io.github.sparkkpca.linalg.RowSet rows) {

    /** n dense rows given row-major (n×d). */
    public Sample(double[] points, int n, int d) {
      this(io.github.sparkkpca.linalg.RowSet.dense(points, n, d));
    }

    /** The number of rows. */
    public int n() {
      return rows.count();
    }

    /** The length of each row. */
    public int d() {
      return rows.dim();
    }

    /** The rows, n×d row-major (a new d-wide array per row when they are held sparse). */
    public double[] points() {
      return rows.toDense();
    }
  }

  /**
   * The n×n matrices of doubles {@link #run} holds at once (K, its decomposition's work and
   * vectors, Q, the coordinates, K₍₋ᵢ₎).
   */
  public static final int DRIVER_SQUARES = 6;

  /**
   * The rows of {@code column} on the driver, at most {@code maxRows} of them: more fail (counted
   * before anything is collected), unless {@code subsampleSeed} is given, which takes a seeded
   * uniform subsample of maxRows rows. The subsample depends on the seed and on the rows in their
   * order, not on how they are split into partitions: row i's key is {@link RowHash#uniform(long,
   * long)} of the seed and its 0-based position, and the maxRows rows with the smallest (key,
   * position) are taken, in that order (the fit's landmark sampling draws the same way, without
   * merging equal rows here: each row is one observation of the leave-one-out).
   *
   * @throws IllegalArgumentException naming the limit when the input is too large, or the row of a
   *     null or mis-sized vector
   */
  public static Sample sample(
      Dataset<?> dataset, String column, int maxRows, OptionalLong subsampleSeed) {
    return sample(dataset, column, maxRows, subsampleSeed, 0, "", "maxRows");
  }

  /**
   * As {@link #sample(Dataset, String, int, OptionalLong)}, refusing before anything is collected a
   * sample whose {@code squares} n×n matrices of doubles would not fit in the driver's heap ({@link
   * FitMemory#checkSquares}).
   *
   * @param squares the n×n matrices the caller will hold (0: no check)
   * @param what what the caller computes, for the message
   * @param limit the caller's name of maxRows, for the message
   */
  public static Sample sample(
      Dataset<?> dataset,
      String column,
      int maxRows,
      OptionalLong subsampleSeed,
      int squares,
      String what,
      String limit) {
    if (maxRows < 2) {
      throw new IllegalArgumentException("maxRows must be at least 2, got " + maxRows);
    }
    long n = dataset.count();
    List<Vector> vectors;
    if (n > maxRows) {
      if (subsampleSeed.isEmpty()) {
        throw new IllegalArgumentException(
            "MPRESS is exact and costs O(n^4) on the driver: it accepts at most "
                + "maxRows = "
                + maxRows
                + " rows, the input has n = "
                + n
                + "; raise maxRows or ask for a seeded "
                + "subsample of maxRows rows");
      }
      if (squares > 0) {
        FitMemory.checkSquares(maxRows, squares, what, limit);
      }
      long seed = subsampleSeed.getAsLong();
      JavaRDD<Vector> column0 =
          dataset.select(functions.col(column)).toJavaRDD().map(r -> (Vector) r.get(0));
      List<Tuple2<Tuple2<Vector, Long>, Double>> taken =
          column0
              .zipWithIndex()
              .map(t -> new Tuple2<>(t, RowHash.uniform(seed, t._2())))
              .takeOrdered(maxRows, new ByKey());
      vectors = new ArrayList<>(taken.size());
      for (Tuple2<Tuple2<Vector, Long>, Double> t : taken) {
        vectors.add(t._1()._1());
      }
    } else {
      if (squares > 0) {
        FitMemory.checkSquares(n, squares, what, limit);
      }
      vectors = new ArrayList<>();
      for (Row row : dataset.select(functions.col(column)).collectAsList()) {
        vectors.add((Vector) row.get(0));
      }
    }
    int size = vectors.size();
    int d = size == 0 || vectors.get(0) == null ? 0 : vectors.get(0).size();
    Vector[] rows = new Vector[size];
    for (int i = 0; i < size; i++) {
      Vector v = vectors.get(i);
      if (v == null || v.size() != d) {
        throw new IllegalArgumentException(
            "Column '"
                + column
                + "': row "
                + i
                + " is "
                + (v == null ? "null" : "of length " + v.size())
                + ", expected a vector of length "
                + d);
      }
      rows[i] = v;
    }
    return new Sample(io.github.sparkkpca.linalg.RowSet.of(rows, d));
  }

  /** Orders (row, key) pairs by key, then by the row's position. */
  private static final class ByKey
      implements Comparator<Tuple2<Tuple2<Vector, Long>, Double>>, Serializable {
    @Override
    public int compare(
        Tuple2<Tuple2<Vector, Long>, Double> a, Tuple2<Tuple2<Vector, Long>, Double> b) {
      int c = Double.compare(a._2(), b._2());
      return c != 0 ? c : Long.compare(a._1()._2(), b._1()._2());
    }
  }

  /**
   * MPRESS for n points given row-major in {@code points} (n×d).
   *
   * @throws IllegalArgumentException when the kernel is not positive definite, n &lt; 3 or maxK is
   *     not in [1, min(n − 1, rank(K) − 1)]
   */
  public static Curve compute(Kernel kernel, double[] points, int n, int d, int maxK) {
    return compute(kernel, points, n, d, maxK, Method.AUTO);
  }

  /**
   * MPRESS for n points given row-major in {@code points} (n×d), each leave-one-out decomposition
   * obtained by {@code method}.
   *
   * @throws IllegalArgumentException when the kernel is not positive definite, n &lt; 3 or maxK is
   *     not in [1, min(n − 1, rank(K) − 1)]
   */
  public static Curve compute(
      Kernel kernel, double[] points, int n, int d, int maxK, Method method) {
    return run(kernel, points, n, d, maxK, method).curve();
  }

  /**
   * A computed curve with how it was computed.
   *
   * @param curve the MPRESS curve
   * @param method the route taken (never AUTO)
   * @param fallbackRows rows of a decremental route that fell back to a batch decomposition
   */
  public record Run(Curve curve, Method method, int fallbackRows) {

    /** Whether a decremental route was taken. */
    public boolean decremental() {
      return method != Method.BATCH;
    }
  }

  /**
   * As {@link #compute(Kernel, double[], int, int, int, Method)}, reporting the route and its
   * fallbacks.
   */
  public static Run run(Kernel kernel, double[] points, int n, int d, int maxK, Method method) {
    return run(kernel, io.github.sparkkpca.linalg.RowSet.dense(points, n, d), maxK, method);
  }

  /**
   * As {@link #run(Kernel, double[], int, int, int, Method)} on rows that may be sparse: K is
   * computed on the kernel-block path their non-zeros call for ({@link LandmarkKernel}).
   */
  public static Run run(
      Kernel kernel, io.github.sparkkpca.linalg.RowSet points, int maxK, Method method) {
    int n = points.count();
    kernel.requirePositiveDefinite(
        "MPRESS (leave-one-out residuals k(x,x) - ||P phi(x)||^2)",
        "choose k from the explained variance ratios of a fit instead");
    if (n < 3) {
      throw new IllegalArgumentException("MPRESS needs at least 3 rows, got n = " + n);
    }
    if (maxK < 1 || maxK > n - 1) {
      throw new IllegalArgumentException(
          "maxK must be in [1, n - 1] = [1, " + (n - 1) + "], got " + maxK);
    }
    FitMemory.checkSquares(n, DRIVER_SQUARES, "MPRESS", "maxRows");
    double[] gram = new LandmarkKernel(kernel, points).gram();
    SymmetricEigen full = SymmetricEigen.of(gram, n);
    int rank = full.rank(RCOND);
    if (maxK > rank - 1) {
      throw new IllegalArgumentException(
          "maxK = "
              + maxK
              + " needs eigenvalues the kernel matrix does not have: "
              + "its numerical rank is "
              + rank
              + " (n = "
              + n
              + "), so maxK must be at most "
              + (rank - 1)
              + " (near-zero eigenvalues make the leave-one-out errors explode)");
    }
    Method used =
        method == Method.AUTO
            ? (n >= DECREMENTAL_FROM_ROWS ? Method.DELETION : Method.BATCH)
            : method;
    boolean decremental = used != Method.BATCH;
    Downdates downdates =
        decremental ? new Downdates(full, gram, n, used == Method.DELETION) : null;
    int m = n - 1;
    double[] sums = new double[maxK];
    double[] reduced = new double[m * m];
    double[] column = new double[m];
    int fallbacks = 0;
    for (int i = 0; i < n; i++) {
      if (downdates != null) {
        if (downdates.leaveOut(i, maxK, sums)) {
          continue;
        }
        fallbacks++;
      }
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
    return new Run(new Curve(mpress, best + 1, n), used, fallbacks);
  }

  /**
   * The decremental routes: K = QΛQᵀ once, then per left-out row two rank-one downdates or the
   * deletion roots.
   */
  private static final class Downdates {
    private final double[] ascending;
    private final double[] q;
    private final double[] gram;
    private final int n;
    private final double scale;

    /** Qᵀ(K − diag K), n×n: column i holds the coordinates of k̃ᵢ (DELETION only). */
    private final double[] offDiagonalCoordinates;

    Downdates(SymmetricEigen full, double[] gram, int n, boolean deletion) {
      this.gram = gram;
      this.n = n;
      this.ascending = new double[n];
      this.q = new double[n * n];
      for (int c = 0; c < n; c++) {
        ascending[c] = full.values()[n - 1 - c];
        System.arraycopy(full.vectors(), (n - 1 - c) * n, q, c * n, n);
      }
      this.scale = Math.max(Math.abs(ascending[0]), Math.abs(ascending[n - 1]));
      if (deletion) {
        double[] offDiagonal = gram.clone();
        for (int i = 0; i < n; i++) {
          offDiagonal[i + i * n] = 0;
        }
        offDiagonalCoordinates = new double[n * n];
        Blas.blas()
            .dgemm("T", "N", n, n, n, 1.0, q, n, offDiagonal, n, 0.0, offDiagonalCoordinates, n);
      } else {
        offDiagonalCoordinates = null;
      }
    }

    /** DELETION: the leading roots of the deleted row's secular equation. */
    private boolean deletion(int i, int maxK, double[] sums) {
      double[] row = new double[n];
      for (int j = 0; j < n; j++) {
        row[j] = q[i + j * n];
      }
      DeletedRowEigen.Leading leading =
          DeletedRowEigen.leading(
              ascending, row, Arrays.copyOfRange(offDiagonalCoordinates, i * n, (i + 1) * n), maxK);
      double error = gram[i + i * n];
      double[] partial = new double[maxK];
      for (int k = 0; k < maxK; k++) {
        double value = leading.values()[k];
        if (!(value > RCOND * scale)) {
          return false;
        }
        error -= leading.projections()[k] * leading.projections()[k] / value;
        partial[k] = error;
      }
      for (int k = 0; k < maxK; k++) {
        sums[k] += partial[k];
      }
      return true;
    }

    /**
     * Adds e_i²(k), k = 1..maxK, to {@code sums}; false (nothing added) when the row must fall back
     * to a batch decomposition.
     */
    boolean leaveOut(int i, int maxK, double[] sums) {
      if (offDiagonalCoordinates != null) {
        return deletion(i, maxK, sums);
      }
      double c = gram[i + i * n];
      if (!(c > 0)) {
        return false;
      }
      // Qᵀ[k₁ k₀ k̃ eᵢ] in one product.
      double[] right = new double[4 * n];
      System.arraycopy(gram, i * n, right, 0, n);
      System.arraycopy(gram, i * n, right, n, n);
      System.arraycopy(gram, i * n, right, 2 * n, n);
      right[i] = c / 2;
      right[n + i] = c / 4;
      right[2 * n + i] = 0;
      right[3 * n + i] = 1;
      double[] w = new double[4 * n];
      Blas.blas().dgemm("T", "N", n, 4, n, 1.0, q, n, right, n, 0.0, w, n);
      double sigma = 4 / c;
      RankOneEigenUpdate first =
          RankOneEigenUpdate.plan(ascending, -sigma, Arrays.copyOfRange(w, 0, n));
      RankOneEigenUpdate second =
          RankOneEigenUpdate.plan(
              first.values(), sigma, first.transposeTimes(Arrays.copyOfRange(w, n, 2 * n)));
      double[] projections =
          second.transposeTimes(first.transposeTimes(Arrays.copyOfRange(w, 2 * n, 3 * n)));
      double[] unit =
          second.transposeTimes(first.transposeTimes(Arrays.copyOfRange(w, 3 * n, 4 * n)));
      double[] values = second.values();
      int best = 0;
      for (int j = 1; j < n; j++) {
        if (Math.abs(unit[j]) > Math.abs(unit[best])) {
          best = j;
        }
      }
      if (1 - Math.abs(unit[best]) > 1e-8) {
        return false;
      }
      // Eigenvalues of K₍₋ᵢ₎ descending: the ascending list from the top, skipping e_i's.
      double error = c;
      double[] partial = new double[maxK];
      for (int j = n - 1, kept = 0; j >= 0 && kept < maxK; j--) {
        if (j == best) {
          continue;
        }
        if (!(values[j] > RCOND * scale)) {
          return false;
        }
        error -= projections[j] * projections[j] / values[j];
        partial[kept++] = error;
      }
      for (int k = 0; k < maxK; k++) {
        sums[k] += partial[k];
      }
      return true;
    }
  }
}
