package io.github.sparkkpca.pca;

import io.github.sparkkpca.feature.KernelExpansion;
import io.github.sparkkpca.feature.LinearReadout;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.linalg.RowBlock;
import java.io.Serializable;

/**
 * A fitted kernel PCA applied to new rows, whatever the feature map: the scores y(x) = U_kᵀ(φ(x) −
 * φ̄) = U_kᵀφ(x) − o and, optionally, the feature-space residual e(x) = ‖φ_full(x)‖² − 2φ(x)ᵀφ̄ +
 * ‖φ̄‖² − ‖y(x)‖².
 *
 * <p>Both come from one {@link LinearReadout} of the k components and, when centred, the mean φ̄ as
 * a (k+1)-th column, so scoring a block is one GEMM after the map's own work. e(x) is the squared
 * distance from the centred feature vector to the k-dimensional principal subspace: for Nyström,
 * the distance of k(·,x) to the landmarks' span plus the in-span residual ‖φ(x) − φ̄‖² − ‖y(x)‖²
 * (‖φ_full(x)‖² = k(x,x)). It is clamped at 0 against rounding. Uncentred, e(x) = ‖φ_full(x)‖² −
 * ‖y(x)‖².
 */
public final class Projector implements Serializable {

  private final LinearReadout readout;
  private final int k;
  private final double[] offset;
  private final double meanSqNorm;

  /**
   * @param readout U_k (and φ̄ as column k + 1 when centred) read out of φ(x)
   * @param k number of components
   * @param offset o = U_kᵀφ̄ (zeros when uncentred)
   * @param meanSqNorm ‖φ̄‖² (0 when uncentred)
   */
  public Projector(LinearReadout readout, int k, double[] offset, double meanSqNorm) {
    if (offset.length != k || (readout.columns() != k && readout.columns() != k + 1)) {
      throw new IllegalArgumentException(
          "inconsistent projector: k = "
              + k
              + ", offset of "
              + offset.length
              + ", readout of "
              + readout.columns()
              + " columns");
    }
    this.readout = readout;
    this.k = k;
    this.offset = offset;
    this.meanSqNorm = meanSqNorm;
  }

  /** Doubles of scratch space for a block of b rows. */
  public int scratchSize(int b) {
    return readout.scratchSize(b);
  }

  /**
   * Scores the rows of the block into {@code scores} (k×b column-major) and, when {@code residuals}
   * is not null, their residuals.
   *
   * @return the index in the block of the first row whose score or residual is not finite (a kernel
   *     value overflowed: polynomial kernels of large inputs), or -1
   */
  /** A block of {@code capacity} rows in the form the readout reads fastest (sparse or dense). */
  public RowBlock newBlock(int capacity) {
    return readout.newBlock(capacity);
  }

  /**
   * The width, in doubles, of a row of {@link #newBlock}'s blocks ({@link
   * LinearReadout#blockWidth}).
   */
  public int blockWidth() {
    return readout.blockWidth();
  }

  public int project(RowBlock block, double[] scratch, double[] scores, double[] residuals) {
    int b = block.size();
    // Centred, the mean is column k + 1 of the readout; only residuals need it (the scores subtract
    // o), so
    // scores alone read out k columns: about 7 % less time in the readout product at k = 20
    // (ReadoutBenchmark,
    // c = 20 against 21). A block's (k+1)×b is small next to the scratch.
    int c = residuals == null ? k : readout.columns();
    double[] out = c == k ? scores : new double[c * b];
    double[] sqNorms = residuals == null ? null : new double[b];
    readout.apply(block, c, scratch, out, sqNorms);
    int firstBad = -1;
    for (int i = 0; i < b; i++) {
      double yy = 0;
      for (int j = 0; j < k; j++) {
        double y = out[i * c + j] - offset[j];
        scores[i * k + j] = y;
        yy += y * y;
      }
      boolean finite = Double.isFinite(yy);
      if (residuals != null) {
        double cross = c > k ? out[i * c + k] : 0.0;
        double e = sqNorms[i] - 2 * cross + meanSqNorm - yy;
        finite &= Double.isFinite(e);
        residuals[i] = Math.max(e, 0.0);
      }
      if (!finite && firstBad < 0) {
        firstBad = i;
      }
    }
    return firstBad;
  }

  /** How the functionals are read out of the feature map. */
  public LinearReadout readout() {
    return readout;
  }

  /** The landmark form of the readout, for the landmark-based pre-images and accessors. */
  public KernelExpansion kernelExpansion() {
    if (readout instanceof KernelExpansion expansion) {
      return expansion;
    }
    throw new UnsupportedOperationException(
        "this model's feature map has no landmarks (" + readout.getClass().getSimpleName() + ")");
  }

  /**
   * Whether the readout is a kernel expansion over landmarks (Nyström, exact or format-1 models).
   */
  public boolean hasLandmarks() {
    return readout instanceof KernelExpansion;
  }

  /** o, length k (shared, do not modify). */
  public double[] offset() {
    return offset;
  }

  /** ‖φ̄‖². */
  public double meanSqNorm() {
    return meanSqNorm;
  }

  /** Whether the readout carries the mean as its last column (centred models). */
  public boolean hasMeanColumn() {
    return readout.columns() == k + 1;
  }

  public int numComponents() {
    return k;
  }

  public int inputDim() {
    return readout.inputDim();
  }

  public Kernel kernel() {
    return readout.kernel();
  }
}
