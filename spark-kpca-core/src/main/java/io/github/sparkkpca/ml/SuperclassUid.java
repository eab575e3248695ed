package io.github.sparkkpca.ml;

/**
 * The uid parked for the superclass constructor. Hands a uid to a stage that extends Spark's {@code
 * Predictor} or {@code PredictionModel}: their Scala params ({@code featuresCol}, ...) are created
 * in the superclass constructor and take {@code uid()} as their parent, before a Java subclass has
 * set its fields. The constructor parks the uid here ({@link #hold}) for the superclass to read
 * ({@link #peek}) and takes it back afterwards ({@link #take}).
 */
final class SuperclassUid {

  private static final ThreadLocal<String> PENDING = new ThreadLocal<>();

  private SuperclassUid() {}

  /**
   * Parks {@code uid} for the constructor chain that follows; the return value only selects that
   * chain.
   */
  static SuperclassUid hold(String uid) {
    PENDING.set(uid);
    return null;
  }

  static String peek() {
    return PENDING.get();
  }

  static String take() {
    String uid = PENDING.get();
    PENDING.remove();
    return uid;
  }
}
