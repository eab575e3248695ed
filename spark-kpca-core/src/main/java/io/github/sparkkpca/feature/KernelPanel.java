package io.github.sparkkpca.feature;

import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.RowBlock;
import java.io.Serializable;
import java.util.Iterator;
import org.apache.spark.ml.linalg.Vector;

/**
 * One pass of the top-k statistics route ({@link StatisticsRoute#TOP_K}): the centred scatter of
 * the kernel columns k_x times a broadcast m×l panel V, M·V = Σ (k_x − k̄)(k_x − k̄)ᵀ V, without
 * forming the m×m scatter M. The executors see V = W·Q (the whitening folded in on the driver),
 * never W.
 *
 * <p><b>Per block</b> of b rows: the kernel block K_B (m×b) exactly as every other pass computes it
 * ({@link LandmarkKernel#compute}), centred on the block's mean μ_B, then T = K_Bᵀ V (b×l) and K_B
 * T (m×l): 2md (dense; 2m·nnz sparse) + 4ml flops per row. The blocks and the partitions are merged
 * as Chan, Golub and LeVeque merge centred scatters, with the rank-one term applied to V: (M
 * V)_{a∪b} = M_a V + M_b V + (n_a n_b / n) δ (δᵀV), δ = μ_b − μ_a, where δᵀV comes from the
 * l-vectors g = μᵀV each summary carries; so the product is of the exactly centred scatter, with no
 * cancellation against k̄k̄ᵀ. Memory per task: 8(b·m + b·l + 2·m·l) bytes plus the block's rows,
 * independent of m².
 */
public final class KernelPanel implements Serializable {

  private static final long serialVersionUID = 1L;

  private final LandmarkKernel landmarkKernel;
  private final double[] panel;
  private final int l;

  /**
   * @param panel V, m×l column-major
   */
  public KernelPanel(LandmarkKernel landmarkKernel, double[] panel, int l) {
    if (panel.length != (long) landmarkKernel.numLandmarks() * l) {
      throw new IllegalArgumentException(
          "kernel panel: "
              + panel.length
              + " entries for m = "
              + landmarkKernel.numLandmarks()
              + " and l = "
              + l);
    }
    this.landmarkKernel = landmarkKernel;
    this.panel = panel;
    this.l = l;
  }

  /** l, the panel's columns. */
  public int columns() {
    return l;
  }

  /** The summary of one partition's rows, block by block. Vectors were validated by the scan. */
  public Summary accumulate(Iterator<Vector> vectors, int blockSize, String column) {
    int m = landmarkKernel.numLandmarks();
    Summary summary = new Summary(m, l);
    RowBlock block = landmarkKernel.newBlock(blockSize);
    double[] kernel = new double[m * blockSize];
    double[] t = new double[blockSize * l];
    while (vectors.hasNext()) {
      block.add(vectors.next(), column);
      if (block.isFull() || !vectors.hasNext()) {
        int b = block.size();
        landmarkKernel.compute(block, kernel);
        double diagonal = 0;
        for (int i = 0; i < b; i++) {
          diagonal += landmarkKernel.diagonal(block, i);
        }
        Summary part = new Summary(m, l);
        part.count = b;
        part.diagonalSum = diagonal;
        for (int i = 0; i < b; i++) {
          Blas.blas().daxpy(m, 1.0, kernel, i * m, 1, part.mean, 0, 1);
        }
        for (int j = 0; j < m; j++) {
          part.mean[j] /= b;
        }
        for (int i = 0; i < b; i++) {
          Blas.blas().daxpy(m, -1.0, part.mean, 0, 1, kernel, i * m, 1);
        }
        Blas.blas().dgemv("T", m, l, 1.0, panel, m, part.mean, 1, 0.0, part.projectedMean, 1);
        Blas.blas().dgemm("T", "N", b, l, m, 1.0, kernel, m, panel, m, 0.0, t, b);
        Blas.blas().dgemm("N", "N", m, l, b, 1.0, kernel, m, t, b, 0.0, part.product, m);
        summary.merge(part);
        block.clear();
      }
    }
    return summary;
  }

  /**
   * The merged summary of a pass: n, k̄, g = k̄ᵀV, M·V (m×l, M the centred scatter of the kernel
   * columns) and Σ k(x,x).
   */
  public static final class Summary implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int m;
    private final int l;
    private long count;
    private final double[] mean;
    private final double[] projectedMean;
    private final double[] product;
    private double diagonalSum;

    Summary(int m, int l) {
      this.m = m;
      this.l = l;
      this.mean = new double[m];
      this.projectedMean = new double[l];
      this.product = new double[m * l];
    }

    /** Merges {@code other} into this summary (Chan et al. with the rank-one term on V); this. */
    public Summary merge(Summary other) {
      if (other.m != m || other.l != l) {
        throw new IllegalArgumentException("kernel panel summaries of different shapes");
      }
      if (other.count == 0) {
        return this;
      }
      long na = count;
      long n = na + other.count;
      for (int i = 0; i < product.length; i++) {
        product[i] += other.product[i];
      }
      if (na > 0) {
        double[] delta = new double[m];
        double[] deltaV = new double[l];
        for (int j = 0; j < m; j++) {
          delta[j] = other.mean[j] - mean[j];
        }
        for (int c = 0; c < l; c++) {
          deltaV[c] = other.projectedMean[c] - projectedMean[c];
        }
        Blas.blas().dger(m, l, (double) na * other.count / n, delta, 1, deltaV, 1, product, m);
        double w = (double) other.count / n;
        for (int j = 0; j < m; j++) {
          mean[j] += delta[j] * w;
        }
        for (int c = 0; c < l; c++) {
          projectedMean[c] += deltaV[c] * w;
        }
      } else {
        System.arraycopy(other.mean, 0, mean, 0, m);
        System.arraycopy(other.projectedMean, 0, projectedMean, 0, l);
      }
      count = n;
      diagonalSum += other.diagonalSum;
      return this;
    }

    /** n. */
    public long count() {
      return count;
    }

    /** k̄, the mean kernel column (shared). */
    public double[] mean() {
      return mean;
    }

    /** k̄ᵀV (shared). */
    public double[] projectedMean() {
      return projectedMean;
    }

    /** M·V, m×l column-major (shared). */
    public double[] product() {
      return product;
    }

    /** Σ k(x,x). */
    public double diagonalSum() {
      return diagonalSum;
    }

    /** Serialized bytes, at most: the m×l product, the mean and the projected mean. */
    public static long serializedBytes(int m, int l) {
      return 8L * ((long) m * l + m + l) + 1024;
    }
  }
}
