package io.github.sparkkpca.ml;

import io.github.sparkkpca.feature.NystromProjector;
import io.github.sparkkpca.feature.Preimage;
import io.github.sparkkpca.linalg.RowBlock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/**
 * Scores one partition block by block: rows are buffered b at a time, projected with two GEMMs, and
 * emitted in their input order with the score vector (and residual, and pre-image) appended.
 */
final class ProjectPartition implements MapPartitionsFunction<Row, Row> {

  private final Broadcast<NystromProjector> projector;
  private final int inputIndex;
  private final String inputCol;
  private final int dim;
  private final int blockSize;
  private final boolean withResidual;
  /** The pre-image map, or null when no reconstruction column is requested. */
  private final Broadcast<Preimage> preimage;

  ProjectPartition(Broadcast<NystromProjector> projector, int inputIndex, String inputCol, int dim,
      int blockSize, boolean withResidual, Broadcast<Preimage> preimage) {
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
    NystromProjector p = projector.value();
    int k = p.numComponents();
    RowBlock block = new RowBlock(blockSize, dim);
    double[] scratch = new double[p.scratchSize(blockSize)];
    double[] scores = new double[k * blockSize];
    double[] residuals = withResidual ? new double[blockSize] : null;
    Preimage pre = preimage == null ? null : preimage.value();
    double[] preScratch = pre == null ? null : new double[pre.scratchSize(blockSize)];
    double[] reconstructions = pre == null ? null : new double[blockSize * dim];
    List<Row> pending = new ArrayList<>(blockSize);

    return new Iterator<>() {
      private long position;
      private Iterator<Row> ready = java.util.Collections.emptyIterator();

      @Override
      public boolean hasNext() {
        if (ready.hasNext()) {
          return true;
        }
        if (!input.hasNext()) {
          return false;
        }
        fill();
        return ready.hasNext();
      }

      @Override
      public Row next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return ready.next();
      }

      private void fill() {
        pending.clear();
        block.clear();
        while (input.hasNext() && !block.isFull()) {
          Row row = input.next();
          Object value = row.get(inputIndex);
          if (!(value instanceof Vector v)) {
            throw new IllegalArgumentException("Column '" + inputCol + "': the vector at position " + position
                + " of this partition is null");
          }
          if (v.size() != dim) {
            throw new IllegalArgumentException("Column '" + inputCol + "': the vector at position " + position
                + " of this partition has size " + v.size() + ", the model expects " + dim);
          }
          try {
            block.add(v, inputCol);
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Column '" + inputCol + "': the vector at position " + position
                + " of this partition " + RowBlock.invalidValues(v), e);
          }
          pending.add(row);
          position++;
        }
        p.project(block, scratch, scores, residuals);
        if (pre != null) {
          pre.reconstruct(block, scores, preScratch, reconstructions);
        }
        List<Row> out = new ArrayList<>(pending.size());
        for (int i = 0; i < pending.size(); i++) {
          Row row = pending.get(i);
          int width = row.length();
          Object[] values = new Object[width + 1 + (withResidual ? 1 : 0) + (pre != null ? 1 : 0)];
          for (int c = 0; c < width; c++) {
            values[c] = row.get(c);
          }
          double[] y = new double[k];
          System.arraycopy(scores, i * k, y, 0, k);
          values[width] = new DenseVector(y);
          int next = width + 1;
          if (withResidual) {
            values[next++] = residuals[i];
          }
          if (pre != null) {
            values[next] = new DenseVector(java.util.Arrays.copyOfRange(reconstructions, i * dim, (i + 1) * dim));
          }
          out.add(RowFactory.create(values));
        }
        ready = out.iterator();
      }
    };
  }
}
