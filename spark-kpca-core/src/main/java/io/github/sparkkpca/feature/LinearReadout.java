package io.github.sparkkpca.feature;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.RowBlock;
import java.io.Serializable;

/**
 * Aᵀφ(x) for a fixed r×c matrix A, with A folded into the cheapest form the feature map allows. The
 * principal components and the mean feature vector are such matrices: scores and residuals of every
 * model are read out through one of these. For the Nyström map Aᵀφ(x) = (WA)ᵀk_x, a kernel
 * expansion over the landmarks ({@link KernelExpansion}): one m×c GEMM per row block, and the
 * r-dimensional φ(x) is never formed.
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
   * A block of {@code capacity} rows in the form {@link #apply} reads fastest: sparse when the
   * kernel blocks run on the sparse path (memory ∝ the rows' non-zeros), else dense.
   */
  default RowBlock newBlock(int capacity) {
    return new RowBlock(capacity, inputDim());
  }

  /**
   * The width, in doubles, of a row of {@link #newBlock}'s blocks, to size the blocks of rows not
   * scanned by ({@link RowBlock#width}): d unless the readout knows better (a kernel expansion on
   * the sparse path: from its landmarks).
   */
  default int blockWidth() {
    return inputDim();
  }

  /**
   * Writes the first {@code leading} functionals of Aᵀφ(x_i) for the rows of the block into {@code
   * out} ({@code leading}×b column-major) and, when {@code sqNorms} is not null, the squared norm
   * of each row's whole feature vector in the space the principal components live in: k(x,x) for
   * kernel feature spaces (it includes the part outside the span of φ), ‖φ(x)‖² for an explicit
   * finite map. Reading out fewer than c functionals skips their columns of A in the product
   * (scores without residuals need the k components, not the mean).
   *
   * @param leading how many of the c functionals, from the first (1 ≤ leading ≤ c)
   */
  void apply(RowBlock block, int leading, double[] scratch, double[] out, double[] sqNorms);

  /** {@link #apply(RowBlock, int, double[], double[], double[])} of all c functionals. */
  default void apply(RowBlock block, double[] scratch, double[] out, double[] sqNorms) {
    apply(block, columns(), scratch, out, sqNorms);
  }

  /**
   * Checks 1 ≤ leading ≤ columns, the argument of {@link #apply(RowBlock, int, double[], double[],
   * double[])}.
   */
  static void requireLeading(int leading, int columns) {
    if (leading < 1 || leading > columns) {
      throw new IllegalArgumentException(
          "cannot read out " + leading + " of " + columns + " functionals");
    }
  }

  /**
   * Doubles of scratch for {@link #readOut} of b rows of f features into c functionals: the f×b
   * features followed by the b×c product.
   */
  static int readOutScratch(int f, int c, int b) {
    return (f + c) * b;
  }

  /**
   * out ← AᵀF (c×b column-major) for A (f×c, or the first c columns of a wider column-major matrix)
   * and the features F of b rows, the first f·b doubles of {@code scratch} (f×b), computed as the
   * b×c product FᵀA into the rest of {@code scratch} and transposed. With c = k + 1 functionals and
   * a few hundred rows, OpenBLAS runs the product faster with b as its row count than with c (JMH
   * {@code ReadoutBenchmark}; results in docs/results/large-m, §00), and the transpose of b·c
   * values is small next to the 2fcb flops. Both readouts (kernel expansions and explicit maps)
   * score through it.
   */
  static void readOut(double[] a, int f, int c, double[] scratch, int b, double[] out) {
    int product = f * b;
    Blas.blas().dgemm("T", "N", b, c, f, 1.0, scratch, 0, f, a, 0, f, 0.0, scratch, product, b);
    for (int i = 0; i < b; i++) {
      for (int j = 0; j < c; j++) {
        out[i * c + j] = scratch[product + j * b + i];
      }
    }
  }
}
