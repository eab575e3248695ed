package io.github.sparkkpca.evaluation;

import com.fasterxml.jackson.databind.JsonNode;
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
 * Held-out reconstruction error: the mean of a transformed DataFrame's residual column, (1/n) Σ_i
 * ‖φ(x_i) − φ̄ − P_k(φ(x_i) − φ̄)‖², the squared feature-space distance of each row to the fitted
 * k-dimensional principal subspace (φ̄ = 0 for uncentred models). On the training rows it is the
 * model's {@code reconstructionError()} at k; on rows the model has not seen it estimates the
 * expected error of the subspace, which is what model selection without labels needs: {@code
 * CrossValidator} or {@code TrainValidationSplit} over k, γ or the number of landmarks, with this
 * evaluator, keeps the model whose subspace reconstructs held-out rows best (Hallgren 2021, ch. 5,
 * chooses k by the leave-one-out version of the same error; see {@code
 * io.github.sparkkpca.evaluation.Mpress}).
 *
 * <p>The residual column exists only if the estimator (or model) has {@code residualCol} set, e.g.
 * {@code new NystromKernelPCA().setResidualCol("residual")}: {@code CrossValidator} evaluates
 * {@code model.transform(validation)}. For a kernel that is not positive definite (sigmoid,
 * polynomial with c₀ &lt; 0) the stages refuse {@code residualCol}, as k(x,x) is no squared norm
 * there, so this evaluator has nothing to read (docs/kernels.md). Smaller is better. Note that the
 * error falls as k grows on any data, so over k alone the largest candidate wins; it is informative
 * for γ and the landmarks at fixed k, and for k when the candidates are compared at a cost (as
 * MPRESS does with its 1/(n − k) factor).
 */
public final class ReconstructionErrorEvaluator extends Evaluator implements MLWritable {

  private final String uid;
  private final Param<String> residualCol;

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
    setDefault(residualCol, "residual");
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

  /**
   * The mean of the residual column.
   *
   * @throws IllegalArgumentException naming the column when it is missing or not numeric, or when
   *     the dataset has no rows
   */
  @Override
  public double evaluate(Dataset<?> dataset) {
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

  /** False: a smaller reconstruction error is better. */
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
