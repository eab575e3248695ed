package io.github.sparkkpca.landmarks;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The {@code capacity} rows with the smallest keys seen so far (a bounded max-heap), mergeable across
 * partitions. With keys that are i.i.d. uniform per row this is uniform sampling without replacement;
 * with keys −ln(u)/w it is weighted sampling without replacement (Efraimidis and Spirakis 2006).
 * Rows are copied only when they enter the heap.
 *
 * <p>Keys are functions of a row's content, so equal keys mean identical rows: a key already held is
 * ignored, which makes the kept rows distinct (fewer than {@code capacity} only when the data have fewer
 * distinct rows).
 */
public final class SmallestKeys implements Serializable {

  private final int capacity;
  private double[] keys = new double[0];
  private double[][] rows = new double[0][];
  private int size;
  private final java.util.HashSet<Long> held = new java.util.HashSet<>();

  public SmallestKeys(int capacity) {
    this.capacity = capacity;
  }

  /** Whether a row with this key would be kept (so the caller can skip copying it otherwise). */
  public boolean accepts(double key) {
    return (size < capacity || key < keys[0]) && !held.contains(Double.doubleToLongBits(key));
  }

  /** Offers a row; it is kept (not copied) when its key is among the smallest. */
  public void offer(double key, double[] row) {
    if (!accepts(key)) {
      return;
    }
    held.add(Double.doubleToLongBits(key));
    if (size < capacity) {
      if (size == keys.length) {
        int grown = Math.min(capacity, Math.max(16, keys.length * 2));
        keys = Arrays.copyOf(keys, grown);
        rows = Arrays.copyOf(rows, grown);
      }
      keys[size] = key;
      rows[size] = row;
      siftUp(size++);
    } else {
      held.remove(Double.doubleToLongBits(keys[0]));
      keys[0] = key;
      rows[0] = row;
      siftDown(0);
    }
  }

  /** Adds another partition's rows (returns this). */
  public SmallestKeys merge(SmallestKeys other) {
    for (int i = 0; i < other.size; i++) {
      offer(other.keys[i], other.rows[i]);
    }
    return this;
  }

  public int size() {
    return size;
  }

  /** The kept rows ordered by key, as a size×d row-major array. */
  public double[] rowsByKey(int d) {
    Integer[] order = new Integer[size];
    for (int i = 0; i < size; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Double.compare(keys[a], keys[b]));
    double[] out = new double[size * d];
    for (int i = 0; i < size; i++) {
      System.arraycopy(rows[order[i]], 0, out, i * d, d);
    }
    return out;
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
    double k = keys[a];
    keys[a] = keys[b];
    keys[b] = k;
    double[] r = rows[a];
    rows[a] = rows[b];
    rows[b] = r;
  }
}
