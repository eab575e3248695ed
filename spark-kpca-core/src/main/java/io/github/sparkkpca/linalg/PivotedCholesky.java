package io.github.sparkkpca.linalg;

import java.util.Arrays;

/**
 * A partial Cholesky factorisation with greedy diagonal pivoting, A ≈ L·Lᵀ (L m×r), for a symmetric
 * positive semi-definite A of numerical rank r ≪ m that is never formed: it reads diag(A) and the r
 * pivot columns from a {@link Columns} oracle (for K_mm one column costs m·d flops from the
 * landmarks). Cost O(m·r²) flops for the factor plus r oracle columns, 8·m·r bytes.
 *
 * <p><b>Algorithm.</b> s = diag(A) is the diagonal of the Schur complement S = A − LLᵀ. Step k
 * takes the pivot p = argmax s_i (the smallest index among ties), stops when s_p ≤ τ, else L[:,k] =
 * (A[:,p] − L[:,0:k]·L[p,0:k]ᵀ)/√s_p and s_i −= L[i,k]². s_i is the squared distance, in the
 * kernel's feature space, of k(·,z_i) from the span of the pivots' features, so the stop says that
 * every landmark's feature lies within √τ of the span of the r chosen ones.
 *
 * <p><b>Stopping versus today's eigenvalue rule</b> (keep λ_i &gt; rcond·λ_max). S is positive
 * semi-definite, so max diag(S) ≤ ‖S‖₂ ≤ tr(S) ≤ (m − r)·max diag(S), and since LLᵀ has rank r,
 * λ_{r+1}(A) ≤ ‖A − LLᵀ‖₂ = ‖S‖₂ (Eckart–Young). With τ = rcond·max diag(A) (≤ rcond·λ_max) the
 * pivoted rank r therefore covers every eigenvalue above (m − r)·τ, and by Weyl the eigenvalues of
 * LLᵀ are those of A to within ‖S‖₂ ≤ tr(S) (reported: {@link Factor#residualTrace()}). The
 * whitening ({@link Factor#whitening}) then applies today's rule to LLᵀ: it keeps the eigenvalues
 * σ_i of LᵀL (r×r; the non-zero eigenvalues of LLᵀ) above rcond·σ_1, so r may exceed the eigenvalue
 * rank by the directions between τ and (m − r)·τ, which the second rule drops. When A has numerical
 * rank r (σ_{r+1} at rounding level) both rules give the same r and the features φ(x)ᵀφ(y) =
 * k_xᵀ(LLᵀ)⁺k_y equal today's k_xᵀK_r⁺k_y to about ‖S‖₂/σ_r relative (PivotedCholeskyTest measures
 * it).
 *
 * <p><b>Threads.</b> The column update L[:,0:k]·L[p,0:k]ᵀ (a dgemv, the O(m·r²) term, memory-bound)
 * is split into fixed row chunks of {@value #ROW_CHUNK} rows that the driver's threads take in
 * turn: every chunk is the same BLAS call whatever the thread count, so the factor is the same bit
 * for bit.
 */
public final class PivotedCholesky {

  /** Rows per parallel part of the column update (fixed, so results do not depend on threads). */
  static final int ROW_CHUNK = 4096;

  /** Diagonal and columns of a symmetric positive semi-definite m×m matrix, computed on demand. */
  public interface Columns {
    /** m. */
    int order();

    /** diag(A), a new array of length m. */
    double[] diagonal();

    /** Column j of A into {@code out} (length ≥ m). */
    void column(int j, double[] out);
  }

  private PivotedCholesky() {}

  /**
   * The factor with pivots stopped at the largest remaining diagonal ≤ rcond·max diag(A), on {@link
   * DriverThreads#count()} threads.
   *
   * @param maxRank the most columns to take: null is returned when more would be needed (the matrix
   *     is not of low rank; factor it whole instead)
   */
  public static Factor factor(Columns a, double rcond, int maxRank) {
    return factor(a, rcond, maxRank, DriverThreads.count());
  }

  /** The same on {@code threads} threads. */
  public static Factor factor(Columns a, double rcond, int maxRank, int threads) {
    int m = a.order();
    double[] s = a.diagonal();
    double largest = 0;
    for (double v : s) {
      if (!Double.isFinite(v)) {
        throw new IllegalArgumentException("a diagonal entry of the matrix is not finite: " + v);
      }
      largest = Math.max(largest, v);
    }
    double tau = rcond * largest;
    int capacity = Math.max(1, Math.min(Math.min(maxRank, m), 64));
    double[] l = new double[Math.multiplyExact(m, capacity)];
    int[] pivots = new int[Math.min(maxRank, m)];
    boolean[] taken = new boolean[m];
    double[] column = new double[m];
    double[] row = new double[Math.max(1, Math.min(maxRank, m))];
    int r = 0;
    int chunks = (m + ROW_CHUNK - 1) / ROW_CHUNK;
    try (DriverThreads.Team team = DriverThreads.team(threads)) {
      while (true) {
        int p = -1;
        double best = tau;
        for (int i = 0; i < m; i++) {
          if (!taken[i] && s[i] > best) {
            best = s[i];
            p = i;
          }
        }
        if (p < 0) {
          break;
        }
        if (r == pivots.length) {
          return null;
        }
        if (r == capacity) {
          capacity = Math.min(Math.min(maxRank, m), 2 * capacity);
          l = Arrays.copyOf(l, Math.multiplyExact(m, capacity));
        }
        a.column(p, column);
        int k = r;
        double[] factor = l;
        for (int c = 0; c < k; c++) {
          row[c] = factor[p + c * m];
        }
        double pivot = Math.sqrt(best);
        team.forEach(
            chunks,
            chunk -> {
              int i0 = chunk * ROW_CHUNK;
              int rows = Math.min(ROW_CHUNK, m - i0);
              if (k > 0) {
                Blas.blas().dgemv("N", rows, k, -1.0, factor, i0, m, row, 0, 1, 1.0, column, i0, 1);
              }
              for (int i = i0; i < i0 + rows; i++) {
                factor[i + k * m] = column[i] / pivot;
              }
            });
        for (int c = 0; c < k; c++) {
          factor[pivots[c] + k * m] = 0.0; // exactly zero on earlier pivots' rows
        }
        factor[p + k * m] = pivot;
        for (int i = 0; i < m; i++) {
          double v = factor[i + k * m];
          s[i] -= v * v;
        }
        s[p] = 0.0;
        taken[p] = true;
        pivots[r++] = p;
      }
    }
    double trace = 0;
    for (int i = 0; i < m; i++) {
      if (!taken[i]) {
        trace += Math.max(0.0, s[i]);
      }
    }
    return new Factor(
        m, r, Arrays.copyOf(l, Math.multiplyExact(m, r)), Arrays.copyOf(pivots, r), trace, tau);
  }

  /**
   * L (m×r column-major; row pivots[k] of column k holds √s_p, rows of earlier pivots zero), the
   * pivots in the order taken, tr(S) of the Schur complement left over (the trace of A − LLᵀ, an
   * upper bound of ‖A − LLᵀ‖₂), and the stopping threshold τ.
   */
  public record Factor(
      int order, int rank, double[] l, int[] pivots, double residualTrace, double threshold) {

    /**
     * W (m×r') with W·Wᵀ = (LLᵀ)⁺ restricted to the eigenvalues σ of LᵀL above rcond·σ_1: LᵀL = V Σ
     * Vᵀ (r×r, {@link SymmetricEigen}), W = L·V_{r'}·Σ_{r'}⁻¹ (LLᵀ = U Σ Uᵀ with U = LVΣ^{-1/2}, so
     * W = UΣ^{-1/2}, the eigenbasis whitening of today's rank-deficient route). 2m·r² flops for LᵀL
     * and as many for W, O(r³) for the eigendecomposition; 8·m·r' bytes.
     */
    public Whitening whitening(double rcond) {
      int m = order;
      if (rank == 0) {
        throw new IllegalArgumentException(
            "no pivot above the threshold " + threshold + ": every landmark maps to zero");
      }
      double[] gram = new double[rank * rank];
      Blas.blas().dsyrk("U", "T", rank, m, 1.0, l, m, 0.0, gram, rank);
      SymmetricStorage.mirrorUpper(gram, rank);
      SymmetricEigen eig = SymmetricEigen.of(gram, rank);
      double[] sigma = eig.values();
      int kept = 0;
      while (kept < rank && sigma[kept] > rcond * sigma[0] && sigma[kept] > 0) {
        kept++;
      }
      double[] v = Arrays.copyOf(eig.vectors(), rank * kept);
      for (int c = 0; c < kept; c++) {
        for (int i = 0; i < rank; i++) {
          v[i + c * rank] /= sigma[c];
        }
      }
      double[] w = new double[Math.multiplyExact(m, kept)];
      Blas.blas().dgemm("N", "N", m, kept, rank, 1.0, l, m, v, rank, 0.0, w, m);
      return new Whitening(new DenseWhitening(w, m, kept, false), sigma[0] / sigma[kept - 1]);
    }
  }

  /**
   * W and σ_1/σ_r' of the eigenvalues kept: the condition number of K_mm's factor on the retained
   * rank (LLᵀ = K_mm to the pivoted Cholesky's threshold).
   */
  public record Whitening(DenseWhitening w, double conditionEstimate) {}
}
