package io.github.sparkkpca.ml;

import io.github.sparkkpca.execution.ProjectPartition;
import io.github.sparkkpca.execution.QuotedColumns;
import io.github.sparkkpca.pca.Preimage;
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
    requireReconstructible(model);
    return model.appendOutputColumns(schema, model.numComponents(), model.numFeatures());
  }

  /** {@link AbstractKernelPCAModel#requireReconstructible}. */
  static void requireReconstructible(AbstractKernelPCAModel<?> model) {
    if (!model.getReconstructionCol().isEmpty() && !model.hasLandmarks()) {
      throw new IllegalArgumentException(
          model.noLandmarks("reconstructionCol (pre-images over the landmarks)")
              + "; leave reconstructionCol empty");
    }
    if (!model.getReconstructionCol().isEmpty()
        && Preimage.Method.parse(model.getPreimageMethod()) == Preimage.Method.FIXED_POINT
        && model.fittedKernel().type() != io.github.sparkkpca.kernel.KernelType.RBF) {
      throw new IllegalArgumentException(
          "preimageMethod fixed-point needs the rbf kernel, the model uses "
              + model.fittedKernel().type().paramName()
              + "; set preimageMethod to ridge");
    }
    if (!model.getReconstructionCol().isEmpty()) {
      requireDenseReconstructionFits(
          model.getReconstructionCol(),
          model.numFeatures(),
          model.numSupportPoints(),
          Runtime.getRuntime().maxMemory());
    }
  }

  /**
   * Refuses, before anything is allocated, pre-images whose dense d-wide arrays cannot fit: the
   * pre-image map holds the m landmarks and its m×d coefficients densely, and its broadcast copy
   * (3·8·m·d bytes), and every output row is a dense vector of 8·d bytes. Refused above a quarter
   * of the heap, or when m·d exceeds a Java array: a pre-image is dense by nature, whatever the
   * sparsity of the input (wide sparse data score and give residuals at sparse cost; only the
   * reconstruction needs d values).
   *
   * @throws IllegalArgumentException naming the column, d, m, the estimate and the heap
   */
  static void requireDenseReconstructionFits(String column, int d, int m, long heap) {
    long bytes = 3L * 8L * m * d;
    // Also above the array limit (m·d ≥ 2³¹, e.g. d = 2²² and m = 600), whatever the heap.
    boolean beyondArray = (long) m * d > Integer.MAX_VALUE - 8;
    if (bytes > heap / 4 || beyondArray) {
      throw new IllegalArgumentException(
          String.format(
              java.util.Locale.ROOT,
              "reconstructionCol '%s': pre-images are dense vectors of d = %d values (%.1f MiB a"
                  + " row), and the pre-image map needs about %.1f GiB of dense m×d arrays (m ="
                  + " %d), %s; leave reconstructionCol empty for data this wide (scores and"
                  + " residuals do not need it)",
              column,
              d,
              8.0 * d / (1 << 20),
              bytes / (double) (1L << 30),
              m,
              beyondArray
                  ? "more entries than a Java array holds"
                  : String.format(
                      java.util.Locale.ROOT,
                      "more than a quarter of the %.1f GiB heap",
                      heap / (double) (1L << 30))));
    }
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

  /** {@link AbstractKernelPCAModel#transform}: scores, residuals and pre-images, in blocks. */
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
    ProjectPartition project =
        new ProjectPartition(
            broadcast,
            dataset.schema().fieldIndex(model.getInputCol()),
            model.getInputCol(),
            model.numFeatures(),
            blockSize,
            !model.getResidualCol().isEmpty(),
            preimageBroadcast);
    Dataset<Row> scored = dataset.toDF().mapPartitions(project, Encoders.row(outSchema));
    // The row encoder drops column metadata; re-attach the vector sizes.
    for (String vectorCol : new String[] {model.getOutputCol(), model.getReconstructionCol()}) {
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
