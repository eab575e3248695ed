package io.github.sparkkpca.execution;

import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StringType;

/**
 * The one check of input vectors, shared by the fit's validating scan, model updates, transform and
 * supplied landmarks, so every path accepts and refuses the same rows with the same words.
 *
 * <p>A row is usable when it is a vector of the expected size whose values are finite and whose
 * squared norm is finite too: kernels are evaluated from ‖x‖², ‖z‖² and xᵀz, so values beyond about
 * 1e154 overflow even though each is finite.
 */
public final class InputVectors {

  private InputVectors() {}

  /**
   * Why {@code value} cannot be a row of dimension {@code dim}, as the end of a sentence ("is
   * null", "has size 3, expected 5", …), or null when it can.
   */
  public static String problem(Object value, int dim) {
    return problem(value, dim, "expected");
  }

  /**
   * As {@link #problem(Object, int)}, saying whose size a wrongly sized vector misses ("the model
   * expects").
   */
  public static String problem(Object value, int dim, String expectation) {
    if (value == null) {
      return "is null";
    }
    if (!(value instanceof Vector v)) {
      return "is not a vector but a " + value.getClass().getSimpleName();
    }
    if (v.size() != dim) {
      return "has size " + v.size() + ", " + expectation + " " + dim;
    }
    double[] values;
    int[] indices = null;
    if (v instanceof SparseVector sv) {
      values = sv.values();
      indices = sv.indices();
    } else {
      values = v instanceof DenseVector dv ? dv.values() : v.toArray();
    }
    // The hot path of every pass and every scored row: one sum of squares, finite exactly when
    // every value
    // is finite and the squared norm does not overflow; only a refused row walks its values again
    // for the
    // message.
    double sq = 0;
    for (double x : values) {
      sq += x * x;
    }
    if (Double.isFinite(sq)) {
      return null;
    }
    int largest = -1;
    for (int i = 0; i < values.length; i++) {
      double x = values[i];
      if (!Double.isFinite(x)) {
        return "has a non-finite value (" + x + ")";
      }
      if (largest < 0 || Math.abs(x) > Math.abs(values[largest])) {
        largest = i;
      }
    }
    return "has values too large for kernel arithmetic: its squared norm overflows a double (the norm must "
        + "stay below 1.3e154; largest |value| "
        + Math.abs(values[largest])
        + " at index "
        + (indices == null ? largest : indices[largest])
        + "); rescale the data";
  }

  /** Throws, naming {@code what}, when {@link #problem} finds one. */
  public static void require(Object value, int dim, String what) {
    String problem = problem(value, dim);
    if (problem != null) {
      throw new IllegalArgumentException(what + " " + problem);
    }
  }

  /**
   * How to turn a column of {@code type} into the vector column the stages read, as the end of a
   * message: an array of numbers names {@code array_to_vector} (VectorAssembler refuses arrays), a
   * string or an array of strings names a tokenizer and HashingTF/CountVectorizer, anything else
   * VectorAssembler.
   */
  public static String conversionHint(DataType type) {
    if (type instanceof ArrayType array && array.elementType() instanceof NumericType) {
      return "convert the array column with org.apache.spark.ml.functions.array_to_vector"
          + " (pyspark.ml.functions.array_to_vector) first";
    }
    if (type instanceof StringType) {
      return "for text, split it into words (RegexTokenizer or Tokenizer) and turn the words into"
          + " a vector (HashingTF or CountVectorizer, then IDF) first";
    }
    if (type instanceof ArrayType array && array.elementType() instanceof StringType) {
      return "for words, turn them into a vector (HashingTF or CountVectorizer, then IDF) first";
    }
    return "assemble numeric columns with VectorAssembler first";
  }
}
