package io.github.sparkkpca.feature;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.linalg.RowBlock;
import java.io.Serializable;
import java.util.Iterator;
import org.apache.spark.ml.linalg.Vector;

/**
 * An explicit, finite-dimensional feature map φ: R^d → R^r whose inner products approximate a
 * kernel. Kernel PCA with such a map is linear PCA of φ (see {@link
 * io.github.sparkkpca.pca.LinearPCA}). Instances are broadcast and used by several task threads at
 * once, so they hold no mutable state: scratch space is passed in.
 *
 * <p>Each kind of map has a name ({@link #kind()}) and one codec that persists it; a fitted model
 * is a map plus linear PCA of its features ({@link io.github.sparkkpca.pca.FeaturePCA}).
 */
public interface FeatureMap extends Serializable {

  /** r, the dimension of φ(x). */
  int outputDim();

  /** d, the input dimension. */
  int inputDim();

  /** The kind of map, as persisted: {@code nystrom}, {@code rff}. */
  String kind();

  /**
   * The kernel the map approximates, with its fitted parameters: the model's one source of truth.
   */
  Kernel kernel();

  /**
   * Whether φ(x) is the whole feature vector (an explicit finite map such as random features),
   * rather than the projection of an element of the kernel's feature space onto a subspace
   * (Nyström). Only then is ‖φ̄‖² the exact squared norm of the mean feature vector.
   */
  boolean isExplicit();

  /**
   * The functionals Aᵀφ(x) for an r×c matrix A (column-major), in the cheapest form this map
   * allows. The returned readout may keep a reference to {@code a}.
   */
  LinearReadout readout(double[] a, int columns);

  /** Doubles of scratch space {@link #map} needs for a block of b rows. */
  int scratchSize(int b);

  /**
   * A block of {@code capacity} rows in the form {@link #map} reads fastest: sparse when the kernel
   * blocks run on the sparse path (memory ∝ the rows' non-zeros), else dense.
   */
  default RowBlock newBlock(int capacity) {
    return new RowBlock(capacity, inputDim());
  }

  /**
   * The width, in doubles, of a row of {@link #newBlock}'s blocks when the rows hold at most {@code
   * maxStoredEntries} stored entries (from a scan): {@link RowBlock#width} of the blocks' form, d
   * for dense blocks.
   */
  default int blockWidth(long maxStoredEntries) {
    return inputDim();
  }

  /**
   * {@link #blockWidth(long)} for rows not scanned: d unless the map knows better (Nyström on the
   * sparse path: from its landmarks).
   */
  default int blockWidth() {
    return inputDim();
  }

  /**
   * The values a row's kernel block holds before φ: m kernel values for a map over m landmarks, D
   * for random features (the default, r). With {@link #blockWidth(long)} and r, what the rows per
   * block are chosen by ({@code FeaturePasses.blockSize}).
   */
  default int blockColumns() {
    return outputDim();
  }

  /** φ(x_i) for each row of the block, as r×b column-major in {@code out}. */
  void map(RowBlock block, double[] scratch, double[] out);

  /**
   * Σ_i ‖φ_full(x_i)‖² over the block, for the total variance: the exact kernel diagonal
   * Σk(x_i,x_i) for a projection of the kernel's feature space (Nyström), Σ‖φ(x_i)‖² for an
   * explicit map.
   */
  double diagonalSum(RowBlock block);

  /**
   * Accumulates the statistics of one partition, block by block: the partition-local loop of the
   * fit. Vectors have been validated by the scan pass.
   */
  default FeatureStatistics accumulate(Iterator<Vector> vectors, int blockSize, String column) {
    int r = outputDim();
    FeatureStatistics stats = new FeatureStatistics(r);
    RowBlock block = newBlock(blockSize);
    double[] scratch = new double[scratchSize(blockSize)];
    double[] features = new double[r * blockSize];
    while (vectors.hasNext()) {
      block.add(vectors.next(), column);
      if (block.isFull() || !vectors.hasNext()) {
        map(block, scratch, features);
        // An explicit map's Σ‖φ(x)‖² comes from the features, before addBlock centres them in
        // place.
        stats.addBlock(
            features,
            block.size(),
            isExplicit() ? sumOfSquares(features, r * block.size()) : diagonalSum(block));
        block.clear();
      }
    }
    return stats;
  }

  private static double sumOfSquares(double[] values, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) {
      s += values[i] * values[i];
    }
    return s;
  }
}
