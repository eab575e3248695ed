package io.github.sparkkpca.ml;

import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;

/**
 * Nyström kernel principal component regression with a fixed kernel and a fixed number d of
 * components: least squares of the labels on the scores of the d leading Nyström kernel principal
 * components (Hallgren, "Kernel PCA and the Nyström method", UCL thesis 2021, §6.7, with β̂ =
 * (nΛ̃_d)⁻¹U_dᵀK′_mny′: the 1/n that the thesis' last step drops; Braun, Buhmann and Müller's
 * kPCR). Uncentred and without intercept by default, as in Braun et al.; {@code fitIntercept =
 * true} centres the kernel PCA and fits ȳ, as Hallgren does.
 *
 * <p>Cost: two passes over the data (the labelled statistics; the training error and the
 * leave-one-out curve for d = 1..maxDimension), 2·n·m·d + n·m² flops each, O(m³) on the driver.
 * With m = n it is the exact kernel method. The model reports ℓ(d) and the leave-one-out curve of
 * its one kernel too; to choose γ and d use {@link RelevantDimensionEstimator}.
 */
public final class KernelPCARegressor extends AbstractKernelPCARegressor<KernelPCARegressor> {

  public KernelPCARegressor() {
    this(Identifiable.randomUID("kernelPCARegressor"));
  }

  public KernelPCARegressor(String uid) {
    this(SuperclassUid.hold(uid));
  }

  private KernelPCARegressor(SuperclassUid held) {
    super(held);
  }

  public KernelPCARegressor setGamma(double value) {
    set(gamma(), value);
    return this;
  }

  public KernelPCARegressor setDimension(int value) {
    set(dimension(), value);
    return this;
  }

  @Override
  double[] gammas() {
    return null;
  }

  @Override
  int fixedDimension() {
    return getDimension();
  }

  public static MLReader<KernelPCARegressor> read() {
    return reader(KernelPCARegressor.class, KernelPCARegressor::new);
  }

  public static KernelPCARegressor load(String path) {
    return read().load(path);
  }
}
