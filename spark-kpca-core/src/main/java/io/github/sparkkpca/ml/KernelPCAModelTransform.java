package io.github.sparkkpca.ml;

import io.github.sparkkpca.execution.ProjectPartition;
import io.github.sparkkpca.execution.QuotedColumns;
import io.github.sparkkpca.kernel.KernelDegeneracy;
import io.github.sparkkpca.pca.Preimage;
import io.github.sparkkpca.pca.PreimageError;
import io.github.sparkkpca.pca.Projector;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The scoring of every kernel PCA model: the schema checks and the blocked, broadcast projection
 * behind {@link AbstractKernelPCAModel#transformSchema} and {@link
 * AbstractKernelPCAModel#transform}.
 */
final class KernelPCAModelTransform {

  private KernelPCAModelTransform() {}

  /** {@link AbstractKernelPCAModel#transformSchema}: the checks, then the output columns. */
  static StructType transformSchema(AbstractKernelPCAModel<?> model, StructType schema) {
    FittedKernels.check(model);
    StructField input = model.validateInputColumn(schema);
    int expected = AttributeGroup.fromStructField(input).size();
    if (expected >= 0 && expected != model.numFeatures()) {
      throw new IllegalArgumentException(
          "Input column '"
              + model.getInputCol()
              + "' holds vectors of size "
              + expected
              + " but the model was fitted on size "
              + model.numFeatures());
    }
    model.checkFeatureNames(input);
    for (String[] column :
        new String[][] {
          {"reconstructionCol", model.getReconstructionCol(), "pre-images"},
          {"preimageErrorCol", model.getPreimageErrorCol(), "distances to pre-images"}
        }) {
      if (column[1].isEmpty()) {
        continue;
      }
      if (!model.hasLandmarks()) {
        throw new IllegalArgumentException(
            LandmarkMatrices.noLandmarks(
                    model, column[0] + " (" + column[2] + " over the landmarks)")
                + "; leave "
                + column[0]
                + " empty");
      }
      if (Preimage.Method.parse(model.getPreimageMethod()) == Preimage.Method.FIXED_POINT
          && model.fittedKernel().type() != io.github.sparkkpca.kernel.KernelType.RBF) {
        throw new IllegalArgumentException(
            "preimageMethod fixed-point needs the rbf kernel, the model uses "
                + model.fittedKernel().type().paramName()
                + "; set preimageMethod to ridge");
      }
    }
    if (!model.getReconstructionCol().isEmpty()) {
      Preimage.requireDenseFits(
          "reconstructionCol '" + model.getReconstructionCol() + "'",
          "leave reconstructionCol empty",
          model.numFeatures(),
          model.numSupportPoints(),
          Runtime.getRuntime().maxMemory());
    }
    StructType out = model.appendOutputColumns(schema, model.numComponents(), model.numFeatures());
    String degenerate = model instanceof NystromKernelPCAParams p ? p.getKernelDegenerate() : null;
    boolean warn = degenerate != null && !degenerate.equals(KernelDegeneracy.NONE);
    if (model.getResidualCol().isEmpty() && !warn) {
      return out;
    }
    // The residual column names the kernel it was measured in: an evaluator comparing residuals of
    // different kernels or γ (which this metric cannot choose) can say so without a job. Every
    // output column of a model whose kernel is degenerate on its landmarks carries the fit's
    // warning, for the evaluator to repeat.
    StructField[] fields = out.fields();
    for (int at = schema.size(); at < fields.length; at++) {
      org.apache.spark.sql.types.MetadataBuilder metadata =
          new org.apache.spark.sql.types.MetadataBuilder().withMetadata(fields[at].metadata());
      if (fields[at].name().equals(model.getResidualCol())) {
        metadata.putString(AbstractKernelPCAModel.RESIDUAL_KERNEL, describe(model.fittedKernel()));
      }
      if (warn) {
        metadata
            .putString(AbstractKernelPCAModel.RESIDUAL_KERNEL, describe(model.fittedKernel()))
            .putString(KernelDegeneracy.METADATA_KEY, degenerate);
      }
      fields[at] =
          new StructField(
              fields[at].name(), fields[at].dataType(), fields[at].nullable(), metadata.build());
    }
    return new StructType(fields);
  }

  /** The kernel family and the parameters it uses, e.g. "rbf gamma=0.5". */
  private static String describe(io.github.sparkkpca.kernel.Kernel kernel) {
    io.github.sparkkpca.kernel.KernelFamily family = kernel.type();
    return family.paramName()
        + (family.usesGamma() ? " gamma=" + kernel.gamma() : "")
        + (family.usesDegree() ? " degree=" + kernel.degree() : "")
        + (family.usesCoef0() ? " coef0=" + kernel.coef0() : "");
  }

  /** The pre-image map the params ask for, or null when {@code reconstructionCol} is empty. */
  private static Preimage preimage(AbstractKernelPCAModel<?> model) {
    if (model.getReconstructionCol().isEmpty()) {
      return null;
    }
    return Preimage.Method.parse(model.getPreimageMethod()) == Preimage.Method.FIXED_POINT
        ? Preimage.fixedPoint(model.solution().projector(), model.getPreimageMaxIter())
        : Preimage.ridge(model.solution().projector(), model.getPreimageRidge());
  }

  /** The pre-image error map the params ask for, or null when {@code preimageErrorCol} is empty. */
  private static PreimageError preimageError(AbstractKernelPCAModel<?> model) {
    if (model.getPreimageErrorCol().isEmpty()) {
      return null;
    }
    return Preimage.Method.parse(model.getPreimageMethod()) == Preimage.Method.FIXED_POINT
        ? PreimageError.fixedPoint(model.solution().projector(), model.getPreimageMaxIter())
        : PreimageError.ridge(model.solution().projector(), model.getPreimageRidge());
  }

  /**
   * The rows per block of the model's transform: {@link KernelParams#scoringBlockSize} with a block
   * row as wide as the projector's blocks hold it ({@link Projector#blockWidth}: by the landmarks'
   * stored entries on the sparse path), or d when pre-images are asked for (each row's
   * reconstruction is d doubles).
   */
  static int blockSize(AbstractKernelPCAModel<?> model, boolean preimages) {
    Projector projector = model.solution().projector();
    int width = preimages ? model.numFeatures() : projector.blockWidth();
    return model.scoringBlockSize(projector.scratchSize(1), width, model.numComponents());
  }

  /**
   * {@link AbstractKernelPCAModel#transform}: scores, residuals, pre-image errors and pre-images,
   * in blocks.
   */
  static Dataset<Row> transform(AbstractKernelPCAModel<?> model, Dataset<?> dataset) {
    StructType outSchema = model.transformSchema(dataset.schema(), true);
    SparkSession spark = dataset.sparkSession();
    Projector projector = model.solution().projector();
    Broadcast<Projector> broadcast =
        spark
            .sparkContext()
            .broadcast(projector, scala.reflect.ClassTag$.MODULE$.apply(Projector.class));
    Preimage preimage = preimage(model);
    int blockSize = blockSize(model, preimage != null);
    Broadcast<Preimage> preimageBroadcast =
        preimage == null
            ? null
            : spark
                .sparkContext()
                .broadcast(preimage, scala.reflect.ClassTag$.MODULE$.apply(Preimage.class));
    PreimageError preimageError = preimageError(model);
    Broadcast<PreimageError> errorBroadcast =
        preimageError == null
            ? null
            : spark
                .sparkContext()
                .broadcast(
                    preimageError, scala.reflect.ClassTag$.MODULE$.apply(PreimageError.class));
    ProjectPartition project =
        new ProjectPartition(
            broadcast,
            dataset.schema().fieldIndex(model.getInputCol()),
            model.getInputCol(),
            model.numFeatures(),
            blockSize,
            !model.getResidualCol().isEmpty(),
            errorBroadcast,
            preimageBroadcast);
    Dataset<Row> scored = dataset.toDF().mapPartitions(project, Encoders.row(outSchema));
    // The row encoder drops column metadata; re-attach the vector sizes and the residual's kernel.
    for (String vectorCol :
        new String[] {model.getOutputCol(), model.getResidualCol(), model.getReconstructionCol()}) {
      if (!vectorCol.isEmpty()) {
        StructField field = outSchema.apply(vectorCol);
        scored =
            scored.withColumn(
                vectorCol, QuotedColumns.column(scored, vectorCol).as(vectorCol, field.metadata()));
      }
    }
    return scored;
  }
}
