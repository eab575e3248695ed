package io.github.sparkkpca.ml;

import io.github.sparkkpca.execution.ProjectPartition;
import io.github.sparkkpca.pca.Projector;
import io.github.sparkkpca.regression.LabelCoding;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;

/**
 * A regression model's {@link KernelPCARegressionModel#transform}: the predictor broadcast, each
 * partition scored by {@link ProjectPartition}'s block loop (as a kernel PCA model's transform is),
 * and, as this readout of the outputs, the prediction the label coding makes of them appended.
 */
record KernelPCARegressionPredict(LabelCoding coding) implements ProjectPartition.Readout {

  /**
   * The rows per block of the model's predictions: {@link KernelParams#scoringBlockSize} with a
   * block row as wide as the predictor's blocks hold it ({@link Projector#blockWidth}).
   */
  static int blockSize(KernelPCARegressionModel model) {
    int m = model.numSupportPoints();
    return model.scoringBlockSize(m, model.fitted().blockWidth(), m);
  }

  /** The rows of {@code dataset} with the model's prediction appended ({@code outSchema}). */
  static Dataset<Row> transform(
      KernelPCARegressionModel model, Dataset<?> dataset, StructType outSchema) {
    Broadcast<Projector> broadcast =
        dataset
            .sparkSession()
            .sparkContext()
            .broadcast(model.fitted(), scala.reflect.ClassTag$.MODULE$.apply(Projector.class));
    int blockSize = blockSize(model);
    String column = model.getFeaturesCol();
    return dataset
        .toDF()
        .mapPartitions(
            new ProjectPartition(
                broadcast,
                dataset.schema().fieldIndex(column),
                column,
                blockSize,
                new KernelPCARegressionPredict(model.labelCoding())),
            Encoders.row(outSchema));
  }

  @Override
  public ProjectPartition.Appender open(Projector p, int blockSize) {
    return new ProjectPartition.Appender() {
      @Override
      public String nonFinite() {
        return "a non-finite prediction: its kernel values overflow (" + p.kernel() + ")";
      }

      @Override
      public int appended() {
        return 1;
      }

      @Override
      public void emit(
          int i, double[] outputs, int c, double[] residuals, Object[] values, int at) {
        values[at] = coding.predict(outputs, i * c);
      }
    };
  }
}
