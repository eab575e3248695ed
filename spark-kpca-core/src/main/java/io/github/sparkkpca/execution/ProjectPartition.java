package io.github.sparkkpca.execution;

import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.pca.Preimage;
import io.github.sparkkpca.pca.PreimageError;
import io.github.sparkkpca.pca.Projector;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Iterator;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.sql.Row;

/**
 * Scores one partition block by block ({@link BlockedRows}): rows are buffered b at a time,
 * checked, projected (a kernel block and one GEMM for landmark models), and emitted in their input
 * order with what a {@link Readout} makes of the block's scores appended: the score vector (and
 * residual, and pre-image) of a kernel PCA model, or a regression model's prediction.
 */
public final class ProjectPartition implements MapPartitionsFunction<Row, Row> {

  /** What the rows get from their scores; serialised with the function, opened per partition. */
  public interface Readout extends Serializable {
    /** The partition's state for blocks of at most {@code blockSize} rows. */
    Appender open(Projector projector, int blockSize);
  }

  /** One partition's readout of the scores of the block last projected. */
  public interface Appender {
    /** Whether the projection computes each row's residual (passed to {@link #emit}). */
    default boolean residuals() {
      return false;
    }

    /** Runs after a block whose scores are all finite was projected. */
    default void scored(RowBlock block, double[] scores) {}

    /** What a row whose scores are not finite gives, and why (see {@link BlockedRows.Scorer}). */
    String nonFinite();

    /** The number of columns appended to each row. */
    int appended();

    /**
     * Writes the columns of row {@code i} of the last block into {@code values} from {@code at}:
     * its k scores start at {@code scores[i * k]}; {@code residuals} is null unless {@link
     * #residuals}.
     */
    void emit(int i, double[] scores, int k, double[] residuals, Object[] values, int at);
  }

  private final Broadcast<Projector> projector;
  private final int inputIndex;
  private final String inputCol;
  private final int blockSize;
  private final Readout readout;

  /**
   * A kernel PCA model's projection: the score vector, the residual when {@code withResidual}, the
   * distance ‖x − x̂‖² to the pre-image when {@code preimageError} is not null, the pre-image of
   * size {@code dim} when {@code preimage} is not null.
   */
  public ProjectPartition(
      Broadcast<Projector> projector,
      int inputIndex,
      String inputCol,
      int dim,
      int blockSize,
      boolean withResidual,
      Broadcast<PreimageError> preimageError,
      Broadcast<Preimage> preimage) {
    this(
        projector,
        inputIndex,
        inputCol,
        blockSize,
        new Scores(dim, withResidual, preimageError, preimage));
  }

  /** The projection with another readout of the scores. */
  public ProjectPartition(
      Broadcast<Projector> projector,
      int inputIndex,
      String inputCol,
      int blockSize,
      Readout readout) {
    this.projector = projector;
    this.inputIndex = inputIndex;
    this.inputCol = inputCol;
    this.blockSize = blockSize;
    this.readout = readout;
  }

  @Override
  public Iterator<Row> call(Iterator<Row> input) {
    Projector p = projector.value();
    int k = p.numComponents();
    double[] scratch = new double[p.scratchSize(blockSize)];
    double[] scores = new double[k * blockSize];
    Appender appender = readout.open(p, blockSize);
    double[] residuals = appender.residuals() ? new double[blockSize] : null;
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
            if (bad < 0) {
              appender.scored(block, scores);
            }
            return bad;
          }

          @Override
          public String nonFinite() {
            return appender.nonFinite();
          }

          @Override
          public int appended() {
            return appender.appended();
          }

          @Override
          public void emit(int i, Object[] values, int at) {
            appender.emit(i, scores, k, residuals, values, at);
          }
        });
  }

  /**
   * A kernel PCA model's columns: scores, and optionally the residual, the pre-image error and the
   * pre-image.
   */
  private record Scores(
      int dim,
      boolean withResidual,
      Broadcast<PreimageError> preimageError,
      Broadcast<Preimage> preimage)
      implements Readout {

    @Override
    public Appender open(Projector p, int blockSize) {
      Preimage pre = preimage == null ? null : preimage.value();
      double[] preScratch = pre == null ? null : new double[pre.scratchSize(blockSize)];
      double[] reconstructions = pre == null ? null : new double[blockSize * dim];
      PreimageError distances = preimageError == null ? null : preimageError.value();
      double[] errors = distances == null ? null : new double[blockSize];
      return new Appender() {
        @Override
        public boolean residuals() {
          return withResidual;
        }

        @Override
        public void scored(RowBlock block, double[] scores) {
          if (distances != null) {
            distances.squaredErrors(block, scores, errors);
          }
          if (pre != null) {
            pre.reconstruct(block, scores, preScratch, reconstructions);
          }
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
          return 1 + (withResidual ? 1 : 0) + (distances != null ? 1 : 0) + (pre != null ? 1 : 0);
        }

        @Override
        public void emit(
            int i, double[] scores, int k, double[] residuals, Object[] values, int at) {
          values[at++] = new DenseVector(Arrays.copyOfRange(scores, i * k, (i + 1) * k));
          if (withResidual) {
            values[at++] = residuals[i];
          }
          if (distances != null) {
            values[at++] = errors[i];
          }
          if (pre != null) {
            values[at] =
                new DenseVector(Arrays.copyOfRange(reconstructions, i * dim, (i + 1) * dim));
          }
        }
      };
    }
  }
}
