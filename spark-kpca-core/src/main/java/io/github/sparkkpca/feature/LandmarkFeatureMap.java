package io.github.sparkkpca.feature;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.RowBlock;

/**
 * What a feature map over m landmarks takes from its {@link LandmarkKernel}: d, the kernel, blocks
 * in the form the kernel block reads fastest and their widths, m kernel values per row before φ,
 * and Σk(x, x). The Nyström map and its kernel columns ({@link NystromFeatureMap#kernelColumns})
 * share it; neither is an explicit map.
 */
interface LandmarkFeatureMap extends FeatureMap {

  /** The kernel bound to the m landmarks. */
  LandmarkKernel landmarkKernel();

  @Override
  default int inputDim() {
    return landmarkKernel().dim();
  }

  @Override
  default Kernel kernel() {
    return landmarkKernel().kernel();
  }

  @Override
  default boolean isExplicit() {
    return false;
  }

  @Override
  default RowBlock newBlock(int capacity) {
    return landmarkKernel().newBlock(capacity);
  }

  @Override
  default int blockWidth(long maxStoredEntries) {
    return landmarkKernel().blockWidth(maxStoredEntries);
  }

  @Override
  default int blockWidth() {
    return landmarkKernel().blockWidth();
  }

  /** m: the kernel block k_x comes before φ(x). */
  @Override
  default int blockColumns() {
    return landmarkKernel().numLandmarks();
  }

  /** Σ k(x_i, x_i) over the block. */
  @Override
  default double diagonalSum(RowBlock block) {
    double s = 0;
    for (int i = 0; i < block.size(); i++) {
      s += landmarkKernel().diagonal(block, i);
    }
    return s;
  }
}
