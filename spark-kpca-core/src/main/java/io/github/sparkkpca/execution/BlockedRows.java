package io.github.sparkkpca.execution;

import io.github.sparkkpca.linalg.RowBlock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/**
 * The row loop of every per-partition scoring (the projection of every kernel PCA model, the
 * predictions of the kernel PCA regression): rows are gathered b at a time into a {@link RowBlock},
 * each checked by {@link InputVectors} (named by its position in the partition), the block is
 * scored at once (a kernel block and one GEMM), and the rows come out in their input order, each
 * with the block's outputs for it appended. Only one block of rows is held at a time.
 */
public final class BlockedRows {

  /** What one stage computes for a block of rows and appends to each of them. */
  public interface Scorer {
    /**
     * Scores the rows of {@code block}, keeping the outputs until the next call; returns the index
     * within the block of the first row whose outputs are not finite, or −1 when all are.
     */
    int score(RowBlock block);

    /**
     * Completes "the vector at position i of partition p gives …" for a row whose outputs are not
     * finite: what it gives and why.
     */
    String nonFinite();

    /** The number of columns appended to each row. */
    int appended();

    /**
     * Writes the appended columns of row {@code i} of the last block scored into {@code values},
     * from {@code at}.
     */
    void emit(int i, Object[] values, int at);
  }

  private BlockedRows() {}

  /**
   * The rows of {@code input} with the scorer's columns appended, in input order.
   *
   * @param inputIndex the index of the vector column
   * @param inputCol its name, for the messages
   * @param dim d, the size the vectors must have
   * @param partition the partition's index, for the messages
   */
  public static Iterator<Row> map(
      Iterator<Row> input,
      int inputIndex,
      String inputCol,
      int dim,
      int blockSize,
      int partition,
      Scorer scorer) {
    return map(input, inputIndex, inputCol, new RowBlock(blockSize, dim), partition, scorer);
  }

  /**
   * The same with a given (empty) block, sparse or dense as the scorer reads it: its dimension is
   * the size the vectors must have, its capacity the rows scored at once.
   */
  public static Iterator<Row> map(
      Iterator<Row> input,
      int inputIndex,
      String inputCol,
      RowBlock block,
      int partition,
      Scorer scorer) {
    int dim = block.dim();
    int blockSize = block.capacity();
    List<Row> pending = new ArrayList<>(blockSize);
    return new Iterator<>() {
      private long position;
      private Iterator<Row> ready = Collections.emptyIterator();

      @Override
      public boolean hasNext() {
        while (!ready.hasNext() && input.hasNext()) {
          fill();
        }
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
          String problem = InputVectors.problem(value, dim, "the model expects");
          if (problem != null) {
            throw new IllegalArgumentException(
                "Column '"
                    + inputCol
                    + "': the vector at position "
                    + position
                    + " of partition "
                    + partition
                    + " "
                    + problem);
          }
          block.add((Vector) value, inputCol);
          pending.add(row);
          position++;
        }
        int bad = scorer.score(block);
        if (bad >= 0) {
          throw new IllegalArgumentException(
              "Column '"
                  + inputCol
                  + "': the vector at position "
                  + (position - pending.size() + bad)
                  + " of partition "
                  + partition
                  + " gives "
                  + scorer.nonFinite());
        }
        List<Row> out = new ArrayList<>(pending.size());
        for (int i = 0; i < pending.size(); i++) {
          Row row = pending.get(i);
          int width = row.length();
          Object[] values = new Object[width + scorer.appended()];
          for (int c = 0; c < width; c++) {
            values[c] = row.get(c);
          }
          scorer.emit(i, values, width);
          out.add(RowFactory.create(values));
        }
        ready = out.iterator();
      }
    };
  }
}
