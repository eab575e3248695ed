package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.evaluation.ModelSummary;
import io.github.sparkkpca.evaluation.NystromConfidenceBound;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a fit produced, as the {@code --summary-out} JSON document and as the table printed to the
 * console: the library's {@link ModelSummary} of the model, the fit's wall time and, with fit
 * {@code --confidence}, Theorem 4's bound.
 *
 * <p>JSON keys, in this order: {@code n}, {@code d}, {@code m}, {@code rank}, {@code k}, {@code
 * gamma} (null when the kernel has none: linear, cosine), {@code centered}, {@code eigenvalues}
 * (the first k, equal to {@code explainedVariance}), {@code explainedVariance}, {@code
 * explainedVarianceRatio}, {@code totalVariance}, {@code reconstructionError} and {@code
 * fitSeconds} (wall time of {@code NystromKernelPCA.fit} on data already loaded and cached); then,
 * only when they apply, {@code confidence} and {@code reconstructionErrorBound} (fit {@code
 * --confidence}: Theorem 4 of Hallgren's thesis, the bound on the excess reconstruction error over
 * exact kernel PCA for d = 1..k, see {@code NystromConfidenceBound}) and {@code
 * landmarkResidualCurve} (landmarks chosen by residual growth: the mean probe residual, relative to
 * the mean k(x,x), after each landmark added), {@code statisticsRoute} and {@code
 * landmarkConditionEstimate} (Nyström models fitted by this version: the route of the statistics
 * pass, whitened or gram, and cond(K_mm) over the retained spectrum that decided it, see
 * docs/gram-route.md) and {@code statisticsRouteCheck} (why: requested, cost, the a-priori bound,
 * or the a-posteriori check with its estimates), {@code kernelBlockPath} (how the kernel blocks
 * were computed, dense or sparse, and why: {@code KernelBlockPath}), {@code kernelDegenerate}
 * ({@code none}, {@code identity} or {@code constant}: the kernel on the landmarks, {@code
 * KernelDegeneracy}) and, when degenerate, {@code kernelWarning} (the fit's warning: γ, the median
 * heuristic's value and what to do).
 *
 * @param model the model's summary
 * @param fitSeconds wall time of the fit
 * @param confidence the confidence level of {@code reconstructionErrorBound} (NaN when there is
 *     none)
 * @param reconstructionErrorBound Theorem 4's bound on R_n(Ṽ_d) − R_n(V̂_d) for d = 1..k, or null
 */
public record FitSummary(
    ModelSummary model, double fitSeconds, double confidence, double[] reconstructionErrorBound) {

  /** The keys of the JSON document, in their order. */
  static final List<String> JSON_KEYS =
      List.of(
          "n",
          "d",
          "m",
          "rank",
          "k",
          "gamma",
          "centered",
          "eigenvalues",
          "explainedVariance",
          "explainedVarianceRatio",
          "totalVariance",
          "reconstructionError",
          "fitSeconds");

  /** Keys that follow {@link #JSON_KEYS} when they apply, in this order. */
  static final List<String> OPTIONAL_KEYS =
      List.of(
          "confidence",
          "reconstructionErrorBound",
          "landmarkResidualCurve",
          "statisticsRoute",
          "landmarkConditionEstimate",
          "statisticsRouteCheck",
          "kernelBlockPath",
          "kernelDegenerate",
          "kernelWarning");

  /**
   * An earlier {@code --summary-out} of fit, which {@code --overwrite} may replace: a JSON object
   * with exactly {@link #JSON_KEYS}, in order, followed by some of {@link #OPTIONAL_KEYS}, in
   * order.
   */
  static final SafeOutput.Kind EARLIER_SUMMARY =
      JsonSummaries.earlier("fit", JSON_KEYS, OPTIONAL_KEYS);

  /**
   * Saves {@code model} to {@code modelOut} (its own writer swaps the new model in and replaces
   * only a saved spark-kpca stage, with {@code overwrite}), writes this summary to {@code
   * summaryOutput} when given, and prints it: the ending that fit and update share.
   */
  void saveWithModel(
      AbstractKernelPCAModel<?> model,
      String modelOut,
      boolean overwrite,
      SafeOutput summaryOutput,
      java.io.PrintWriter out)
      throws java.io.IOException {
    SparkKpcaCli.progress(out, "writing the model to %s...", modelOut);
    ModelOutputOptions.save(model, modelOut, overwrite);
    if (summaryOutput != null) {
      JsonSummaries.write(summaryOutput, toJsonMap());
      SparkKpcaCli.progress(out, "wrote the summary to %s", summaryOutput.target());
    }
    print(out);
  }

  /** The summary of a fitted model. */
  public static FitSummary of(AbstractKernelPCAModel<?> model, double fitSeconds) {
    return new FitSummary(ModelSummary.of(model), fitSeconds, Double.NaN, null);
  }

  /**
   * This summary with Theorem 4's bound at {@code confidence} for the (uncentred, bounded-kernel)
   * Nyström model it describes ({@link NystromConfidenceBound#compute(NystromKernelPCAModel,
   * double)}).
   *
   * @throws IllegalArgumentException as {@code NystromConfidenceBound.compute}: centred model,
   *     unbounded kernel, k-means landmarks, k ≥ m
   */
  public FitSummary withBound(NystromKernelPCAModel nystrom, double confidence) {
    double[] bound = NystromConfidenceBound.compute(nystrom, confidence).reconstructionErrorBound();
    return new FitSummary(model, fitSeconds, confidence, bound);
  }

  /** The JSON document, keys in the documented order. */
  public Map<String, Object> toJsonMap() {
    ModelSummary s = model;
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("n", s.n());
    json.put("d", s.d());
    json.put("m", s.m());
    json.put("rank", s.rank());
    json.put("k", s.k());
    json.put("gamma", Double.isFinite(s.gamma()) ? s.gamma() : null);
    json.put("centered", s.centered());
    json.put("eigenvalues", s.explainedVariance());
    json.put("explainedVariance", s.explainedVariance());
    json.put("explainedVarianceRatio", s.explainedVarianceRatio());
    json.put("totalVariance", s.totalVariance());
    json.put("reconstructionError", s.reconstructionError());
    json.put("fitSeconds", fitSeconds);
    if (reconstructionErrorBound != null) {
      json.put("confidence", confidence);
      json.put("reconstructionErrorBound", reconstructionErrorBound);
    }
    if (s.landmarkResidualCurve() != null) {
      json.put("landmarkResidualCurve", s.landmarkResidualCurve());
    }
    if (s.statisticsRoute() != null) {
      json.put("statisticsRoute", s.statisticsRoute());
      json.put(
          "landmarkConditionEstimate",
          Double.isFinite(s.landmarkConditionEstimate()) ? s.landmarkConditionEstimate() : null);
      if (s.statisticsRouteCheck() != null) {
        json.put("statisticsRouteCheck", s.statisticsRouteCheck());
      }
    }
    if (s.kernelBlockPath() != null) {
      json.put("kernelBlockPath", s.kernelBlockPath());
    }
    if (s.kernelDegenerate() != null) {
      json.put("kernelDegenerate", s.kernelDegenerate());
      if (s.kernelWarning() != null) {
        json.put("kernelWarning", s.kernelWarning());
      }
    }
    return json;
  }

  private static String formatted(double[] values) {
    StringBuilder text = new StringBuilder();
    for (double v : values) {
      text.append(text.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.4g", v));
    }
    return text.toString();
  }

  /** Prints the header line, one row per component and the cumulative ratio. */
  public void print(PrintWriter out) {
    ModelSummary s = model;
    int k = s.k();
    out.printf(
        Locale.ROOT,
        "n = %d, d = %d, m = %d, rank = %d, k = %d, kernel = %s, gamma = %s, %s%n",
        s.n(),
        s.d(),
        s.m(),
        s.rank(),
        k,
        s.kernel(),
        Double.isFinite(s.gamma()) ? String.format(Locale.ROOT, "%.6g", s.gamma()) : "-",
        s.centered() ? "centred" : "uncentred");
    out.printf(
        Locale.ROOT,
        "fit: %.2f s, total variance %.6g%s%n",
        fitSeconds,
        s.totalVariance(),
        s.statisticsRoute() == null
            ? ""
            : String.format(
                Locale.ROOT,
                ", statistics route %s (cond(K_mm) ~ %.3g%s)",
                s.statisticsRoute(),
                s.landmarkConditionEstimate(),
                s.statisticsRouteCheck() == null ? "" : "; " + s.statisticsRouteCheck()));
    if (s.totalVarianceMethod() != null && s.totalVarianceMethod().startsWith("positive-part")) {
      // A kernel that is not positive definite: say whose variances these are (docs/kernels.md).
      out.printf(Locale.ROOT, "total variance: %s%n", s.totalVarianceMethod());
    }
    out.printf(
        Locale.ROOT,
        "%9s  %12s  %9s  %10s  %14s%n",
        "component",
        "eigenvalue",
        "ratio",
        "cumulative",
        "recon. error");
    double cumulative = 0;
    for (int i = 0; i < k; i++) {
      cumulative += s.explainedVarianceRatio()[i];
      out.printf(
          Locale.ROOT,
          "%9d  %12.6g  %9.4f  %10.4f  %14.6g%n",
          i + 1,
          s.explainedVariance()[i],
          s.explainedVarianceRatio()[i],
          cumulative,
          s.reconstructionError()[i]);
    }
    out.printf(
        Locale.ROOT,
        "cumulative explained variance ratio (k = %d): %.4f%n",
        k,
        s.cumulativeRatio());
    if (reconstructionErrorBound != null) {
      out.printf(
          Locale.ROOT,
          "excess reconstruction error over exact kernel PCA, bound at confidence %s "
              + "(Hallgren, Theorem 4), d = 1..%d: %s%n",
          confidence,
          k,
          formatted(reconstructionErrorBound));
    }
    if (s.landmarkResidualCurve() != null && s.landmarkResidualCurve().length > 0) {
      out.printf(
          Locale.ROOT,
          "landmarks by residual growth: m = %d, relative probe residual %.4g%n",
          s.landmarkResidualCurve().length,
          s.landmarkResidualCurve()[s.landmarkResidualCurve().length - 1]);
    }
    if (s.kernelWarning() != null) {
      out.printf(Locale.ROOT, "warning: the kernel is degenerate: %s%n", s.kernelWarning());
    }
    out.flush();
  }
}
