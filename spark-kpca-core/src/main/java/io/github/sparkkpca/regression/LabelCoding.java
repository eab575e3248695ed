package io.github.sparkkpca.regression;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Locale;

/**
 * How labels become the regression's target columns and how its outputs become predictions.
 *
 * <ul>
 *   <li>{@code real}: one column, the label itself; the prediction is ŷ(x).
 *   <li>{@code binary}: labels in {−1, +1} (Braun, Buhmann and Müller's setting), one column; the
 *       prediction is the real ŷ(x), whose sign is the class (sign(0) = +1).
 *   <li>{@code multiclass}: K classes (the distinct label values), one-vs-rest ±1 columns; the
 *       prediction is the class whose column has the largest ŷ_c(x).
 * </ul>
 *
 * The training error of a fit is the misclassification rate (binary, multiclass) or the mean
 * squared residual (real).
 *
 * @param mode real, binary or multiclass
 * @param classes the class values in ascending order (multiclass), else empty
 */
public record LabelCoding(String mode, double[] classes) implements Serializable {

  public static final String REAL = "real";
  public static final String BINARY = "binary";
  public static final String MULTICLASS = "multiclass";

  public LabelCoding {
    if (!mode.equals(REAL) && !mode.equals(BINARY) && !mode.equals(MULTICLASS)) {
      throw new IllegalArgumentException(
          "label coding must be real, binary or multiclass, got " + mode);
    }
    if (mode.equals(MULTICLASS) && classes.length < 2) {
      throw new IllegalArgumentException(
          "multiclass labels need at least 2 classes, got " + classes.length);
    }
  }

  public static LabelCoding real() {
    return new LabelCoding(REAL, new double[0]);
  }

  public static LabelCoding binary() {
    return new LabelCoding(BINARY, new double[0]);
  }

  public static LabelCoding multiclass(double[] classes) {
    double[] sorted = classes.clone();
    Arrays.sort(sorted);
    return new LabelCoding(MULTICLASS, sorted);
  }

  /** c, the number of target columns. */
  public int columns() {
    return mode.equals(MULTICLASS) ? classes.length : 1;
  }

  public boolean isClassification() {
    return !mode.equals(REAL);
  }

  /**
   * Writes the target columns of a label into {@code out[offset..offset + c)}.
   *
   * @throws IllegalArgumentException when the label does not fit the coding (the caller names the
   *     row)
   */
  public void encode(double label, double[] out, int offset) {
    switch (mode) {
      case REAL -> out[offset] = label;
      case BINARY -> {
        if (label != 1.0 && label != -1.0) {
          throw new IllegalArgumentException("the label " + label + " is not -1 or +1");
        }
        out[offset] = label;
      }
      default -> {
        int k = Arrays.binarySearch(classes, label);
        if (k < 0) {
          throw new IllegalArgumentException(
              "the label " + label + " is not one of the classes " + Arrays.toString(classes));
        }
        for (int j = 0; j < classes.length; j++) {
          out[offset + j] = j == k ? 1.0 : -1.0;
        }
      }
    }
  }

  /** The prediction from the c outputs ŷ_c at {@code values[offset..]}. */
  public double predict(double[] values, int offset) {
    if (!mode.equals(MULTICLASS)) {
      return values[offset];
    }
    int best = 0;
    for (int j = 1; j < classes.length; j++) {
      if (values[offset + j] > values[offset + best]) {
        best = j;
      }
    }
    return classes[best];
  }

  /**
   * The loss of one training row: 0/1 misclassification, or the squared residual for real labels.
   */
  public double loss(double label, double[] values, int offset) {
    double p = predict(values, offset);
    return switch (mode) {
      case REAL -> (label - p) * (label - p);
      case BINARY -> (p >= 0 ? 1.0 : -1.0) == label ? 0.0 : 1.0;
      default -> p == label ? 0.0 : 1.0;
    };
  }

  @Override
  public String toString() {
    return mode.equals(MULTICLASS)
        ? String.format(Locale.ROOT, "multiclass %s", Arrays.toString(classes))
        : mode;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof LabelCoding o
        && o.mode.equals(mode)
        && Arrays.equals(o.classes, classes);
  }

  @Override
  public int hashCode() {
    return 31 * mode.hashCode() + Arrays.hashCode(classes);
  }
}
