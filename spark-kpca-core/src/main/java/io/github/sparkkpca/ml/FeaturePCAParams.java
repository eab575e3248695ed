package io.github.sparkkpca.ml;

import io.github.sparkkpca.pca.SpectrumExtent;
import org.apache.spark.ml.param.Param;

/**
 * The parameter of the stages that fit a {@link io.github.sparkkpca.pca.FeaturePCA} (Nyström and
 * random features): how much of the r×r covariance spectrum to compute ({@link SpectrumExtent}).
 */
public interface FeaturePCAParams extends KernelPCAParams {

  /** {@code leading} (default) or {@code full}; see {@link SpectrumExtent}. */
  default Param<String> spectrum() {
    return kernelPCAParams().spectrum;
  }

  default String getSpectrum() {
    return getOrDefault(spectrum());
  }

  default SpectrumExtent getSpectrumExtent() {
    return SpectrumExtent.parse(getSpectrum());
  }

  static void setDefaults(FeaturePCAParams owner) {
    KernelPCAParams.setDefaults(owner);
    owner.setDefault(owner.spectrum(), SpectrumExtent.LEADING.paramName());
  }
}
