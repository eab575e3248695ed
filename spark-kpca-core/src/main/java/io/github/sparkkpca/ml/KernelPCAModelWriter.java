package io.github.sparkkpca.ml;

import io.github.sparkkpca.persistence.ModelChecks;
import io.github.sparkkpca.persistence.ModelData;
import io.github.sparkkpca.persistence.ModelExport;
import io.github.sparkkpca.persistence.Persistence;
import io.github.sparkkpca.persistence.StageWriter;

/**
 * Writes metadata (params) and the solution; with the writer option {@code export} set to {@code
 * true} also the plain bundle of {@link ModelExport} under {@code path/export} (eigenvalues,
 * explained variance, landmarks, projector), which clients that cannot call the model's methods
 * (Spark Connect) read as files.
 */
final class KernelPCAModelWriter extends StageWriter {
  private final AbstractKernelPCAModel<?> instance;

  KernelPCAModelWriter(AbstractKernelPCAModel<?> instance) {
    this.instance = instance;
  }

  @Override
  public void saveImpl(String path) {
    FittedKernels.check(instance);
    ModelChecks.requireLoadable(instance.solution(), requestedPath(path));
    ModelChecks.requireParams(
        instance.solution(),
        instance.isSet(instance.k()) ? instance.getK() : null,
        requestedPath(path));
    Persistence.saveMetadata(
        instance,
        path,
        sparkSession(),
        FeatureNames.addTo(ModelData.metadataFields(instance.solution()), instance.featureNames()),
        instance.fittedParams());
    ModelData.save(instance.solution(), path, sparkSession());
    if (exportAsked(optionMap())) {
      try {
        ModelExport.write(
            instance, path + "/export", sparkSession().sparkContext().hadoopConfiguration());
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(
            "Cannot write the export bundle of " + instance.uid() + " under " + path, e);
      }
    }
  }

  /**
   * Whether the writer options ask for the export bundle; any option other than {@code export}
   * ({@code true} or {@code false}) is refused, naming it.
   */
  static boolean exportAsked(scala.collection.Map<String, String> options) {
    boolean export = false;
    scala.collection.Iterator<scala.Tuple2<String, String>> it = options.iterator();
    while (it.hasNext()) {
      scala.Tuple2<String, String> option = it.next();
      if (!option._1().equals("export")) {
        throw new IllegalArgumentException(
            "Unknown writer option '"
                + option._1()
                + "' for a kernel PCA model; the one option is export (true or false)");
      }
      String value = option._2().trim().toLowerCase(java.util.Locale.ROOT);
      if (!value.equals("true") && !value.equals("false")) {
        throw new IllegalArgumentException(
            "Writer option export must be true or false, got '" + option._2() + "'");
      }
      export = value.equals("true");
    }
    return export;
  }
}
