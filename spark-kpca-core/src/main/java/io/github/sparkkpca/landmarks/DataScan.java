package io.github.sparkkpca.landmarks;

import io.github.sparkkpca.data.InputVectors;
import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.ml.linalg.Vector;

/**
 * One validating pass over the input column that also draws a uniform landmark sample: counts the rows,
 * checks every vector ({@link InputVectors}) and keeps the {@code capacity} rows with the smallest
 * pseudo-random keys.
 *
 * <p><b>Sampling.</b> Each row's key is {@link RowHash#uniform}, a hash of the seed and the row's non-zero
 * entries. Keys behave as i.i.d. uniform draws, so the rows with the m smallest keys are a uniform
 * sample of exactly m rows without replacement ("bottom-m" sampling, {@link SmallestKeys}). Because the
 * key depends on the row's content only, the sample is the same for any partitioning and any row order
 * of the same data, and dense and sparse encodings of a vector get the same key. Identical rows share a key, so they are
 * taken together or not at all (the landmark kernel matrix then has a repeated row, which the rank
 * threshold handles). Landmarks are ordered by key, which fixes their order too.
 *
 * <p><b>Errors.</b> The first invalid row (lowest partition, then position) is recorded with its
 * partition and position; {@link #errorMessage()} turns it into a global 0-based row number using the
 * per-partition counts. Instances are merged with {@link #merge} in a {@code treeAggregate}.
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

  public DataScan(int capacity, int dim, long seed, String column) {
    this.capacity = capacity;
    this.dim = dim;
    this.seed = seed;
    this.column = column;
    this.sample = new SmallestKeys(capacity);
  }

  /** Scans one partition's vectors. */
  public DataScan scanPartition(int partition, java.util.Iterator<Vector> vectors) {
    long position = 0;
    boolean failed = false;
    while (vectors.hasNext()) {
      Vector v = vectors.next();
      if (!failed) {
        String problem = InputVectors.problem(v, dim);
        if (problem != null) {
          recordError(partition, position, problem);
          failed = true;
        } else if (capacity > 0) {
          offer(v);
        }
      }
      position++;
    }
    countByPartition.merge(partition, position, Long::sum);
    return this;
  }

  private void recordError(int partition, long position, String problem) {
    if (partition < errorPartition || (partition == errorPartition && position < errorPosition)) {
      errorPartition = partition;
      errorPosition = position;
      error = problem;
    }
  }

  private void offer(Vector v) {
    double key = RowHash.uniform(v, seed);
    if (sample.accepts(key)) {
      sample.offer(key, v.toArray().clone());
    }
  }

  /** Combines two scans of disjoint partitions (used as {@code treeAggregate}'s combine). */
  public DataScan merge(DataScan other) {
    other.countByPartition.forEach((p, c) -> countByPartition.merge(p, c, Long::sum));
    if (other.error != null) {
      recordError(other.errorPartition, other.errorPosition, other.error);
    }
    sample.merge(other.sample);
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

  /** A message naming the column and the 0-based row of the first invalid vector, or null if none. */
  public String errorMessage() {
    if (error == null) {
      return null;
    }
    long before = 0;
    for (Map.Entry<Integer, Long> e : countByPartition.headMap(errorPartition).entrySet()) {
      before += e.getValue();
    }
    return "Column '" + column + "': the vector in row " + (before + errorPosition) + " (partition "
        + errorPartition + ", position " + errorPosition + ") " + error;
  }

  /** The sampled rows ordered by key, as an m×d row-major array (m = min(capacity, count)). */
  public double[] sampleRowMajor() {
    return sample.rowsByKey(dim);
  }

  public int sampleSize() {
    return sample.size();
  }
}
