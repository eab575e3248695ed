package io.github.sparkkpca.ml;

import io.github.sparkkpca.execution.BlockedRows;
import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.pca.Projector;
import io.github.sparkkpca.regression.LabelCoding;
import java.util.Iterator;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;

/**
 * Scores a partition for {@link KernelPCARegressionModel#transform} in blocks ({@link
 * BlockedRows}), rows in input order, the prediction appended.
 */
final class KernelPCARegressionPredict implements MapPartitionsFunction<Row, Row> {
  private final Broadcast<Projector> predictor;
  private final LabelCoding coding;
  private final int inputIndex;
  private final String inputCol;
  private final int dim;
  private final int blockSize;

  KernelPCARegressionPredict(
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
        p.newBlock(blockSize),
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
