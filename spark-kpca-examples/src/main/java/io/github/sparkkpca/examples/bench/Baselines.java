package io.github.sparkkpca.examples.bench;

import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import java.io.IOException;
import java.util.Locale;

/**
 * The baselines of {@code spark-kpca bench --compare}, each measured after a grid point's fit on
 * the same data, m, k and γ: scikit-learn's Nystroem + PCA ({@link SklearnRunner}) and Spark ML's
 * PCA on Nyström features from a UDF ({@link SparkPcaBaseline}).
 */
final class Baselines {

  private final BenchCommand options;
  private final GridReport report;

  Baselines(BenchCommand options, GridReport report) {
    this.options = options;
    this.report = report;
  }

  /**
   * The baseline {@code system} ({@code sklearn} or {@code spark-pca}) at grid point {@code ours}.
   */
  CompareRow measure(
      String system, String in, LoadedData data, BenchRow ours, NystromKernelPCAModel lastModel)
      throws IOException, InterruptedException {
    return system.equals("sklearn")
        ? sklearn(in, ours, lastModel)
        : sparkPca(in, data, ours, lastModel);
  }

  private CompareRow sklearn(String in, BenchRow ours, NystromKernelPCAModel lastModel)
      throws IOException, InterruptedException {
    report.say(
        "scikit-learn Nystroem(n_components=%d, gamma=%s) + PCA(%d) on %s...",
        ours.m(), BenchRow.num(ours.gamma()), ours.k(), in);
    SklearnRunner runner =
        new SklearnRunner(
            options.python, options.sklearnScript, options.mnistDir, options.sklearnMaxMemory);
    SklearnRunner.Result r =
        runner.run(in, ours.m(), ours.k(), ours.gamma(), options.seed, options.repeat, options.out);
    double evDiff = Double.NaN;
    double evrDiff = Double.NaN;
    String note =
        r.status().equals("ok")
            ? "PCA solver " + r.solver() + "; " + r.blas()
            : r.message()
                + "; the n x m float64 feature "
                + "matrix needs "
                + String.format(Locale.ROOT, "%.1f GiB", r.featureMatrixBytes() / 1073741824.0)
                + (options.sklearnMaxMemory == null
                    ? ""
                    : " (address space capped at " + options.sklearnMaxMemory + ")");
    if (r.status().equals("ok") && lastModel != null) {
      evDiff =
          CompareRow.maxRelDiff(r.explainedVariance(), lastModel.explainedVariance().toArray());
    }
    CompareRow row =
        new CompareRow(
            r.system() + " Nystroem+PCA",
            in,
            ours.n(),
            ours.d(),
            ours.m(),
            ours.k(),
            ours.gamma(),
            r.fitSeconds(),
            ours.fitSeconds(),
            evDiff,
            evrDiff,
            r.peakRssBytes(),
            r.status(),
            note);
    report.printComparison(row);
    return row;
  }

  private CompareRow sparkPca(
      String in, LoadedData data, BenchRow ours, NystromKernelPCAModel lastModel) {
    report.say(
        "Spark ML PCA(k=%d) on Nyström features from a UDF (m = %d, same landmarks and gamma)...",
        ours.k(), ours.m());
    PeakMemory.reset();
    SparkPcaBaseline.Result r =
        SparkPcaBaseline.fit(
            data.data(), data.featuresCol(), lastModel.landmarks(), ours.gamma(), ours.k());
    double[] eigen = lastModel.eigenvalues().toArray();
    // Spark ML's ratios divide by the sum of all eigenvalues of the features' covariance: its
    // trace.
    double total = lastModel.statistics().trace(lastModel.getCentered());
    double[] ratios = new double[ours.k()];
    for (int i = 0; i < ratios.length; i++) {
      ratios[i] = eigen[i] / total;
    }
    CompareRow row =
        new CompareRow(
            "Spark ML PCA on UDF Nystroem features",
            in,
            ours.n(),
            ours.d(),
            ours.m(),
            ours.k(),
            ours.gamma(),
            r.seconds(),
            ours.fitSeconds(),
            Double.NaN,
            CompareRow.maxAbsDiff(r.explainedVarianceRatio(), ratios),
            PeakMemory.heapPeakBytes(),
            "ok",
            "same JVM; peak is the JVM heap");
    report.printComparison(row);
    return row;
  }
}
