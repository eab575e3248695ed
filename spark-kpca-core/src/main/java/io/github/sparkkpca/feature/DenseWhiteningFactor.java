package io.github.sparkkpca.feature;

import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.WhiteningFactor;

/**
 * The whitening W of a {@link NystromFeatureMap} held in one array, as a {@link WhiteningFactor}:
 * the upper-triangular inverse Cholesky factor (r = m; each product a {@code dtrmm}, m²l flops) or
 * V_r Λ_r^{-1/2} (m×r; each product a {@code dgemm}, 2mrl flops). What the top-k statistics route
 * ({@link StatisticsRoute#TOP_K}) sees of W.
 */
public final class DenseWhiteningFactor implements WhiteningFactor {

  private final double[] weights;
  private final int m;
  private final int rank;
  private final boolean triangular;

  /** The factor of {@code map} (shared, not copied). */
  public DenseWhiteningFactor(NystromFeatureMap map) {
    this.weights = map.weights();
    this.m = map.landmarkKernel().numLandmarks();
    this.rank = map.rank();
    this.triangular = map.isTriangular();
  }

  @Override
  public int landmarks() {
    return m;
  }

  @Override
  public int rank() {
    return rank;
  }

  @Override
  public double[] times(double[] q, int l) {
    require(q, rank, l);
    double[] out = new double[m * l];
    if (triangular) {
      System.arraycopy(q, 0, out, 0, m * l);
      Blas.blas().dtrmm("L", "U", "N", "N", m, l, 1.0, weights, m, out, m);
    } else {
      Blas.blas().dgemm("N", "N", m, l, rank, 1.0, weights, m, q, rank, 0.0, out, m);
    }
    return out;
  }

  @Override
  public double[] transposeTimes(double[] y, int l) {
    require(y, m, l);
    double[] out = new double[rank * l];
    if (triangular) {
      System.arraycopy(y, 0, out, 0, m * l);
      Blas.blas().dtrmm("L", "U", "T", "N", m, l, 1.0, weights, m, out, m);
    } else {
      Blas.blas().dgemm("T", "N", rank, l, m, 1.0, weights, m, y, m, 0.0, out, rank);
    }
    return out;
  }

  private static void require(double[] x, int rows, int l) {
    if (x.length != (long) rows * l) {
      throw new IllegalArgumentException(
          "whitening product: " + x.length + " entries for a " + rows + "×" + l + " matrix");
    }
  }
}
