package io.github.sparkkpca.ml;

import io.github.sparkkpca.kernel.KernelFamilies;
import io.github.sparkkpca.kernel.KernelFamily;
import java.io.Serializable;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.Params;

/**
 * The kernel and the block size, shared by every stage that evaluates a kernel block: kernel PCA
 * ({@link KernelPCAParams}) and kernel PCA regression ({@link KernelPCARegressionParams}).
 *
 * <p>Kernel definitions follow scikit-learn's {@code KernelPCA}: see {@link
 * io.github.sparkkpca.kernel.KernelType}. The kernel block of b rows against the m landmarks is one
 * BLAS level-3 product and an element-wise map.
 */
public interface KernelParams extends Params {

  /** The Param objects of one stage instance (created by the stage, bound to it as parent). */
  final class Definitions implements Serializable {
    final Param<String> kernel;
    final DoubleParam gamma;
    final IntParam degree;
    final DoubleParam coef0;
    final IntParam blockSize;

    Definitions(Params owner) {
      kernel =
          new Param<>(
              owner,
              "kernel",
              "kernel: " + String.join(", ", KernelFamilies.descriptions()),
              ParamRule.kernelName("kernel").of());
      gamma =
          new DoubleParam(
              owner,
              "gamma",
              "kernel scale gamma (> 0). Unset: "
                  + gammaDefaults()
                  + " over the landmarks; the value used is fixed at fit and read from the model",
              ParamRule.finiteGt("gamma", 0).of());
      degree =
          new IntParam(
              owner,
              "degree",
              "degree of the polynomial kernel (>= 1)",
              ParamRule.intGtEq("degree", 1).of());
      coef0 =
          new DoubleParam(
              owner,
              "coef0",
              "additive constant of the polynomial and sigmoid kernels",
              ParamRule.finite("coef0").of());
      blockSize =
          new IntParam(
              owner,
              "blockSize",
              "rows per block in the BLAS level-3 kernel evaluation; "
                  + "0 chooses it from m and d: fits keep a block's buffers near 32 MB, scoring takes at most "
                  + SCORING_BLOCK_ROWS
                  + " rows so the kernel block stays in cache",
              ParamRule.intGtEq("blockSize", 0).of());
    }
  }

  /** "rbf 1/(2*median ||x-y||^2), ..." for the families with γ, from their definitions. */
  private static String gammaDefaults() {
    return String.join(
        ", ",
        KernelFamilies.all().stream()
            .filter(KernelFamily::usesGamma)
            .map(f -> f.paramName() + " " + f.gammaDefault())
            .toList());
  }

  /** This stage's kernel Param objects. */
  Definitions kernelParams();

  /** The kernel family; default {@code rbf}. */
  default Param<String> kernel() {
    return kernelParams().kernel;
  }

  /** γ; unset means a data-driven default chosen at fit. */
  default DoubleParam gamma() {
    return kernelParams().gamma;
  }

  /** p, the polynomial degree; default 3. */
  default IntParam degree() {
    return kernelParams().degree;
  }

  /** c₀; default 1. */
  default DoubleParam coef0() {
    return kernelParams().coef0;
  }

  /** Rows per block; default 0 (automatic). */
  default IntParam blockSize() {
    return kernelParams().blockSize;
  }

  default KernelFamily getKernelType() {
    return KernelFamilies.parse(getOrDefault(kernel()));
  }

  default String getKernel() {
    return getKernelType().paramName();
  }

  /** γ if set (or chosen at fit, on a model); NaN when unset. */
  default double getGamma() {
    return isDefined(gamma()) ? (Double) getOrDefault(gamma()) : Double.NaN;
  }

  default int getDegree() {
    return (Integer) getOrDefault(degree());
  }

  default double getCoef0() {
    return (Double) getOrDefault(coef0());
  }

  default int getBlockSize() {
    return (Integer) getOrDefault(blockSize());
  }

  /**
   * The block size to use with m support points (landmarks), block rows of d doubles and k values
   * per row: the parameter when set, else about 4M doubles / (m + d + k) rows, within [16, 4096].
   * Callers pass as d the width of their blocks' rows ({@link
   * io.github.sparkkpca.linalg.RowBlock#width}): the dimension for dense blocks, about 1.5 × the
   * stored entries of a row for sparse ones.
   */
  default int effectiveBlockSize(int m, int d, int k) {
    int b = getBlockSize();
    if (b > 0) {
      return b;
    }
    long auto = (4L << 20) / Math.max(1, (long) m + d + k);
    return (int) Math.max(16, Math.min(4096, auto));
  }

  /**
   * The block size for scoring rows (transform, predictions): the parameter when set, else the
   * {@link #effectiveBlockSize} of a fit capped at {@value #SCORING_BLOCK_ROWS} rows. Scoring reads
   * each kernel block three times in a row (its GEMM writes it, the element-wise map rewrites it,
   * the readout GEMM of only k columns reads it), so a block that stays in a core's cache beats a
   * large one; far fewer rows starve the kernel GEMM when d is large. Measured with {@code
   * spark-kpca bench --block-size} in docs/results/large-m, §00.
   */
  default int scoringBlockSize(int m, int d, int k) {
    return getBlockSize() > 0
        ? getBlockSize()
        : Math.min(SCORING_BLOCK_ROWS, effectiveBlockSize(m, d, k));
  }

  /** The most rows per block that {@link #scoringBlockSize} chooses by itself. */
  int SCORING_BLOCK_ROWS = 256;

  /**
   * Sets the defaults of these Params on their owner: rbf, degree 3, c₀ = 1, automatic block size.
   */
  static void setDefaults(KernelParams owner) {
    owner.setDefault(owner.kernel(), "rbf");
    owner.setDefault(owner.degree(), 3);
    owner.setDefault(owner.coef0(), 1.0);
    owner.setDefault(owner.blockSize(), 0);
  }
}
