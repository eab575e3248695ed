package io.github.sparkkpca.kernel;

/**
 * Which expanded distances {@link LandmarkKernel} recomputes from coordinate differences, decided
 * by a bound on the expansion's rounding error that does not depend on the value it checks.
 *
 * <p>A distance D = a − 2p (rbf: a = ‖x−c‖² + ‖z−c‖², p = ⟨x−c, z−c⟩; laplacian on the sparse path:
 * a = ‖x‖₁ + ‖z‖₁, 2p the overlap) is computed with an absolute error of about 4ε·a: each of a and
 * p is rounded to a few ε of a (the terms of the sums are non-negative, or bounded by
 * Cauchy–Schwarz), whatever D is. When rows share a large coordinate that the centre does not
 * remove (a column stored in a minority of the rows, or with two clusters of values), a is of the
 * order of that coordinate squared and D of the spread, and D̂ loses every digit: at 1e8 its error
 * is a few units where D is 10⁻⁴, and the computed k = exp(−γD̂) can be exactly 0 where the true
 * one is 0.9. So the test must not read k. With δ = {@link #ERROR_PER_NORM}·a = 8ε·a (twice the
 * estimate, a margin for sums of several large terms), D ≥ max(0, D̂ − δ), so the true k is at most
 * k⁺ = exp(−γ·max(0, D̂ − δ)) and the computed one errs by at most k⁺·min(1, γδ). A pair is
 * recomputed when that exceeds {@link #TOLERANCE}, i.e. when γδ &gt; TOLERANCE and γ·(D̂ − δ) &lt;
 * ln(min(1, γδ)/TOLERANCE). The logarithm is bounded per pair by ln(γ·8ε/TOLERANCE) + ln 2 + max(ln
 * r_i, ln l_j) from the logarithms of the b row and m landmark norms, so the test costs about 10
 * flops and two compares per pair and no transcendental function (it marks a few more pairs than
 * the exact test: those with k⁺ down to half the limit).
 *
 * <p>What gets recomputed: the pairs whose value the expansion cannot vouch for, and only those.
 * Far pairs (D̂ − δ large against 1/γ) never are; rows near the centre relative to the kernel width
 * (normalised text, one-hot rows: γ·a ≈ 2γ, γδ ≈ 3.5·10⁻¹⁵·γ) are not while γ ≤ 2.8; near pairs of
 * rows with γ·a above about 6 are, as they were under the former test k·γ·4ε·a; and pairs within a
 * group sharing a large column the centre leaves (γδ ≫ 1) are whenever D̂ − δ is within about 32/γ
 * (all of them, where D̂ is rounding noise of size δ): the expansion cannot tell such a pair's
 * value from 0. A recomputation costs nnz(x) + nnz(z) operations (d on the dense path).
 */
final class Cancellation {

  private Cancellation() {}

  /** The largest absolute error of a kernel value (k(x,x) = 1) left to the expansion. */
  static final double TOLERANCE = 1e-14;

  /** δ/a: the bound on the expanded distance's error per unit of a, 8ε. */
  static final double ERROR_PER_NORM = 8 * Math.ulp(1.0);

  /** ln(1/TOLERANCE): no pair whose k⁺ is below TOLERANCE is recomputed. */
  private static final double LOG_INVERSE_TOLERANCE = -Math.log(TOLERANCE);

  /** A distance computed directly from coordinate differences: ‖x_i − z_j‖² or ‖x_i − z_j‖₁. */
  @FunctionalInterface
  interface PairDistance {
    double of(int i, int j);
  }

  /**
   * The positions i·m + j of the pairs to recompute, or null if none.
   *
   * @param out m×b column-major: inner products p ({@code distances} false, D̂ = r + l − 2p) or the
   *     distances D̂ themselves
   * @param rowNorms r_i (‖x_i − c‖², or ‖x_i‖₁)
   * @param landmarkNorms l_j
   */
  static int[] mark(
      double[] out,
      int b,
      int m,
      double[] rowNorms,
      double[] landmarkNorms,
      double gamma,
      boolean distances) {
    double[] logLandmark = new double[m];
    for (int j = 0; j < m; j++) {
      logLandmark[j] = Math.log(landmarkNorms[j]);
    }
    double logScale = Math.log(gamma * ERROR_PER_NORM / TOLERANCE) + Math.log(2);
    int[] marked = null;
    int count = 0;
    for (int i = 0; i < b; i++) {
      double r = rowNorms[i];
      double logRow = Math.log(r);
      for (int j = 0, o = i * m; j < m; j++, o++) {
        double a = r + landmarkNorms[j];
        double delta = ERROR_PER_NORM * a;
        if (!(gamma * delta > TOLERANCE)) {
          continue;
        }
        double distance = distances ? out[o] : a - 2 * out[o];
        double limit = Math.min(LOG_INVERSE_TOLERANCE, logScale + Math.max(logRow, logLandmark[j]));
        if (gamma * (distance - delta) < limit) {
          if (marked == null) {
            marked = new int[Math.max(16, m)];
          } else if (count == marked.length) {
            marked =
                java.util.Arrays.copyOf(marked, (int) Math.min(Integer.MAX_VALUE - 8, 2L * count));
          }
          marked[count++] = o;
        }
      }
    }
    return marked == null ? null : java.util.Arrays.copyOf(marked, count);
  }

  /**
   * Overwrites the kernel values at the {@code marked} positions (of {@link #mark}) by the family's
   * map of the distance computed from coordinate differences.
   */
  static void recompute(Kernel kernel, double[] out, int m, int[] marked, PairDistance exact) {
    if (marked == null) {
      return;
    }
    for (int o : marked) {
      out[o] = kernelOfDistance(kernel, exact.of(o / m, o % m));
    }
  }

  /**
   * The relative accuracy {@link #distances} guarantees each squared distance: a pair is recomputed
   * when δ = 8ε·a exceeds this fraction of D̂.
   */
  static final double DISTANCE_TOLERANCE = 1e-12;

  /**
   * Squared distances from inner products, in place: out[o] ← D̂ = max(r_i + l_j − 2·out[o], 0), or
   * the distance from coordinate differences where δ = 8ε·(r_i + l_j) &gt; {@link
   * #DISTANCE_TOLERANCE}·D̂. Each distance is then within 1e-12 of itself (plus the few ε of a
   * direct sum); the pairs recomputed are those closer than 8ε/1e-12 ≈ 1.8·10⁻³ of a, near
   * duplicates for rows near the centre. One compare per pair.
   */
  static void distances(
      double[] out, int b, int m, double[] rowNorms, double[] landmarkNorms, PairDistance exact) {
    for (int i = 0; i < b; i++) {
      for (int j = 0, o = i * m; j < m; j++, o++) {
        double a = rowNorms[i] + landmarkNorms[j];
        double distance = Math.max(a - 2 * out[o], 0.0);
        out[o] = ERROR_PER_NORM * a > DISTANCE_TOLERANCE * distance ? exact.of(i, j) : distance;
      }
    }
  }

  /** k from a distance (squared Euclidean for rbf, L1 for laplacian) through the family's map. */
  static double kernelOfDistance(Kernel kernel, double distance) {
    KernelFamily family = kernel.type();
    double[] value = new double[1];
    if (family.hasInnerProductForm()) {
      family.mapInnerProducts(kernel, value, new double[] {distance}, 1, new double[] {0}, 1);
    } else {
      value[0] = distance;
      family.mapL1Distances(kernel, value, 1);
    }
    return value[0];
  }
}
