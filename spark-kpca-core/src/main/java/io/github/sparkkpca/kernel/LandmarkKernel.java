package io.github.sparkkpca.kernel;

import io.github.sparkkpca.linalg.RowBlock;
import java.io.Serializable;

/**
 * A kernel bound to m landmarks z_1..z_m: computes k_x = (k(x,z_1), …, k(x,z_m)) for a block of rows.
 * The landmark norms are computed once here, so workers never recompute them.
 */
public final class LandmarkKernel implements Serializable {

  private final Kernel kernel;
  private final double[] landmarks;
  private final double[] landmarkSqNorms;
  private final int m;
  private final int d;

  /**
   * @param kernel    the kernel
   * @param landmarks m×d row-major landmarks
   * @param m         number of landmarks
   * @param d         dimension
   */
  public LandmarkKernel(Kernel kernel, double[] landmarks, int m, int d) {
    if (landmarks.length != (long) m * d) {
      throw new IllegalArgumentException("landmark array has " + landmarks.length + " entries, expected "
          + m + "×" + d);
    }
    this.kernel = kernel;
    this.landmarks = landmarks;
    this.m = m;
    this.d = d;
    this.landmarkSqNorms = new double[m];
    for (int j = 0; j < m; j++) {
      double s = 0;
      for (int t = 0; t < d; t++) {
        double v = landmarks[j * d + t];
        s += v * v;
      }
      landmarkSqNorms[j] = s;
    }
  }

  /** K_bm for the rows in {@code block}, as m×b column-major in {@code out} (length ≥ m·b). */
  public void compute(RowBlock block, double[] out) {
    kernel.block(block.values(), block.sqNorms(), block.size(), landmarks, landmarkSqNorms, m, d, out);
  }

  /** The m×m landmark kernel matrix K_mm, column-major. */
  public double[] gram() {
    double[] out = new double[m * m];
    kernel.block(landmarks, landmarkSqNorms, m, landmarks, landmarkSqNorms, m, d, out);
    return out;
  }

  /** k(x_i, x_i) for row i of the block. */
  public double diagonal(RowBlock block, int i) {
    return kernel.diagonal(block.sqNorms()[i]);
  }

  public Kernel kernel() {
    return kernel;
  }

  /** The landmarks, m×d row-major (shared, do not modify). */
  public double[] landmarks() {
    return landmarks;
  }

  public int numLandmarks() {
    return m;
  }

  public int dim() {
    return d;
  }
}
