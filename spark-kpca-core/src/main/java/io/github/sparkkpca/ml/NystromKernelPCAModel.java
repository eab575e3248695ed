package io.github.sparkkpca.ml;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.pca.KernelPCASolution;
import io.github.sparkkpca.persistence.ModelData;
import io.github.sparkkpca.persistence.Persistence;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;

/**
 * A fitted Nyström kernel PCA: scores y(x) = Pᵀk_x − o, with k_x the kernel between x and the m
 * landmarks, P = W U_k (m×k) and o = U_kᵀφ̄ (see {@link NystromKernelPCA}).
 *
 * <p><b>Total variance.</b> Uncentred, {@link #totalVariance()} is (1/n)Σ k(x_i,x_i), exact.
 * Centred it is (1/n)Σ k(x_i,x_i) − ‖φ̄‖², where φ̄ is the mean embedding projected on H_m; since
 * ‖φ̄‖² ≤ ‖μ‖² this is an <em>upper bound</em> on the true centred variance (tight when μ ∈ H_m,
 * e.g. m = n), so the explained variance ratios are conservative and the reconstruction errors are
 * upper bounds ({@link #totalVarianceMethod()} says which).
 */
public final class NystromKernelPCAModel extends AbstractKernelPCAModel<NystromKernelPCAModel>
    implements NystromKernelPCAParams {

  private final NystromKernelPCAParams.Definitions nystromParams;

  /**
   * An unfitted model, for Spark Connect: its server finds models through {@code ServiceLoader},
   * which needs a public no-argument constructor, and builds stages by their {@code (String uid)}
   * constructor. Such a model holds no fitted state and refuses to transform or save ({@link
   * #solution()}); fit an estimator or load a saved model instead.
   */
  public NystromKernelPCAModel() {
    this(Identifiable.randomUID("nystromKernelPCA"));
  }

  /** An unfitted model with the given uid; see {@link #NystromKernelPCAModel()}. */
  public NystromKernelPCAModel(String uid) {
    this(uid, null);
  }

  public NystromKernelPCAModel(String uid, KernelPCASolution solution) {
    super(uid, solution);
    this.nystromParams = new NystromKernelPCAParams.Definitions(this);
    NystromKernelPCAParams.setDefaults(this);
  }

  /** Records what the fit found: the route taken and why, the kernel-block path, diagnostics. */
  void recordFit(NystromFit.Result fit) {
    set(statisticsRouteTaken(), fit.route().paramName());
    set(statisticsRouteCheck(), fit.routeCheck());
    set(kernelBlockPath(), fit.support().landmarks().path().reason());
    set(kernelDegenerate(), fit.kernelDegenerate());
    set(landmarkConditionEstimate(), fit.support().whitening().conditionEstimate());
    if (fit.chosen().residualCurve() != null) {
      set(landmarkResidualCurve(), fit.chosen().residualCurve());
    } else {
      clear(landmarkResidualCurve());
    }
  }

  @Override
  public NystromKernelPCAParams.Definitions nystromParams() {
    return nystromParams;
  }

  /**
   * This model with the rows of {@code dataset} absorbed: their feature statistics (same landmarks,
   * same kernel) are merged into the model's and the components solved again. The result equals, to
   * rounding, a fit on the union of the training rows and these rows with this model's landmarks
   * ({@link NystromKernelPCA#setLandmarksFrom}): eigenvalues, scores, residuals and total variance.
   * One validating pass and one statistics pass over {@code dataset}; an empty dataset returns an
   * equal model.
   *
   * @throws IllegalArgumentException naming the row when a vector is invalid, or when the model
   *     keeps no statistics (saved in format 1)
   */
  @Override
  public NystromKernelPCAModel update(Dataset<?> dataset) {
    if (!isUpdatable() && "top-k".equals(getStatisticsRouteTaken())) {
      throw new IllegalArgumentException(
          "NystromKernelPCAModel "
              + uid()
              + " was fitted by statisticsRoute = top-k, which keeps the scoring expansion and no"
              + " statistics, and cannot be updated; fit again on all rows (or use statisticsRoute ="
              + " whitened or gram for a model that can)");
    }
    if (!isUpdatable()) {
      throw new IllegalArgumentException(
          "NystromKernelPCAModel "
              + uid()
              + " keeps no statistics (it was saved "
              + "in persistence format 1 by spark-kpca 0.1) and cannot be updated; fit a new model, e.g. with "
              + "NystromKernelPCA.setLandmarksFrom(model) to keep its landmarks");
    }
    KernelPCASolution updated =
        KernelPCAModelUpdate.absorb(
            this, dataset, getSpectrumExtent(), "NystromKernelPCAModel " + uid() + ": update: ");
    return withSolution(updated);
  }

  /** A model with this one's params and parent and another solution (a grown or refitted state). */
  public NystromKernelPCAModel withSolution(KernelPCASolution solution) {
    return copyValues(new NystromKernelPCAModel(uid(), solution), ParamMap.empty())
        .setParent(parent());
  }

  /**
   * The statistics the model keeps (n, φ̄, scatter, Σk(x,x)); null for a model saved in format 1.
   */
  public FeatureStatistics statistics() {
    return isUpdatable() ? solution().featurePCA().statistics().copy() : null;
  }

  /** m, the landmarks of the fitted model. */
  @Override
  public int getNumLandmarks() {
    return numSupportPoints();
  }

  @Override
  ParamMap fittedParams() {
    return super.fittedParams().put(numLandmarks(), numSupportPoints());
  }

  @Override
  public NystromKernelPCAModel copy(ParamMap extra) {
    NystromKernelPCAModel copied = new NystromKernelPCAModel(uid(), solution());
    return copyValues(copied, extra).setParent(parent());
  }

  public static MLReader<NystromKernelPCAModel> read() {
    return new Reader();
  }

  public static NystromKernelPCAModel load(String path) {
    return read().load(path);
  }

  private static final class Reader extends MLReader<NystromKernelPCAModel> {
    @Override
    public NystromKernelPCAModel load(String path) {
      JsonNode metadata =
          Persistence.loadMetadata(path, sparkSession(), NystromKernelPCAModel.class);
      String uid = metadata.get("uid").asText();
      NystromKernelPCA params = new NystromKernelPCA(uid);
      Persistence.applyParams(params, metadata, path);
      KernelPCASolution solution =
          ModelData.load(
              path,
              sparkSession(),
              metadata,
              FittedKernels.of(params),
              NystromKernelPCAModel.class.getSimpleName());
      NystromKernelPCAModel model = new NystromKernelPCAModel(uid, solution);
      Persistence.applyParams(model, metadata, path, model.fittedParams());
      model.readFeatureNames(metadata, path);
      return model;
    }
  }
}
