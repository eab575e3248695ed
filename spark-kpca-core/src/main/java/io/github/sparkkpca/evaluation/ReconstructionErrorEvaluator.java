package io.github.sparkkpca.evaluation;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.ParamRule;
import io.github.sparkkpca.persistence.Persistence;
import io.github.sparkkpca.persistence.StageWriter;
import java.util.Arrays;
import org.apache.spark.ml.evaluation.Evaluator;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.NumericType;

/**
 * Held-out reconstruction error of a transformed DataFrame, for model selection without labels
 * ({@code CrossValidator} or {@code TrainValidationSplit}); smaller is better. Two kinds of error,
 * chosen by {@code metricName}, tune different things:
 *
 * <ul>
 *   <li>{@code featureSpaceResidual} (the default): the mean of the models' residual column, (1/n)
 *       Σ_i ‖φ(x_i) − φ̄ − P_k(φ(x_i) − φ̄)‖², the squared feature-space distance of each row to
 *       the fitted k-dimensional principal subspace (φ̄ = 0 for uncentred models). On the training
 *       rows it is the model's {@code reconstructionError()} at k. It is measured in the kernel's
 *       own feature space, so it compares models <em>of one kernel</em>: the landmarks or k at
 *       fixed γ (k when the candidates are compared at a cost, as MPRESS does with its 1/(n − k)
 *       factor: the error falls as k grows, so over k alone the largest candidate wins). It cannot
 *       choose γ or the kernel: as γ → 0 an rbf feature space collapses towards a constant and the
 *       residual falls towards 0 whatever the data, so a grid over γ always returns its smallest γ.
 *   <li>{@code inputSpaceError}: the mean squared input-space distance (1/n) Σ_i ‖x_i − x̂_i‖²
 *       between each row and the pre-image x̂_i of its scores (the models' {@code
 *       reconstructionCol}), the way scikit-learn users tune {@code KernelPCA} through {@code
 *       inverse_transform}. It is measured in the input space, so it compares γ, the kernel, k and
 *       the landmarks alike; over γ it has an interior optimum (small γ: a nearly linear map, large
 *       γ: scores of held-out rows vanish). {@code relativeInputSpaceError} divides it by the total
 *       variance (1/n) Σ_i ‖x_i − x̄‖² of the same rows, so that it is comparable across data
 *       scalings (1 = no better than the mean).
 * </ul>
 *
 * <p>The residual column exists only if the estimator (or model) has {@code residualCol} set, e.g.
 * {@code new NystromKernelPCA().setResidualCol("residual")}: {@code CrossValidator} evaluates
 * {@code model.transform(validation)}. For a kernel that is not positive definite (sigmoid,
 * polynomial with c₀ &lt; 0) the stages refuse {@code residualCol}, as k(x,x) is no squared norm
 * there (docs/kernels.md); the input-space error has no such limit. Residual columns name their
 * model's kernel in their metadata: the first time this evaluator compares residuals of two
 * different kernels or γ (a CrossValidator over γ) it logs one warning naming {@code
 * inputSpaceError}. The input-space error is read from the models' {@code preimageErrorCol} (‖x −
 * x̂‖² computed in the span of the landmarks, at sparse cost: the column to use on wide sparse
 * rows) when the dataset has it, else from {@code inputCol} and the dense pre-images of {@code
 * reconstructionCol}; to tune with them use {@code preimageMethod} = {@code ridge}: its map from
 * scores back to inputs is fitted when the model is fitted, on the model's landmarks (training
 * rows), so held-out rows are reconstructed by a map that never saw them. The fixed-point method
 * (rbf) starts from the row itself and keeps it when no landmark is near, so at large γ its error
 * tends to 0 on any data and it cannot tune γ.
 *
 * <p>A model whose kernel is numerically the identity or a constant on its landmarks (γ far from
 * the data's scale: its {@code kernelDegenerate}) scores every γ alike; the evaluator logs the
 * fit's warning once for each such model it evaluates, and once more when every model it has
 * evaluated was degenerate, as their metrics then differ by noise only and a CrossValidator keeps
 * whichever candidate the noise favours.
 */
public final class ReconstructionErrorEvaluator extends Evaluator implements MLWritable {

  /** {@code featureSpaceResidual}: the mean of the residual column. */
  public static final String FEATURE_SPACE_RESIDUAL = "featureSpaceResidual";

  /** {@code inputSpaceError}: the mean of ‖x − x̂‖² over the rows. */
  public static final String INPUT_SPACE_ERROR = "inputSpaceError";

  /** {@code relativeInputSpaceError}: the mean of ‖x − x̂‖² over the rows' total variance. */
  public static final String RELATIVE_INPUT_SPACE_ERROR = "relativeInputSpaceError";

  private final String uid;
  private final Param<String> residualCol;
  private final Param<String> metricName;
  private final Param<String> inputCol;
  private final Param<String> reconstructionCol;
  private final Param<String> preimageErrorCol;

  /** The kernels whose residuals this evaluator has compared ("rbf gamma=0.5"). */
  private final java.util.Set<String> residualKernels =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** Whether the warning that residuals cannot choose γ or the kernel was logged. */
  private final java.util.concurrent.atomic.AtomicBoolean warned =
      new java.util.concurrent.atomic.AtomicBoolean();

  /** The degenerate models' kernels this evaluator has warned about, and how many evaluations. */
  private final DegenerateModels degenerate = new DegenerateModels();

  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(ReconstructionErrorEvaluator.class);

  public ReconstructionErrorEvaluator() {
    this(Identifiable.randomUID("reconstructionErrorEvaluator"));
  }

  public ReconstructionErrorEvaluator(String uid) {
    this.uid = uid;
    this.residualCol =
        new Param<>(
            this,
            "residualCol",
            "column of the per-row feature-space residual "
                + "(the models' residualCol) whose mean is the reconstruction error");
    this.metricName =
        new Param<>(
            this,
            "metricName",
            "featureSpaceResidual = mean of residualCol (compares k or the landmarks at one "
                + "kernel and gamma); inputSpaceError = mean ||x - x^||^2 to the pre-images, from "
                + "preimageErrorCol when the dataset has it (sparse cost), else from inputCol and "
                + "reconstructionCol (compares gamma, kernels, k); relativeInputSpaceError = "
                + "inputSpaceError over the rows' total variance",
            ParamRule.oneOf(
                    "metricName",
                    FEATURE_SPACE_RESIDUAL,
                    INPUT_SPACE_ERROR,
                    RELATIVE_INPUT_SPACE_ERROR)
                .<String>of());
    this.inputCol =
        new Param<>(
            this,
            "inputCol",
            "column of the input vectors (the models' inputCol), input-space metrics");
    this.reconstructionCol =
        new Param<>(
            this,
            "reconstructionCol",
            "column of the pre-images (the models' reconstructionCol, "
                + "preimageMethod ridge), input-space metrics");
    this.preimageErrorCol =
        new Param<>(
            this,
            "preimageErrorCol",
            "column of the per-row ||x - x^||^2 (the models' preimageErrorCol), read by the "
                + "input-space metrics when the dataset has it");
    setDefault(residualCol, "residual");
    setDefault(preimageErrorCol, "preimageError");
    setDefault(metricName, FEATURE_SPACE_RESIDUAL);
    setDefault(inputCol, "features");
    setDefault(reconstructionCol, "reconstruction");
  }

  @Override
  public String uid() {
    return uid;
  }

  /** The residual column; default "residual". */
  public Param<String> residualCol() {
    return residualCol;
  }

  public String getResidualCol() {
    return getOrDefault(residualCol);
  }

  public ReconstructionErrorEvaluator setResidualCol(String value) {
    set(residualCol, value);
    return this;
  }

  /** The metric; default {@code featureSpaceResidual}. */
  public Param<String> metricName() {
    return metricName;
  }

  public String getMetricName() {
    return getOrDefault(metricName);
  }

  public ReconstructionErrorEvaluator setMetricName(String value) {
    set(metricName, value);
    return this;
  }

  /** The input vector column of the input-space metrics; default "features". */
  public Param<String> inputCol() {
    return inputCol;
  }

  public String getInputCol() {
    return getOrDefault(inputCol);
  }

  public ReconstructionErrorEvaluator setInputCol(String value) {
    set(inputCol, value);
    return this;
  }

  /** The pre-image column of the input-space metrics; default "reconstruction". */
  public Param<String> reconstructionCol() {
    return reconstructionCol;
  }

  public String getReconstructionCol() {
    return getOrDefault(reconstructionCol);
  }

  public ReconstructionErrorEvaluator setReconstructionCol(String value) {
    set(reconstructionCol, value);
    return this;
  }

  /** The pre-image error column of the input-space metrics; default "preimageError". */
  public Param<String> preimageErrorCol() {
    return preimageErrorCol;
  }

  public String getPreimageErrorCol() {
    return getOrDefault(preimageErrorCol);
  }

  public ReconstructionErrorEvaluator setPreimageErrorCol(String value) {
    set(preimageErrorCol, value);
    return this;
  }

  /**
   * The metric named by {@code metricName}.
   *
   * @throws IllegalArgumentException naming the column when it is missing or of the wrong type, the
   *     row when a vector is missing or of another size, or when the dataset has no rows
   */
  @Override
  public double evaluate(Dataset<?> dataset) {
    degenerate.note(dataset.schema(), uid, LOG);
    String metric = getMetricName();
    if (!metric.equals(FEATURE_SPACE_RESIDUAL)) {
      return InputSpaceError.evaluate(
          dataset,
          getInputCol(),
          getReconstructionCol(),
          getPreimageErrorCol(),
          metric.equals(RELATIVE_INPUT_SPACE_ERROR));
    }
    String column = getResidualCol();
    if (!Arrays.asList(dataset.schema().fieldNames()).contains(column)) {
      throw new IllegalArgumentException(
          "ReconstructionErrorEvaluator: residualCol '"
              + column
              + "' is not a "
              + "column of the dataset (columns: "
              + String.join(", ", dataset.schema().fieldNames())
              + "); set residualCol on the kernel PCA estimator so that its models produce it");
    }
    DataType type = dataset.schema().apply(column).dataType();
    if (!(type instanceof NumericType)) {
      throw new IllegalArgumentException(
          "ReconstructionErrorEvaluator: residualCol '"
              + column
              + "' has type "
              + type.simpleString()
              + ", expected a number");
    }
    noteResidualKernel(dataset.schema().apply(column).metadata());
    Row row = dataset.agg(functions.avg(functions.col(column))).first();
    if (row.isNullAt(0)) {
      throw new IllegalArgumentException(
          "ReconstructionErrorEvaluator: column '"
              + column
              + "' has no "
              + "non-null rows to evaluate");
    }
    return row.getDouble(0);
  }

  /**
   * Records the kernel the residuals were measured in (the models' residual column says, {@link
   * AbstractKernelPCAModel#RESIDUAL_KERNEL}); the first time two differ, as in a CrossValidator
   * over γ or the kernel, logs one warning that this metric cannot choose them.
   */
  private void noteResidualKernel(org.apache.spark.sql.types.Metadata metadata) {
    if (!metadata.contains(AbstractKernelPCAModel.RESIDUAL_KERNEL)) {
      return;
    }
    residualKernels.add(metadata.getString(AbstractKernelPCAModel.RESIDUAL_KERNEL));
    if (residualKernels.size() > 1 && warned.compareAndSet(false, true)) {
      LOG.warn(
          "ReconstructionErrorEvaluator {}: metricName featureSpaceResidual is comparing models of"
              + " different kernels ({}): this metric favours the smallest gamma (a flatter feature"
              + " space has smaller residuals whatever the data) and cannot choose the kernel; tune"
              + " gamma and the kernel with metricName=\"inputSpaceError\" and preimageErrorCol set"
              + " on the estimator (docs/kernels.md)",
          uid,
          String.join(", ", new java.util.TreeSet<>(residualKernels)));
    }
  }

  /** False: a smaller error is better, for every metric. */
  @Override
  public boolean isLargerBetter() {
    return false;
  }

  @Override
  public ReconstructionErrorEvaluator copy(ParamMap extra) {
    return (ReconstructionErrorEvaluator) defaultCopy(extra);
  }

  /** Saves the params only (there is no data), in the layout of the library's stages. */
  @Override
  public MLWriter write() {
    return StageWriter.paramsOnly(this);
  }

  public static MLReader<ReconstructionErrorEvaluator> read() {
    return new MLReader<>() {
      @Override
      public ReconstructionErrorEvaluator load(String path) {
        JsonNode metadata =
            Persistence.loadMetadata(path, sparkSession(), ReconstructionErrorEvaluator.class);
        ReconstructionErrorEvaluator evaluator =
            new ReconstructionErrorEvaluator(metadata.get("uid").asText());
        Persistence.applyParams(evaluator, metadata, path);
        return evaluator;
      }
    };
  }

  public static ReconstructionErrorEvaluator load(String path) {
    return read().load(path);
  }
}
