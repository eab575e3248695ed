package io.github.sparkkpca.feature;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.RowBlock;

/**
 * c functionals in kernel-expansion form over m support points z_j: f_c(x) = Σ_j B_jc k(x, z_j), so
 * that Bᵀk_x is one m×c GEMM per row block after the kernel block K_bm. The Nyström readouts (B =
 * W·A) and exact kernel PCA (support points = training rows) both take this form, and so does every
 * model saved in format 1 (its projector P and mean weights w̄ are the columns of B).
 */
public final class KernelExpansion implements LinearReadout {

  private final LandmarkKernel support;
  private final double[] coefficients;
  private final int columns;

  /**
   * @param support the kernel bound to the m support points
   * @param coefficients B, m×c column-major
   * @param columns c
   */
  public KernelExpansion(LandmarkKernel support, double[] coefficients, int columns) {
    if (coefficients.length != (long) support.numLandmarks() * columns) {
      throw new IllegalArgumentException(
          "kernel expansion: "
              + coefficients.length
              + " coefficients for "
              + support.numLandmarks()
              + " support points and "
              + columns
              + " columns");
    }
    this.support = support;
    this.coefficients = coefficients;
    this.columns = columns;
  }

  @Override
  public int inputDim() {
    return support.dim();
  }

  @Override
  public int columns() {
    return columns;
  }

  @Override
  public Kernel kernel() {
    return support.kernel();
  }

  @Override
  public int scratchSize(int b) {
    return LinearReadout.readOutScratch(support.numLandmarks(), columns, b);
  }

  @Override
  public RowBlock newBlock(int capacity) {
    return support.newBlock(capacity);
  }

  @Override
  public int blockWidth() {
    return support.blockWidth();
  }

  @Override
  public void apply(RowBlock block, int leading, double[] scratch, double[] out, double[] sqNorms) {
    LinearReadout.requireLeading(leading, columns);
    int m = support.numLandmarks();
    int b = block.size();
    support.compute(block, scratch);
    LinearReadout.readOut(coefficients, m, leading, scratch, b, out);
    if (sqNorms != null) {
      for (int i = 0; i < b; i++) {
        sqNorms[i] = support.diagonal(block, i);
      }
    }
  }

  /** The kernel bound to the support points. */
  public LandmarkKernel support() {
    return support;
  }

  /** B, m×c column-major (shared, do not modify). */
  public double[] coefficients() {
    return coefficients;
  }

  /** Column c of B (a copy). */
  public double[] column(int c) {
    int m = support.numLandmarks();
    return java.util.Arrays.copyOfRange(coefficients, c * m, (c + 1) * m);
  }
}
