package io.github.sparkkpca.streaming;

import io.github.sparkkpca.ml.RandomFeatureKernelPCA;
import io.github.sparkkpca.persistence.ModelKind;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.ml.param.Param;

/**
 * The checks of a {@link StreamingKernelPCA}'s configuration before its query starts, and the
 * options that define its model, recorded in the directory's marker and compared on a restart.
 */
final class StreamSettings {

  /** The estimator parameters that change the model (compared on a restart). */
  private static final List<String> MODEL_PARAMS =
      List.of(
          "k",
          "kernel",
          "gamma",
          "degree",
          "coef0",
          "centered",
          "seed",
          "numLandmarks",
          "landmarkSampling",
          "leverageRegularization",
          "kmeansMaxIter",
          "rcond",
          "numRandomFeatures");

  private StreamSettings() {}

  /**
   * Refuses an incomplete or inconsistent configuration: no estimator or directory, a feature scale
   * (D from n), RF-Oja without random features, a warm start without RF-Oja, or an estimator that
   * is not a streamable kind.
   */
  static void validate(StreamingKernelPCA config) {
    if (config.estimator == null || config.modelDir == null) {
      throw new IllegalArgumentException(
          "StreamingKernelPCA needs an estimator and a model directory");
    }
    if (config.estimator instanceof RandomFeatureKernelPCA rf && rf.isSet(rf.featureScale())) {
      throw new IllegalArgumentException(
          "StreamingKernelPCA: featureScale sets D from n, which a stream does not "
              + "know in advance; set numRandomFeatures");
    }
    if (config.algorithm.equals("oja") && !(config.estimator instanceof RandomFeatureKernelPCA)) {
      throw new IllegalArgumentException(
          "StreamingKernelPCA: algorithm oja runs on random Fourier features; give a "
              + "RandomFeatureKernelPCA estimator");
    }
    if (!config.algorithm.equals("oja") && config.warmStart != null) {
      throw new IllegalArgumentException(
          "StreamingKernelPCA: a warm start applies to algorithm oja");
    }
    // The estimators a stream can refit batch by batch are the table's streamable kinds.
    if (ModelKind.ofEstimatorClass(config.estimator.getClass().getName())
        .filter(ModelKind::isStreamable)
        .isEmpty()) {
      throw new IllegalArgumentException(
          "StreamingKernelPCA: the estimator must be one of "
              + Arrays.stream(ModelKind.values())
                  .filter(ModelKind::isStreamable)
                  .map(
                      k ->
                          k.estimatorClassName()
                              .substring(k.estimatorClassName().lastIndexOf('.') + 1))
                  .collect(Collectors.joining(", "))
              + ", got "
              + config.estimator.getClass().getSimpleName());
    }
  }

  /**
   * The options that define the model: the estimator class, its model parameters, and RF-Oja's
   * schedule.
   */
  static Map<String, String> options(StreamingKernelPCA config) {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("estimator", config.estimator.getClass().getSimpleName());
    for (String name : MODEL_PARAMS) {
      if (config.estimator.hasParam(name)) {
        Param<Object> param = config.estimator.getParam(name);
        options.put(
            name,
            config.estimator.isDefined(param)
                ? String.valueOf(config.estimator.getOrDefault(param))
                : "unset");
      }
    }
    if (config.algorithm.equals("oja")) {
      options.put("stepSchedule", config.schedule.toString());
      options.put("miniBatchSize", Integer.toString(config.miniBatchSize));
      options.put("qrEvery", Integer.toString(config.qrEvery));
    }
    return options;
  }
}
