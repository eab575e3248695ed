package io.github.sparkkpca.ml;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.feature.RandomFourierFeatureMap;
import io.github.sparkkpca.pca.FeaturePCA;
import io.github.sparkkpca.pca.KernelPCASolution;
import io.github.sparkkpca.persistence.ModelData;
import io.github.sparkkpca.persistence.Persistence;
import java.util.Arrays;
import org.apache.spark.ml.linalg.DenseMatrix;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;

/**
 * A fitted random-feature kernel PCA: scores y(x) = U_kᵀz(x) − o with z(x) = √(2/D)·cos(Ωx + b) the
 * random Fourier features, U_k (D×k) the leading eigenvectors of their covariance (second moment
 * when uncentred) and o = U_kᵀz̄ (see {@link RandomFeatureKernelPCA}).
 *
 * <p>The model has no landmarks: {@link #landmarks()}, {@link #projector()}, {@link
 * #numSupportPoints()} and pre-images ({@code reconstructionCol}) fail with a message saying so;
 * {@link #frequencies()}, {@link #phases()} and {@link #components()} give the map and the
 * components instead. The residual is ‖z(x) − z̄‖² − ‖y(x)‖², the squared distance to the principal
 * subspace within the random feature space. {@link #totalVariance()} is exact for the features.
 */
public final class RandomFeatureKernelPCAModel
    extends AbstractKernelPCAModel<RandomFeatureKernelPCAModel>
    implements RandomFeatureKernelPCAParams {

  private final RandomFeatureKernelPCAParams.Definitions randomFeatureParams;

  /**
   * An unfitted model, for Spark Connect: its server finds models through {@code ServiceLoader},
   * which needs a public no-argument constructor, and builds stages by their {@code (String uid)}
   * constructor. Such a model holds no fitted state and refuses to transform or save ({@link
   * #solution()}); fit an estimator or load a saved model instead.
   */
  public RandomFeatureKernelPCAModel() {
    this(Identifiable.randomUID("randomFeatureKernelPCA"));
  }

  /** An unfitted model with the given uid; see {@link #RandomFeatureKernelPCAModel()}. */
  public RandomFeatureKernelPCAModel(String uid) {
    this(uid, null);
  }

  /**
   * @throws IllegalArgumentException when the solution is not random Fourier features with their
   *     statistics
   */
  public RandomFeatureKernelPCAModel(String uid, KernelPCASolution solution) {
    super(uid, solution);
    if (solution != null
        && (!solution.isUpdatable()
            || !(solution.featurePCA().map() instanceof RandomFourierFeatureMap))) {
      throw new IllegalArgumentException(
          "RandomFeatureKernelPCAModel "
              + uid
              + ": the solution is not a random "
              + "Fourier feature fit");
    }
    this.randomFeatureParams = new RandomFeatureKernelPCAParams.Definitions(this);
    RandomFeatureKernelPCAParams.setDefaults(this);
  }

  @Override
  public RandomFeatureKernelPCAParams.Definitions randomFeatureParams() {
    return randomFeatureParams;
  }

  /** The feature map: ω, b and the kernel they sample. */
  public RandomFourierFeatureMap featureMap() {
    return (RandomFourierFeatureMap) solution().featurePCA().map();
  }

  /** Ω, the D×d frequencies, one ω_j per row. */
  public DenseMatrix frequencies() {
    RandomFourierFeatureMap map = featureMap();
    // Row-major D×d equals column-major d×D, hence the transpose.
    return new DenseMatrix(map.inputDim(), map.numFeatures(), map.frequencies().clone())
        .transpose()
        .toDense();
  }

  /** b, the D phases. */
  public DenseVector phases() {
    return new DenseVector(featureMap().phases().clone());
  }

  /** U_k, the D×k components: y(x) = U_kᵀz(x) − {@link #offset()}. */
  public DenseMatrix components() {
    int features = featureMap().numFeatures();
    double[] u = solution().featurePCA().components();
    return new DenseMatrix(features, numComponents(), Arrays.copyOf(u, features * numComponents()));
  }

  /**
   * This model with the rows of {@code dataset} absorbed, as {@link NystromKernelPCAModel#update}
   * does: their feature statistics under the same ω and b are merged into the model's and the
   * components solved again. The result equals, to rounding, a fit on the union of the training
   * rows and these rows with the same seed, D and kernel (γ included): eigenvalues, scores,
   * residuals and total variance. One validating pass and one statistics pass over {@code dataset};
   * an empty dataset returns an equal model.
   *
   * @throws IllegalArgumentException naming the row when a vector is invalid, or for a model found
   *     by RF-Oja ({@link io.github.sparkkpca.streaming.StreamingKernelPCA}), whose statistics are
   *     kept without the scatter
   */
  @Override
  public RandomFeatureKernelPCAModel update(Dataset<?> dataset) {
    if (!solution().featurePCA().statistics().hasScatter()) {
      throw new IllegalArgumentException(
          "RandomFeatureKernelPCAModel "
              + uid()
              + " was found by RF-Oja, which keeps "
              + "its statistics without the D x D scatter: it cannot be updated exactly; continue its stream, or fit "
              + "RandomFeatureKernelPCA on all rows");
    }
    KernelPCASolution updated =
        KernelPCAModelUpdate.absorb(
            this,
            dataset,
            getSpectrumExtent(),
            "RandomFeatureKernelPCAModel " + uid() + ": update: ");
    RandomFeatureKernelPCAModel model = new RandomFeatureKernelPCAModel(uid(), updated);
    return copyValues(model, ParamMap.empty()).setParent(parent());
  }

  /** The statistics the model keeps (n, z̄, scatter, Σ‖z(x)‖²), a copy. */
  public FeatureStatistics statistics() {
    return solution().featurePCA().statistics().copy();
  }

  /** D, the random features of the fitted model. */
  @Override
  public int getNumRandomFeatures() {
    return featureMap().numFeatures();
  }

  @Override
  ParamMap fittedParams() {
    return super.fittedParams().put(numRandomFeatures(), getNumRandomFeatures());
  }

  @Override
  public RandomFeatureKernelPCAModel copy(ParamMap extra) {
    RandomFeatureKernelPCAModel copied = new RandomFeatureKernelPCAModel(uid(), solution());
    return copyValues(copied, extra).setParent(parent());
  }

  public static MLReader<RandomFeatureKernelPCAModel> read() {
    return new Reader();
  }

  public static RandomFeatureKernelPCAModel load(String path) {
    return read().load(path);
  }

  private static final class Reader extends MLReader<RandomFeatureKernelPCAModel> {
    @Override
    public RandomFeatureKernelPCAModel load(String path) {
      JsonNode metadata =
          Persistence.loadMetadata(path, sparkSession(), RandomFeatureKernelPCAModel.class);
      String uid = metadata.get("uid").asText();
      RandomFeatureKernelPCA params = new RandomFeatureKernelPCA(uid);
      Persistence.applyParams(params, metadata, path);
      String name = RandomFeatureKernelPCAModel.class.getSimpleName();
      KernelPCASolution solution =
          ModelData.load(path, sparkSession(), metadata, FittedKernels.of(params), name);
      FeaturePCA fit = solution.featurePCA();
      if (fit == null || !(fit.map() instanceof RandomFourierFeatureMap)) {
        throw new IllegalArgumentException(
            "Cannot load "
                + name
                + " from '"
                + path
                + "': it holds a "
                + metadata.path("featureMap").asText("?")
                + " model, not random Fourier features");
      }
      RandomFeatureKernelPCAModel model = new RandomFeatureKernelPCAModel(uid, solution);
      Persistence.applyParams(model, metadata, path, model.fittedParams());
      model.readFeatureNames(metadata, path);
      return model;
    }
  }
}
