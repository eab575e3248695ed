package io.github.sparkkpca.feature;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.linalg.RowBlock;
import java.io.Serializable;

/**
 * Aᵀφ(x) for a fixed r×c matrix A, with A folded into the cheapest form the feature map allows. The
 * principal components and the mean feature vector are such matrices: scores and residuals of every model
 * are read out through one of these. For the Nyström map Aᵀφ(x) = (WA)ᵀk_x, a kernel expansion over the
 * landmarks ({@link KernelExpansion}): one m×c GEMM per row block, and the r-dimensional φ(x) is never
 * formed.
 *
 * <p>Broadcast to executors and used by several task threads at once: immutable, scratch passed in.
 */
public interface LinearReadout extends Serializable {

  /** d, the input dimension. */
  int inputDim();

  /** c, the number of functionals read out. */
  int columns();

  /** The kernel whose feature space the functionals live in. */
  Kernel kernel();

  /** Doubles of scratch space {@link #apply} needs for a block of b rows. */
  int scratchSize(int b);

  /**
   * Writes Aᵀφ(x_i) for the rows of the block into {@code out} (c×b column-major) and, when
   * {@code sqNorms} is not null, the squared norm of each row's whole feature vector in the space the
   * principal components live in: k(x,x) for kernel feature spaces (it includes the part outside the
   * span of φ), ‖φ(x)‖² for an explicit finite map.
   */
  void apply(RowBlock block, double[] scratch, double[] out, double[] sqNorms);
}
