package io.github.sparkkpca.persistence;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.pca.KernelPCASolution;

/**
 * What the persistence layer reads of a fitted kernel PCA model (the models of {@code
 * io.github.sparkkpca.ml} implement it): its uid, fitted state, fitted kernel and centring. Every
 * other figure of an export bundle follows from the solution.
 */
public interface FittedModel {

  String uid();

  /** The fitted state: projector, spectrum, statistics. */
  KernelPCASolution solution();

  /** The kernel with the parameters used at fit (γ resolved). */
  Kernel fittedKernel();

  /** Whether the model was fitted centred in feature space. */
  boolean getCentered();
}
