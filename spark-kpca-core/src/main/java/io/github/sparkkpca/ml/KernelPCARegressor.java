package io.github.sparkkpca.ml;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.spark.ml.Predictor;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;

/**
 * Nyström kernel principal component regression with a fixed kernel and a fixed number d of components:
 * least squares of the labels on the scores of the d leading Nyström kernel principal components
 * (Hallgren, "Kernel PCA and the Nyström method", UCL thesis 2021, §6.7, with β̂ = (nΛ̃_d)⁻¹U_dᵀK′_mny′: the
 * 1/n that the thesis' last step drops; Braun, Buhmann and Müller's kPCR). Uncentred and without intercept by
 * default, as in Braun et al.; {@code fitIntercept = true} centres the kernel PCA and fits ȳ, as Hallgren does.
 *
 * <p>Cost: two passes over the data (the labelled statistics; the training error and the leave-one-out curve
 * for d = 1..maxDimension), 2·n·m·d + n·m² flops each, O(m³) on the driver. With m = n it is the exact kernel
 * method. The model reports ℓ(d) and the leave-one-out curve of its one kernel too; to choose γ and d use
 * {@link RelevantDimensionEstimator}.
 */
public final class KernelPCARegressor extends Predictor<Vector, KernelPCARegressor, KernelPCARegressionModel>
    implements KernelPCARegressionParams, MLWritable {

  private final String uid;
  private final KernelPCARegressionParams.Definitions definitions;

  public KernelPCARegressor() {
    this(Identifiable.randomUID("kernelPCARegressor"));
  }

  public KernelPCARegressor(String uid) {
    this(PendingUid.hold(uid));
  }

  private KernelPCARegressor(PendingUid held) {
    this.uid = PendingUid.take();
    this.definitions = new KernelPCARegressionParams.Definitions(this);
    KernelPCARegressionParams.setDefaults(this, KernelPCARegressor.class);
  }

  @Override
  public String uid() {
    return uid != null ? uid : PendingUid.peek();
  }

  @Override
  public KernelPCARegressionParams.Definitions regressionParams() {
    return definitions;
  }

  public KernelPCARegressor setKernel(String value) {
    set(kernel(), value);
    return this;
  }

  public KernelPCARegressor setGamma(double value) {
    set(gamma(), value);
    return this;
  }

  public KernelPCARegressor setDegree(int value) {
    set(degree(), value);
    return this;
  }

  public KernelPCARegressor setCoef0(double value) {
    set(coef0(), value);
    return this;
  }

  public KernelPCARegressor setNumLandmarks(int value) {
    set(numLandmarks(), value);
    return this;
  }

  public KernelPCARegressor setSeed(long value) {
    set(seed(), value);
    return this;
  }

  public KernelPCARegressor setRcond(double value) {
    set(rcond(), value);
    return this;
  }

  public KernelPCARegressor setBlockSize(int value) {
    set(blockSize(), value);
    return this;
  }

  public KernelPCARegressor setDimension(int value) {
    set(dimension(), value);
    return this;
  }

  public KernelPCARegressor setMaxDimension(int value) {
    set(maxDimension(), value);
    return this;
  }

  public KernelPCARegressor setFitIntercept(boolean value) {
    set(fitIntercept(), value);
    return this;
  }

  public KernelPCARegressor setLabelMode(String value) {
    set(labelMode(), value);
    return this;
  }

  @Override
  public KernelPCARegressionModel fit(Dataset<?> dataset) {
    getDimension();
    return super.fit(dataset).withFittedParams();
  }

  @Override
  public KernelPCARegressionModel train(Dataset<?> dataset) {
    return RegressionFit.fit(this, uid, getFeaturesCol(), getLabelCol(), dataset, null, getDimension(),
        "KernelPCARegressor " + uid + ": ");
  }

  @Override
  public KernelPCARegressor copy(ParamMap extra) {
    return defaultCopy(extra);
  }

  @Override
  public MLWriter write() {
    return StageWriter.paramsOnly(this);
  }

  public static MLReader<KernelPCARegressor> read() {
    return new MLReader<>() {
      @Override
      public KernelPCARegressor load(String path) {
        JsonNode metadata = Persistence.loadMetadata(path, sparkSession(), KernelPCARegressor.class);
        KernelPCARegressor stage = new KernelPCARegressor(metadata.get("uid").asText());
        Persistence.applyParams(stage, metadata, path);
        return stage;
      }
    };
  }

  public static KernelPCARegressor load(String path) {
    return read().load(path);
  }
}
