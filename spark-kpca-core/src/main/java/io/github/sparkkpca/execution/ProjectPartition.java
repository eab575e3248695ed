package io.github.sparkkpca.execution;

import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.pca.Preimage;
import io.github.sparkkpca.pca.Projector;
import java.util.Arrays;
import java.util.Iterator;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.sql.Row;

/**
 * Scores one partition block by block ({@link BlockedRows}): rows are buffered b at a time,
 * checked, projected (a kernel block and one GEMM for landmark models), and emitted in their input
 * order with the score vector (and residual, and pre-image) appended.
 */
public final class ProjectPartition implements MapPartitionsFunction<Row, Row> {

  private final Broadcast<Projector> projector;
  private final int inputIndex;
  private final String inputCol;
  private final int dim;
  private final int blockSize;
  private final boolean withResidual;

  /** The pre-image map, or null when no reconstruction column is requested. */
  private final Broadcast<Preimage> preimage;

  public ProjectPartition(
      Broadcast<Projector> projector,
      int inputIndex,
      String inputCol,
      int dim,
      int blockSize,
      boolean withResidual,
      Broadcast<Preimage> preimage) {
    this.projector = projector;
    this.inputIndex = inputIndex;
    this.inputCol = inputCol;
    this.dim = dim;
    this.blockSize = blockSize;
    this.withResidual = withResidual;
    this.preimage = preimage;
  }

  @Override
  public Iterator<Row> call(Iterator<Row> input) {
    Projector p = projector.value();
    int k = p.numComponents();
    double[] scratch = new double[p.scratchSize(blockSize)];
    double[] scores = new double[k * blockSize];
    double[] residuals = withResidual ? new double[blockSize] : null;
    Preimage pre = preimage == null ? null : preimage.value();
    double[] preScratch = pre == null ? null : new double[pre.scratchSize(blockSize)];
    double[] reconstructions = pre == null ? null : new double[blockSize * dim];
    return BlockedRows.map(
        input,
        inputIndex,
        inputCol,
        p.newBlock(blockSize),
        org.apache.spark.TaskContext.getPartitionId(),
        new BlockedRows.Scorer() {
          @Override
          public int score(RowBlock block) {
            int bad = p.project(block, scratch, scores, residuals);
            if (bad < 0 && pre != null) {
              pre.reconstruct(block, scores, preScratch, reconstructions);
            }
            return bad;
          }

          @Override
          public String nonFinite() {
            return "non-finite scores: its kernel values overflow ("
                + p.kernel()
                + "); rescale the input or "
                + "choose other kernel parameters";
          }

          @Override
          public int appended() {
            return 1 + (withResidual ? 1 : 0) + (pre != null ? 1 : 0);
          }

          @Override
          public void emit(int i, Object[] values, int at) {
            values[at++] = new DenseVector(Arrays.copyOfRange(scores, i * k, (i + 1) * k));
            if (withResidual) {
              values[at++] = residuals[i];
            }
            if (pre != null) {
              values[at] =
                  new DenseVector(Arrays.copyOfRange(reconstructions, i * dim, (i + 1) * dim));
            }
          }
        });
  }
}
