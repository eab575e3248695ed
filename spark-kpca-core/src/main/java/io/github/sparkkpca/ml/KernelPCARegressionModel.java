package io.github.sparkkpca.ml;

import io.github.sparkkpca.execution.InputVectors;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelFamily;
import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.pca.Projector;
import io.github.sparkkpca.regression.LabelCoding;
import io.github.sparkkpca.regression.WidthDiagnostics;
import java.util.List;
import org.apache.spark.ml.PredictionModel;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.Params;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fitted kernel principal component regression (kPCR): ŷ(x) = Σ_{i≤d} β_i u_iᵀ(φ(x) − φ̄) [+ ȳ]
 * on the d leading (Nyström) kernel principal components, stored as a kernel expansion over the m
 * landmarks, ŷ_c(x) = Σ_j α_jc k(x, z_j) + b_c (see {@link
 * io.github.sparkkpca.regression.ComponentRegression}).
 *
 * <p>{@code predictionCol}: the real ŷ(x) (real and ±1 labels; for ±1 labels its sign is the
 * class), or the class with the largest one-vs-rest output (multiclass). On the training rows ŷ =
 * π_d(Y), Braun, Buhmann and Müller's denoised labels: {@code transform} of the training data gives
 * them.
 *
 * <p>The model keeps what the fit found at every kernel width ({@link #widths()}): eigenvalues,
 * coefficients s_i, ℓ(d), the leave-one-out curve and the training loss, so the relevant dimension,
 * its likelihood and the cross-validated dimension can be read and plotted after loading.
 */
public final class KernelPCARegressionModel
    extends PredictionModel<Vector, KernelPCARegressionModel>
    implements KernelPCARegressionParams, MLWritable {

  private static final Logger LOG = LoggerFactory.getLogger(KernelPCARegressionModel.class);

  private final String uid;
  private final KernelPCARegressionParams.Definitions definitions;
  private final FeatureNames.Recorded featureNames = new FeatureNames.Recorded(LOG);
  private final Projector predictor;
  private final LabelCoding coding;
  private final List<WidthDiagnostics> widths;
  private final int chosenWidth;
  private final double[] labelSquares;
  private final double[] signalVariance;
  private final double[] noiseVariance;
  private final long numRows;
  private final String landmarkSelection;
  private final int fittedDimension;

  /**
   * An unfitted model, for Spark Connect: its server finds models through {@code ServiceLoader},
   * which needs a public no-argument constructor, and builds stages by their {@code (String uid)}
   * constructor. Such a model holds no fitted state and refuses to predict, transform or save; fit
   * an estimator or load a saved model instead.
   */
  public KernelPCARegressionModel() {
    this(Identifiable.randomUID("kernelPCARegressor"));
  }

  /** An unfitted model with the given uid; see {@link #KernelPCARegressionModel()}. */
  public KernelPCARegressionModel(String uid) {
    this(uid, null, null, List.of(), -1, null, null, null, 0L, null, 0);
  }

  KernelPCARegressionModel(
      String uid,
      Projector predictor,
      LabelCoding coding,
      List<WidthDiagnostics> widths,
      int chosenWidth,
      double[] labelSquares,
      double[] signalVariance,
      double[] noiseVariance,
      long numRows,
      String landmarkSelection,
      int fittedDimension) {
    this(
        SuperclassUid.hold(uid),
        predictor,
        coding,
        widths,
        chosenWidth,
        labelSquares,
        signalVariance,
        noiseVariance,
        numRows,
        landmarkSelection,
        fittedDimension);
  }

  private KernelPCARegressionModel(
      SuperclassUid held,
      Projector predictor,
      LabelCoding coding,
      List<WidthDiagnostics> widths,
      int chosenWidth,
      double[] labelSquares,
      double[] signalVariance,
      double[] noiseVariance,
      long numRows,
      String landmarkSelection,
      int fittedDimension) {
    this.uid = SuperclassUid.take();
    this.definitions = new KernelPCARegressionParams.Definitions(this);
    KernelPCARegressionParams.setDefaults(this, KernelPCARegressor.class);
    this.predictor = predictor;
    this.coding = coding;
    this.widths = List.copyOf(widths);
    this.chosenWidth = chosenWidth;
    this.labelSquares = labelSquares;
    this.signalVariance = signalVariance;
    this.noiseVariance = noiseVariance;
    this.numRows = numRows;
    this.landmarkSelection = landmarkSelection;
    this.fittedDimension = fittedDimension;
  }

  /**
   * Sets the dimension the fit chose: called after the estimator has copied its own params onto the
   * model. The kernel and m are not params of a fitted model: their getters read the fitted
   * predictor.
   */
  KernelPCARegressionModel withFittedParams() {
    set(dimension(), fittedDimension);
    return this;
  }

  /** The fitted kernel's family (the params' while a saved model is being read). */
  @Override
  public KernelFamily getKernelType() {
    return predictor == null
        ? KernelPCARegressionParams.super.getKernelType()
        : fittedKernel().type();
  }

  /** The fitted γ; NaN for a kernel without γ. */
  @Override
  public double getGamma() {
    if (predictor == null) {
      return KernelPCARegressionParams.super.getGamma();
    }
    return fittedKernel().type().usesGamma() ? fittedKernel().gamma() : Double.NaN;
  }

  @Override
  public int getDegree() {
    return predictor == null
        ? KernelPCARegressionParams.super.getDegree()
        : fittedKernel().degree();
  }

  @Override
  public double getCoef0() {
    return predictor == null ? KernelPCARegressionParams.super.getCoef0() : fittedKernel().coef0();
  }

  /** m, the landmarks of the fitted predictor. */
  @Override
  public int getNumLandmarks() {
    return predictor == null
        ? KernelPCARegressionParams.super.getNumLandmarks()
        : numSupportPoints();
  }

  /** The values the fit chose (γ, m), written into the saved params, never set on the model. */
  ParamMap fittedParams() {
    ParamMap fitted = new ParamMap().put(numLandmarks(), numSupportPoints());
    if (fittedKernel().type().usesGamma()) {
      fitted.put(gamma(), fittedKernel().gamma());
    }
    return fitted;
  }

  @Override
  public String uid() {
    return uid != null ? uid : SuperclassUid.peek();
  }

  @Override
  public KernelPCARegressionParams.Definitions regressionParams() {
    return definitions;
  }

  /** The fitted predictor; refuses a model made by the constructors without fitted state. */
  Projector fitted() {
    if (predictor == null) {
      throw new IllegalStateException(
          "KernelPCARegressionModel "
              + uid()
              + " has no fitted state (it was made by a constructor without one); fit an"
              + " estimator or load a saved model");
    }
    return predictor;
  }

  @Override
  public int numFeatures() {
    return fitted().inputDim();
  }

  /**
   * The names of the d input features, in order, as the fit found them in the features column's ML
   * attribute metadata ({@link FeatureNames#of}); empty when the column had none, or for a model
   * saved before models recorded them. {@code transform} refuses a features column whose names
   * differ from these.
   */
  public String[] featureNames() {
    return featureNames.get();
  }

  /** Whether the model knows the names of its features ({@link #featureNames()}). */
  public boolean hasFeatureNames() {
    return !featureNames.isEmpty();
  }

  /**
   * Sets the names of the d input features (a fit records them itself), or removes them (no names).
   *
   * @throws IllegalArgumentException unless there are d non-empty names, or none
   */
  public KernelPCARegressionModel setFeatureNames(String... names) {
    featureNames.set(names, numFeatures(), "KernelPCARegressionModel " + uid);
    return this;
  }

  /** Sets the names a saved model's metadata records (none for older models). */
  void readFeatureNames(com.fasterxml.jackson.databind.JsonNode metadata, String path) {
    featureNames.read(
        metadata, numFeatures(), "Cannot load KernelPCARegressionModel from '" + path + "': ");
  }

  /** Copies the params, and the feature names when {@code to} is a regression model too. */
  @Override
  public <T extends Params> T copyValues(T to, ParamMap extra) {
    T copied = super.copyValues(to, extra);
    if (to instanceof KernelPCARegressionModel model && model != this) {
      featureNames.copyTo(model.featureNames);
    }
    return copied;
  }

  /**
   * The prediction column appended; refuses a features column whose names differ from the model's
   * ({@link #featureNames()}), and warns once when it has names and the model has none.
   */
  @Override
  public StructType transformSchema(StructType schema) {
    StructType out = super.transformSchema(schema);
    if (predictor != null
        && java.util.Arrays.asList(schema.fieldNames()).contains(getFeaturesCol())) {
      featureNames.check(
          schema.apply(getFeaturesCol()), "featuresCol", "KernelPCARegressionModel " + uid);
    }
    return out;
  }

  /** The fitted kernel (γ chosen). */
  public Kernel fittedKernel() {
    return fitted().kernel();
  }

  /** How the labels were coded: real, binary (±1) or multiclass (one-vs-rest). */
  public LabelCoding labelCoding() {
    return coding;
  }

  /**
   * The diagnostics of every kernel width tried, in the order of the grid (one for a fixed kernel).
   */
  public List<WidthDiagnostics> widths() {
    return widths;
  }

  /** The index in {@link #widths()} of the kernel width used. */
  public int chosenWidth() {
    return chosenWidth;
  }

  /** The diagnostics at the kernel width used. */
  public WidthDiagnostics chosen() {
    return widths.get(chosenWidth);
  }

  /** ℓ(d), d = 1..q, at the width used. */
  public double[] logLikelihood() {
    return chosen().logLikelihood().clone();
  }

  /**
   * The training error of the d-component fit: for ±1 and multiclass labels Braun et al.'s
   * estimated error rate êrr = (1/n)#{i : class of π_d(Y)_i ≠ Y_i}, for real labels the mean
   * squared residual.
   */
  public double trainingError() {
    return chosen().trainingLoss()[getDimension() - 1];
  }

  /** σ₁², the variance of the relevant coefficients at d, per label column. */
  public double[] signalVariance() {
    return signalVariance.clone();
  }

  /** σ₂², the noise-floor variance at d (an estimate of E(Y − E(Y|X))²), per label column. */
  public double[] noiseVariance() {
    return noiseVariance.clone();
  }

  /** ‖Y‖² (‖Y − ȳ‖² with an intercept) per label column: normalises the contributions |s_i|/‖Y‖. */
  public double[] labelSquares() {
    return labelSquares.clone();
  }

  /** The dimension with the smallest leave-one-out error over every width and d ("dim (cv)"). */
  public int dimensionCv() {
    return widths.get(cvWidth()).dimensionCv();
  }

  /** γ of the width with the smallest leave-one-out error. */
  public double gammaCv() {
    return widths.get(cvWidth()).gamma();
  }

  /** The index of the width whose leave-one-out error is smallest. */
  public int cvWidth() {
    int best = 0;
    for (int w = 1; w < widths.size(); w++) {
      WidthDiagnostics a = widths.get(w);
      WidthDiagnostics b = widths.get(best);
      if (a.leaveOneOut()[a.dimensionCv() - 1] < b.leaveOneOut()[b.dimensionCv() - 1]) {
        best = w;
      }
    }
    return best;
  }

  /** n, the training rows. */
  public long numTrainingRows() {
    return numRows;
  }

  /** m, the landmarks the expansion runs over. */
  public int numSupportPoints() {
    return fitted().kernelExpansion().support().numLandmarks();
  }

  /** How the landmarks were chosen, in words. */
  public String landmarkSelection() {
    return landmarkSelection;
  }

  /** The c outputs ŷ_c(x) of one row. */
  public double[] outputs(Vector features) {
    InputVectors.require(features, numFeatures(), "Column '" + getFeaturesCol() + "'");
    // The predictor's own block form: a row of a sparse model costs its non-zeros, not d.
    RowBlock block = fitted().newBlock(1);
    block.add(features, getFeaturesCol());
    int c = fitted().numComponents();
    double[] out = new double[c];
    fitted().project(block, new double[fitted().scratchSize(1)], out, null);
    return out;
  }

  @Override
  public double predict(Vector features) {
    return coding.predict(outputs(features), 0);
  }

  @Override
  public Dataset<Row> transform(Dataset<?> dataset) {
    StructType outSchema = transformSchema(dataset.schema(), true);
    if (getPredictionCol().isEmpty()) {
      return dataset.toDF();
    }
    return KernelPCARegressionPredict.transform(this, dataset, outSchema);
  }

  @Override
  public KernelPCARegressionModel copy(ParamMap extra) {
    KernelPCARegressionModel copied =
        new KernelPCARegressionModel(
            uid,
            predictor,
            coding,
            widths,
            chosenWidth,
            labelSquares,
            signalVariance,
            noiseVariance,
            numRows,
            landmarkSelection,
            fittedDimension);
    copyValues(copied, extra);
    return copied.setParent(parent());
  }

  /** Copies this model's params onto {@code to} (for the reader, which builds a shell first). */
  void copyParamsTo(KernelPCARegressionModel to) {
    copyValues(to, ParamMap.empty());
  }

  @Override
  public MLWriter write() {
    return new KernelPCARegressionModelFormat.Writer(this);
  }

  public static MLReader<KernelPCARegressionModel> read() {
    return new KernelPCARegressionModelFormat.Reader();
  }

  public static KernelPCARegressionModel load(String path) {
    return read().load(path);
  }
}
