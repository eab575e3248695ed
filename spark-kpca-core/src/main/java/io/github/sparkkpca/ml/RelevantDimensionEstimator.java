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
 * Braun, Buhmann and Müller's relevant dimension estimation ("Denoising and Dimension Reduction in Feature
 * Space", NIPS 2006; JMLR 9, 2008): for every kernel scale of {@code gammaGrid} the coefficients
 * s_i = u_iᵀY of the labels in the (Nyström) kernel PCA basis, the two-component likelihood ℓ(d) minimised
 * over d, and the scale with the smallest minimum. The model is the kernel PCR with the d components chosen
 * ({@link KernelPCARegressionModel}): its predictions, the denoised training labels π_d(Y) (transform of the
 * training rows), êrr, σ₁², σ₂² and, for comparison, the leave-one-out dimension ("dim (cv)").
 *
 * <p>Width convention: the paper's k(x, y) = exp(−‖x − y‖²/w) is the rbf kernel with γ = 1/w; the default grid
 * is its 20 widths log-spaced in [10⁻², 10⁴]. Every scale is evaluated in <b>one</b> pass over the data (and a
 * second pass for the leave-one-out curves): the executors hold one m×m statistic per scale and task,
 * 8·m²·|grid| bytes (160 MB per task for 20 scales at m = 1000), which the fit checks before it starts.
 * With m = n landmarks (every row) it is the exact method of the paper.
 */
public final class RelevantDimensionEstimator extends Predictor<Vector, RelevantDimensionEstimator, KernelPCARegressionModel>
    implements KernelPCARegressionParams, MLWritable {

  private final String uid;
  private final KernelPCARegressionParams.Definitions definitions;

  public RelevantDimensionEstimator() {
    this(Identifiable.randomUID("relevantDimension"));
  }

  public RelevantDimensionEstimator(String uid) {
    this(PendingUid.hold(uid));
  }

  private RelevantDimensionEstimator(PendingUid held) {
    this.uid = PendingUid.take();
    this.definitions = new KernelPCARegressionParams.Definitions(this);
    KernelPCARegressionParams.setDefaults(this, RelevantDimensionEstimator.class);
  }

  @Override
  public String uid() {
    return uid != null ? uid : PendingUid.peek();
  }

  @Override
  public KernelPCARegressionParams.Definitions regressionParams() {
    return definitions;
  }

  public RelevantDimensionEstimator setKernel(String value) {
    set(kernel(), value);
    return this;
  }

  public RelevantDimensionEstimator setDegree(int value) {
    set(degree(), value);
    return this;
  }

  public RelevantDimensionEstimator setCoef0(double value) {
    set(coef0(), value);
    return this;
  }

  public RelevantDimensionEstimator setNumLandmarks(int value) {
    set(numLandmarks(), value);
    return this;
  }

  public RelevantDimensionEstimator setSeed(long value) {
    set(seed(), value);
    return this;
  }

  public RelevantDimensionEstimator setRcond(double value) {
    set(rcond(), value);
    return this;
  }

  public RelevantDimensionEstimator setBlockSize(int value) {
    set(blockSize(), value);
    return this;
  }

  public RelevantDimensionEstimator setMaxDimension(int value) {
    set(maxDimension(), value);
    return this;
  }

  public RelevantDimensionEstimator setFitIntercept(boolean value) {
    set(fitIntercept(), value);
    return this;
  }

  public RelevantDimensionEstimator setLabelMode(String value) {
    set(labelMode(), value);
    return this;
  }

  public RelevantDimensionEstimator setGammaGrid(double[] value) {
    set(gammaGrid(), value);
    return this;
  }

  @Override
  public KernelPCARegressionModel fit(Dataset<?> dataset) {
    return super.fit(dataset).withFittedParams();
  }

  @Override
  public KernelPCARegressionModel train(Dataset<?> dataset) {
    return RegressionFit.fit(this, uid, getFeaturesCol(), getLabelCol(), dataset, getGammaGrid(), 0,
        "RelevantDimensionEstimator " + uid + ": ");
  }

  @Override
  public RelevantDimensionEstimator copy(ParamMap extra) {
    return defaultCopy(extra);
  }

  @Override
  public MLWriter write() {
    return StageWriter.paramsOnly(this);
  }

  public static MLReader<RelevantDimensionEstimator> read() {
    return new MLReader<>() {
      @Override
      public RelevantDimensionEstimator load(String path) {
        JsonNode metadata = Persistence.loadMetadata(path, sparkSession(), RelevantDimensionEstimator.class);
        RelevantDimensionEstimator stage = new RelevantDimensionEstimator(metadata.get("uid").asText());
        Persistence.applyParams(stage, metadata, path);
        return stage;
      }
    };
  }

  public static RelevantDimensionEstimator load(String path) {
    return read().load(path);
  }
}
