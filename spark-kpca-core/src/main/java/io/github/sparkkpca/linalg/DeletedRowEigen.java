package io.github.sparkkpca.linalg;

import java.util.ArrayList;
import java.util.List;

/**
 * The leading eigenvalues of a principal submatrix A₍₋ᵢ₎ (row and column i deleted) and the
 * projections of a vector on their eigenvectors, from the eigendecomposition A = Q diag(d) Qᵀ in
 * O(n) per eigenvalue, without forming any eigenvector (Golub, "Some modified matrix eigenvalue
 * problems", SIAM Review 15, 1973, §7).
 *
 * <p>With z = Qᵀeᵢ (row i of Q), μ is an eigenvalue of A₍₋ᵢ₎ exactly when the vector x = Q(diag(d)
 * − μ)⁻¹z has xᵢ = 0, i.e. when
 *
 * <pre>  g(μ) = Σⱼ zⱼ² / (dⱼ − μ) = 0,</pre>
 *
 * and then x with entry i deleted is its eigenvector: (A − μ)x = eᵢ holds, and its rows other than
 * i say A₍₋ᵢ₎x₋ᵢ = μx₋ᵢ. g is the secular function of a rank-one modification without its leading
 * 1, so it has one root strictly inside each interval between consecutive poles and none outside;
 * the same root finder, interlacing brackets and deflation serve ({@link RankOneEigenUpdate}): a
 * weight zⱼ ≤ 8ε leaves (dⱼ, qⱼ) an eigenpair of A₍₋ᵢ₎ (qⱼ has no entry at i), and a group of
 * (nearly) equal poles is rotated so that one pole carries the group's weight and the others become
 * deflated eigenpairs. For a vector y with yᵢ = 0 and coordinates c = Qᵀy, the projection on the
 * unit eigenvector of root μ is
 *
 * <pre>  xᵀy / ‖x‖ = Σⱼ zⱼcⱼ/(dⱼ − μ) / (Σⱼ zⱼ²/(dⱼ − μ)²)^{1/2},</pre>
 *
 * and on a deflated eigenpair, cⱼ (after the group's rotation). The differences dⱼ − μ are formed
 * relative to the nearer pole, as in the rank-one update.
 *
 * <p>This is the decremental step the thesis performs with two rank-one modifications (Hallgren,
 * <i>Kernel PCA and the Nyström method</i>, UCL 2021, §3.2, Algorithm 3; {@link
 * IncrementalEigen#remove}), specialised to callers that need only the leading eigenvalues and
 * projections: O(n·count) per deleted row instead of the two updates' O(n²), and no transform to
 * apply.
 */
public final class DeletedRowEigen {

  private DeletedRowEigen() {}

  /**
   * The leading eigenvalues of A₍₋ᵢ₎ and projections on their eigenvectors.
   *
   * @param values λ of each eigenvalue of A₍₋ᵢ₎ taken, descending
   * @param projections the projection of y on the corresponding unit eigenvector (sign arbitrary)
   */
  public record Leading(double[] values, double[] projections) {}

  /**
   * The {@code count} largest eigenvalues of A₍₋ᵢ₎ with the projections of y.
   *
   * @param ascending the eigenvalues d of A, ascending
   * @param row row i of Q: zⱼ = Q_{ij}
   * @param coordinates c = Qᵀy for a vector y with yᵢ = 0
   * @param count how many eigenvalues, at most n − 1
   */
  public static Leading leading(double[] ascending, double[] row, double[] coordinates, int count) {
    int n = ascending.length;
    if (row.length != n || coordinates.length != n || count < 0 || count > n - 1) {
      throw new IllegalArgumentException(
          "deleted row: "
              + n
              + " eigenvalues, a row of "
              + row.length
              + ", "
              + coordinates.length
              + " coordinates and count "
              + count);
    }
    double[] w = ascending.clone();
    double[] z = row.clone();
    double[] c = coordinates.clone();
    double dmax = Math.max(Math.abs(w[0]), Math.abs(w[n - 1]));
    double tol = 8 * RankOneEigenUpdate.EPS * dmax;
    // Weights are entries of a unit vector: ρ = dmax puts the deflation test on the poles' scale
    // (|zⱼ| ≤ 8ε).
    boolean[] deflated =
        RankOneEigenUpdate.deflate(
            w, z, Math.max(dmax, Double.MIN_NORMAL), tol, c, new ArrayList<>(), new ArrayList<>());
    List<double[]> pairs = new ArrayList<>();
    for (int j = 0; j < n; j++) {
      if (deflated[j]) {
        pairs.add(new double[] {w[j], c[j]});
      }
    }
    int k = n - pairs.size();
    double[] dk = new double[k];
    double[] zk = new double[k];
    double[] ck = new double[k];
    for (int j = 0, t = 0; j < n; j++) {
      if (!deflated[j]) {
        dk[t] = w[j];
        zk[t] = z[j];
        ck[t] = c[j];
        t++;
      }
    }
    // Roots in the top intervals (dk[i], dk[i+1]), i = k−2 downwards: at most count of them are
    // needed.
    int roots = Math.max(0, Math.min(count, k - 1));
    int[] origin = new int[roots];
    double[] tau = new double[roots];
    double[] delta = new double[roots * k];
    for (int r = 0; r < roots; r++) {
      int i = k - 2 - r;
      RankOneEigenUpdate.solveRoot(0, dk, zk, 1, i, r, origin, tau, delta);
      double num = 0;
      double den = 0;
      for (int j = 0; j < k; j++) {
        double inv = 1 / delta[j + r * k];
        num += zk[j] * ck[j] * inv;
        den += zk[j] * zk[j] * inv * inv;
      }
      pairs.add(new double[] {dk[origin[r]] + tau[r], num / Math.sqrt(den)});
    }
    pairs.sort((a, b) -> Double.compare(b[0], a[0]));
    double[] values = new double[count];
    double[] projections = new double[count];
    for (int t = 0; t < count; t++) {
      values[t] = pairs.get(t)[0];
      projections[t] = pairs.get(t)[1];
    }
    return new Leading(values, projections);
  }
}
