package io.github.sparkkpca.ml;

import io.github.sparkkpca.execution.ProjectPartition;
import io.github.sparkkpca.pca.Projector;
import io.github.sparkkpca.regression.LabelCoding;

/**
 * What {@link KernelPCARegressionModel#transform} appends to each row: the prediction the label
 * coding makes of the row's outputs; the partition is scored by {@link ProjectPartition}'s block
 * loop, as a kernel PCA model's transform is.
 */
record KernelPCARegressionPredict(LabelCoding coding) implements ProjectPartition.Readout {

  @Override
  public ProjectPartition.Appender open(Projector p, int blockSize) {
    return new ProjectPartition.Appender() {
      @Override
      public String nonFinite() {
        return "a non-finite prediction: its kernel values overflow (" + p.kernel() + ")";
      }

      @Override
      public int appended() {
        return 1;
      }

      @Override
      public void emit(
          int i, double[] outputs, int c, double[] residuals, Object[] values, int at) {
        values[at] = coding.predict(outputs, i * c);
      }
    };
  }
}
