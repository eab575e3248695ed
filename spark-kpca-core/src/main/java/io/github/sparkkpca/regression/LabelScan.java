package io.github.sparkkpca.regression;

import java.io.Serializable;
import java.util.Iterator;
import java.util.TreeSet;

/**
 * One partition's (then the whole column's) labels: the first non-finite label, whether all labels
 * are −1 or +1, and the distinct values (up to {@value #MAX_CLASSES} + 1, enough to refuse too many
 * classes).
 */
public final class LabelScan implements Serializable {

  /** The largest number of classes a one-vs-rest fit accepts. */
  public static final int MAX_CLASSES = 1000;

  private final String column;
  private String error;
  private int errorPartition = Integer.MAX_VALUE;
  private boolean plusMinusOne = true;
  private long count;
  private final TreeSet<Double> distinct = new TreeSet<>();

  public LabelScan(String column) {
    this.column = column;
  }

  /** Scans the labels of partition {@code partition} (null stands for a missing label). */
  public LabelScan scan(int partition, Iterator<Double> labels) {
    long position = 0;
    while (labels.hasNext()) {
      Double label = labels.next();
      if (error == null && (label == null || !Double.isFinite(label))) {
        error =
            "Column '"
                + column
                + "': the label at position "
                + position
                + " of partition "
                + partition
                + " is "
                + (label == null ? "null (missing, or not a number)" : label)
                + "; labels must be finite numbers";
        errorPartition = partition;
      }
      if (label != null) {
        plusMinusOne &= label == 1.0 || label == -1.0;
        if (distinct.size() <= MAX_CLASSES && Double.isFinite(label)) {
          distinct.add(label);
        }
      }
      position++;
      count++;
    }
    return this;
  }

  /** Merges another partition's scan into this one (the first error in partition order is kept). */
  public LabelScan merge(LabelScan other) {
    if (other.error != null && other.errorPartition < errorPartition) {
      error = other.error;
      errorPartition = other.errorPartition;
    }
    plusMinusOne &= other.plusMinusOne;
    count += other.count;
    for (Double v : other.distinct) {
      if (distinct.size() > MAX_CLASSES) {
        break;
      }
      distinct.add(v);
    }
    return this;
  }

  /** The first bad label, in words, or null. */
  public String errorMessage() {
    return error;
  }

  public long count() {
    return count;
  }

  /**
   * The coding of these labels: {@code auto} is binary when every label is −1 or +1, else real;
   * {@code multiclass} one-vs-rest over the distinct values; {@code real} and {@code binary} as
   * named.
   *
   * @throws IllegalArgumentException when the labels do not fit the mode asked for, or (but for
   *     {@code real}) when every row has the same label
   */
  public LabelCoding coding(String mode) {
    if (!mode.equals(LabelCoding.REAL) && count > 0 && distinct.size() == 1) {
      double only = distinct.first();
      throw new IllegalArgumentException(
          "column '"
              + column
              + "' has a single label value, "
              + (only == Math.rint(only) && Math.abs(only) < 1e15
                  ? Long.toString((long) only)
                  : Double.toString(only))
              + ", in all "
              + count
              + " rows: classes and the relevant dimension need at least two label values"
              + " (labelMode real fits a constant label)");
    }
    switch (mode) {
      case "auto":
        return plusMinusOne && count > 0 ? LabelCoding.binary() : LabelCoding.real();
      case LabelCoding.REAL:
        return LabelCoding.real();
      case LabelCoding.BINARY:
        if (!plusMinusOne) {
          throw new IllegalArgumentException(
              "labelMode binary needs labels -1 and +1 in column '"
                  + column
                  + "', found "
                  + describe());
        }
        return LabelCoding.binary();
      case LabelCoding.MULTICLASS:
        if (distinct.size() > MAX_CLASSES || distinct.size() < 2) {
          throw new IllegalArgumentException(
              "labelMode multiclass needs 2 to "
                  + MAX_CLASSES
                  + " distinct labels in column '"
                  + column
                  + "', found "
                  + describe());
        }
        double[] classes = new double[distinct.size()];
        int i = 0;
        for (Double v : distinct) {
          classes[i++] = v;
        }
        return LabelCoding.multiclass(classes);
      default:
        throw new IllegalArgumentException(
            "unknown labelMode '" + mode + "' (auto, real, binary, multiclass)");
    }
  }

  private String describe() {
    return distinct.size() > MAX_CLASSES
        ? "more than " + MAX_CLASSES + " distinct values"
        : distinct.size() + " distinct values " + (distinct.size() > 10 ? "" : distinct.toString());
  }
}
