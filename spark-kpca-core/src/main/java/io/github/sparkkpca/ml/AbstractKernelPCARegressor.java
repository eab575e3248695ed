package io.github.sparkkpca.ml;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.persistence.Persistence;
import io.github.sparkkpca.persistence.StageWriter;
import java.util.function.Function;
import org.apache.spark.ml.Predictor;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;

/**
 * What the two kernel PCA regression estimators share: the params and their setters, the fit
 * ({@link RegressionFit}, then the params the fit chose set on the model), copy and params-only
 * persistence. {@link KernelPCARegressor} fixes γ and d; {@link RelevantDimensionEstimator} chooses
 * them.
 *
 * @param <E> the concrete estimator, returned by the setters
 */
public abstract class AbstractKernelPCARegressor<E extends AbstractKernelPCARegressor<E>>
    extends Predictor<Vector, E, KernelPCARegressionModel>
    implements KernelPCARegressionParams, MLWritable {

  private final String uid;
  private final KernelPCARegressionParams.Definitions definitions;

  /** Call with the uid held by {@link SuperclassUid#hold}. */
  AbstractKernelPCARegressor(SuperclassUid held) {
    this.uid = SuperclassUid.take();
    this.definitions = new KernelPCARegressionParams.Definitions(this);
    KernelPCARegressionParams.setDefaults(this, getClass());
  }

  @Override
  public final String uid() {
    return uid != null ? uid : SuperclassUid.peek();
  }

  @Override
  public final KernelPCARegressionParams.Definitions regressionParams() {
    return definitions;
  }

  /**
   * The kernel scales to evaluate, or null for the one of {@code gamma} (or the median heuristic).
   */
  abstract double[] gammas();

  /** d to use, or 0 to choose it by the likelihood; fails when d is required and unset. */
  abstract int fixedDimension();

  @SuppressWarnings("unchecked")
  private E self() {
    return (E) this;
  }

  public E setKernel(String value) {
    set(kernel(), value);
    return self();
  }

  public E setDegree(int value) {
    set(degree(), value);
    return self();
  }

  public E setCoef0(double value) {
    set(coef0(), value);
    return self();
  }

  public E setNumLandmarks(int value) {
    set(numLandmarks(), value);
    return self();
  }

  public E setSeed(long value) {
    set(seed(), value);
    return self();
  }

  public E setRcond(double value) {
    set(rcond(), value);
    return self();
  }

  public E setBlockSize(int value) {
    set(blockSize(), value);
    return self();
  }

  public E setMaxDimension(int value) {
    set(maxDimension(), value);
    return self();
  }

  public E setFitIntercept(boolean value) {
    set(fitIntercept(), value);
    return self();
  }

  public E setLabelMode(String value) {
    set(labelMode(), value);
    return self();
  }

  @Override
  public final KernelPCARegressionModel fit(Dataset<?> dataset) {
    fixedDimension(); // a required d that is unset fails before any pass
    KernelPCARegressionModel model = super.fit(dataset).withFittedParams();
    return model.setFeatureNames(FeatureNames.of(dataset.schema(), getFeaturesCol()));
  }

  @Override
  public final KernelPCARegressionModel train(Dataset<?> dataset) {
    return RegressionFit.fit(
        this,
        uid,
        getFeaturesCol(),
        getLabelCol(),
        dataset,
        gammas(),
        fixedDimension(),
        getClass().getSimpleName() + " " + uid + ": ");
  }

  @Override
  public final E copy(ParamMap extra) {
    return defaultCopy(extra);
  }

  @Override
  public final MLWriter write() {
    return StageWriter.paramsOnly(this);
  }

  /**
   * The reader of a params-only {@code stage} saved by {@link #write()}; {@code create} makes it
   * from its uid.
   */
  static <E extends AbstractKernelPCARegressor<E>> MLReader<E> reader(
      Class<E> stage, Function<String, E> create) {
    return new MLReader<>() {
      @Override
      public E load(String path) {
        JsonNode metadata = Persistence.loadMetadata(path, sparkSession(), stage);
        E loaded = create.apply(metadata.get("uid").asText());
        Persistence.applyParams(loaded, metadata, path);
        return loaded;
      }
    };
  }
}
