package io.github.sparkkpca.ml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkkpca.execution.BlockedRows;
import io.github.sparkkpca.execution.InputVectors;
import io.github.sparkkpca.feature.KernelExpansion;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelFamily;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.pca.Projector;
import io.github.sparkkpca.persistence.ModelData;
import io.github.sparkkpca.persistence.Persistence;
import io.github.sparkkpca.persistence.StageWriter;
import io.github.sparkkpca.regression.LabelCoding;
import io.github.sparkkpca.regression.WidthDiagnostics;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.PredictionModel;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

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

  private final String uid;
  private final KernelPCARegressionParams.Definitions definitions;
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
  private ParamMap fittedParams() {
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
  private Projector fitted() {
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
    RowBlock block = new RowBlock(1, numFeatures());
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
    SparkSession spark = dataset.sparkSession();
    Broadcast<Projector> broadcast =
        spark
            .sparkContext()
            .broadcast(fitted(), scala.reflect.ClassTag$.MODULE$.apply(Projector.class));
    int blockSize = scoringBlockSize(numSupportPoints(), numFeatures(), numSupportPoints());
    return dataset
        .toDF()
        .mapPartitions(
            new Predict(
                broadcast,
                coding,
                dataset.schema().fieldIndex(getFeaturesCol()),
                getFeaturesCol(),
                numFeatures(),
                blockSize),
            Encoders.row(outSchema));
  }

  /**
   * Scores a partition in blocks ({@link BlockedRows}), rows in input order, the prediction
   * appended.
   */
  private static final class Predict implements MapPartitionsFunction<Row, Row> {
    private final Broadcast<Projector> predictor;
    private final LabelCoding coding;
    private final int inputIndex;
    private final String inputCol;
    private final int dim;
    private final int blockSize;

    Predict(
        Broadcast<Projector> predictor,
        LabelCoding coding,
        int inputIndex,
        String inputCol,
        int dim,
        int blockSize) {
      this.predictor = predictor;
      this.coding = coding;
      this.inputIndex = inputIndex;
      this.inputCol = inputCol;
      this.dim = dim;
      this.blockSize = blockSize;
    }

    @Override
    public Iterator<Row> call(Iterator<Row> input) {
      Projector p = predictor.value();
      int c = p.numComponents();
      double[] scratch = new double[p.scratchSize(blockSize)];
      double[] outputs = new double[c * blockSize];
      return BlockedRows.map(
          input,
          inputIndex,
          inputCol,
          dim,
          blockSize,
          org.apache.spark.TaskContext.getPartitionId(),
          new BlockedRows.Scorer() {
            @Override
            public int score(RowBlock block) {
              return p.project(block, scratch, outputs, null);
            }

            @Override
            public String nonFinite() {
              return "a non-finite prediction: its kernel values overflow (" + p.kernel() + ")";
            }

            @Override
            public int appended() {
              return 1;
            }

            @Override
            public void emit(int i, Object[] values, int at) {
              values[at] = coding.predict(outputs, i * c);
            }
          });
    }
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

  @Override
  public MLWriter write() {
    return new Writer(this);
  }

  public static MLReader<KernelPCARegressionModel> read() {
    return new Reader();
  }

  public static KernelPCARegressionModel load(String path) {
    return read().load(path);
  }

  private static final StructType SUMMARY =
      new StructType()
          .add("numFeatures", DataTypes.IntegerType, false)
          .add("labelMode", DataTypes.StringType, false)
          .add("classes", SQLDataTypes.VectorType(), false)
          .add("offset", SQLDataTypes.VectorType(), false)
          .add("chosenWidth", DataTypes.IntegerType, false)
          .add("labelSquares", SQLDataTypes.VectorType(), false)
          .add("signalVariance", SQLDataTypes.VectorType(), false)
          .add("noiseVariance", SQLDataTypes.VectorType(), false)
          .add("numRows", DataTypes.LongType, false)
          .add("landmarkSelection", DataTypes.StringType, false);

  private static final StructType SUPPORT =
      new StructType()
          .add("index", DataTypes.IntegerType, false)
          .add("point", SQLDataTypes.VectorType(), false)
          .add("coefficients", SQLDataTypes.VectorType(), false);

  private static final StructType WIDTHS =
      new StructType()
          .add("index", DataTypes.IntegerType, false)
          .add("gamma", DataTypes.DoubleType, false)
          .add("eigenvalues", SQLDataTypes.VectorType(), false)
          .add("coefficients", SQLDataTypes.VectorType(), false)
          .add("columns", DataTypes.IntegerType, false)
          .add("logLikelihood", SQLDataTypes.VectorType(), false)
          .add("dimension", DataTypes.IntegerType, false)
          .add("leaveOneOut", SQLDataTypes.VectorType(), false)
          .add("trainingLoss", SQLDataTypes.VectorType(), false);

  /**
   * {@code metadata} (params: kernel, γ and d as used) and {@code data/}: {@code summary} (one
   * row), {@code support} (landmark j with its c expansion coefficients α_j) and {@code widths}
   * (one row of diagnostics per kernel width). Everything is checked finite when written and read.
   */
  private static final class Writer extends StageWriter {
    private final KernelPCARegressionModel model;

    Writer(KernelPCARegressionModel model) {
      this.model = model;
    }

    @Override
    public void saveImpl(String path) {
      KernelExpansion expansion = model.fitted().kernelExpansion();
      LandmarkKernel support = expansion.support();
      int m = support.numLandmarks();
      int d = support.dim();
      int c = expansion.columns();
      ModelData.Finite.require(expansion.coefficients(), "the expansion coefficients");
      ModelData.Finite.require(model.fitted().offset(), "the intercepts");
      ObjectNode extra = Persistence.JSON.createObjectNode();
      extra.put("model", "kernelPCARegression");
      Persistence.saveMetadata(model, path, sparkSession(), extra, model.fittedParams());
      SparkSession spark = sparkSession();
      spark
          .createDataFrame(
              List.of(
                  RowFactory.create(
                      d,
                      model.coding.mode(),
                      new DenseVector(model.coding.classes()),
                      new DenseVector(model.fitted().offset()),
                      model.chosenWidth,
                      vector(model.labelSquares, "‖Y‖²"),
                      vector(model.signalVariance, "σ₁²"),
                      vector(model.noiseVariance, "σ₂²"),
                      model.numRows,
                      model.landmarkSelection)),
              SUMMARY)
          .coalesce(1)
          .write()
          .parquet(path + "/data/summary");
      List<Row> rows = new ArrayList<>(m);
      double[] alpha = expansion.coefficients();
      for (int j = 0; j < m; j++) {
        double[] coefficients = new double[c];
        for (int col = 0; col < c; col++) {
          coefficients[col] = alpha[j + col * m];
        }
        rows.add(
            RowFactory.create(
                j,
                new DenseVector(
                    java.util.Arrays.copyOfRange(support.landmarks(), j * d, (j + 1) * d)),
                new DenseVector(coefficients)));
      }
      spark.createDataFrame(rows, SUPPORT).write().parquet(path + "/data/support");
      List<Row> widthRows = new ArrayList<>();
      for (int w = 0; w < model.widths.size(); w++) {
        WidthDiagnostics x = model.widths.get(w);
        widthRows.add(
            RowFactory.create(
                w,
                x.gamma(),
                vector(x.eigenvalues(), "eigenvalues"),
                vector(x.coefficients(), "coefficients"),
                x.columns(),
                vector(x.logLikelihood(), "log-likelihood"),
                x.dimension(),
                vector(x.leaveOneOut(), "leave-one-out"),
                vector(x.trainingLoss(), "training loss")));
      }
      spark.createDataFrame(widthRows, WIDTHS).coalesce(1).write().parquet(path + "/data/widths");
    }

    private static DenseVector vector(double[] values, String what) {
      return new DenseVector(ModelData.Finite.require(values, what));
    }
  }

  private static final class Reader extends MLReader<KernelPCARegressionModel> {
    @Override
    public KernelPCARegressionModel load(String path) {
      SparkSession spark = sparkSession();
      JsonNode metadata = Persistence.loadMetadata(path, spark, KernelPCARegressionModel.class);
      String what = "Cannot load KernelPCARegressionModel from '" + path + "': ";
      List<Row> summaries = ModelData.read(spark, path + "/data/summary", SUMMARY, what);
      if (summaries.size() != 1) {
        throw new IllegalArgumentException(
            what + "data/summary holds " + summaries.size() + " rows, expected 1");
      }
      Row s = summaries.get(0);
      int d = s.getInt(0);
      LabelCoding coding = new LabelCoding(s.getString(1), ((Vector) s.get(2)).toArray());
      double[] offset = finite((Vector) s.get(3), what + "the intercepts");
      int c = coding.columns();
      if (offset.length != c) {
        throw new IllegalArgumentException(
            what + offset.length + " intercepts for " + c + " label columns");
      }
      // Params first: the kernel comes from them.
      KernelPCARegressionModel shell =
          new KernelPCARegressionModel(
              metadata.get("uid").asText(),
              null,
              coding,
              List.of(),
              0,
              new double[0],
              new double[0],
              new double[0],
              0,
              "",
              0);
      Persistence.applyParams(shell, metadata, path);
      Kernel kernel =
          new Kernel(
              shell.getKernelType(),
              Double.isNaN(shell.getGamma()) ? 1.0 : shell.getGamma(),
              shell.getDegree(),
              shell.getCoef0());
      List<Row> support = ModelData.read(spark, path + "/data/support", SUPPORT, what);
      int m = support.size();
      double[] points = new double[m * d];
      double[] alpha = new double[m * c];
      boolean[] seen = new boolean[m];
      for (Row row : support) {
        int j = row.getInt(0);
        double[] point = finite((Vector) row.get(1), what + "data/support row " + j);
        double[] coefficients = finite((Vector) row.get(2), what + "data/support row " + j);
        if (j < 0 || j >= m || seen[j] || point.length != d || coefficients.length != c) {
          throw new IllegalArgumentException(
              what
                  + "data/support row "
                  + j
                  + " is inconsistent with m = "
                  + m
                  + ", d = "
                  + d
                  + ", c = "
                  + c);
        }
        seen[j] = true;
        System.arraycopy(point, 0, points, j * d, d);
        for (int col = 0; col < c; col++) {
          alpha[j + col * m] = coefficients[col];
        }
      }
      Projector predictor =
          new Projector(
              new KernelExpansion(new LandmarkKernel(kernel, points, m, d), alpha, c),
              c,
              offset,
              0.0);
      List<Row> widthRows =
          new ArrayList<>(ModelData.read(spark, path + "/data/widths", WIDTHS, what));
      widthRows.sort(java.util.Comparator.comparingInt(r -> r.getInt(0)));
      List<WidthDiagnostics> widths = new ArrayList<>();
      for (Row r : widthRows) {
        widths.add(
            new WidthDiagnostics(
                r.getDouble(1),
                finite((Vector) r.get(2), what),
                finite((Vector) r.get(3), what),
                r.getInt(4),
                finite((Vector) r.get(5), what),
                r.getInt(6),
                finite((Vector) r.get(7), what),
                finite((Vector) r.get(8), what)));
      }
      int chosen = s.getInt(4);
      if (widths.isEmpty() || chosen < 0 || chosen >= widths.size()) {
        throw new IllegalArgumentException(
            what + "data/widths holds " + widths.size() + " rows, chosen width " + chosen);
      }
      KernelPCARegressionModel model =
          new KernelPCARegressionModel(
              shell.uid(),
              predictor,
              coding,
              widths,
              chosen,
              finite((Vector) s.get(5), what),
              finite((Vector) s.get(6), what),
              finite((Vector) s.get(7), what),
              s.getLong(8),
              s.getString(9),
              shell.getDimension());
      shell.copyValues(model, ParamMap.empty());
      // γ and m are read from the predictor, not kept as params.
      model.clear(model.gamma());
      model.clear(model.numLandmarks());
      return model;
    }

    private static double[] finite(Vector v, String what) {
      return ModelData.Finite.require(v.toArray(), what);
    }
  }
}
