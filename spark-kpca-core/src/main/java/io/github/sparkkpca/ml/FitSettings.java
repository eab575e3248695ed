package io.github.sparkkpca.ml;

import io.github.sparkkpca.execution.KernelPcaFit;
import org.slf4j.Logger;

/**
 * The one place a fit's {@link KernelPcaFit.Settings} are read from a stage's Params: the kernel
 * (family, γ, degree, c₀), the seed, the block sizes, and the column, k and centring of a kernel
 * PCA stage or of a regression stage. Used by every estimator and by the streaming fits, so the
 * Params interfaces stay free of the execution layer's types. Not meant for applications: the
 * record it returns belongs to the library's fit.
 */
public final class FitSettings {

  private FitSettings() {}

  /** The settings of a Nyström fit (also a stream's micro-batch folded by {@code update}). */
  public static KernelPcaFit.Settings of(Logger log, String stage, NystromKernelPCAParams params) {
    return kernelPca(log, stage, params, params.getSeed());
  }

  /** The settings of a random-feature fit (also RF-Oja's micro-batch). */
  public static KernelPcaFit.Settings of(
      Logger log, String stage, RandomFeatureKernelPCAParams params) {
    return kernelPca(log, stage, params, params.getSeed());
  }

  /**
   * The settings of a regression fit: no k (the dimension is chosen after the solve), centring when
   * the intercept is fitted.
   */
  static KernelPcaFit.Settings regression(
      Logger log, String stage, KernelPCARegressionParams params, String featuresCol) {
    return of(log, stage, params, featuresCol, 0, params.getSeed(), params.getFitIntercept());
  }

  private static KernelPcaFit.Settings kernelPca(
      Logger log, String stage, KernelPCAParams params, long seed) {
    return of(log, stage, params, params.getInputCol(), params.getK(), seed, params.getCentered());
  }

  private static KernelPcaFit.Settings of(
      Logger log,
      String stage,
      KernelParams params,
      String column,
      int k,
      long seed,
      boolean centered) {
    return new KernelPcaFit.Settings(
        log,
        stage,
        column,
        k,
        params.getKernelType(),
        params.getGamma(),
        params.getDegree(),
        params.getCoef0(),
        seed,
        centered,
        params::effectiveBlockSize);
  }
}
