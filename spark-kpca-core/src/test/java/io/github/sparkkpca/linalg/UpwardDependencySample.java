package io.github.sparkkpca.linalg;

import io.github.sparkkpca.ml.NystromKernelPCA;

/**
 * Test only: a class of the lowest layer that uses a stage, the kind of dependency {@code
 * ArchitectureTest} must reject (it also closes a package cycle, linalg → ml → linalg).
 */
public final class UpwardDependencySample {

  private UpwardDependencySample() {}

  public static String stageUid() {
    return new NystromKernelPCA().uid();
  }
}
