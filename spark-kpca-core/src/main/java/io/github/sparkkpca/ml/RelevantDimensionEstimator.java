package io.github.sparkkpca.ml;

import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;

/**
 * Braun, Buhmann and Müller's relevant dimension estimation ("Denoising and Dimension Reduction in
 * Feature Space", NIPS 2006; JMLR 9, 2008): for every kernel scale of {@code gammaGrid} the
 * coefficients s_i = u_iᵀY of the labels in the (Nyström) kernel PCA basis, the two-component
 * likelihood ℓ(d) minimised over d, and the scale with the smallest minimum. The model is the
 * kernel PCR with the d components chosen ({@link KernelPCARegressionModel}): its predictions, the
 * denoised training labels π_d(Y) (transform of the training rows), êrr, σ₁², σ₂² and, for
 * comparison, the leave-one-out dimension ("dim (cv)").
 *
 * <p>Width convention: the paper's k(x, y) = exp(−‖x − y‖²/w) is the rbf kernel with γ = 1/w; the
 * default grid is its 20 widths log-spaced in [10⁻², 10⁴]. Every scale is evaluated in <b>one</b>
 * pass over the data (and a second pass for the leave-one-out curves): the executors hold one m×m
 * statistic per scale and task, 8·m²·|grid| bytes (160 MB per task for 20 scales at m = 1000),
 * which the fit checks before it starts. With m = n landmarks (every row) it is the exact method of
 * the paper.
 */
public final class RelevantDimensionEstimator
    extends AbstractKernelPCARegressor<RelevantDimensionEstimator> {

  public RelevantDimensionEstimator() {
    this(Identifiable.randomUID("relevantDimension"));
  }

  public RelevantDimensionEstimator(String uid) {
    this(SuperclassUid.hold(uid));
  }

  private RelevantDimensionEstimator(SuperclassUid held) {
    super(held);
  }

  public RelevantDimensionEstimator setGammaGrid(double[] value) {
    set(gammaGrid(), value);
    return this;
  }

  @Override
  double[] gammas() {
    return getGammaGrid();
  }

  @Override
  int fixedDimension() {
    return 0;
  }

  public static MLReader<RelevantDimensionEstimator> read() {
    return reader(RelevantDimensionEstimator.class, RelevantDimensionEstimator::new);
  }

  public static RelevantDimensionEstimator load(String path) {
    return read().load(path);
  }
}
