package io.github.sparkkpca.ml;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.pca.KernelPCASolution;
import io.github.sparkkpca.persistence.ModelData;
import io.github.sparkkpca.persistence.Persistence;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;

/**
 * A fitted exact kernel PCA ({@link KernelPCA}): scores y(x) = Σ_i α_i k̃(x, x_i) over all n
 * training rows, written as y(x) = Pᵀk_x − o with P = α and o = αᵀ(row means of K) (the other
 * centring terms vanish because α ⟂ 1). {@link #totalVariance()} is exact: (1/n) tr(HKH), or (1/n)
 * tr(K) uncentred.
 */
public final class KernelPCAModel extends AbstractKernelPCAModel<KernelPCAModel> {

  private final IntParam maxRows;

  /**
   * An unfitted model, for Spark Connect: its server finds models through {@code ServiceLoader},
   * which needs a public no-argument constructor, and builds stages by their {@code (String uid)}
   * constructor. Such a model holds no fitted state and refuses to transform or save ({@link
   * #solution()}); fit an estimator or load a saved model instead.
   */
  public KernelPCAModel() {
    this(Identifiable.randomUID("kernelPCA"));
  }

  /** An unfitted model with the given uid; see {@link #KernelPCAModel()}. */
  public KernelPCAModel(String uid) {
    this(uid, null);
  }

  public KernelPCAModel(String uid, KernelPCASolution solution) {
    super(uid, solution);
    this.maxRows = KernelPCA.maxRowsParam(this);
    KernelPCAParams.setDefaults(this);
    setDefault(maxRows, KernelPCA.DEFAULT_MAX_ROWS);
  }

  /** See {@link KernelPCA#maxRows()}. */
  public IntParam maxRows() {
    return maxRows;
  }

  @Override
  public KernelPCAModel copy(ParamMap extra) {
    KernelPCAModel copied = new KernelPCAModel(uid(), solution());
    return copyValues(copied, extra).setParent(parent());
  }

  public static MLReader<KernelPCAModel> read() {
    return new Reader();
  }

  public static KernelPCAModel load(String path) {
    return read().load(path);
  }

  private static final class Reader extends MLReader<KernelPCAModel> {
    @Override
    public KernelPCAModel load(String path) {
      JsonNode metadata = Persistence.loadMetadata(path, sparkSession(), KernelPCAModel.class);
      String uid = metadata.get("uid").asText();
      KernelPCA params = new KernelPCA(uid);
      Persistence.applyParams(params, metadata, path);
      KernelPCASolution solution =
          ModelData.load(
              path,
              sparkSession(),
              metadata,
              FittedKernels.of(params),
              KernelPCAModel.class.getSimpleName());
      KernelPCAModel model = new KernelPCAModel(uid, solution);
      Persistence.applyParams(model, metadata, path, model.fittedParams());
      model.readFeatureNames(metadata, path);
      return model;
    }
  }
}
