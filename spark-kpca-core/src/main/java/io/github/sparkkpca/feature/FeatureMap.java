package io.github.sparkkpca.feature;

import io.github.sparkkpca.linalg.RowBlock;
import java.io.Serializable;
import java.util.Iterator;
import org.apache.spark.ml.linalg.Vector;

/**
 * An explicit, finite-dimensional feature map φ: R^d → R^r whose inner products approximate a kernel.
 * Kernel PCA with such a map is linear PCA of φ (see {@link LinearPCA}). Instances are broadcast and used
 * by several task threads at once, so they hold no mutable state: scratch space is passed in.
 */
public interface FeatureMap extends Serializable {

  /** r, the dimension of φ(x). */
  int outputDim();

  /** d, the input dimension. */
  int inputDim();

  /** Doubles of scratch space {@link #map} needs for a block of b rows. */
  int scratchSize(int b);

  /** φ(x_i) for each row of the block, as r×b column-major in {@code out}. */
  void map(RowBlock block, double[] scratch, double[] out);

  /** Σ_i k(x_i, x_i) over the block (the exact kernel diagonal, for the total variance). */
  double diagonalSum(RowBlock block);

  /**
   * Accumulates the statistics of one partition, block by block: the partition-local loop of the fit.
   * Vectors have been validated by the scan pass.
   */
  default FeatureStatistics accumulate(Iterator<Vector> vectors, int blockSize, String column) {
    int r = outputDim();
    FeatureStatistics stats = new FeatureStatistics(r);
    RowBlock block = new RowBlock(blockSize, inputDim());
    double[] scratch = new double[scratchSize(blockSize)];
    double[] features = new double[r * blockSize];
    while (vectors.hasNext()) {
      block.add(vectors.next(), column);
      if (block.isFull() || !vectors.hasNext()) {
        map(block, scratch, features);
        stats.addBlock(features, block.size(), diagonalSum(block));
        block.clear();
      }
    }
    return stats;
  }
}
