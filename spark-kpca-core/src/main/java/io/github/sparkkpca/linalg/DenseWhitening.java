package io.github.sparkkpca.linalg;

/**
 * A whitening W (m×r) held in one column-major array (m·r &lt; 2³¹): today's W of the Nyström map
 * (the inverse Cholesky factor R⁻¹ or V_r·Λ_r^{-1/2}), or L·V_r·Σ_r⁻¹ from a pivoted Cholesky
 * factor ({@link PivotedCholesky.Factor#whitening}). Products cost 2m·r·l flops.
 *
 * @param w W, m×r column-major (shared, not copied)
 * @param landmarks m
 * @param rank r
 */
public record DenseWhitening(double[] w, int landmarks, int rank) implements WhiteningFactor {

  public DenseWhitening {
    if (w.length != (long) landmarks * rank) {
      throw new IllegalArgumentException(
          "a whitening of " + w.length + " values for " + landmarks + "×" + rank);
    }
  }

  /** W·Q for Q r×l. */
  @Override
  public double[] times(double[] q, int columns) {
    double[] out = new double[Math.multiplyExact(landmarks, columns)];
    Blas.blas()
        .dgemm("N", "N", landmarks, columns, rank, 1.0, w, landmarks, q, rank, 0.0, out, landmarks);
    return out;
  }

  /** Wᵀ·Y for Y m×l. */
  @Override
  public double[] transposeTimes(double[] y, int columns) {
    double[] out = new double[Math.multiplyExact(rank, columns)];
    Blas.blas()
        .dgemm("T", "N", rank, columns, landmarks, 1.0, w, landmarks, y, landmarks, 0.0, out, rank);
    return out;
  }
}
