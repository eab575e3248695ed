package io.github.sparkkpca.ml;

import java.io.Serializable;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Params;

/**
 * Parameters of {@link RandomFeatureKernelPCA} and {@link RandomFeatureKernelPCAModel}, beyond the
 * shared ones. D is either given ({@code numRandomFeatures}) or follows the number of rows n
 * ({@code featureScale} c: D = ⌈c·√n·ln n⌉, the rate of Ullah et al. 2018); setting both is an
 * error.
 */
public interface RandomFeatureKernelPCAParams extends FeaturePCAParams {

  /** The Param objects of one stage instance. */
  final class Definitions implements Serializable {
    final IntParam numRandomFeatures;
    final DoubleParam featureScale;
    final LongParam seed;

    Definitions(Params owner) {
      numRandomFeatures =
          new IntParam(
              owner,
              "numRandomFeatures",
              "D, the number of random Fourier features "
                  + "(> 0); on a fitted model, the D used. Do not set together with featureScale",
              ParamRule.intGt("numRandomFeatures", 0).of());
      featureScale =
          new DoubleParam(
              owner,
              "featureScale",
              "c > 0: when set, D = ceil(c * sqrt(n) * ln(n)) "
                  + "for the n rows of the fit (the O(sqrt(n) log n) rate of Ullah et al. 2018) instead of "
                  + "numRandomFeatures",
              ParamRule.finiteGt("featureScale", 0.0).of());
      seed =
          new LongParam(
              owner,
              "seed",
              "seed of the frequencies and phases (drawn on the driver: the same "
                  + "seed, D, d and kernel give the same features for any data and partitioning)");
    }
  }

  /** This stage's random-feature Param objects. */
  Definitions randomFeatureParams();

  /** D; default 1000. */
  default IntParam numRandomFeatures() {
    return randomFeatureParams().numRandomFeatures;
  }

  /** c of D = ⌈c·√n·ln n⌉; no default (unset: D = numRandomFeatures). */
  default DoubleParam featureScale() {
    return randomFeatureParams().featureScale;
  }

  /** Seed; default a hash of the class name, as Spark's {@code HasSeed}. */
  default LongParam seed() {
    return randomFeatureParams().seed;
  }

  default int getNumRandomFeatures() {
    return (Integer) getOrDefault(numRandomFeatures());
  }

  /** c, or NaN when unset. */
  default double getFeatureScale() {
    return isDefined(featureScale()) ? (Double) getOrDefault(featureScale()) : Double.NaN;
  }

  default long getSeed() {
    return (Long) getOrDefault(seed());
  }

  static void setDefaults(RandomFeatureKernelPCAParams owner) {
    FeaturePCAParams.setDefaults(owner);
    owner.setDefault(owner.numRandomFeatures(), 1000);
    owner.setDefault(owner.seed(), (long) RandomFeatureKernelPCA.class.getName().hashCode());
  }
}
