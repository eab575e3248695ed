package io.github.sparkkpca.ml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkkpca.persistence.Persistence;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.apache.spark.ml.attribute.Attribute;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.Option;

/**
 * The names of the features of a vector column, as a model records them at fit and checks them
 * wherever it scores.
 *
 * <p>The names come from the column's ML attribute metadata, as {@code VectorAssembler} writes it
 * (one attribute per feature, each with its name). A column whose metadata lists no attributes, or
 * an attribute without a name, has no names: its vectors are scored by position, as they always
 * were. A model fitted on named features refuses a column whose names differ from its own (other
 * names, or the same names in another order), with both lists: a vector cannot be reordered by
 * name.
 */
public final class FeatureNames {

  /** No names: the model or the column does not know them. */
  static final String[] NONE = new String[0];

  /** The key of the names in a saved model's metadata JSON. */
  static final String METADATA_KEY = "featureNames";

  /** Lists longer than this are abbreviated in messages. */
  private static final int SHOWN = 20;

  private FeatureNames() {}

  /**
   * The feature names of a vector column: the names of its ML attributes, in order; empty when the
   * column carries no attributes or one of them has no name.
   */
  public static String[] of(StructField field) {
    AttributeGroup group;
    try {
      group = AttributeGroup.fromStructField(field);
    } catch (RuntimeException e) {
      return NONE;
    }
    Option<Attribute[]> attributes = group.attributes();
    if (attributes.isEmpty() || attributes.get().length == 0) {
      return NONE;
    }
    Attribute[] attrs = attributes.get();
    String[] names = new String[attrs.length];
    for (int i = 0; i < attrs.length; i++) {
      Option<String> name = attrs[i] == null ? Option.empty() : attrs[i].name();
      if (name.isEmpty() || name.get().isEmpty()) {
        return NONE;
      }
      names[i] = name.get();
    }
    return names;
  }

  /** The feature names of column {@code column} of {@code schema} (empty when it has none). */
  public static String[] of(StructType schema, String column) {
    return Arrays.asList(schema.fieldNames()).contains(column) ? of(schema.apply(column)) : NONE;
  }

  /**
   * Checks names to be recorded in a model of d features: d distinct non-empty names, or none.
   *
   * @throws IllegalArgumentException naming {@code what} when they are not
   */
  static String[] validated(String[] names, int d, String what) {
    if (names == null || names.length == 0) {
      return NONE;
    }
    if (names.length != d) {
      throw new IllegalArgumentException(
          what + ": " + names.length + " feature names for " + d + " features");
    }
    for (int i = 0; i < names.length; i++) {
      if (names[i] == null || names[i].isEmpty()) {
        throw new IllegalArgumentException(what + ": feature name " + i + " is empty");
      }
    }
    int[] repeat = firstRepeat(names);
    if (repeat != null) {
      throw new IllegalArgumentException(
          what
              + ": features "
              + repeat[0]
              + " and "
              + repeat[1]
              + " are both named '"
              + names[repeat[1]]
              + "'; a model records distinct names (rename one, or drop the column's ML"
              + " attribute metadata to fit by position)");
    }
    return names.clone();
  }

  /** The positions {earlier, later} of the first name that repeats an earlier one, or null. */
  private static int[] firstRepeat(String[] names) {
    java.util.Map<String, Integer> seen = new java.util.HashMap<>();
    for (int i = 0; i < names.length; i++) {
      Integer earlier = seen.putIfAbsent(names[i], i);
      if (earlier != null) {
        return new int[] {earlier, i};
      }
    }
    return null;
  }

  /**
   * Checks the names of the input column {@code input} against the model's names {@code fitted}.
   * Nothing is checked when the column has no names (scored by position); {@code unnamedModel} runs
   * when the column has names but the model has none (a model saved before names were recorded),
   * which cannot be checked.
   *
   * @param param the param naming the column, for the message
   * @param model the model, for the message
   * @throws IllegalArgumentException with both lists when both have names and they differ
   */
  static void check(
      String[] fitted, StructField input, String param, String model, Runnable unnamedModel) {
    String[] given = of(input);
    if (given.length == 0) {
      return;
    }
    if (fitted.length == 0) {
      unnamedModel.run();
      return;
    }
    if (!Arrays.equals(fitted, given)) {
      throw new IllegalArgumentException(
          "Input column '"
              + input.name()
              + "' ("
              + param
              + ") holds the features "
              + describe(given)
              + " but "
              + model
              + " was fitted on "
              + describe(fitted)
              + difference(fitted, given)
              + "; a vector is scored by position, so its features must be the model's in the"
              + " model's order (assemble them in that order, or drop the column's ML attribute"
              + " metadata to score by position on purpose)");
    }
  }

  /**
   * The names one model records, and whether it has warned about scoring a named column without
   * names of its own (once per model object). Kernel PCA and regression models hold one each.
   */
  static final class Recorded {
    private final org.slf4j.Logger log;
    private String[] names = NONE;
    private volatile boolean unnamedWarned;

    /** No names yet; the warning goes to the model class's own logger. */
    Recorded(org.slf4j.Logger log) {
      this.log = log;
    }

    /** The names, a copy. */
    String[] get() {
      return names.clone();
    }

    boolean isEmpty() {
      return names.length == 0;
    }

    /** Sets the names ({@link #validated}: d non-empty distinct names, or none). */
    void set(String[] given, int d, String owner) {
      names = validated(given, d, owner);
    }

    /** Sets the names a saved model's metadata records (none for older models). */
    void read(JsonNode metadata, int d, String what) {
      names = FeatureNames.read(metadata, d, what);
    }

    /** Gives another model these names (copies, updates and grown models keep their names). */
    void copyTo(Recorded other) {
      other.names = names;
    }

    /**
     * Refuses an input column whose names differ from these ({@link FeatureNames#check}); warns
     * once when the column has names and the model has none.
     */
    void check(StructField input, String param, String owner) {
      FeatureNames.check(
          names,
          input,
          param,
          owner,
          () -> {
            if (!unnamedWarned) {
              unnamedWarned = true;
              log.warn(unnamedWarning(owner, input.name()));
            }
          });
    }
  }

  /** The warning for a model without names scoring a column with names. */
  static String unnamedWarning(String model, String column) {
    return model
        + " records no feature names (it was saved before models recorded them); the names of"
        + " input column '"
        + column
        + "' cannot be checked and its vectors are scored by position";
  }

  /** The names as a message shows them: all of them, or the first and last of a long list. */
  public static String describe(String[] names) {
    if (names.length <= SHOWN) {
      return "[" + String.join(", ", names) + "]";
    }
    return "["
        + String.join(", ", Arrays.copyOf(names, SHOWN - 2))
        + ", ..., "
        + names[names.length - 2]
        + ", "
        + names[names.length - 1]
        + "] ("
        + names.length
        + " names)";
  }

  /** Where two lists first differ (for long lists, which a message abbreviates). */
  private static String difference(String[] fitted, String[] given) {
    Set<String> model = new HashSet<>(Arrays.asList(fitted));
    Set<String> input = new HashSet<>(Arrays.asList(given));
    if (model.equals(input) && fitted.length == given.length) {
      for (int i = 0; i < fitted.length; i++) {
        if (!fitted[i].equals(given[i])) {
          return " (the same names in another order: position "
              + i
              + " holds '"
              + given[i]
              + "', the model's is '"
              + fitted[i]
              + "')";
        }
      }
    }
    for (String name : given) {
      if (!model.contains(name)) {
        return " ('" + name + "' is not one of the model's)";
      }
    }
    for (String name : fitted) {
      if (!input.contains(name)) {
        return " ('" + name + "' is missing)";
      }
    }
    return "";
  }

  /** Adds the names to a model's metadata JSON (nothing when there are none). */
  static ObjectNode addTo(ObjectNode metadata, String[] names) {
    if (names.length > 0) {
      ArrayNode array = metadata.putArray(METADATA_KEY);
      for (String name : names) {
        array.add(name);
      }
    }
    return metadata;
  }

  /** A metadata JSON object holding the names only (or nothing). */
  static ObjectNode metadata(String[] names) {
    return addTo(Persistence.JSON.createObjectNode(), names);
  }

  /**
   * The names a saved model's metadata records: none for a model saved before models recorded them.
   *
   * @param what the start of a load error (the class and path)
   * @throws IllegalArgumentException when the entry is not a list of d distinct non-empty names
   */
  static String[] read(JsonNode metadata, int d, String what) {
    JsonNode node = metadata.get(METADATA_KEY);
    if (node == null || node.isNull()) {
      return NONE;
    }
    if (!node.isArray() || node.size() != d) {
      throw new IllegalArgumentException(
          what
              + "its metadata's "
              + METADATA_KEY
              + " is "
              + (node.isArray() ? "a list of " + node.size() + " names" : "not a list")
              + ", expected "
              + d
              + " names (one per feature)");
    }
    String[] names = new String[d];
    for (int i = 0; i < d; i++) {
      JsonNode name = node.get(i);
      if (!name.isTextual() || name.asText().isEmpty()) {
        throw new IllegalArgumentException(
            what + "its metadata's " + METADATA_KEY + "[" + i + "] is not a non-empty name");
      }
      names[i] = name.asText();
    }
    int[] repeat = firstRepeat(names);
    if (repeat != null) {
      throw new IllegalArgumentException(
          what
              + "its metadata's "
              + METADATA_KEY
              + "["
              + repeat[1]
              + "] = '"
              + names[repeat[1]]
              + "' repeats "
              + METADATA_KEY
              + "["
              + repeat[0]
              + "]: a model records distinct names, one per feature");
    }
    return names;
  }
}
