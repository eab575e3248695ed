package io.github.sparkkpca.examples.plots;

import io.github.sparkkpca.ml.KernelPCARegressionModel;
import io.github.sparkkpca.regression.WidthDiagnostics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The charts of a relevant dimension fit, as Braun, Buhmann and Müller's Figure 2, one pair per
 * kernel width: {@code width-NN-spectrum.png} (the contributions |s_i|/‖Y‖ of the components, the
 * eigenvalues Σ_i/Σ_1, the training error and the leave-one-out error of the d-component fit, d =
 * 1..q, log scale) and {@code width-NN-likelihood.png} (ℓ(d) with its minimum marked); and {@code
 * widths.png}, min_d ℓ(d) against log₁₀ γ (the width chosen is the minimum).
 */
public final class RdePlots {

  private RdePlots() {}

  /** Writes the charts into {@code dir} (which exists) and returns their paths. */
  public static List<Path> writeAll(Path dir, KernelPCARegressionModel model, String title) {
    List<Path> files = new ArrayList<>();
    List<WidthDiagnostics> widths = model.widths();
    for (int w = 0; w < widths.size(); w++) {
      WidthDiagnostics x = widths.get(w);
      int q = x.numComponents();
      double[] d = new double[q];
      double[] eigen = new double[q];
      for (int i = 0; i < q; i++) {
        d[i] = i + 1;
        eigen[i] = x.eigenvalues()[i] / x.eigenvalues()[0];
      }
      String label =
          String.format(
              Locale.ROOT,
              "gamma = %.4g%s",
              x.gamma(),
              w == model.chosenWidth() ? " (chosen)" : "");
      List<Charts.Line> spectrum = new ArrayList<>();
      spectrum.add(
          Charts.Line.of("contribution |s_i|/||Y||", d, x.contributions(model.labelSquares())));
      spectrum.add(Charts.Line.of("eigenvalue / largest", d, eigen).asDashed());
      spectrum.add(Charts.Line.of("training error of d components", d, x.trainingLoss()));
      spectrum.add(Charts.Line.of("leave-one-out error of d components", d, x.leaveOneOut()));
      String prefix = String.format(Locale.ROOT, "width-%02d", w + 1);
      files.add(
          Charts.lineChart(
              dir.resolve(prefix + "-spectrum.png"),
              new Charts.Axes(
                  title + ": spectrum, " + label,
                  "component i / dimension d",
                  "value (log scale)",
                  true),
              spectrum));
      List<Charts.Line> likelihood = new ArrayList<>();
      likelihood.add(Charts.Line.of("l(d)", d, x.logLikelihood()));
      likelihood.add(
          Charts.Line.of(
              "minimum: d = " + x.dimension(),
              new double[] {x.dimension()},
              new double[] {x.minimumLogLikelihood()}));
      files.add(
          Charts.lineChart(
              dir.resolve(prefix + "-likelihood.png"),
              new Charts.Axes(
                  title + ": negative log-likelihood, " + label, "dimension d", "l(d)", false),
              likelihood));
    }
    double[] logGamma = new double[widths.size()];
    double[] minima = new double[widths.size()];
    for (int w = 0; w < widths.size(); w++) {
      logGamma[w] = Math.log10(widths.get(w).gamma());
      minima[w] = widths.get(w).minimumLogLikelihood();
    }
    files.add(
        Charts.lineChart(
            dir.resolve("widths.png"),
            new Charts.Axes(
                title + ": min_d l(d) per kernel width",
                "log10 gamma (gamma = 1/w)",
                "min_d l(d)",
                false),
            List.of(
                Charts.Line.of("min_d l(d)", logGamma, minima),
                Charts.Line.of(
                    "chosen",
                    new double[] {logGamma[model.chosenWidth()]},
                    new double[] {minima[model.chosenWidth()]}))));
    return files;
  }
}
