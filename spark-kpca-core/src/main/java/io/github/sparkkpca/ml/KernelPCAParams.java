package io.github.sparkkpca.ml;

import java.io.Serializable;
import java.util.Locale;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.Params;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Parameters shared by every kernel PCA stage (exact and Nyström, estimators and models); the
 * kernel and the block size are {@link KernelParams}.
 */
public interface KernelPCAParams extends KernelParams {

  /** The Param objects of one stage instance (created by the stage, bound to it as parent). */
  final class Definitions implements Serializable {
    final Param<String> inputCol;
    final Param<String> outputCol;
    final IntParam k;
    final BooleanParam centered;
    final Param<String> residualCol;
    final Param<String> reconstructionCol;
    final Param<String> preimageErrorCol;
    final Param<String> preimageMethod;
    final IntParam preimageMaxIter;
    final DoubleParam preimageRidge;

    /**
     * Exposed by {@link FeaturePCAParams} only (exact kernel PCA always finds every eigenvalue).
     */
    final Param<String> spectrum;

    /** The kernel and block size, shared with the regression stages. */
    final KernelParams.Definitions kernelParams;

    @SuppressWarnings("unchecked")
    Definitions(Params owner) {
      kernelParams = new KernelParams.Definitions(owner);
      inputCol =
          new Param<>(owner, "inputCol", "input column of feature vectors (ml.linalg.Vector)");
      outputCol =
          new Param<>(owner, "outputCol", "output column of the k principal-component scores");
      k =
          new IntParam(
              owner,
              "k",
              "number of principal components to keep (> 0); required",
              ParamRule.intGt("k", 0).of());
      centered =
          new BooleanParam(
              owner,
              "centered",
              "whether to centre in feature space (PCA of the "
                  + "covariance); false gives the uncentred second-moment PCA of Sterge et al. (2020)");
      residualCol =
          new Param<>(
              owner,
              "residualCol",
              "optional output column of the per-row feature-space "
                  + "residual ||k(.,x) - mean - projection||^2 (a novelty score); empty: not produced");
      reconstructionCol =
          new Param<>(
              owner,
              "reconstructionCol",
              "optional output column of input-space "
                  + "reconstructions (pre-images) of the projected rows, a Vector of size d (denoising); empty: not "
                  + "produced");
      preimageErrorCol =
          new Param<>(
              owner,
              "preimageErrorCol",
              "optional output column of the per-row squared input-space distance ||x - x^||^2 to"
                  + " the pre-image (preimageMethod), computed in the span of the landmarks without"
                  + " forming x^: at sparse cost on sparse rows, so it works where reconstructionCol"
                  + " is too wide (ReconstructionErrorEvaluator metricName inputSpaceError reads it);"
                  + " empty: not produced");
      preimageMethod =
          new Param<>(
              owner,
              "preimageMethod",
              "pre-image method: fixed-point = Mika et al. "
                  + "(1999) Gaussian fixed-point iteration over the landmarks (rbf kernel only); ridge = kernel ridge "
                  + "map from scores back to inputs fitted on the landmarks (any kernel; Bakir et al. 2004)",
              ParamRule.oneOf("preimageMethod", io.github.sparkkpca.pca.Preimage.Method.NAMES)
                  .of());
      preimageMaxIter =
          new IntParam(
              owner,
              "preimageMaxIter",
              "maximum fixed-point iterations (>= 1)",
              ParamRule.intGtEq("preimageMaxIter", 1).of());
      preimageRidge =
          new DoubleParam(
              owner,
              "preimageRidge",
              "ridge alpha of the ridge pre-image map (> 0)",
              ParamRule.finiteGt("preimageRidge", 0.0).of());
      spectrum =
          new Param<>(
              owner,
              "spectrum",
              "how much of the feature covariance spectrum the fit "
                  + "computes: leading = the min(r, max(k, 50)) leading eigenvalues by block Krylov iteration (the total "
                  + "variance comes from the trace); full = all r eigenvalues by the dense solver (scree plots, "
                  + "reconstruction errors beyond the leading ones)",
              ParamRule.oneOf("spectrum", io.github.sparkkpca.pca.SpectrumExtent.NAMES).of());
    }
  }

  /** This stage's Param objects. */
  Definitions kernelPCAParams();

  @Override
  default KernelParams.Definitions kernelParams() {
    return kernelPCAParams().kernelParams;
  }

  /** Input vector column. Default: {@code features}. */
  default Param<String> inputCol() {
    return kernelPCAParams().inputCol;
  }

  /** Output column of scores (a Vector of size k with size metadata). Default: {@code kpca}. */
  default Param<String> outputCol() {
    return kernelPCAParams().outputCol;
  }

  /** k, the number of principal components. Required. */
  default IntParam k() {
    return kernelPCAParams().k;
  }

  /** Centre in feature space; default true. */
  default BooleanParam centered() {
    return kernelPCAParams().centered;
  }

  /** Optional residual (novelty score) column; default empty (not produced). */
  default Param<String> residualCol() {
    return kernelPCAParams().residualCol;
  }

  /** Optional pre-image column; default empty (not produced). */
  default Param<String> reconstructionCol() {
    return kernelPCAParams().reconstructionCol;
  }

  /**
   * Optional column of ‖x − x̂‖², the squared distance from each row to its pre-image ({@link
   * io.github.sparkkpca.pca.PreimageError}); default empty (not produced).
   */
  default Param<String> preimageErrorCol() {
    return kernelPCAParams().preimageErrorCol;
  }

  /**
   * Pre-image method; default {@code fixed-point} (rbf only; use {@code ridge} for other kernels).
   */
  default Param<String> preimageMethod() {
    return kernelPCAParams().preimageMethod;
  }

  /** Fixed-point iterations; default 100. */
  default IntParam preimageMaxIter() {
    return kernelPCAParams().preimageMaxIter;
  }

  /** Ridge α of the ridge pre-image; default 0.01. */
  default DoubleParam preimageRidge() {
    return kernelPCAParams().preimageRidge;
  }

  default String getReconstructionCol() {
    return getOrDefault(reconstructionCol());
  }

  default String getPreimageErrorCol() {
    return getOrDefault(preimageErrorCol());
  }

  default String getPreimageMethod() {
    return getOrDefault(preimageMethod());
  }

  default int getPreimageMaxIter() {
    return (Integer) getOrDefault(preimageMaxIter());
  }

  default double getPreimageRidge() {
    return (Double) getOrDefault(preimageRidge());
  }

  default String getResidualCol() {
    return getOrDefault(residualCol());
  }

  default String getInputCol() {
    return getOrDefault(inputCol());
  }

  default String getOutputCol() {
    return getOrDefault(outputCol());
  }

  default int getK() {
    if (!isDefined(k())) {
      throw new IllegalArgumentException(
          "Param k (the number of principal components) must be set");
    }
    return (Integer) getOrDefault(k());
  }

  default boolean getCentered() {
    return (Boolean) getOrDefault(centered());
  }

  /**
   * The schema with this stage's output columns appended: the k scores, then the residual, the
   * pre-image error and the d-dimensional reconstruction when requested (d &lt; 0 when unknown).
   *
   * @throws IllegalArgumentException when the residual is asked of a kernel that is not positive
   *     definite (k(x,x) is no squared norm there, see docs/kernels.md)
   */
  default StructType appendOutputColumns(StructType schema, int k, int d) {
    if (!getResidualCol().isEmpty()) {
      // γ > 0 does not change whether a family is positive definite; c₀ and p may.
      io.github.sparkkpca.kernel.Kernel.of(getKernelType(), 1.0, getDegree(), getCoef0())
          .requirePositiveDefinite(
              "residualCol '"
                  + getResidualCol()
                  + "' (the per-row residual k(x,x) - ||P phi(x)||^2)",
              "leave residualCol empty (the scores, of the model's positive-part surrogate, need"
                  + " no residual)");
    }
    StructType out =
        schema.add(
            new org.apache.spark.ml.attribute.AttributeGroup(getOutputCol(), k).toStructField());
    if (!getResidualCol().isEmpty()) {
      out = out.add(getResidualCol(), org.apache.spark.sql.types.DataTypes.DoubleType, false);
    }
    if (!getPreimageErrorCol().isEmpty()) {
      out = out.add(getPreimageErrorCol(), org.apache.spark.sql.types.DataTypes.DoubleType, false);
    }
    if (!getReconstructionCol().isEmpty()) {
      out =
          out.add(
              d >= 0
                  ? new org.apache.spark.ml.attribute.AttributeGroup(getReconstructionCol(), d)
                      .toStructField()
                  : new StructField(
                      getReconstructionCol(),
                      SQLDataTypes.VectorType(),
                      false,
                      org.apache.spark.sql.types.Metadata.empty()));
    }
    return out;
  }

  /** Sets every default of these Params on their owner. */
  static void setDefaults(KernelPCAParams owner) {
    owner.setDefault(owner.inputCol(), "features");
    owner.setDefault(owner.outputCol(), "kpca");
    KernelParams.setDefaults(owner);
    owner.setDefault(owner.centered(), true);
    owner.setDefault(owner.residualCol(), "");
    owner.setDefault(owner.reconstructionCol(), "");
    owner.setDefault(owner.preimageErrorCol(), "");
    owner.setDefault(owner.preimageMethod(), "fixed-point");
    owner.setDefault(owner.preimageMaxIter(), 100);
    owner.setDefault(owner.preimageRidge(), 0.01);
  }

  /**
   * Checks the input column (present, of Vector type) and that the output column is new; returns
   * the input field.
   */
  default StructField validateInputColumn(StructType schema) {
    String in = getInputCol();
    if (!java.util.Arrays.asList(schema.fieldNames()).contains(in)) {
      throw new IllegalArgumentException(
          "Input column '"
              + in
              + "' does not exist; available columns: "
              + String.join(", ", schema.fieldNames()));
    }
    StructField field = schema.apply(in);
    if (!field.dataType().equals(SQLDataTypes.VectorType())) {
      throw new IllegalArgumentException(
          "Input column '"
              + in
              + "' must be of type Vector "
              + "(org.apache.spark.ml.linalg), but is "
              + field.dataType().catalogString().toLowerCase(Locale.ROOT)
              + "; "
              + io.github.sparkkpca.execution.InputVectors.conversionHint(field.dataType()));
    }
    java.util.Set<String> outputs = new java.util.HashSet<>();
    for (String out :
        new String[] {
          getOutputCol(), getResidualCol(), getPreimageErrorCol(), getReconstructionCol()
        }) {
      if (out.isEmpty()) {
        continue;
      }
      if (java.util.Arrays.asList(schema.fieldNames()).contains(out)) {
        throw new IllegalArgumentException("Output column '" + out + "' already exists");
      }
      if (!outputs.add(out)) {
        throw new IllegalArgumentException(
            "outputCol, residualCol, preimageErrorCol and reconstructionCol must differ; '"
                + out
                + "' is used twice");
      }
    }
    return field;
  }
}
