package io.github.sparkkpca.linalg;

/**
 * A whitening W (m×r) held in one column-major array (m·r &lt; 2³¹): today's W of the Nyström map
 * (the upper-triangular inverse Cholesky factor R⁻¹, r = m, or V_r·Λ_r^{-1/2}), or L·V_r·Σ_r⁻¹ from
 * a pivoted Cholesky factor ({@link PivotedCholesky.Factor#whitening}). Products cost m²·l flops
 * ({@code dtrmm}) for a triangular W, 2m·r·l ({@code dgemm}) otherwise.
 *
 * @param w W, m×r column-major (shared, not copied)
 * @param landmarks m
 * @param rank r
 * @param upperTriangular W is upper triangular (r = m): the products skip its zeros
 */
public record DenseWhitening(double[] w, int landmarks, int rank, boolean upperTriangular)
    implements WhiteningFactor {

  public DenseWhitening {
    if (w.length != (long) landmarks * rank || (upperTriangular && rank != landmarks)) {
      throw new IllegalArgumentException(
          "a whitening of "
              + w.length
              + " values for "
              + landmarks
              + "×"
              + rank
              + (upperTriangular ? " (triangular)" : ""));
    }
  }

  /** W·Q for Q r×l. */
  @Override
  public double[] times(double[] q, int columns) {
    double[] out = new double[Math.multiplyExact(landmarks, columns)];
    if (upperTriangular) {
      System.arraycopy(q, 0, out, 0, out.length);
      Blas.blas().dtrmm("L", "U", "N", "N", landmarks, columns, 1.0, w, landmarks, out, landmarks);
    } else {
      Blas.blas()
          .dgemm(
              "N", "N", landmarks, columns, rank, 1.0, w, landmarks, q, rank, 0.0, out, landmarks);
    }
    return out;
  }

  /** Wᵀ·Y for Y m×l. */
  @Override
  public double[] transposeTimes(double[] y, int columns) {
    double[] out = new double[Math.multiplyExact(rank, columns)];
    if (upperTriangular) {
      System.arraycopy(y, 0, out, 0, out.length);
      Blas.blas().dtrmm("L", "U", "T", "N", landmarks, columns, 1.0, w, landmarks, out, landmarks);
    } else {
      Blas.blas()
          .dgemm(
              "T", "N", rank, columns, landmarks, 1.0, w, landmarks, y, landmarks, 0.0, out, rank);
    }
    return out;
  }
}
