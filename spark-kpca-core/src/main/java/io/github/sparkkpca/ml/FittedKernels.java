package io.github.sparkkpca.ml;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelFamilies;

/**
 * A kernel PCA model's fitted kernel against its params: the check that kernel params set on a
 * fitted model agree with the kernel it was fitted with, and the kernel a saved model's params
 * describe.
 */
final class FittedKernels {

  private FittedKernels() {}

  /**
   * Refuses kernel params set explicitly on the model (or given to {@code copy}) that differ from
   * the fitted kernel: a fitted model's projector is only valid for the kernel it was fitted with.
   */
  static void check(AbstractKernelPCAModel<?> model) {
    Kernel fitted = model.fittedKernel();
    Kernel asked =
        new Kernel(
            model.isSet(model.kernel())
                ? KernelFamilies.parse(model.getOrDefault(model.kernel()))
                : fitted.type(),
            model.isSet(model.gamma())
                ? (Double) model.getOrDefault(model.gamma())
                : fitted.gamma(),
            model.isSet(model.degree())
                ? (Integer) model.getOrDefault(model.degree())
                : fitted.degree(),
            model.isSet(model.coef0())
                ? (Double) model.getOrDefault(model.coef0())
                : fitted.coef0());
    if (!fitted.sameFunction(asked)) {
      throw new IllegalArgumentException(
          "The kernel params of "
              + model.uid()
              + " ("
              + asked
              + ") differ from the kernel "
              + "it was fitted with ("
              + fitted
              + "); a fitted model cannot change its kernel: fit a new one");
    }
  }

  /** The kernel a saved model's params describe. */
  static Kernel of(KernelPCAParams params) {
    double gamma = params.getGamma();
    return new Kernel(
        params.getKernelType(),
        params.getKernelType().usesGamma() ? gamma : 1.0,
        params.getDegree(),
        params.getCoef0());
  }
}
