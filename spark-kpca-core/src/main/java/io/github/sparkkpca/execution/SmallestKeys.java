package io.github.sparkkpca.execution;

import io.github.sparkkpca.linalg.RowSet;
import java.io.Serializable;
import java.util.Arrays;
import java.util.HashMap;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;

/**
 * The {@code capacity} distinct rows with the smallest keys seen so far (a bounded max-heap),
 * mergeable across partitions. Each offered row has a key and its 0-based position in the data;
 * keys are ordered with ties broken by position, so the result does not depend on the order rows
 * are offered in.
 *
 * <p><b>Distinct rows.</b> Rows with equal values (as points: 0.0 = −0.0) are held once, with the
 * smallest (key, position) among their copies: a row's value is kept iff it is among the {@code
 * capacity} distinct values whose smallest key is smallest. With per-row keys that are i.i.d.
 * uniform, this is uniform sampling of rows without replacement, continued in key order until
 * {@code capacity} distinct values are found: a value repeated in c rows is c times as likely to
 * come first as a value seen once (Efraimidis and Spirakis 2006 with weight c). With keys −ln(u)/w
 * it is weighted sampling of rows in the same sense. Fewer than {@code capacity} rows are kept only
 * when the data have fewer distinct rows.
 *
 * <p><b>Exactness of the merge.</b> A value is dropped from a heap only when {@code capacity} other
 * values have smaller keys, and the heap's largest key only decreases, so every later copy that
 * could still make it a winner is kept: the kept set is exactly the {@code capacity} distinct
 * values with the smallest keys over all rows offered, whatever the partitioning and order. Rows
 * are copied only when they enter the heap.
 */
public final class SmallestKeys implements Serializable {

  private final int capacity;
  private double[] keys = new double[0];
  private long[] positions = new long[0];
  private Point[] points = new Point[0];
  private int size;

  /** Heap slot of each held value; rebuilt after deserialisation. */
  private transient HashMap<Point, Integer> slots;

  public SmallestKeys(int capacity) {
    this.capacity = capacity;
  }

  /**
   * A row's values, equal to another's when they are the same point (0.0 and −0.0 alike): dense
   * (indices null, all d values) or sparse (its non-zero values at increasing indices), whichever
   * form the row came in, so a sparse row is held by its non-zeros and a dense one as today. The
   * hash is over the non-zero values and their indices, the same in both forms.
   */
  private record Point(int[] indices, double[] values) implements Serializable {

    Point(double[] values) {
      this(null, values);
    }

    static Point of(Vector v) {
      if (v instanceof SparseVector sv) {
        int[] idx = sv.indices();
        double[] val = sv.values();
        int nnz = 0;
        for (double x : val) {
          if (x != 0) {
            nnz++;
          }
        }
        int[] keptIdx = new int[nnz];
        double[] keptVal = new double[nnz];
        for (int i = 0, p = 0; i < idx.length; i++) {
          if (val[i] != 0) {
            keptIdx[p] = idx[i];
            keptVal[p++] = val[i];
          }
        }
        return new Point(keptIdx, keptVal);
      }
      return new Point(null, v instanceof DenseVector dv ? dv.values().clone() : v.toArray());
    }

    Vector vector(int d) {
      return indices == null ? new DenseVector(values) : Vectors.sparse(d, indices, values);
    }

    /** The value at index t (0 where a sparse point has none). */
    private double at(int t) {
      if (indices == null) {
        return values[t];
      }
      int p = Arrays.binarySearch(indices, t);
      return p < 0 ? 0.0 : values[p];
    }

    @Override
    public boolean equals(Object other) {
      if (!(other instanceof Point p)) {
        return false;
      }
      if (indices == null && p.indices == null) {
        if (p.values.length != values.length) {
          return false;
        }
        for (int i = 0; i < values.length; i++) {
          if (values[i] != p.values[i]) {
            return false;
          }
        }
        return true;
      }
      if (indices != null && p.indices != null) {
        return Arrays.equals(indices, p.indices) && sameValues(values, p.values);
      }
      Point sparse = indices != null ? this : p;
      Point dense = indices != null ? p : this;
      int nonZeros = 0;
      for (double v : dense.values) {
        if (v != 0) {
          nonZeros++;
        }
      }
      if (nonZeros != sparse.values.length) {
        return false;
      }
      for (int i = 0; i < sparse.indices.length; i++) {
        if (sparse.indices[i] >= dense.values.length
            || dense.at(sparse.indices[i]) != sparse.values[i]) {
          return false;
        }
      }
      return true;
    }

    private static boolean sameValues(double[] a, double[] b) {
      for (int i = 0; i < a.length; i++) {
        if (a[i] != b[i]) {
          return false;
        }
      }
      return true;
    }

    @Override
    public int hashCode() {
      int h = 1;
      int n = values.length;
      for (int i = 0; i < n; i++) {
        double v = values[i];
        if (v != 0) {
          int t = indices == null ? i : indices[i];
          h = 31 * (31 * h + t) + Long.hashCode(Double.doubleToLongBits(v));
        }
      }
      return h;
    }
  }

  /** Whether (a, ra) comes before (b, rb): smaller key, or equal key and smaller position. */
  private static boolean before(double a, long ra, double b, long rb) {
    return a < b || (a == b && ra < rb);
  }

  /**
   * Whether a row with this key and position could be kept (so the caller can skip copying it
   * otherwise).
   */
  public boolean accepts(double key, long position) {
    return capacity > 0 && (size < capacity || before(key, position, keys[0], positions[0]));
  }

  /**
   * Offers the row at {@code position} with its values (kept, not copied, when it enters the heap).
   */
  public void offer(double key, long position, double[] row) {
    if (accepts(key, position)) {
      offer(key, position, new Point(row));
    }
  }

  /**
   * Offers a vector: a sparse one is held by its non-zeros (never as d values), a dense one as a
   * copy of its values.
   */
  public void offer(double key, long position, Vector row) {
    if (accepts(key, position)) {
      offer(key, position, Point.of(row));
    }
  }

  private void offer(double key, long position, Point point) {
    Integer held = slots().get(point);
    if (held != null) {
      int slot = held;
      if (before(key, position, keys[slot], positions[slot])) {
        // The same value with a smaller key: it moves down the max-heap, and its stored copy is the
        // one
        // with the smallest (key, position), so the result does not depend on which copy came
        // first.
        keys[slot] = key;
        positions[slot] = position;
        points[slot] = point;
        slots.put(point, slot);
        siftDown(slot);
      }
      return;
    }
    if (size < capacity) {
      if (size == keys.length) {
        int grown = Math.min(capacity, Math.max(16, keys.length * 2));
        keys = Arrays.copyOf(keys, grown);
        positions = Arrays.copyOf(positions, grown);
        points = Arrays.copyOf(points, grown);
      }
      keys[size] = key;
      positions[size] = position;
      points[size] = point;
      slots.put(point, size);
      siftUp(size++);
    } else {
      slots.remove(points[0]);
      keys[0] = key;
      positions[0] = position;
      points[0] = point;
      slots.put(point, 0);
      siftDown(0);
    }
  }

  private HashMap<Point, Integer> slots() {
    if (slots == null) {
      slots = new HashMap<>();
      for (int i = 0; i < size; i++) {
        slots.put(points[i], i);
      }
    }
    return slots;
  }

  /** Adds another partition's rows (returns this). */
  public SmallestKeys merge(SmallestKeys other) {
    for (int i = 0; i < other.size; i++) {
      if (accepts(other.keys[i], other.positions[i])) {
        offer(other.keys[i], other.positions[i], other.points[i]);
      }
    }
    return this;
  }

  /** The number of distinct rows kept. */
  public int size() {
    return size;
  }

  /** The kept rows ordered by (key, position), as a size×d row-major array. */
  public double[] rowsByKey(int d) {
    Integer[] order = order();
    double[] out = new double[size * d];
    for (int i = 0; i < size; i++) {
      Point p = points[order[i]];
      if (p.indices() == null) {
        System.arraycopy(p.values(), 0, out, i * d, d);
      } else {
        RowSet.scatter(p.vector(d), out, i * d);
      }
    }
    return out;
  }

  /**
   * The kept rows ordered by (key, position): dense as {@link #rowsByKey} gives them when every row
   * came dense, else as compressed rows (a sparse row is never widened to d values unless most
   * values are non-zero, see {@link RowSet#of}).
   */
  public RowSet rowSetByKey(int d) {
    boolean anySparse = false;
    for (int i = 0; i < size; i++) {
      anySparse |= points[i].indices() != null;
    }
    if (!anySparse) {
      return RowSet.dense(rowsByKey(d), size, d);
    }
    Integer[] order = order();
    Vector[] rows = new Vector[size];
    for (int i = 0; i < size; i++) {
      rows[i] = points[order[i]].vector(d);
    }
    return RowSet.of(rows, d);
  }

  private Integer[] order() {
    Integer[] order = new Integer[size];
    for (int i = 0; i < size; i++) {
      order[i] = i;
    }
    Arrays.sort(
        order,
        (a, b) ->
            before(keys[a], positions[a], keys[b], positions[b])
                ? -1
                : before(keys[b], positions[b], keys[a], positions[a]) ? 1 : 0);
    return order;
  }

  private boolean larger(int a, int b) {
    return before(keys[b], positions[b], keys[a], positions[a]);
  }

  private void siftUp(int i) {
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!larger(i, parent)) {
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
      if (l < size && larger(l, largest)) {
        largest = l;
      }
      if (l + 1 < size && larger(l + 1, largest)) {
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
    long r = positions[a];
    positions[a] = positions[b];
    positions[b] = r;
    Point p = points[a];
    points[a] = points[b];
    points[b] = p;
    slots.put(points[a], a);
    slots.put(points[b], b);
  }
}
