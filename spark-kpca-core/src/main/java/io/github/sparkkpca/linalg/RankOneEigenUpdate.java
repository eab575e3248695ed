package io.github.sparkkpca.linalg;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One symmetric rank-one modification of an eigendecomposition: given A = Q diag(d) Qᵀ (d
 * ascending, Q orthogonal) and ρ ≠ 0, the eigendecomposition of A + ρvvᵀ = Q (diag(d) + ρzzᵀ) Qᵀ
 * with z = Qᵀv is Q·T diag(λ) (Q·T)ᵀ, where T is the orthogonal "update transform" this class
 * computes from d, ρ and z alone (O(n²) flops). Forming Q·T costs one n×K×K matrix product (K the
 * non-deflated count); callers that need only some of the new eigenvectors, or only projections
 * onto them, apply T to those and skip the product ({@link #applyTo}, {@link #transposeTimes}).
 *
 * <p>Golub, "Some modified matrix eigenvalue problems", SIAM Review 15 (1973); Bunch, Nielsen and
 * Sorensen, "Rank-one modification of the symmetric eigenproblem", Numer. Math. 31 (1978); Gu and
 * Eisenstat, "A stable and efficient algorithm for the rank-one modification of the symmetric
 * eigenproblem", SIAM J. Matrix Anal. Appl. 15 (1994); Hallgren, <i>Kernel PCA and the Nyström
 * method</i>, PhD thesis, UCL 2021, §3.1.3.
 *
 * <p><b>Sign.</b> ρ &lt; 0 is reduced to ρ &gt; 0: diag(d) + ρzzᵀ = −(diag(−d) + |ρ|zzᵀ), with the
 * order reversed so that −d is ascending; the result is negated and reversed back.
 *
 * <p><b>Deflation</b> (Bunch et al. §4; Dongarra and Sorensen 1987). z is normalised to unit length
 * (ρ ← ρ‖z‖²) and tol = 8ε·max(maxᵢ|dᵢ|, ρ). (a) A component with ρ|zⱼ| ≤ tol is set to zero: (dⱼ,
 * eⱼ) stays an eigenpair, to within tol. (b) For two consecutive non-deflated poles dₚ ≤ dⱼ, the
 * Givens rotation G (c = zⱼ/r, s = zₚ/r, r = hypot(zₚ, zⱼ)) moves z's weight to position j; Gᵀ
 * diag(d) G then has the off-diagonal entry (dⱼ − dₚ)cs, which is dropped when |(dⱼ − dₚ)cs| ≤ tol:
 * position p becomes a deflated pair with eigenvalue c²dₚ + s²dⱼ. This removes repeated eigenvalues
 * (repeated data points give them) and leaves the remaining poles strictly increasing (gaps &gt;
 * 2·tol), which the secular equation needs.
 *
 * <p><b>Secular equation</b> (ρ &gt; 0, K non-deflated poles d₁ &lt; … &lt; d_K, weights zⱼ ≠ 0):
 *
 * <pre>  f(λ) = 1 + ρ Σⱼ zⱼ² / (dⱼ − λ) = 0,</pre>
 *
 * increasing between poles, with exactly one root in each interval (dᵢ, dᵢ₊₁) and the last in (d_K,
 * d_K + ρΣzⱼ²] (interlacing; Hallgren eq. 3.5). Each root is computed as λᵢ = d_o + τ relative to
 * the nearer pole o (chosen by the sign of f at the interval's midpoint), so that every difference
 * dⱼ − λᵢ is formed as (dⱼ − d_o) − τ without cancellation. The iteration keeps a bracket on τ (f's
 * sign) and takes the step of Bunch, Nielsen and Sorensen's rational model: the part of f from the
 * poles at or below i is replaced by A + B/(dᵢ − λ), the part above by C + E/(dᵢ₊₁ − λ), both
 * matching value and derivative at the current iterate; the model's root inside the pole interval
 * is the next iterate (a quadratic, solved without cancellation), replaced by bisection whenever it
 * leaves the bracket. It stops when |f| is below its rounding error bound 8ε(1 + Σ ρzⱼ²/|dⱼ − λ|)
 * or the bracket is a few ulps of τ wide.
 *
 * <p><b>Eigenvectors</b> (Gu and Eisenstat). Instead of the textbook xᵢ ∝ (diag(d) − λᵢ)⁻¹z, whose
 * columns lose orthogonality when roots are close to poles, z is replaced by the vector ẑ for which
 * the computed λ are the exact eigenvalues of diag(d) + ρẑẑᵀ (Löwner's formula, from det(diag(d) +
 * ρẑẑᵀ − λI) = Π(λᵢ − λ) at λ = dⱼ):
 *
 * <pre>
 *   ẑⱼ² = (λ_K − dⱼ)/ρ · Π_{i&lt;j} (λᵢ − dⱼ)/(dᵢ − dⱼ) · Π_{j≤i&lt;K} (λᵢ − dⱼ)/(dᵢ₊₁ − dⱼ),  sign ẑⱼ = sign zⱼ,
 * </pre>
 *
 * every factor positive and of order one. The vectors xᵢ = (diag(d) − λᵢ)⁻¹ẑ / ‖·‖ are then
 * numerically orthogonal whatever the clustering, and diag(d) + ρzzᵀ differs from diag(d) + ρẑẑᵀ
 * only by the root finder's residual.
 */
public final class RankOneEigenUpdate {

  /** Unit roundoff. */
  static final double EPS = Math.ulp(1.0) / 2;

  /**
   * Secular iterations at most per root (the model step converges in a handful; bisection backs it
   * up).
   */
  private static final int MAX_ITERATIONS = 200;

  private final int n;
  private final boolean flipped;

  /**
   * Rotations (p, j, c, s) in the order applied: new column p = c·qₚ − s·qⱼ, new column j = s·qₚ +
   * c·qⱼ.
   */
  private final int[] rotationPairs;

  private final double[] rotationCosSin;

  /** Positions (in the ascending working order) of the non-deflated poles. */
  private final int[] nonDeflated;

  /** K×K column-major: the new non-deflated columns are Q[:, nonDeflated]·X. */
  private final double[] x;

  /** Final column c of the (working-order) result is intermediate column order[c]. */
  private final int[] order;

  private final double[] values;
  private final int iterations;

  private RankOneEigenUpdate(
      int n,
      boolean flipped,
      int[] rotationPairs,
      double[] rotationCosSin,
      int[] nonDeflated,
      double[] x,
      int[] order,
      double[] values,
      int iterations) {
    this.n = n;
    this.flipped = flipped;
    this.rotationPairs = rotationPairs;
    this.rotationCosSin = rotationCosSin;
    this.nonDeflated = nonDeflated;
    this.x = x;
    this.order = order;
    this.values = values;
    this.iterations = iterations;
  }

  /**
   * Plans the update of diag(d) + ρzzᵀ: its eigenvalues and the transform T (nothing is applied to
   * any basis). {@code d} must be ascending; neither array is modified.
   *
   * @param d current eigenvalues, ascending
   * @param rho the scalar ρ (0 gives the identity transform)
   * @param z the update vector in eigen-coordinates, z = Qᵀv
   */
  public static RankOneEigenUpdate plan(double[] d, double rho, double[] z) {
    int n = d.length;
    if (z.length != n) {
      throw new IllegalArgumentException(
          "rank-one update: " + z.length + " coordinates for " + n + " eigenvalues");
    }
    for (int i = 0; i < n; i++) {
      if (!Double.isFinite(d[i]) || !Double.isFinite(z[i]) || (i > 0 && d[i] < d[i - 1])) {
        throw new IllegalArgumentException(
            "rank-one update: eigenvalues must be finite and ascending and the "
                + "update finite (index "
                + i
                + ")");
      }
    }
    if (!Double.isFinite(rho)) {
      throw new IllegalArgumentException("rank-one update: rho is not finite: " + rho);
    }
    boolean flip = rho < 0;
    double[] w = new double[n];
    double[] zz = new double[n];
    for (int i = 0; i < n; i++) {
      int src = flip ? n - 1 - i : i;
      w[i] = flip ? -d[src] : d[src];
      zz[i] = z[src];
    }
    return positive(w, Math.abs(rho), zz, flip);
  }

  /** The update for ρ &gt; 0 (w ascending and zz are working copies, overwritten). */
  private static RankOneEigenUpdate positive(double[] w, double rho, double[] zz, boolean flip) {
    int n = w.length;
    double norm = 0;
    double zmax = 0;
    for (double v : zz) {
      zmax = Math.max(zmax, Math.abs(v));
    }
    if (zmax > 0) {
      for (double v : zz) {
        norm += (v / zmax) * (v / zmax);
      }
      norm = zmax * Math.sqrt(norm);
    }
    int[] identity = new int[n];
    for (int i = 0; i < n; i++) {
      identity[i] = i;
    }
    if (rho == 0 || norm == 0) {
      return new RankOneEigenUpdate(
          n,
          flip,
          new int[0],
          new double[0],
          new int[0],
          new double[0],
          identity,
          finalValues(w, flip),
          0);
    }
    for (int i = 0; i < n; i++) {
      zz[i] /= norm;
    }
    rho *= norm * norm;
    double dmax = 0;
    for (double v : w) {
      dmax = Math.max(dmax, Math.abs(v));
    }
    double tol = 8 * EPS * Math.max(dmax, rho);

    // Deflation: negligible components, then Givens rotations between close consecutive poles.
    List<int[]> pairs = new ArrayList<>();
    List<double[]> cosSin = new ArrayList<>();
    boolean[] deflated = deflate(w, zz, rho, tol, null, pairs, cosSin);
    int count = 0;
    for (boolean b : deflated) {
      if (!b) {
        count++;
      }
    }
    int[] idx = new int[count];
    for (int j = 0, t = 0; j < n; j++) {
      if (!deflated[j]) {
        idx[t++] = j;
      }
    }
    double[] dk = new double[count];
    double[] zk = new double[count];
    for (int t = 0; t < count; t++) {
      dk[t] = w[idx[t]];
      zk[t] = zz[idx[t]];
    }
    // Roots: λᵢ = dk[origin[i]] + tau[i]; delta[j + i·K] = dk[j] − λᵢ, formed without cancellation.
    int[] origin = new int[count];
    double[] tau = new double[count];
    double[] delta = new double[count * count];
    int totalIterations = 0;
    for (int i = 0; i < count; i++) {
      totalIterations += solveRoot(1, dk, zk, rho, i, i, origin, tau, delta);
    }
    double[] zhat = zhat(dk, zk, rho, delta, count);
    double[] xk = new double[count * count];
    for (int i = 0; i < count; i++) {
      double s = 0;
      int o = i * count;
      for (int j = 0; j < count; j++) {
        double v = zhat[j] / delta[o + j];
        xk[o + j] = v;
        s += v * v;
      }
      double inv = 1.0 / Math.sqrt(s);
      for (int j = 0; j < count; j++) {
        xk[o + j] *= inv;
      }
    }
    // New eigenvalues: non-deflated positions take the roots (λᵢ lies above dk[i], so the position
    // of pole i
    // is the natural home of root i), deflated ones keep their (possibly rotated) pole; then sort.
    double[] mid = w.clone();
    for (int i = 0; i < count; i++) {
      mid[idx[i]] = dk[origin[i]] + tau[i];
    }
    Integer[] sorted = new Integer[n];
    for (int i = 0; i < n; i++) {
      sorted[i] = i;
    }
    Arrays.sort(sorted, (a, b) -> Double.compare(mid[a], mid[b]));
    int[] order = new int[n];
    double[] ascending = new double[n];
    for (int c = 0; c < n; c++) {
      order[c] = sorted[c];
      ascending[c] = mid[sorted[c]];
    }
    int[] flatPairs = new int[2 * pairs.size()];
    double[] flatCs = new double[2 * pairs.size()];
    for (int t = 0; t < pairs.size(); t++) {
      flatPairs[2 * t] = pairs.get(t)[0];
      flatPairs[2 * t + 1] = pairs.get(t)[1];
      flatCs[2 * t] = cosSin.get(t)[0];
      flatCs[2 * t + 1] = cosSin.get(t)[1];
    }
    return new RankOneEigenUpdate(
        n, flip, flatPairs, flatCs, idx, xk, order, finalValues(ascending, flip), totalIterations);
  }

  /**
   * The deflation pass (see the class comment), in place on the ascending poles {@code w} and
   * weights {@code zz}: a component with ρ|zⱼ| ≤ tol is zeroed; two consecutive non-deflated poles
   * whose Givens rotation leaves an off-diagonal |(dⱼ − dₚ)cs| ≤ tol are merged into position j.
   * {@code companion}, when not null, holds other coordinates in the same basis and is rotated
   * alike. Rotations are appended to {@code pairs}/{@code cosSin} in the order applied.
   *
   * @return which positions are deflated
   */
  static boolean[] deflate(
      double[] w,
      double[] zz,
      double rho,
      double tol,
      double[] companion,
      List<int[]> pairs,
      List<double[]> cosSin) {
    int n = w.length;
    boolean[] deflated = new boolean[n];
    int prev = -1;
    for (int j = 0; j < n; j++) {
      if (rho * Math.abs(zz[j]) <= tol) {
        deflated[j] = true;
        zz[j] = 0;
        continue;
      }
      if (prev >= 0) {
        double r = Math.hypot(zz[prev], zz[j]);
        double c = zz[j] / r;
        double s = zz[prev] / r;
        if (Math.abs((w[j] - w[prev]) * c * s) <= tol) {
          double dp = w[prev];
          double dj = w[j];
          w[prev] = c * c * dp + s * s * dj;
          w[j] = s * s * dp + c * c * dj;
          zz[prev] = 0;
          zz[j] = r;
          if (companion != null) {
            double cp = companion[prev];
            double cj = companion[j];
            companion[prev] = c * cp - s * cj;
            companion[j] = s * cp + c * cj;
          }
          deflated[prev] = true;
          pairs.add(new int[] {prev, j});
          cosSin.add(new double[] {c, s});
        }
      }
      prev = j;
    }
    return deflated;
  }

  private static double[] finalValues(double[] ascendingWorking, boolean flip) {
    int n = ascendingWorking.length;
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      out[i] = flip ? -ascendingWorking[n - 1 - i] : ascendingWorking[i];
    }
    return out;
  }

  /**
   * Root i of the secular equation one + ρΣzⱼ²/(dⱼ − λ) = 0 (ρ &gt; 0; one = 1 for a rank-one
   * modification, 0 for a deleted row and column, which has no root above the last pole): fills
   * origin[slot], tau[slot] and column slot of delta (delta[j + slot·K] = dⱼ − λᵢ). Returns the
   * number of iterations.
   */
  static int solveRoot(
      double one,
      double[] dk,
      double[] zk,
      double rho,
      int i,
      int slot,
      int[] origin,
      double[] tau,
      double[] delta) {
    int k = dk.length;
    int o;
    double lo;
    double hi;
    if (i < k - 1) {
      double gap = dk[i + 1] - dk[i];
      double half = gap / 2;
      double f = one;
      for (int j = 0; j < k; j++) {
        f += rho * zk[j] * zk[j] / ((dk[j] - dk[i]) - half);
      }
      if (f >= 0) {
        o = i;
        lo = 0;
        hi = half;
      } else {
        o = i + 1;
        lo = -half;
        hi = 0;
      }
    } else {
      double s = 0;
      for (double v : zk) {
        s += v * v;
      }
      o = i;
      lo = 0;
      hi = rho * s;
    }
    double[] base = new double[k];
    for (int j = 0; j < k; j++) {
      base[j] = dk[j] - dk[o];
    }
    double t = 0.5 * (lo + hi);
    int iter = 0;
    while (iter++ < MAX_ITERATIONS) {
      double psi = 0;
      double dpsi = 0;
      double phi = 0;
      double dphi = 0;
      for (int j = 0; j < k; j++) {
        double dj = base[j] - t;
        double q = rho * zk[j] / dj;
        double term = q * zk[j];
        if (j <= i) {
          psi += term;
          dpsi += q * q / rho;
        } else {
          phi += term;
          dphi += q * q / rho;
        }
      }
      double f = one + psi + phi;
      if (Math.abs(f) <= 8 * EPS * (one + phi - psi)) {
        break;
      }
      if (f > 0) {
        hi = t;
      } else {
        lo = t;
      }
      if (hi - lo <= 4 * EPS * Math.max(Math.abs(lo), Math.abs(hi))) {
        break;
      }
      // Rational model (Bunch, Nielsen and Sorensen): A + B/(δᵢ − η) + C + E/(δᵢ₊₁ − η) + 1 = 0 for
      // the step η.
      double di = base[i] - t;
      double b = dpsi * di * di;
      double a = psi - dpsi * di;
      double next = Double.NaN;
      if (i < k - 1) {
        double dj = base[i + 1] - t;
        double e = dphi * dj * dj;
        double c = phi - dphi * dj;
        double alpha = one + a + c;
        // alpha·η² − a1·η + a0 = 0, a0 = δᵢδᵢ₊₁f; the root between the poles δᵢ < 0 < δᵢ₊₁.
        double a1 = alpha * (di + dj) + b + e;
        double a0 = di * dj * f;
        double eta = Double.NaN;
        if (alpha == 0) {
          eta = a0 / a1;
        } else {
          double disc = a1 * a1 - 4 * alpha * a0;
          if (disc >= 0) {
            double q = 0.5 * (a1 + Math.copySign(Math.sqrt(disc), a1));
            double r1 = q / alpha;
            double r2 = q == 0 ? Double.NaN : a0 / q;
            eta = (r1 > di && r1 < dj) ? r1 : r2;
          }
        }
        next = t + eta;
      } else {
        double alpha = one + a;
        if (alpha > 0) {
          next = t + di + b / alpha;
        }
      }
      if (!(next > lo && next < hi) || next == t) {
        next = 0.5 * (lo + hi);
        if (next == lo || next == hi) {
          break;
        }
      }
      t = next;
    }
    origin[slot] = o;
    tau[slot] = t;
    int off = slot * k;
    for (int j = 0; j < k; j++) {
      delta[off + j] = base[j] - t;
    }
    return iter;
  }

  /** Gu and Eisenstat's ẑ from the computed roots (delta[j + i·K] = dⱼ − λᵢ). */
  private static double[] zhat(double[] dk, double[] zk, double rho, double[] delta, int k) {
    double[] out = new double[k];
    for (int j = 0; j < k; j++) {
      double p = -delta[j + (k - 1) * k] / rho;
      for (int i = 0; i < j; i++) {
        p *= -delta[j + i * k] / (dk[i] - dk[j]);
      }
      for (int i = j; i < k - 1; i++) {
        p *= -delta[j + i * k] / (dk[i + 1] - dk[j]);
      }
      out[j] = Math.copySign(Math.sqrt(Math.max(p, 0)), zk[j]);
    }
    return out;
  }

  /** The eigenvalues of the updated matrix, ascending (a copy). */
  public double[] values() {
    return values.clone();
  }

  /** Non-deflated poles (the secular equation's order K). */
  public int secularOrder() {
    return nonDeflated.length;
  }

  /** Components deflated (zero weight or removed by a rotation). */
  public int deflated() {
    return n - nonDeflated.length;
  }

  /** Givens rotations applied for (nearly) equal eigenvalues. */
  public int rotations() {
    return rotationPairs.length / 2;
  }

  /** Secular iterations over all roots. */
  public int iterations() {
    return iterations;
  }

  private int working(int c) {
    return flipped ? n - 1 - c : c;
  }

  /**
   * Q·T: the new eigenvectors from the old ones, {@code q} given rows×n column-major (column c
   * belongs to the c-th ascending eigenvalue), returned as a new rows×n array in the ascending
   * order of {@link #values}. One rows×K×K matrix product.
   */
  public double[] applyTo(double[] q, int rows) {
    if (q.length != (long) rows * n) {
      throw new IllegalArgumentException(
          "basis has " + q.length + " entries, expected " + rows + "x" + n);
    }
    // Working order (reversed when flipped).
    double[] b = new double[rows * n];
    for (int c = 0; c < n; c++) {
      System.arraycopy(q, working(c) * rows, b, c * rows, rows);
    }
    for (int t = 0; t < rotationPairs.length / 2; t++) {
      int p = rotationPairs[2 * t];
      int j = rotationPairs[2 * t + 1];
      double c = rotationCosSin[2 * t];
      double s = rotationCosSin[2 * t + 1];
      for (int r = 0; r < rows; r++) {
        double bp = b[r + p * rows];
        double bj = b[r + j * rows];
        b[r + p * rows] = c * bp - s * bj;
        b[r + j * rows] = s * bp + c * bj;
      }
    }
    int k = nonDeflated.length;
    if (k > 0) {
      double[] gathered = new double[rows * k];
      for (int t = 0; t < k; t++) {
        System.arraycopy(b, nonDeflated[t] * rows, gathered, t * rows, rows);
      }
      double[] product = new double[rows * k];
      Blas.blas().dgemm("N", "N", rows, k, k, 1.0, gathered, rows, x, k, 0.0, product, rows);
      for (int t = 0; t < k; t++) {
        System.arraycopy(product, t * rows, b, nonDeflated[t] * rows, rows);
      }
    }
    double[] out = new double[rows * n];
    for (int c = 0; c < n; c++) {
      System.arraycopy(b, order[c] * rows, out, working(c) * rows, rows);
    }
    return out;
  }

  /**
   * Tᵀw: coordinates in the new eigenbasis of a vector whose coordinates in the old one are w (so
   * the next update's z = Tᵀ(Qᵀv) costs O(n²) without forming Q·T).
   */
  public double[] transposeTimes(double[] w) {
    double[] y = new double[n];
    for (int c = 0; c < n; c++) {
      y[c] = w[working(c)];
    }
    for (int t = 0; t < rotationPairs.length / 2; t++) {
      int p = rotationPairs[2 * t];
      int j = rotationPairs[2 * t + 1];
      double c = rotationCosSin[2 * t];
      double s = rotationCosSin[2 * t + 1];
      double yp = y[p];
      double yj = y[j];
      y[p] = c * yp - s * yj;
      y[j] = s * yp + c * yj;
    }
    int k = nonDeflated.length;
    if (k > 0) {
      double[] g = new double[k];
      for (int t = 0; t < k; t++) {
        g[t] = y[nonDeflated[t]];
      }
      for (int t = 0; t < k; t++) {
        double s = 0;
        int o = t * k;
        for (int j = 0; j < k; j++) {
          s += x[o + j] * g[j];
        }
        y[nonDeflated[t]] = s;
      }
    }
    double[] out = new double[n];
    for (int c = 0; c < n; c++) {
      out[working(c)] = y[order[c]];
    }
    return out;
  }
}
