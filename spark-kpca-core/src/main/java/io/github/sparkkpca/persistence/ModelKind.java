package io.github.sparkkpca.persistence;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.ml.util.MLReader;

/**
 * The kinds of fitted model this library saves, one row each: the feature map's name (as {@link
 * io.github.sparkkpca.feature.FeatureMap#kind()} gives it and the metadata's {@code featureMap}
 * records it), the codec of its map, the model and estimator classes (as saved metadata and
 * Pipelines record them) and the layout of its export bundle. Loading ({@link #load}), saving
 * ({@link ModelData}), export ({@link ModelExport}), the estimators the streaming sink accepts and
 * the CLI's feature map names all read this table.
 *
 * <p>The classes are named, not referenced: they live in {@code io.github.sparkkpca.ml}, above this
 * package, and are loaded the way Spark's own {@code DefaultParamsReader} loads a Pipeline stage
 * (the class's static {@code read()}). A test in {@code ml} checks every row against the real
 * classes.
 */
public enum ModelKind {
  /** Exact kernel PCA ({@code KernelPCA}): the projector over every training row, no map. */
  EXACT(
      "exact",
      null,
      "io.github.sparkkpca.ml.KernelPCAModel",
      "io.github.sparkkpca.ml.KernelPCA",
      ExportLayout.LANDMARKS),
  /** Nyström kernel PCA: the landmark map φ(x) = Wᵀk_x, its statistics and linear PCA. */
  NYSTROM(
      "nystrom",
      new NystromMapCodec(),
      "io.github.sparkkpca.ml.NystromKernelPCAModel",
      "io.github.sparkkpca.ml.NystromKernelPCA",
      ExportLayout.LANDMARKS),
  /** Random Fourier features: the map z(x) = √(2/D)·cos(Ωx + b), its statistics and linear PCA. */
  RANDOM_FEATURES(
      "rff",
      new RandomFourierMapCodec(),
      "io.github.sparkkpca.ml.RandomFeatureKernelPCAModel",
      "io.github.sparkkpca.ml.RandomFeatureKernelPCA",
      ExportLayout.RANDOM_FEATURES);

  /** How a model of a kind is written as a plain bundle ({@link ModelExport}). */
  public enum ExportLayout {
    /** {@code landmarks.csv} and {@code projector.csv}: y(x) = Pᵀk_x − o. */
    LANDMARKS("landmarks"),
    /** {@code omega.csv}, {@code phase.csv} and {@code projector.csv}: y(x) = Pᵀz(x) − o. */
    RANDOM_FEATURES("rff");

    private final String bundleName;

    ExportLayout(String bundleName) {
      this.bundleName = bundleName;
    }

    /** The {@code featureMap} value of the bundle's {@code model.json}. */
    public String bundleName() {
      return bundleName;
    }
  }

  /**
   * The {@code featureMap} a saved model's metadata records when it has no map (exact models and
   * format-1 models saved again): the projector over the support points.
   */
  public static final String EXPANSION = "expansion";

  /** The names of the kinds fitted through a feature map ({@code nystrom}, {@code rff}). */
  public static final String[] FEATURE_MAP_NAMES =
      Arrays.stream(values())
          .filter(ModelKind::hasFeatureMap)
          .map(ModelKind::paramName)
          .toArray(String[]::new);

  private final String paramName;
  private final FeatureMapCodec codec;
  private final String modelClassName;
  private final String estimatorClassName;
  private final ExportLayout exportLayout;

  ModelKind(
      String paramName,
      FeatureMapCodec codec,
      String modelClassName,
      String estimatorClassName,
      ExportLayout exportLayout) {
    this.paramName = paramName;
    this.codec = codec;
    this.modelClassName = modelClassName;
    this.estimatorClassName = estimatorClassName;
    this.exportLayout = exportLayout;
  }

  /** The kind's name: its feature map's {@code kind()}, or {@code exact}. */
  public String paramName() {
    return paramName;
  }

  /** Whether models of this kind score through a feature map and keep its statistics. */
  public boolean hasFeatureMap() {
    return codec != null;
  }

  /** The fully qualified name of the model class, as saved metadata records it. */
  public String modelClassName() {
    return modelClassName;
  }

  /** The fully qualified name of the estimator that fits models of this kind. */
  public String estimatorClassName() {
    return estimatorClassName;
  }

  public ExportLayout exportLayout() {
    return exportLayout;
  }

  /**
   * Whether the streaming sink refits models of this kind batch by batch: the kinds fitted through
   * a feature map (exact kernel PCA runs on the driver only).
   */
  public boolean isStreamable() {
    return hasFeatureMap();
  }

  /** The codec of this kind's map. */
  FeatureMapCodec codec() {
    if (codec == null) {
      throw new IllegalStateException(this + " models have no feature map");
    }
    return codec;
  }

  /**
   * The kind whose feature map is named {@code featureMap} (as {@link
   * io.github.sparkkpca.feature.FeatureMap#kind()} gives it).
   *
   * @throws IllegalArgumentException naming the value and the known ones when no kind has it
   */
  public static ModelKind ofFeatureMap(String featureMap) {
    for (ModelKind kind : values()) {
      if (kind.hasFeatureMap() && kind.paramName.equals(featureMap)) {
        return kind;
      }
    }
    throw new IllegalArgumentException(
        "unknown feature map kind '"
            + featureMap
            + "' (this library reads "
            + String.join(", ", FEATURE_MAP_NAMES)
            + ")");
  }

  /** The kind whose model class is named {@code className}, if any. */
  public static Optional<ModelKind> ofModelClass(String className) {
    return Arrays.stream(values()).filter(k -> k.modelClassName.equals(className)).findFirst();
  }

  /** Whether {@code className} is one of the kernel PCA models of {@link #values()}. */
  static boolean isModelClass(String className) {
    return ofModelClass(className).isPresent();
  }

  /** The kind whose estimator class is named {@code className}, if any. */
  public static Optional<ModelKind> ofEstimatorClass(String className) {
    return Arrays.stream(values()).filter(k -> k.estimatorClassName.equals(className)).findFirst();
  }

  /**
   * The kind of the model saved in {@code path}, from its metadata.
   *
   * @throws IllegalArgumentException naming the path when it holds no model, or a model that is not
   *     one of this library's kernel PCA models
   */
  public static ModelKind ofSaved(String path, org.apache.spark.sql.SparkSession spark) {
    String saved = Persistence.savedClassName(path, spark, ModelKind::isModelClass);
    return ofModelClass(saved)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "Cannot load a model from '"
                        + path
                        + "': the directory holds a '"
                        + saved
                        + "', not a kernel PCA model of this library"
                        + pipelineHint(path, saved, spark)));
  }

  /**
   * For a saved {@code PipelineModel}: the directories of its stages that are kernel PCA models of
   * this library (each loads on its own), to name in the refusal; empty for anything else.
   */
  private static String pipelineHint(
      String path, String saved, org.apache.spark.sql.SparkSession spark) {
    if (!"org.apache.spark.ml.PipelineModel".equals(saved)) {
      return "";
    }
    List<String> stages = new ArrayList<>();
    try {
      Path dir = new Path(path, "stages");
      FileSystem fs = dir.getFileSystem(spark.sparkContext().hadoopConfiguration());
      for (FileStatus stage : fs.listStatus(dir)) {
        String stagePath = path + "/stages/" + stage.getPath().getName();
        if (stage.isDirectory()
            && isModelClass(
                Persistence.savedClassName(stagePath, spark, ModelKind::isModelClass))) {
          stages.add(stagePath);
        }
      }
    } catch (IOException | IllegalArgumentException e) {
      return "";
    }
    Collections.sort(stages);
    return stages.isEmpty()
        ? "; the pipeline has no kernel PCA stage"
        : "; a pipeline's kernel PCA stage loads on its own: give its directory, "
            + String.join(" or ", stages);
  }

  /**
   * Loads a model of this kind from {@code path} through its class's {@code read()}, as a Pipeline
   * loads its stages.
   *
   * @throws IllegalArgumentException as the model's reader does (naming the path)
   */
  public <T> T load(String path, Class<T> type) {
    Object model;
    try {
      MLReader<?> reader =
          (MLReader<?>) Class.forName(modelClassName).getMethod("read").invoke(null);
      model = reader.load(path);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw new IllegalStateException("Cannot read " + modelClassName, e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Cannot read " + modelClassName, e);
    }
    return type.cast(model);
  }
}
