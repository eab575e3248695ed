package io.github.sparkkpca.ml;

import io.github.sparkkpca.execution.FeaturePasses;
import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.pca.FeaturePCA;
import io.github.sparkkpca.pca.KernelPCASolution;
import io.github.sparkkpca.pca.SpectrumExtent;
import org.apache.spark.sql.Dataset;

/** The part of {@code update} that the models keeping their statistics share. */
final class KernelPCAModelUpdate {

  private KernelPCAModelUpdate() {}

  /**
   * The refusal of a model that keeps no statistics (exact kernel PCA): nothing to absorb rows
   * into.
   */
  static IllegalArgumentException notUpdatable(AbstractKernelPCAModel<?> model) {
    return new IllegalArgumentException(
        model.getClass().getSimpleName()
            + " "
            + model.uid()
            + " keeps no statistics and cannot be updated; fit it again on all rows");
  }

  /**
   * The solution with the rows of {@code dataset} absorbed: one validating pass, one pass
   * accumulating their statistics under the model's feature map, merged into the model's, and the
   * components solved again ({@link FeaturePCA#update}), in blocks of {@link
   * FeaturePasses#blockSize} rows. The models' {@code update} methods share it.
   *
   * @param model the model to update
   * @param dataset the rows to absorb
   * @param extent how much of the spectrum to compute
   * @param jobs prefix of the Spark job descriptions
   */
  static KernelPCASolution absorb(
      AbstractKernelPCAModel<?> model, Dataset<?> dataset, SpectrumExtent extent, String jobs) {
    model.transformSchema(dataset.schema());
    FeaturePCA fitted = model.solution().featurePCA();
    String column = model.getInputCol();
    try (FeaturePasses.Scanned scanned =
        FeaturePasses.scan(dataset, column, model.numFeatures(), 0, 0L, true, jobs)) {
      int b = scanned.blockSize(fitted.map(), model::effectiveBlockSize);
      FeatureStatistics more =
          FeaturePasses.statistics(scanned.vectors(), fitted.map(), b, column, jobs);
      return KernelPCASolution.of(
          fitted.update(more, extent), model.droppedRank(), model.landmarkSelection());
    }
  }
}
