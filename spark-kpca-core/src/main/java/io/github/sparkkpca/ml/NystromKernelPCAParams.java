package io.github.sparkkpca.ml;

import io.github.sparkkpca.landmarks.LandmarkSelection;
import java.io.Serializable;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.param.Params;

/** Parameters of {@link NystromKernelPCA} and {@link NystromKernelPCAModel}, beyond the shared ones. */
public interface NystromKernelPCAParams extends FeaturePCAParams {

  /** The Param objects of one stage instance. */
  final class Definitions implements Serializable {
    final IntParam numLandmarks;
    final Param<String> landmarkSampling;
    final LongParam seed;
    final DoubleParam rcond;
    final DoubleParam leverageRegularization;
    final IntParam kmeansMaxIter;

    Definitions(Params owner) {
      numLandmarks = new IntParam(owner, "numLandmarks", "m, the number of landmarks (Nyström centres) "
          + "sampled from the data (> 0, <= number of rows); ignored when landmarks are supplied",
          ParamValidators.gt(0));
      landmarkSampling = new Param<>(owner, "landmarkSampling", "how landmarks are chosen: uniform = "
          + "exactly m rows uniformly without replacement (no extra pass); leverage = m rows sampled without "
          + "replacement proportionally to approximate ridge leverage scores from a uniform pilot (one extra "
          + "pass); kmeans = the m centres of Spark ML KMeans, k-means|| init (a shuffle + kmeansMaxIter "
          + "passes). All are reproducible for a seed and independent of the partitioning",
          ParamValidators.inArray(LandmarkSelection.NAMES));
      seed = new LongParam(owner, "seed", "random seed of every random choice of the fit");
      rcond = new DoubleParam(owner, "rcond", "relative eigenvalue cut-off: eigenvalues of K_mm at or below "
          + "rcond * lambda_max are dropped (rank thresholding) instead of inverted",
          ParamValidators.inRange(0.0, 1.0, true, false));
      leverageRegularization = new DoubleParam(owner, "leverageRegularization", "ridge lambda of the ridge "
          + "leverage scores l_i = [K(K + n*lambda*I)^-1]_ii used by landmarkSampling = leverage, relative to "
          + "the mean k(x,x) (> 0); smaller lambda favours rarer directions", ParamValidators.gt(0.0));
      kmeansMaxIter = new IntParam(owner, "kmeansMaxIter", "Lloyd iterations of landmarkSampling = kmeans "
          + "(>= 1)", ParamValidators.gtEq(1));
    }
  }

  /** This stage's Nyström Param objects. */
  Definitions nystromParams();

  /** m, the number of landmarks; default 100. */
  default IntParam numLandmarks() {
    return nystromParams().numLandmarks;
  }

  /** Landmark strategy; default {@code uniform}. */
  default Param<String> landmarkSampling() {
    return nystromParams().landmarkSampling;
  }

  /** Seed; default a hash of the class name, as Spark's {@code HasSeed}. */
  default LongParam seed() {
    return nystromParams().seed;
  }

  /** Rank cut-off; default 1e-12. */
  default DoubleParam rcond() {
    return nystromParams().rcond;
  }

  /** λ of leverage sampling, relative to mean k(x,x); default 1e-3. */
  default DoubleParam leverageRegularization() {
    return nystromParams().leverageRegularization;
  }

  /** Iterations of k-means landmark selection; default 20. */
  default IntParam kmeansMaxIter() {
    return nystromParams().kmeansMaxIter;
  }

  default double getLeverageRegularization() {
    return (Double) getOrDefault(leverageRegularization());
  }

  default int getKmeansMaxIter() {
    return (Integer) getOrDefault(kmeansMaxIter());
  }

  default LandmarkSelection getLandmarkSelection() {
    return LandmarkSelection.parse(getLandmarkSampling());
  }

  default int getNumLandmarks() {
    return (Integer) getOrDefault(numLandmarks());
  }

  default String getLandmarkSampling() {
    return getOrDefault(landmarkSampling());
  }

  default long getSeed() {
    return (Long) getOrDefault(seed());
  }

  default double getRcond() {
    return (Double) getOrDefault(rcond());
  }

  static void setDefaults(NystromKernelPCAParams owner) {
    FeaturePCAParams.setDefaults(owner);
    owner.setDefault(owner.numLandmarks(), 100);
    owner.setDefault(owner.landmarkSampling(), "uniform");
    owner.setDefault(owner.seed(), (long) NystromKernelPCA.class.getName().hashCode());
    owner.setDefault(owner.rcond(), 1e-12);
    owner.setDefault(owner.leverageRegularization(), 1e-3);
    owner.setDefault(owner.kmeansMaxIter(), 20);
  }
}
