package io.github.sparkkpca.execution;

import java.io.Serializable;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import scala.Tuple2;

/**
 * One validating pass over the input column that also draws a uniform landmark sample: counts the
 * rows, checks every vector ({@link InputVectors}) and keeps the distinct rows with the {@code
 * capacity} smallest pseudo-random keys.
 *
 * <p><b>Sampling.</b> Each row's key is {@link RowHash#uniform(long, long)}, a hash of the seed and
 * the row's 0-based position in the data. Keys behave as i.i.d. uniform draws, one per row, so
 * taking rows in key order is a uniformly random order of the rows ("bottom-m" sampling, {@link
 * SmallestKeys}); rows equal to one already taken are merged and the draw continues until {@code
 * capacity} distinct rows are found (or the data run out of distinct rows). A value repeated in c
 * rows is therefore drawn as often as c rows are, not as one row: with 90 % of the rows equal, that
 * value is a landmark in almost every sample. Removing a repeated landmark loses nothing, since
 * Nyström's span{k(·,z_j)} is the same with it. The sample depends on the seed and on the rows in
 * their order, not on how they are split into partitions (the position of a row is its partition's
 * first row number plus its position within the partition, see {@link #scanIndexedPartition}).
 * Landmarks are ordered by key, which fixes their order too.
 *
 * <p><b>Errors.</b> The first invalid row (lowest partition, then position) is recorded with its
 * partition and position; {@link #errorMessage()} turns it into a global 0-based row number using
 * the per-partition counts. Instances are merged with {@link #merge} in a {@code treeAggregate}.
 */
public final class DataScan implements Serializable {

  private final int capacity;
  private final int dim;
  private final long seed;
  private final String column;

  private final TreeMap<Integer, Long> countByPartition = new TreeMap<>();
  private int errorPartition = Integer.MAX_VALUE;
  private long errorPosition = Long.MAX_VALUE;
  private String error;

  private final SmallestKeys sample;

  /** Stored entries of the rows scanned (a sparse vector's non-zeros, a dense vector's d). */
  private long storedEntries;

  /** The most stored entries of one row. */
  private int maxStoredEntries;

  public DataScan(int capacity, int dim, long seed, String column) {
    this.capacity = capacity;
    this.dim = dim;
    this.seed = seed;
    this.column = column;
    this.sample = new SmallestKeys(capacity);
  }

  /**
   * Scans one partition's vectors.
   *
   * @param partition the partition's index
   * @param firstRow the 0-based position in the data of the partition's first row (the number of
   *     rows in the partitions before it), which the sampling keys are derived from
   * @param vectors the partition's vectors, in order
   */
  public DataScan scanPartition(int partition, long firstRow, Iterator<Vector> vectors) {
    long position = 0;
    boolean failed = false;
    while (vectors.hasNext()) {
      Vector v = vectors.next();
      if (!failed) {
        String problem = InputVectors.problem(v, dim);
        if (problem != null) {
          recordError(partition, position, problem);
          failed = true;
        } else {
          int stored = v instanceof SparseVector sv ? sv.indices().length : dim;
          storedEntries += stored;
          maxStoredEntries = Math.max(maxStoredEntries, stored);
          if (capacity > 0) {
            offer(v, firstRow + position);
          }
        }
      }
      position++;
    }
    countByPartition.merge(partition, position, Long::sum);
    return this;
  }

  /**
   * Scans one partition of {@code JavaRDD.zipWithIndex()}: each vector with its 0-based position in
   * the data (consecutive within a partition, so the first one gives the partition's first row).
   */
  public DataScan scanIndexedPartition(int partition, Iterator<Tuple2<Vector, Long>> rows) {
    if (!rows.hasNext()) {
      return scanPartition(partition, 0, java.util.Collections.emptyIterator());
    }
    Tuple2<Vector, Long> first = rows.next();
    Iterator<Vector> vectors =
        new Iterator<>() {
          private boolean firstPending = true;

          @Override
          public boolean hasNext() {
            return firstPending || rows.hasNext();
          }

          @Override
          public Vector next() {
            if (firstPending) {
              firstPending = false;
              return first._1();
            }
            return rows.next()._1();
          }
        };
    return scanPartition(partition, first._2(), vectors);
  }

  private void recordError(int partition, long position, String problem) {
    if (partition < errorPartition || (partition == errorPartition && position < errorPosition)) {
      errorPartition = partition;
      errorPosition = position;
      error = problem;
    }
  }

  private void offer(Vector v, long row) {
    double key = RowHash.uniform(seed, row);
    if (sample.accepts(key, row)) {
      sample.offer(key, row, v);
    }
  }

  /** Combines two scans of disjoint partitions (used as {@code treeAggregate}'s combine). */
  public DataScan merge(DataScan other) {
    other.countByPartition.forEach((p, c) -> countByPartition.merge(p, c, Long::sum));
    if (other.error != null) {
      recordError(other.errorPartition, other.errorPosition, other.error);
    }
    sample.merge(other.sample);
    storedEntries += other.storedEntries;
    maxStoredEntries = Math.max(maxStoredEntries, other.maxStoredEntries);
    return this;
  }

  /** The number of rows scanned. */
  public long count() {
    long n = 0;
    for (long c : countByPartition.values()) {
      n += c;
    }
    return n;
  }

  /**
   * A message naming the column and the 0-based row of the first invalid vector, or null if none.
   */
  public String errorMessage() {
    if (error == null) {
      return null;
    }
    long before = 0;
    for (Map.Entry<Integer, Long> e : countByPartition.headMap(errorPartition).entrySet()) {
      before += e.getValue();
    }
    return "Column '"
        + column
        + "': the vector in row "
        + (before + errorPosition)
        + " (partition "
        + errorPartition
        + ", position "
        + errorPosition
        + ") "
        + error;
  }

  /**
   * The 0-based position in the data of the first row of each of {@code partitions} partitions (the
   * number of rows in the partitions before it), from the counts of this scan.
   */
  public long[] firstRows(int partitions) {
    long[] first = new long[partitions];
    long before = 0;
    for (int p = 0; p < partitions; p++) {
      first[p] = before;
      before += countByPartition.getOrDefault(p, 0L);
    }
    return first;
  }

  /**
   * The sampled rows ordered by key, as an m×d row-major array: m = min(capacity, number of
   * distinct rows) distinct rows.
   */
  public double[] sampleRowMajor() {
    return sample.rowsByKey(dim);
  }

  /**
   * The sampled rows ordered by key, sparse rows kept as their non-zeros ({@link
   * SmallestKeys#rowSetByKey}): the same points as {@link #sampleRowMajor}.
   */
  public io.github.sparkkpca.linalg.RowSet sampleRows() {
    return sample.rowSetByKey(dim);
  }

  /** Stored entries of the rows scanned: Σ nnz for sparse vectors, d per dense vector. */
  public long storedEntries() {
    return storedEntries;
  }

  /** The most stored entries of one row. */
  public int maxStoredEntries() {
    return maxStoredEntries;
  }

  public int sampleSize() {
    return sample.size();
  }
}
