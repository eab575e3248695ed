package io.github.sparkkpca.linalg;

/**
 * A factor W (m×r) of the Nyström whitening, W·Wᵀ = K_mm⁺ on the retained rank r: all the top-k
 * statistics route needs of it. Implementations: a dense W held in one array, a triangular factor
 * kept in tiles (m beyond one Java array), a low-rank factor from a pivoted Cholesky (cost
 * O(m·r²)).
 */
public interface WhiteningFactor {
  /** m, the number of landmarks (rows of W). */
  int landmarks();

  /** r, the retained rank (columns of W). */
  int rank();

  /** W·Q for Q r×l column-major; returns a new m×l column-major array. */
  double[] times(double[] q, int l);

  /** Wᵀ·Y for Y m×l column-major; returns a new r×l column-major array. */
  double[] transposeTimes(double[] y, int l);
}
