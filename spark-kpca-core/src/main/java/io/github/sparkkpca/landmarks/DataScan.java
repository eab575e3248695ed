package io.github.sparkkpca.landmarks;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;

/**
 * One validating pass over the input column that also draws a uniform landmark sample: counts the rows,
 * checks every vector (null, size, NaN/Inf) and keeps the {@code capacity} rows with the smallest
 * pseudo-random keys.
 *
 * <p><b>Sampling.</b> Each row's key is a 64-bit hash of the seed and the row's non-zero entries
 * (index, value). Keys behave as i.i.d. uniform draws, so the rows with the m smallest keys are a uniform
 * sample of exactly m rows without replacement ("bottom-m" sampling). Because the key depends on the
 * row's content only, the sample is the same for any partitioning and any row order of the same data,
 * and dense and sparse encodings of a vector get the same key. Identical rows share a key, so they are
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

  // Max-heap on key of the retained rows.
  private long[] keys;
  private double[][] rows;
  private int size;

  public DataScan(int capacity, int dim, long seed, String column) {
    this.capacity = capacity;
    this.dim = dim;
    this.seed = seed;
    this.column = column;
    this.keys = new long[0];
    this.rows = new double[0][];
  }

  /** Scans one partition's vectors. */
  public DataScan scanPartition(int partition, java.util.Iterator<Vector> vectors) {
    long position = 0;
    boolean failed = false;
    while (vectors.hasNext()) {
      Vector v = vectors.next();
      if (!failed) {
        String problem = validate(v);
        if (problem != null) {
          recordError(partition, position, problem);
          failed = true;
        } else if (capacity > 0) {
          offer(key(v), v);
        }
      }
      position++;
    }
    countByPartition.merge(partition, position, Long::sum);
    return this;
  }

  private String validate(Vector v) {
    if (v == null) {
      return "is null";
    }
    if (v.size() != dim) {
      return "has size " + v.size() + ", expected " + dim;
    }
    double[] values = v instanceof SparseVector sv ? sv.values()
        : v instanceof DenseVector dv ? dv.values() : v.toArray();
    for (double x : values) {
      if (!Double.isFinite(x)) {
        return "has a non-finite value (" + x + ")";
      }
    }
    return null;
  }

  private void recordError(int partition, long position, String problem) {
    if (partition < errorPartition || (partition == errorPartition && position < errorPosition)) {
      errorPartition = partition;
      errorPosition = position;
      error = problem;
    }
  }

  /** The 64-bit sampling key of a vector: a hash of the seed and its non-zero (index, value) pairs. */
  long key(Vector v) {
    long h = mix(seed ^ 0x9E3779B97F4A7C15L);
    if (v instanceof SparseVector sv) {
      int[] idx = sv.indices();
      double[] val = sv.values();
      for (int i = 0; i < idx.length; i++) {
        h = absorb(h, idx[i], val[i]);
      }
    } else {
      double[] val = v instanceof DenseVector dv ? dv.values() : v.toArray();
      for (int i = 0; i < val.length; i++) {
        h = absorb(h, i, val[i]);
      }
    }
    return mix(h);
  }

  private static long absorb(long h, int index, double value) {
    if (value == 0.0) {
      return h; // zeros (and -0.0) are skipped so dense and sparse encodings hash alike
    }
    return mix(h ^ (Double.doubleToLongBits(value) + 0x632BE59BD9B4E019L * (index + 1L)));
  }

  /** SplitMix64's finaliser: a bijective 64-bit mixer with full avalanche. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private void offer(long key, Vector v) {
    if (size == capacity && key >= keys[0]) {
      return;
    }
    double[] row = v.toArray().clone();
    push(key, row);
  }

  private void push(long key, double[] row) {
    if (size < capacity) {
      if (size == keys.length) {
        int grown = Math.min(capacity, Math.max(16, keys.length * 2));
        keys = Arrays.copyOf(keys, grown);
        rows = Arrays.copyOf(rows, grown);
      }
      keys[size] = key;
      rows[size] = row;
      siftUp(size++);
    } else if (key < keys[0]) {
      keys[0] = key;
      rows[0] = row;
      siftDown(0);
    }
  }

  private void siftUp(int i) {
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (keys[parent] >= keys[i]) {
        return;
      }
      swap(i, parent);
      i = parent;
    }
  }

  private void siftDown(int i) {
    while (true) {
      int l = 2 * i + 1;
      int largest = i;
      if (l < size && keys[l] > keys[largest]) {
        largest = l;
      }
      if (l + 1 < size && keys[l + 1] > keys[largest]) {
        largest = l + 1;
      }
      if (largest == i) {
        return;
      }
      swap(i, largest);
      i = largest;
    }
  }

  private void swap(int a, int b) {
    long k = keys[a];
    keys[a] = keys[b];
    keys[b] = k;
    double[] r = rows[a];
    rows[a] = rows[b];
    rows[b] = r;
  }

  /** Combines two scans of disjoint partitions (used as {@code treeAggregate}'s combine). */
  public DataScan merge(DataScan other) {
    other.countByPartition.forEach((p, c) -> countByPartition.merge(p, c, Long::sum));
    if (other.error != null) {
      recordError(other.errorPartition, other.errorPosition, other.error);
    }
    for (int i = 0; i < other.size; i++) {
      push(other.keys[i], other.rows[i]);
    }
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
    Integer[] order = new Integer[size];
    for (int i = 0; i < size; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Long.compare(keys[a], keys[b]));
    double[] out = new double[size * dim];
    for (int i = 0; i < size; i++) {
      System.arraycopy(rows[order[i]], 0, out, i * dim, dim);
    }
    return out;
  }

  public int sampleSize() {
    return size;
  }
}
