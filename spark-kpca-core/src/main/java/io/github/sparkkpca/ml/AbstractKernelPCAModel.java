package io.github.sparkkpca.ml;

import io.github.sparkkpca.feature.KernelExpansion;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelFamily;
import io.github.sparkkpca.pca.KernelPCASolution;
import io.github.sparkkpca.persistence.FittedModel;
import io.github.sparkkpca.persistence.ModelKind;
import java.util.Arrays;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.linalg.DenseMatrix;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.Params;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every fitted kernel PCA model shares: scores y(x) = Pᵀk_x − o over m support points, the
 * per-row residual, the spectrum and its summaries, and persistence.
 *
 * @param <M> the concrete model type
 */
public abstract class AbstractKernelPCAModel<M extends AbstractKernelPCAModel<M>> extends Model<M>
    implements KernelPCAParams, MLWritable, FittedModel {

  private static final Logger LOG = LoggerFactory.getLogger(AbstractKernelPCAModel.class);

  private final String uid;
  private final KernelPCAParams.Definitions kernelPCAParams;
  private final KernelPCASolution solution;
  private final FeatureNames.Recorded featureNames = new FeatureNames.Recorded(LOG);

  protected AbstractKernelPCAModel(String uid, KernelPCASolution solution) {
    this.uid = uid;
    this.kernelPCAParams = new KernelPCAParams.Definitions(this);
    this.solution = solution;
  }

  @Override
  public String uid() {
    return uid;
  }

  @Override
  public KernelPCAParams.Definitions kernelPCAParams() {
    return kernelPCAParams;
  }

  /** The centered param (declared by both {@link KernelPCAParams} and {@link FittedModel}). */
  @Override
  public boolean getCentered() {
    return KernelPCAParams.super.getCentered();
  }

  /**
   * The fitted state.
   *
   * @throws IllegalStateException when the model has none: it was made by the no-argument or the
   *     {@code (String uid)} constructor, which exist for Spark Connect's {@code ServiceLoader}
   *     only; fit an estimator or load a saved model instead
   */
  @Override
  public KernelPCASolution solution() {
    if (solution == null) {
      throw new IllegalStateException(
          getClass().getSimpleName()
              + " "
              + uid
              + " has no fitted state (it was made by a constructor without one); fit an estimator"
              + " or load a saved model");
    }
    return solution;
  }

  /**
   * The kernel with the parameters used at fit (γ resolved): the one source of truth. The model's
   * kernel getters ({@link #getKernelType}, {@link #getGamma}, {@link #getDegree}, {@link
   * #getCoef0}) read it; a fit never sets those params on the model.
   */
  @Override
  public Kernel fittedKernel() {
    return solution().projector().kernel();
  }

  /** The fitted kernel's family. */
  @Override
  public KernelFamily getKernelType() {
    return fittedKernel().type();
  }

  /** The fitted γ (the median heuristic's choice when none was set); NaN for a kernel without γ. */
  @Override
  public double getGamma() {
    return fittedKernel().type().usesGamma() ? fittedKernel().gamma() : Double.NaN;
  }

  /** The fitted degree. */
  @Override
  public int getDegree() {
    return fittedKernel().degree();
  }

  /** The fitted c₀. */
  @Override
  public double getCoef0() {
    return fittedKernel().coef0();
  }

  /**
   * The values the fit chose for params (γ here; m or D in the subclasses), written into the saved
   * metadata's params (where readers of format 2 expect them) and never set on the model.
   */
  ParamMap fittedParams() {
    ParamMap fitted = new ParamMap();
    if (fittedKernel().type().usesGamma()) {
      fitted.put(gamma(), fittedKernel().gamma());
    }
    return fitted;
  }

  @SuppressWarnings("unchecked")
  public M setInputCol(String value) {
    set(inputCol(), value);
    return (M) this;
  }

  @SuppressWarnings("unchecked")
  public M setOutputCol(String value) {
    set(outputCol(), value);
    return (M) this;
  }

  @SuppressWarnings("unchecked")
  public M setResidualCol(String value) {
    set(residualCol(), value);
    return (M) this;
  }

  @SuppressWarnings("unchecked")
  public M setReconstructionCol(String value) {
    set(reconstructionCol(), value);
    return (M) this;
  }

  @SuppressWarnings("unchecked")
  public M setPreimageMethod(String value) {
    set(preimageMethod(), value);
    return (M) this;
  }

  @SuppressWarnings("unchecked")
  public M setPreimageMaxIter(int value) {
    set(preimageMaxIter(), value);
    return (M) this;
  }

  @SuppressWarnings("unchecked")
  public M setPreimageRidge(double value) {
    set(preimageRidge(), value);
    return (M) this;
  }

  @SuppressWarnings("unchecked")
  public M setBlockSize(int value) {
    set(blockSize(), value);
    return (M) this;
  }

  /**
   * The names of the d input features, in order, as the fit found them in the input column's ML
   * attribute metadata ({@link FeatureNames#of}); empty when the column had none, or for a model
   * saved before models recorded them. {@code transform} and {@code update} refuse an input column
   * whose names differ from these.
   */
  public String[] featureNames() {
    return featureNames.get();
  }

  /** Whether the model knows the names of its features ({@link #featureNames()}). */
  public boolean hasFeatureNames() {
    return !featureNames.isEmpty();
  }

  /**
   * Sets the names of the d input features (a fit records them itself): to name the features of a
   * model fitted on a column without names, or saved before models recorded them. No names (an
   * empty array) removes them.
   *
   * @throws IllegalArgumentException unless there are d non-empty names, or none
   */
  @SuppressWarnings("unchecked")
  public M setFeatureNames(String... names) {
    featureNames.set(names, numFeatures(), getClass().getSimpleName() + " " + uid);
    return (M) this;
  }

  /** Sets the names a saved model's metadata records (none for older models). */
  void readFeatureNames(com.fasterxml.jackson.databind.JsonNode metadata, String path) {
    featureNames.read(
        metadata,
        numFeatures(),
        "Cannot load " + getClass().getSimpleName() + " from '" + path + "': ");
  }

  /** Records the names of the fit's input column (none when it has none). */
  M withFeatureNamesOf(StructType schema) {
    return setFeatureNames(FeatureNames.of(schema, getInputCol()));
  }

  /**
   * Copies the params, and the feature names when {@code to} is a kernel PCA model too: every model
   * derived from this one (copy, update, grow) keeps its names.
   */
  @Override
  public <T extends Params> T copyValues(T to, ParamMap extra) {
    T copied = super.copyValues(to, extra);
    if (to instanceof AbstractKernelPCAModel<?> model && model != this) {
      featureNames.copyTo(model.featureNames);
    }
    return copied;
  }

  /**
   * Refuses an input column whose feature names differ from the model's; warns once when the column
   * has names and the model has none.
   */
  void checkFeatureNames(org.apache.spark.sql.types.StructField input) {
    featureNames.check(input, "inputCol", getClass().getSimpleName() + " " + uid);
  }

  /** k, the number of components. */
  public int numComponents() {
    return solution().projector().numComponents();
  }

  /** d, the input dimension. */
  public int numFeatures() {
    return solution().projector().inputDim();
  }

  /** n, the number of training rows. */
  public long numRows() {
    return solution().numRows();
  }

  /**
   * m, the number of support points (landmarks, or training rows for exact KPCA).
   *
   * @throws UnsupportedOperationException for a model without landmarks (random features)
   */
  public int numSupportPoints() {
    return landmarkExpansion("numSupportPoints()").support().numLandmarks();
  }

  /**
   * The numerical rank of the fit: the dimension r of the feature map (support points minus {@link
   * #droppedRank()} for landmark models, D for random features).
   */
  public int rank() {
    return solution().isUpdatable()
        ? solution().featurePCA().map().outputDim()
        : numSupportPoints() - solution().droppedRank();
  }

  /**
   * Whether the model scores through landmarks (support points): Nyström, exact and format-1
   * models. A random feature model has none, so {@link #landmarks()}, {@link #projector()}, {@link
   * #numSupportPoints()} and pre-images are not available for it.
   */
  public boolean hasLandmarks() {
    return solution().projector().hasLandmarks();
  }

  /**
   * The landmark form of the scores, or a clear error naming {@code accessor} when there are no
   * landmarks.
   */
  private KernelExpansion landmarkExpansion(String accessor) {
    if (!hasLandmarks()) {
      throw new UnsupportedOperationException(noLandmarks(accessor));
    }
    return solution().projector().kernelExpansion();
  }

  String noLandmarks(String what) {
    String map =
        solution().isUpdatable()
            ? solution().featurePCA().map().kind() + ", D = " + rank()
            : "no map";
    return getClass().getSimpleName()
        + " "
        + uid
        + " has no landmarks: it is a random feature model ("
        + map
        + "); "
        + what
        + " needs a landmark model (NystromKernelPCA or KernelPCA)";
  }

  /** Whether this model keeps its statistics, so that {@code update} can absorb more rows. */
  public boolean isUpdatable() {
    return solution().isUpdatable();
  }

  /** How the support points were chosen (strategy, effective count, and why fewer when fewer). */
  public String landmarkSelection() {
    return solution().landmarkSelection();
  }

  /**
   * How many support directions were dropped by rank thresholding (duplicates, ill-conditioning).
   */
  public int droppedRank() {
    return solution().droppedRank();
  }

  /**
   * The eigenvalues the fit found, descending: the covariance spectrum in feature space (in H_m for
   * Nyström); for Nyström and random-feature models its leading min(r, max(k, 50)) entries unless
   * fitted with {@code spectrum = full}. Its first k entries are {@link #explainedVariance()}.
   */
  public DenseVector eigenvalues() {
    return new DenseVector(solution().spectrum().clone());
  }

  /** Σ_1..Σ_k: the variances of the k scores on the training data (mean squares when uncentred). */
  public DenseVector explainedVariance() {
    return new DenseVector(Arrays.copyOf(solution().spectrum(), numComponents()));
  }

  /**
   * Σ_i / {@link #totalVariance()} for i = 1..k; all 0 when the total variance is 0 (constant data
   * in feature space), never NaN.
   */
  public DenseVector explainedVarianceRatio() {
    return new DenseVector(solution().explainedVarianceRatio());
  }

  /**
   * The total feature-space variance the ratios and errors refer to; see {@link
   * #totalVarianceMethod()}.
   */
  public double totalVariance() {
    return solution().totalVariance();
  }

  /** How {@link #totalVariance()} was obtained. */
  public String totalVarianceMethod() {
    return solution().totalVarianceMethod();
  }

  /**
   * Training reconstruction error R(ℓ) = totalVariance − Σ_{i≤ℓ} Σ_i for ℓ = 1..k: the mean squared
   * feature-space distance of the (centred) training points to the ℓ-dimensional principal subspace
   * (Sterge et al. 2020, eq. 19, when uncentred). Clamped at 0.
   */
  public DenseVector reconstructionError() {
    int k = numComponents();
    double[] error = new double[k];
    double captured = 0;
    for (int l = 0; l < k; l++) {
      captured += solution().spectrum()[l];
      error[l] = Math.max(solution().totalVariance() - captured, 0.0);
    }
    return new DenseVector(error);
  }

  /**
   * The m support points (landmarks) as vectors: sparse where the model holds them sparse (a model
   * fitted on sparse data), so nothing of size m×d is built.
   *
   * @throws UnsupportedOperationException for a model without landmarks (random features)
   */
  public org.apache.spark.ml.linalg.Vector[] landmarkVectors() {
    return LandmarkMatrices.vectors(landmarkExpansion("landmarkVectors()").support());
  }

  /**
   * The m×d support points (landmarks), one per row, as stored: a {@link DenseMatrix} when the
   * model computes its kernel blocks densely, a row-major {@link
   * org.apache.spark.ml.linalg.SparseMatrix} of the non-zeros when it takes the sparse path (memory
   * proportional to the non-zeros; {@code toDense()} gives the dense matrix). {@link
   * #landmarkVectors()} gives them one vector each.
   *
   * @throws UnsupportedOperationException for a model without landmarks (random features)
   */
  public org.apache.spark.ml.linalg.Matrix landmarks() {
    return LandmarkMatrices.rows(landmarkExpansion("landmarks()").support());
  }

  /**
   * P, the m×k projector: y(x) = Pᵀk_x − o.
   *
   * @throws UnsupportedOperationException for a model without landmarks (random features)
   */
  public DenseMatrix projector() {
    return LandmarkMatrices.projector(landmarkExpansion("projector()"), numComponents());
  }

  /** o, the score offset (Pᵀ times the mean kernel vector; zero when uncentred). */
  public DenseVector offset() {
    return new DenseVector(solution().projector().offset().clone());
  }

  @Override
  public StructType transformSchema(StructType schema) {
    return KernelPCAModelTransform.transformSchema(this, schema);
  }

  /**
   * Refuses, without looking at any data, a {@code reconstructionCol} this model cannot fill: a
   * model without landmarks, {@code preimageMethod} fixed-point with another kernel than rbf, or
   * dense pre-images whose m×d arrays do not fit in the heap. {@link #transformSchema} checks the
   * same; a caller that reads its input first (the command line) calls this before.
   *
   * @throws IllegalArgumentException naming the param and the reason
   */
  public void requireReconstructible() {
    KernelPCAModelTransform.requireReconstructible(this);
  }

  @Override
  public Dataset<Row> transform(Dataset<?> dataset) {
    return KernelPCAModelTransform.transform(this, dataset);
  }

  /**
   * Rows per block of the statistics pass with which {@link #update} (and a streaming fold) absorbs
   * rows whose blocks are {@code width} doubles wide ({@link
   * io.github.sparkkpca.feature.FeatureMap#blockWidth(long)} for the scanned rows): {@link
   * #effectiveBlockSize} for the kernel block's m support points and the feature map's r outputs.
   * Random-feature models override it (D features, no support points).
   */
  public int updateBlockSize(int width) {
    return effectiveBlockSize(numSupportPoints(), width, rank());
  }

  /**
   * This model with the rows of {@code dataset} absorbed, equal to rounding to a fit on all rows
   * with the same feature map. Models that keep their statistics override it (Nyström and
   * random-feature models); this one refuses.
   *
   * @throws IllegalArgumentException when the model keeps no statistics (exact kernel PCA)
   */
  public M update(Dataset<?> dataset) {
    throw new IllegalArgumentException(
        getClass().getSimpleName()
            + " "
            + uid
            + " keeps no statistics and cannot "
            + "be updated; fit it again on all rows");
  }

  @Override
  public MLWriter write() {
    return new KernelPCAModelWriter(this);
  }

  @Override
  public String toString() {
    if (solution == null) {
      return getClass().getSimpleName() + ": uid=" + uid + ", not fitted";
    }
    return getClass().getSimpleName()
        + ": uid="
        + uid
        + ", k="
        + numComponents()
        + (hasLandmarks() ? ", m=" + numSupportPoints() : ", r=" + rank())
        + ", d="
        + numFeatures()
        + ", kernel="
        + fittedKernel();
  }

  /**
   * Loads a saved model of whichever of this library's model classes the directory holds (exact,
   * Nyström or random features), as its metadata records: for tools that score with any model.
   *
   * @throws IllegalArgumentException naming the path when it holds no model, or a model of another
   *     class
   */
  public static AbstractKernelPCAModel<?> loadAny(String path) {
    return ModelKind.ofSaved(path, SparkSession.builder().getOrCreate())
        .load(path, AbstractKernelPCAModel.class);
  }
}
