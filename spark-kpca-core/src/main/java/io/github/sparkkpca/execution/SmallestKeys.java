package io.github.sparkkpca.execution;

import java.io.Serializable;
import java.util.Arrays;
import java.util.HashMap;

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

  /** A row's values, equal to another's when they are the same point (0.0 and −0.0 alike). */
  private record Point(double[] values) implements Serializable {
    @Override
    public boolean equals(Object other) {
      if (!(other instanceof Point p) || p.values.length != values.length) {
        return false;
      }
      for (int i = 0; i < values.length; i++) {
        if (values[i] != p.values[i]) {
          return false;
        }
      }
      return true;
    }

    @Override
    public int hashCode() {
      int h = 1;
      for (double v : values) {
        long bits = v == 0.0 ? 0L : Double.doubleToLongBits(v);
        h = 31 * h + Long.hashCode(bits);
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
    if (!accepts(key, position)) {
      return;
    }
    Point point = new Point(row);
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
      offer(other.keys[i], other.positions[i], other.points[i].values());
    }
    return this;
  }

  /** The number of distinct rows kept. */
  public int size() {
    return size;
  }

  /** The kept rows ordered by (key, position), as a size×d row-major array. */
  public double[] rowsByKey(int d) {
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
    double[] out = new double[size * d];
    for (int i = 0; i < size; i++) {
      System.arraycopy(points[order[i]].values(), 0, out, i * d, d);
    }
    return out;
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
