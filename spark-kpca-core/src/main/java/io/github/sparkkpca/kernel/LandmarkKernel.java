package io.github.sparkkpca.kernel;

import io.github.sparkkpca.linalg.RowBlock;
import java.io.Serializable;

/**
 * A kernel bound to m landmarks z_1..z_m: computes k_x = (k(x,z_1), …, k(x,z_m)) for a block of
 * rows. The landmark norms are computed once here, so workers never recompute them.
 *
 * <p><b>Centre.</b> For the rbf kernel, whose blocks expand ‖x−z‖² = ‖x‖² + ‖z‖² − 2⟨x,z⟩ around a
 * GEMM, rows and landmarks are shifted by a centre c near the landmark mean before the GEMM: the
 * kernel is shift-invariant, and the cancellation error of the expansion, about ε·(‖x−c‖² +
 * ‖z−c‖²), is then of the order of ε times the squared spread of the data instead of ε·‖x‖² (for
 * rows 1e8 + N(0,1), the unshifted error is larger than the distances). Each coordinate of c is the
 * landmark mean rounded to a multiple of the largest power of two not above the landmarks'
 * half-range in that coordinate: the shifted values stay within 1.5 half-ranges, and data on a
 * coarse grid stay on it (integers near the origin are shifted by an integer, usually 0, so their
 * distances remain exact). Shifting a row costs O(d), against the O(m·d) of its kernel vector. The
 * centre is a function of the landmarks only, computed here in a fixed order, so a model rebuilt
 * from its saved landmarks computes bit-identical kernel values without storing it. Other kernels
 * use the raw values (the laplacian kernel sums coordinate differences directly and needs no
 * shift).
 */
public final class LandmarkKernel implements Serializable {

  private final Kernel kernel;
  private final double[] landmarks;
  private final int m;
  private final int d;

  /** c (length d) for a shift-invariant kernel with an inner-product form (rbf), else null. */
  private final double[] centre;

  /**
   * The landmarks as the kernel block sees them: z_j − c with a centre, else the landmarks
   * themselves.
   */
  private final double[] blockLandmarks;

  /** ‖z_j − c‖² with a centre, else ‖z_j‖². */
  private final double[] landmarkSqNorms;

  /**
   * @param kernel the kernel
   * @param landmarks m×d row-major landmarks
   * @param m number of landmarks
   * @param d dimension
   */
  public LandmarkKernel(Kernel kernel, double[] landmarks, int m, int d) {
    if (landmarks.length != (long) m * d) {
      throw new IllegalArgumentException(
          "landmark array has " + landmarks.length + " entries, expected " + m + "×" + d);
    }
    this.kernel = kernel;
    this.landmarks = landmarks;
    this.m = m;
    this.d = d;
    this.centre =
        kernel.type().isShiftInvariant() && kernel.type().hasInnerProductForm() && m > 0
            ? centreOf(landmarks, m, d)
            : null;
    if (centre == null) {
      this.blockLandmarks = landmarks;
    } else {
      this.blockLandmarks = new double[landmarks.length];
      for (int j = 0; j < m; j++) {
        for (int t = 0; t < d; t++) {
          blockLandmarks[j * d + t] = landmarks[j * d + t] - centre[t];
        }
      }
    }
    this.landmarkSqNorms = new double[m];
    for (int j = 0; j < m; j++) {
      double s = 0;
      for (int t = 0; t < d; t++) {
        double v = blockLandmarks[j * d + t];
        s += v * v;
      }
      landmarkSqNorms[j] = s;
    }
  }

  /**
   * The coordinate-wise mean μ of m row-major points (summed in row order), each coordinate rounded
   * to a multiple of g = 2^⌊log₂ h⌋, h = max_j |z_jt − μ_t| its half-range (a landmark's value when
   * h = 0).
   */
  static double[] centreOf(double[] points, int m, int d) {
    double[] c = new double[d];
    for (int j = 0; j < m; j++) {
      for (int t = 0; t < d; t++) {
        c[t] += points[j * d + t];
      }
    }
    for (int t = 0; t < d; t++) {
      double mean = c[t] / m;
      double halfRange = 0;
      for (int j = 0; j < m; j++) {
        halfRange = Math.max(halfRange, Math.abs(points[j * d + t] - mean));
      }
      if (halfRange == 0) {
        c[t] = points[t];
      } else {
        double grid = Math.scalb(1.0, Math.getExponent(halfRange));
        c[t] = Math.rint(mean / grid) * grid;
      }
    }
    return c;
  }

  /** K_bm for the rows in {@code block}, as m×b column-major in {@code out} (length ≥ m·b). */
  public void compute(RowBlock block, double[] out) {
    if (centre == null) {
      kernel.block(
          block.values(), block.sqNorms(), block.size(), landmarks, landmarkSqNorms, m, d, out);
    } else {
      double[] shifted = block.shift(centre);
      kernel.block(
          shifted,
          block.shiftedSqNorms(),
          block.size(),
          blockLandmarks,
          landmarkSqNorms,
          m,
          d,
          out);
    }
  }

  /** The m×m landmark kernel matrix K_mm, column-major. */
  public double[] gram() {
    double[] out = new double[m * m];
    kernel.gram(blockLandmarks, landmarkSqNorms, m, d, out);
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

  /**
   * The centre c rows and landmarks are shifted by before the kernel GEMM (a copy), or null if
   * none.
   */
  public double[] centre() {
    return centre == null ? null : centre.clone();
  }

  public int numLandmarks() {
    return m;
  }

  public int dim() {
    return d;
  }
}
