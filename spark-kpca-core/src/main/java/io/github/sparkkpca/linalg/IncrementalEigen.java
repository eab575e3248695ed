package io.github.sparkkpca.linalg;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * The eigendecomposition A = Q diag(λ) Qᵀ of a symmetric matrix kept up to date under rank-one
 * updates A ± ρvvᵀ ({@link RankOneEigenUpdate}) and under adding or deleting a row and column
 * (Hallgren, <i>Kernel PCA and the Nyström method</i>, PhD thesis, UCL 2021, §3.1–3.2, Algorithms 1
 * and 3; the centred Algorithms 2 and 4 are {@link IncrementalCenteredEigen}).
 *
 * <p><b>Adding a row and column</b> [a; c] (Algorithm 1): with σ = 4/c, k₁ = [a; c/2], k₀ = [a;
 * c/4],
 *
 * <pre>  [A aᵀ; a c] = blkdiag(A, c/4) + σk₁k₁ᵀ − σk₀k₀ᵀ,</pre>
 *
 * so the eigenpair (c/4, e_new) is appended (and sorted in) and two rank-one updates follow. For c
 * ≤ 0, where σ is undefined, the border B = xeᵀ + exᵀ (x = [a; c/2]) is split as B = ((x + te)(x +
 * te)ᵀ − (x − te)(x − te)ᵀ)/(2t), t = ‖x‖, from blkdiag(A, 0).
 *
 * <p><b>Deleting row and column i</b> (Algorithm 3, with the column of A supplied): the same two
 * updates with opposite signs leave A with row and column i zeroed except c/4 on the diagonal, so
 * e_i is an eigenvector. The thesis drops "the last" eigenpair, which after sorting is generally
 * not the one of e_i (erratum); here the eigenvector with the largest |Qᵢⱼ| is found and, if its
 * eigenvalue is repeated, a Householder reflection inside that eigenspace turns e_i into one of its
 * basis vectors before row i and that column are deleted.
 *
 * <p><b>Stability.</b> Gu–Eisenstat eigenvectors keep Q orthogonal to working precision, but errors
 * still accumulate over many updates. After every update the orthogonality is probed in O(n²): e =
 * ‖QᵀQx − x‖ for a fixed unit x (a lower estimate of ‖QᵀQ − I‖₂); every {@code fullCheckEvery}
 * updates the full ‖QᵀQ − I‖_F is computed (O(n³)). When either exceeds {@code tolerance}, or every
 * {@code recomputeEvery} updates, the decomposition is recomputed by {@link SymmetricEigen}: from
 * the exact matrix when a source was given ({@link #withExactMatrix}), which also removes the drift
 * of the eigenvalues, otherwise from Q diag(λ) Qᵀ, which restores orthogonality only. The counts
 * are reported by {@link #stats()}.
 */
public final class IncrementalEigen {

  /** Monitoring settings: recompute when an orthogonality measure exceeds {@code tolerance}. */
  public record Monitoring(double tolerance, int fullCheckEvery, int recomputeEvery) {

    /** Default: tolerance 1e-10, full check every 50 updates, no periodic recompute. */
    public static Monitoring defaults() {
      return new Monitoring(1e-10, 50, 0);
    }

    public Monitoring {
      if (!(tolerance > 0) || fullCheckEvery < 0 || recomputeEvery < 0) {
        throw new IllegalArgumentException(
            "monitoring: tolerance > 0 and counts >= 0 needed, got "
                + tolerance
                + ", "
                + fullCheckEvery
                + ", "
                + recomputeEvery);
      }
    }
  }

  /**
   * What the updates did.
   *
   * @param rankOneUpdates rank-one updates applied
   * @param deflated components deflated over all updates (zero weight or rotated away)
   * @param rotations Givens rotations for (nearly) repeated eigenvalues
   * @param secularIterations root-finder iterations over all updates
   * @param fullChecks full ‖QᵀQ − I‖_F evaluations
   * @param recomputations batch recomputations (threshold or periodic)
   * @param maxOrthogonalityError the largest orthogonality measure seen (probe or full)
   */
  public record Stats(
      long rankOneUpdates,
      long deflated,
      long rotations,
      long secularIterations,
      long fullChecks,
      long recomputations,
      double maxOrthogonalityError) {}

  private int n;
  private double[] values;
  private double[] vectors;
  private final Monitoring monitoring;
  private Supplier<double[]> exactMatrix;
  private long updates;
  private long deflated;
  private long rotations;
  private long iterations;
  private long fullChecks;
  private long recomputations;
  private double maxOrthogonalityError;
  private int sinceCheck;
  private int sinceRecompute;

  private IncrementalEigen(int n, double[] values, double[] vectors, Monitoring monitoring) {
    this.n = n;
    this.values = values;
    this.vectors = vectors;
    this.monitoring = monitoring;
  }

  /** The decomposition of a symmetric n×n matrix (column-major), computed in batch. */
  public static IncrementalEigen of(double[] a, int n, Monitoring monitoring) {
    IncrementalEigen e = new IncrementalEigen(0, new double[0], new double[0], monitoring);
    e.setFrom(SymmetricEigen.of(a, n));
    return e;
  }

  /** The decomposition of the 0×0 matrix, to grow with {@link #expand}. */
  public static IncrementalEigen empty(Monitoring monitoring) {
    return new IncrementalEigen(0, new double[0], new double[0], monitoring);
  }

  /** A deep copy (same monitoring and matrix source, counters copied). */
  public IncrementalEigen copy() {
    IncrementalEigen e = new IncrementalEigen(n, values.clone(), vectors.clone(), monitoring);
    e.exactMatrix = exactMatrix;
    e.updates = updates;
    e.deflated = deflated;
    e.rotations = rotations;
    e.iterations = iterations;
    e.fullChecks = fullChecks;
    e.recomputations = recomputations;
    e.maxOrthogonalityError = maxOrthogonalityError;
    return e;
  }

  /**
   * Recomputes from the exact current matrix (n×n column-major, supplied on demand) instead of from
   * Q diag(λ) Qᵀ when the monitoring asks for it.
   */
  public IncrementalEigen withExactMatrix(Supplier<double[]> source) {
    this.exactMatrix = source;
    return this;
  }

  private void setFrom(SymmetricEigen eig) {
    n = eig.n();
    values = new double[n];
    vectors = new double[n * n];
    for (int c = 0; c < n; c++) {
      values[c] = eig.values()[n - 1 - c];
      System.arraycopy(eig.vectors(), (n - 1 - c) * n, vectors, c * n, n);
    }
  }

  /** The order n of the matrix. */
  public int size() {
    return n;
  }

  /** The eigendecomposition in {@link SymmetricEigen}'s convention (descending, a copy). */
  public SymmetricEigen toSymmetricEigen() {
    double[] desc = new double[n];
    double[] vec = new double[n * n];
    for (int c = 0; c < n; c++) {
      desc[c] = values[n - 1 - c];
      System.arraycopy(vectors, (n - 1 - c) * n, vec, c * n, n);
    }
    return new SymmetricEigen(desc, vec, n);
  }

  /** Q diag(λ) Qᵀ, n×n column-major. */
  public double[] reconstruct() {
    double[] scaled = new double[n * n];
    for (int c = 0; c < n; c++) {
      for (int r = 0; r < n; r++) {
        scaled[r + c * n] = vectors[r + c * n] * values[c];
      }
    }
    double[] out = new double[n * n];
    if (n > 0) {
      Blas.blas().dgemm("N", "T", n, n, n, 1.0, scaled, n, vectors, n, 0.0, out, n);
    }
    return out;
  }

  /** ‖QᵀQ − I‖_F (O(n³)). */
  public double orthogonalityError() {
    if (n == 0) {
      return 0;
    }
    double[] g = new double[n * n];
    Blas.blas().dsyrk("U", "T", n, n, 1.0, vectors, n, 0.0, g, n);
    double s = 0;
    for (int j = 0; j < n; j++) {
      for (int i = 0; i <= j; i++) {
        double v = g[i + j * n] - (i == j ? 1 : 0);
        s += (i == j ? 1 : 2) * v * v;
      }
    }
    return Math.sqrt(s);
  }

  /** A ← A + ρvvᵀ. */
  public void rankOne(double rho, double[] v) {
    if (v.length != n) {
      throw new IllegalArgumentException(
          "rank-one update: vector of length " + v.length + " for n = " + n);
    }
    if (n == 0) {
      return;
    }
    applyRankOne(rho, v);
    monitor();
  }

  /** The update without the monitoring (compound operations monitor once, at their end). */
  void applyRankOne(double rho, double[] v) {
    double[] z = new double[n];
    Blas.blas().dgemv("T", n, n, 1.0, vectors, n, v, 1, 0.0, z, 1);
    RankOneEigenUpdate step = RankOneEigenUpdate.plan(values, rho, z);
    vectors = step.applyTo(vectors, n);
    values = step.values();
    updates++;
    deflated += step.deflated();
    rotations += step.rotations();
    iterations += step.iterations();
  }

  void monitor() {
    if (n == 0) {
      return;
    }
    sinceCheck++;
    sinceRecompute++;
    double error = probe();
    if (monitoring.fullCheckEvery() > 0 && sinceCheck >= monitoring.fullCheckEvery()) {
      sinceCheck = 0;
      fullChecks++;
      error = Math.max(error, orthogonalityError());
    }
    maxOrthogonalityError = Math.max(maxOrthogonalityError, error);
    if (error > monitoring.tolerance()
        || (monitoring.recomputeEvery() > 0 && sinceRecompute >= monitoring.recomputeEvery())) {
      recompute();
    }
  }

  /** ‖QᵀQx − x‖ for a fixed pseudo-random unit x (O(n²)). */
  private double probe() {
    double[] x = new double[n];
    double norm = 0;
    for (int i = 0; i < n; i++) {
      // A fixed, well-spread vector: the fractional parts of i·φ (golden ratio), centred.
      x[i] = ((i + 1) * 0.6180339887498949) % 1.0 - 0.5;
      norm += x[i] * x[i];
    }
    norm = Math.sqrt(norm);
    for (int i = 0; i < n; i++) {
      x[i] /= norm;
    }
    double[] y = new double[n];
    Blas.blas().dgemv("N", n, n, 1.0, vectors, n, x, 1, 0.0, y, 1);
    double[] w = new double[n];
    Blas.blas().dgemv("T", n, n, 1.0, vectors, n, y, 1, 0.0, w, 1);
    double s = 0;
    for (int i = 0; i < n; i++) {
      s += (w[i] - x[i]) * (w[i] - x[i]);
    }
    return Math.sqrt(s);
  }

  /** Replaces the decomposition by a batch one (from the exact matrix when a source was given). */
  public void recompute() {
    double[] a = exactMatrix != null ? exactMatrix.get() : reconstruct();
    if (a.length != (long) n * n) {
      throw new IllegalStateException(
          "the exact-matrix source returned " + a.length + " entries for n = " + n);
    }
    setFrom(SymmetricEigen.of(a, n));
    recomputations++;
    sinceRecompute = 0;
    sinceCheck = 0;
  }

  /**
   * Appends row and column [a; c] (Algorithm 1): the matrix becomes (n+1)×(n+1) with the new index
   * last.
   *
   * @param a the new off-diagonal column (length n)
   * @param c the new diagonal entry
   */
  public void expand(double[] a, double c) {
    expandUnmonitored(a, c);
    monitor();
  }

  void expandUnmonitored(double[] a, double c) {
    if (a.length != n || !Double.isFinite(c)) {
      throw new IllegalArgumentException(
          "expand: column of length " + a.length + " for n = " + n + ", c = " + c);
    }
    int m = n + 1;
    double[] x = Arrays.copyOf(a, m);
    double xNorm = 0;
    for (double v : a) {
      xNorm += v * v;
    }
    xNorm = Math.sqrt(xNorm + c * c / 4);
    boolean thesis = c > 0;
    double extra = thesis ? c / 4 : 0;
    double[] newValues = Arrays.copyOf(values, m);
    double[] newVectors = new double[m * m];
    for (int col = 0; col < n; col++) {
      System.arraycopy(vectors, col * n, newVectors, col * m, n);
    }
    newVectors[n + n * m] = 1;
    newValues[n] = extra;
    n = m;
    values = newValues;
    vectors = newVectors;
    sortInLast();
    if (thesis) {
      double sigma = 4 / c;
      x[m - 1] = c / 2;
      applyRankOne(sigma, x);
      x[m - 1] = c / 4;
      applyRankOne(-sigma, x);
    } else if (xNorm > 0) {
      x[m - 1] = c / 2;
      splitBorder(x, m - 1, xNorm, +1);
    }
  }

  /** Adds (sign +1) or subtracts xeᵢᵀ + eᵢxᵀ = ((x + teᵢ)(x + teᵢ)ᵀ − (x − teᵢ)(x − teᵢ)ᵀ)/(2t). */
  private void splitBorder(double[] x, int i, double t, int sign) {
    double[] plus = x.clone();
    double[] minus = x.clone();
    plus[i] += t;
    minus[i] -= t;
    applyRankOne(sign / (2 * t), plus);
    applyRankOne(-sign / (2 * t), minus);
  }

  /**
   * Moves the appended last eigenpair (value values[n−1], vector e_{n}) to its ascending position.
   */
  private void sortInLast() {
    int last = n - 1;
    double v = values[last];
    int pos = last;
    while (pos > 0 && values[pos - 1] > v) {
      pos--;
    }
    if (pos == last) {
      return;
    }
    double[] col = Arrays.copyOfRange(vectors, last * n, (last + 1) * n);
    System.arraycopy(values, pos, values, pos + 1, last - pos);
    System.arraycopy(vectors, pos * n, vectors, (pos + 1) * n, (last - pos) * n);
    values[pos] = v;
    System.arraycopy(col, 0, vectors, pos * n, n);
  }

  /**
   * Deletes row and column i (Algorithm 3 with its erratum fixed, see the class comment).
   *
   * @param i the index to delete
   * @param column column i of the current matrix (length n, the diagonal entry at i), exact values
   * @return how far the eigenvector deleted was from e_i, 1 − |Qᵢⱼ| (0 in exact arithmetic)
   */
  public double remove(int i, double[] column) {
    double residual = removeUnmonitored(i, column);
    monitor();
    return residual;
  }

  double removeUnmonitored(int i, double[] column) {
    if (i < 0 || i >= n || column.length != n) {
      throw new IllegalArgumentException(
          "remove: index " + i + " and a column of length " + column.length + " for n = " + n);
    }
    double c = column[i];
    double[] x = column.clone();
    double target;
    if (c > 0) {
      double sigma = 4 / c;
      x[i] = c / 2;
      applyRankOne(-sigma, x);
      x[i] = c / 4;
      applyRankOne(sigma, x);
      target = c / 4;
    } else {
      x[i] = c / 2;
      double t = 0;
      for (double v : x) {
        t += v * v;
      }
      t = Math.sqrt(t);
      if (t > 0) {
        splitBorder(x, i, t, -1);
      }
      target = 0;
    }
    int best = isolateUnitVector(i, target);
    double residual = 1 - Math.abs(vectors[i + best * n]);
    int m = n - 1;
    double[] newValues = new double[m];
    double[] newVectors = new double[m * m];
    for (int col = 0, cc = 0; col < n; col++) {
      if (col == best) {
        continue;
      }
      newValues[cc] = values[col];
      for (int r = 0, rr = 0; r < n; r++) {
        if (r != i) {
          newVectors[rr++ + cc * m] = vectors[r + col * n];
        }
      }
      cc++;
    }
    n = m;
    values = newValues;
    vectors = newVectors;
    return residual;
  }

  /**
   * The column whose eigenvector is e_i: the one with the largest |Qᵢⱼ|; if other eigenvalues are
   * within rounding of it, a Householder reflection of that eigenspace makes its row-i entries (r,
   * 0, …, 0).
   */
  private int isolateUnitVector(int i, double target) {
    int best = 0;
    for (int col = 1; col < n; col++) {
      if (Math.abs(vectors[i + col * n]) > Math.abs(vectors[i + best * n])) {
        best = col;
      }
    }
    double scale = 0;
    for (double v : values) {
      scale = Math.max(scale, Math.abs(v));
    }
    double clusterTol = 64 * RankOneEigenUpdate.EPS * n * Math.max(scale, Math.abs(target));
    int lo = best;
    while (lo > 0 && values[best] - values[lo - 1] <= clusterTol) {
      lo--;
    }
    int hi = best;
    while (hi < n - 1 && values[hi + 1] - values[best] <= clusterTol) {
      hi++;
    }
    if (hi == lo) {
      return best;
    }
    int p = hi - lo + 1;
    double[] u = new double[p];
    double norm = 0;
    for (int t = 0; t < p; t++) {
      u[t] = vectors[i + (lo + t) * n];
      norm += u[t] * u[t];
    }
    norm = Math.sqrt(norm);
    u[0] += Math.copySign(norm, u[0]);
    double uu = 0;
    for (double v : u) {
      uu += v * v;
    }
    if (uu == 0) {
      return best;
    }
    // Columns J ← Q_J (I − 2uuᵀ/uᵀu): row i becomes (∓‖y‖, 0, …, 0).
    for (int r = 0; r < n; r++) {
      double s = 0;
      for (int t = 0; t < p; t++) {
        s += vectors[r + (lo + t) * n] * u[t];
      }
      s *= 2 / uu;
      for (int t = 0; t < p; t++) {
        vectors[r + (lo + t) * n] -= s * u[t];
      }
    }
    return lo;
  }

  /** The counters of the updates so far. */
  public Stats stats() {
    return new Stats(
        updates,
        deflated,
        rotations,
        iterations,
        fullChecks,
        recomputations,
        maxOrthogonalityError);
  }
}
