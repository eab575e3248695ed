package io.github.sparkkpca.ml;

import java.io.Serializable;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleArrayParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.Params;

/**
 * Parameters of kernel principal component regression: {@link KernelPCARegressor} (a fixed kernel
 * and dimension), {@link RelevantDimensionEstimator} (kernel width and dimension chosen by Braun,
 * Buhmann and Müller's likelihood) and their {@link KernelPCARegressionModel}. The kernel and the
 * block size are the {@link KernelParams} of kernel PCA (on {@link RelevantDimensionEstimator}, γ
 * comes from {@code gammaGrid} instead); the feature, label and prediction columns are Spark ML's
 * {@code featuresCol}, {@code labelCol} and {@code predictionCol}.
 *
 * <p><b>Width convention.</b> The rbf kernel is exp(−γ‖x − y‖²). Braun et al. write k(x, y) =
 * exp(−‖x − y‖²/w) with a width w, so γ = 1/w; their grid of 20 widths log-spaced in [10⁻², 10⁴] is
 * the default {@code gammaGrid} (γ from 10² down to 10⁻⁴).
 */
public interface KernelPCARegressionParams extends KernelParams {

  /** The Param objects of one stage instance. */
  final class Definitions implements Serializable {
    final DoubleArrayParam gammaGrid;
    final IntParam numLandmarks;
    final LongParam seed;
    final DoubleParam rcond;
    final IntParam dimension;
    final IntParam maxDimension;
    final BooleanParam fitIntercept;
    final Param<String> labelMode;

    /** The kernel and block size, shared with the kernel PCA stages. */
    final KernelParams.Definitions kernelParams;

    Definitions(Params owner) {
      kernelParams = new KernelParams.Definitions(owner);
      gammaGrid =
          new DoubleArrayParam(
              owner,
              "gammaGrid",
              "the kernel scales gamma (> 0 each) among which "
                  + "RelevantDimensionEstimator chooses by the likelihood; default the 20 widths w log-spaced in "
                  + "[1e-2, 1e4] of Braun et al., gamma = 1/w",
              ParamRule.positiveGrid("gammaGrid").of());
      numLandmarks =
          new IntParam(
              owner,
              "numLandmarks",
              "m, the number of landmarks sampled uniformly from "
                  + "the rows (<= n); m = n is the exact kernel method",
              ParamRule.landmarkCount("numLandmarks").of());
      seed = new LongParam(owner, "seed", "random seed of the landmark sample");
      rcond =
          new DoubleParam(
              owner,
              "rcond",
              "relative eigenvalue cut-off of K_mm (as NystromKernelPCA's)",
              ParamRule.inRange("rcond", 0.0, 1.0, true, false).of());
      dimension =
          new IntParam(
              owner,
              "dimension",
              "d, the number of leading kernel principal components the "
                  + "regression uses (>= 1); required by KernelPCARegressor, chosen by RelevantDimensionEstimator",
              ParamRule.intGtEq("dimension", 1).of());
      maxDimension =
          new IntParam(
              owner,
              "maxDimension",
              "the largest d considered (ℓ(d) and the leave-one-out "
                  + "curve are evaluated for d = 1..maxDimension); 0: every usable component",
              ParamRule.intGtEq("maxDimension", 0).of());
      fitIntercept =
          new BooleanParam(
              owner,
              "fitIntercept",
              "false (default, as Braun et al.): uncentred "
                  + "kernel PCA and no intercept; true: centred kernel PCA with the label mean as intercept "
                  + "(Hallgren's kernel PCR)");
      labelMode =
          new Param<>(
              owner,
              "labelMode",
              "auto: binary when every label is -1 or +1, else real; real: "
                  + "regression on the label; binary: -1/+1 labels, the prediction's sign is the class; multiclass: "
                  + "one-vs-rest -1/+1 columns, the prediction is the class with the largest output",
              ParamRule.oneOf("labelMode", "auto", "real", "binary", "multiclass").of());
    }
  }

  /** This stage's Param objects. */
  Definitions regressionParams();

  @Override
  default KernelParams.Definitions kernelParams() {
    return regressionParams().kernelParams;
  }

  /** The paper's grid: γ = 1/w for the 20 widths w = 10^(−2 + 6j/19), j = 0..19. */
  static double[] paperGammaGrid() {
    double[] grid = new double[20];
    for (int j = 0; j < 20; j++) {
      grid[j] = 1.0 / Math.pow(10.0, -2.0 + 6.0 * j / 19.0);
    }
    return grid;
  }

  /** The γ grid of the relevant dimension estimate; default {@link #paperGammaGrid()}. */
  default DoubleArrayParam gammaGrid() {
    return regressionParams().gammaGrid;
  }

  /** m; default 100. */
  default IntParam numLandmarks() {
    return regressionParams().numLandmarks;
  }

  /** Seed; default a hash of the class name. */
  default LongParam seed() {
    return regressionParams().seed;
  }

  /** K_mm rank cut-off; default 1e-12. */
  default DoubleParam rcond() {
    return regressionParams().rcond;
  }

  /** d. */
  default IntParam dimension() {
    return regressionParams().dimension;
  }

  /** The largest d considered; default 0 (all usable components). */
  default IntParam maxDimension() {
    return regressionParams().maxDimension;
  }

  /** Intercept (centred kernel PCA); default false. */
  default BooleanParam fitIntercept() {
    return regressionParams().fitIntercept;
  }

  /** Label coding; default auto. */
  default Param<String> labelMode() {
    return regressionParams().labelMode;
  }

  default double[] getGammaGrid() {
    return getOrDefault(gammaGrid());
  }

  default int getNumLandmarks() {
    return (Integer) getOrDefault(numLandmarks());
  }

  default long getSeed() {
    return (Long) getOrDefault(seed());
  }

  default double getRcond() {
    return (Double) getOrDefault(rcond());
  }

  /** d; throws when unset. */
  default int getDimension() {
    if (!isDefined(dimension())) {
      throw new IllegalArgumentException(
          "Param dimension (the number of components d) must be set");
    }
    return (Integer) getOrDefault(dimension());
  }

  default int getMaxDimension() {
    return (Integer) getOrDefault(maxDimension());
  }

  default boolean getFitIntercept() {
    return (Boolean) getOrDefault(fitIntercept());
  }

  default String getLabelMode() {
    return getOrDefault(labelMode());
  }

  static void setDefaults(KernelPCARegressionParams owner, Class<?> stage) {
    KernelParams.setDefaults(owner);
    owner.setDefault(owner.gammaGrid(), paperGammaGrid());
    owner.setDefault(owner.numLandmarks(), 100);
    owner.setDefault(owner.seed(), (long) stage.getName().hashCode());
    owner.setDefault(owner.rcond(), 1e-12);
    owner.setDefault(owner.maxDimension(), 0);
    owner.setDefault(owner.fitIntercept(), false);
    owner.setDefault(owner.labelMode(), "auto");
  }
}
