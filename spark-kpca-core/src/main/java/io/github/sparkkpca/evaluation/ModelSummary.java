package io.github.sparkkpca.evaluation;

import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCAParams;

/**
 * What a fitted kernel PCA model (Nyström or random features) reports about its fit, read from the
 * model's own accessors: its sizes, kernel, spectrum and reconstruction errors, and, for a Nyström
 * fit, the diagnostics of the fit (residual-growth curve, statistics route and why).
 *
 * @param n training rows
 * @param d input dimension
 * @param m landmarks (the number of random features D for a random feature model)
 * @param rank numerical rank of the landmark kernel matrix (D for a random feature model)
 * @param k components
 * @param kernel kernel name
 * @param gamma γ used (NaN when the kernel has none)
 * @param centered whether the fit was centred in feature space
 * @param explainedVariance the k leading eigenvalues of the feature covariance
 * @param explainedVarianceRatio each eigenvalue divided by the total variance
 * @param totalVariance total feature-space variance (for a kernel that is not positive definite, of
 *     the positive-part surrogate the model is the PCA of: see docs/kernels.md)
 * @param reconstructionError total variance minus the captured variance, for 1..k components
 * @param landmarkResidualCurve the relative mean probe residual after each landmark (landmarks
 *     chosen by residual growth), or null
 * @param statisticsRoute the statistics route a Nyström fit took (whitened or gram), or null
 * @param landmarkConditionEstimate cond(K_mm) over the retained spectrum (NaN when unknown)
 * @param statisticsRouteCheck why the route was taken (null when unknown)
 * @param kernelBlockPath how a Nyström fit computed kernel blocks and why ({@code sparse: …} or
 *     {@code dense: …}), or null
 * @param totalVarianceMethod how the total variance was obtained, in words (for a kernel that is
 *     not positive definite it names the positive-part surrogate and gives (1/n)Σ‖φ(x)‖² next to
 *     (1/n)Σk(x,x))
 * @param kernelDegenerate {@code none}, {@code identity} or {@code constant}: whether the fit found
 *     the kernel numerically the identity or a constant on the landmarks (a γ far from the data's
 *     scale, {@link io.github.sparkkpca.kernel.KernelDegeneracy}); null when unknown
 * @param kernelWarning the fit's warning when the kernel is degenerate (what the fit shows and what
 *     to do), else null
 */
public record ModelSummary(
    long n,
    int d,
    int m,
    int rank,
    int k,
    String kernel,
    double gamma,
    boolean centered,
    double[] explainedVariance,
    double[] explainedVarianceRatio,
    double totalVariance,
    double[] reconstructionError,
    double[] landmarkResidualCurve,
    String statisticsRoute,
    double landmarkConditionEstimate,
    String statisticsRouteCheck,
    String totalVarianceMethod,
    String kernelBlockPath,
    String kernelDegenerate,
    String kernelWarning) {

  /** The summary of a fitted model. */
  public static ModelSummary of(AbstractKernelPCAModel<?> model) {
    // Fit diagnostics are params of the Nyström stage; a random feature model has none.
    NystromKernelPCAParams nystrom = model instanceof NystromKernelPCAParams p ? p : null;
    String degenerate = nystrom == null ? null : nystrom.getKernelDegenerate();
    int colon = degenerate == null ? -1 : degenerate.indexOf(':');
    return new ModelSummary(
        model.numRows(),
        model.numFeatures(),
        model.hasLandmarks() ? model.numSupportPoints() : model.rank(),
        model.rank(),
        model.numComponents(),
        model.getKernel(),
        model.getGamma(),
        model.getCentered(),
        model.explainedVariance().toArray(),
        model.explainedVarianceRatio().toArray(),
        model.totalVariance(),
        model.reconstructionError().toArray(),
        nystrom == null ? null : nystrom.getLandmarkResidualCurve(),
        nystrom == null ? null : nystrom.getStatisticsRouteTaken(),
        nystrom == null ? Double.NaN : nystrom.getLandmarkConditionEstimate(),
        nystrom == null ? null : nystrom.getStatisticsRouteCheck(),
        model.totalVarianceMethod(),
        nystrom == null ? null : nystrom.getKernelBlockPath(),
        colon < 0 ? degenerate : degenerate.substring(0, colon),
        colon < 0 ? null : degenerate.substring(colon + 1).trim());
  }

  /** The sum of the explained variance ratios of the k components. */
  public double cumulativeRatio() {
    double sum = 0;
    for (double r : explainedVarianceRatio) {
      sum += r;
    }
    return sum;
  }
}
