package io.github.sparkkpca.examples.reproduce;

import io.github.sparkkpca.examples.plots.Charts;
import io.github.sparkkpca.examples.reproduce.LandmarkComparison.DatasetRow;
import io.github.sparkkpca.examples.reproduce.LandmarkComparison.Result;
import io.github.sparkkpca.examples.reproduce.LandmarkComparison.Row;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The files of a {@link LandmarkComparison}: {@code landmarks.csv}, {@code datasets.csv}, the bar
 * charts (also redrawn from the CSV files alone) and {@code summary.txt}.
 */
final class LandmarkFiles {

  private LandmarkFiles() {}

  /**
   * Writes {@code landmarks.csv}, {@code datasets.csv}, the charts and {@code summary.txt} into
   * {@code dir}.
   */
  static List<Path> write(Result result, Path dir) {
    List<Path> files = new ArrayList<>();
    files.add(
        Csv.table(
            dir.resolve("landmarks.csv"),
            "dataset,n,gamma,method,m,ell,mean_error,sd_error,exact_error,"
                + "mean_ratio_to_exact,sd_ratio_to_exact,mean_fit_seconds,sd_fit_seconds,mean_landmarks,reps",
            result.rows(),
            (Row r) ->
                new Object[] {
                  r.dataset(),
                  r.n(),
                  r.gamma(),
                  r.method(),
                  r.m(),
                  r.ell(),
                  r.meanError(),
                  r.sdError(),
                  r.exactError(),
                  r.meanRatio(),
                  r.sdRatio(),
                  r.meanFitSeconds(),
                  r.sdFitSeconds(),
                  r.meanLandmarks(),
                  r.reps()
                }));
    files.add(
        Csv.table(
            dir.resolve("datasets.csv"),
            "dataset,description,n,gamma,gamma_source,exact_seconds," + "exact_cached",
            result.datasets(),
            (DatasetRow d) ->
                new Object[] {
                  d.dataset(),
                  "\"" + d.description() + "\"",
                  d.n(),
                  d.gamma(),
                  "\"" + d.gammaSource() + "\"",
                  d.exactSeconds(),
                  d.exactCached()
                }));
    files.addAll(plots(result, dir));
    List<String> summary =
        RunClock.summaryHead(result.blas(), result.environment(), result.wallSeconds());
    summary.add(
        String.format(
            Locale.ROOT,
            "Ky Fan: %d checks, %d violations",
            result.kyFanChecks(),
            result.kyFanViolations()));
    for (DatasetRow d : result.datasets()) {
      summary.add(
          String.format(
              Locale.ROOT,
              "%s: %s, n = %d, gamma = %.6g (%s), exact %.1f s%s",
              d.dataset(),
              d.description(),
              d.n(),
              d.gamma(),
              d.gammaSource(),
              d.exactSeconds(),
              d.exactCached() ? " (cached)" : ""));
    }
    LandmarkComparisonConfig c = result.config();
    files.add(
        Csv.write(
            dir.resolve("summary.txt"),
            "Landmark comparison: "
                + c.datasets()
                + ", methods "
                + c.methods()
                + ", m = "
                + c.ms()
                + ", l = "
                + c.ells()
                + ", reps = "
                + c.reps()
                + ", kmeans maxIter = "
                + (c.kmeansMaxIter() > 0 ? c.kmeansMaxIter() : "library default")
                + (c.limit() > 0 ? ", first " + c.limit() + " images" : ""),
            summary));
    return files;
  }

  /**
   * Redraws the charts of a finished comparison from {@code landmarks.csv} and {@code datasets.csv}
   * in {@code dir}, without fitting anything; the CSV files and {@code summary.txt} are left as
   * they are.
   */
  static List<Path> replot(Path dir) {
    List<String[]> rowCells = Csv.read(dir.resolve("landmarks.csv"));
    List<Row> rows = new ArrayList<>();
    for (String[] c : rowCells) {
      rows.add(
          new Row(
              c[0],
              Integer.parseInt(c[1]),
              Csv.parse(c[2]),
              c[3],
              Integer.parseInt(c[4]),
              Integer.parseInt(c[5]),
              Csv.parse(c[6]),
              Csv.parse(c[7]),
              Csv.parse(c[8]),
              Csv.parse(c[9]),
              Csv.parse(c[10]),
              Csv.parse(c[11]),
              Csv.parse(c[12]),
              Csv.parse(c[13]),
              Integer.parseInt(c[14])));
    }
    List<DatasetRow> datasets = new ArrayList<>();
    for (String[] c : Csv.read(dir.resolve("datasets.csv"))) {
      datasets.add(
          new DatasetRow(
              c[0],
              c[1],
              Integer.parseInt(c[2]),
              Csv.parse(c[3]),
              c[4],
              Csv.parse(c[5]),
              Boolean.parseBoolean(c[6])));
    }
    if (rows.isEmpty() || datasets.isEmpty()) {
      throw new IllegalArgumentException(
          "no comparison to redraw in " + dir + " (landmarks.csv or datasets.csv " + "is empty)");
    }
    LandmarkComparisonConfig config =
        LandmarkComparisonConfig.defaults()
            .withDatasets(List.of("mnist:0"))
            .withMs(rows.stream().map(Row::m).distinct().toList())
            .withElls(rows.stream().map(Row::ell).distinct().toList())
            .withMethods(rows.stream().map(Row::method).distinct().toList())
            .withReps(rows.get(0).reps());
    return plots(new Result(config, "", "", datasets, rows, 0, 0, List.of(), 0), dir);
  }

  private static List<Path> plots(Result result, Path dir) {
    List<Path> files = new ArrayList<>();
    LandmarkComparisonConfig c = result.config();
    boolean haveRatios = result.rows().stream().anyMatch(r -> !Double.isNaN(r.meanRatio()));
    for (DatasetRow d : result.datasets()) {
      List<String> categories = new ArrayList<>();
      Map<String, List<double[]>> perMethod = new LinkedHashMap<>();
      for (int m : c.ms()) {
        for (int l : c.ells()) {
          if (l > m) {
            continue;
          }
          categories.add("m=" + m + ", l=" + l);
          for (String method : c.methods()) {
            Row row = find(result, d.dataset(), method, m, l);
            double value = haveRatios ? 100 * (row.meanRatio() - 1) : row.meanError();
            double error = 2 * (haveRatios ? 100 * row.sdRatio() : row.sdError());
            perMethod
                .computeIfAbsent(method, k -> new ArrayList<>())
                .add(new double[] {value, error});
          }
        }
      }
      files.add(
          Charts.barChart(
              dir.resolve("landmarks_" + d.dataset() + ".png"),
              new Charts.Axes(
                  String.format(
                      Locale.ROOT,
                      "%s (n = %d, gamma = %.3g): centred Nystrom error, mean +- 2 sd of %d seeds",
                      d.description(),
                      d.n(),
                      d.gamma(),
                      c.reps()),
                  "landmarks m, components l",
                  haveRatios ? "excess over exact KPCA: R(l) / R_exact(l) - 1 (%)" : "R(l)",
                  false),
              categories,
              bars(perMethod, true)));
    }
    List<String> categories = new ArrayList<>();
    Map<String, List<double[]>> perMethod = new LinkedHashMap<>();
    for (DatasetRow d : result.datasets()) {
      for (int m : c.ms()) {
        categories.add(d.dataset() + ", m=" + m);
        for (String method : c.methods()) {
          Row row = find(result, d.dataset(), method, m, 0);
          perMethod
              .computeIfAbsent(method, k -> new ArrayList<>())
              .add(new double[] {row.meanFitSeconds(), row.sdFitSeconds()});
        }
      }
    }
    files.add(
        Charts.barChart(
            dir.resolve("landmarks_fit_time.png"),
            new Charts.Axes(
                "Fit time per seed (mean of " + c.reps() + "), centred Nystrom kernel PCA",
                "data set, landmarks m",
                "seconds (log scale)",
                true),
            categories,
            bars(perMethod, false)));
    return files;
  }

  /** The first row of (data set, method, m), and of ℓ unless {@code ell} is 0. */
  private static Row find(Result result, String dataset, String method, int m, int ell) {
    return result.rows().stream()
        .filter(
            r ->
                r.dataset().equals(dataset)
                    && r.method().equals(method)
                    && r.m() == m
                    && (ell == 0 || r.ell() == ell))
        .findFirst()
        .orElseThrow();
  }

  /** One bar series per method: the first values and, with {@code errors}, the second as bars. */
  private static List<Charts.Bars> bars(Map<String, List<double[]>> perMethod, boolean errors) {
    List<Charts.Bars> bars = new ArrayList<>();
    for (Map.Entry<String, List<double[]>> e : perMethod.entrySet()) {
      bars.add(
          new Charts.Bars(
              e.getKey(),
              e.getValue().stream().mapToDouble(v -> v[0]).toArray(),
              errors ? e.getValue().stream().mapToDouble(v -> v[1]).toArray() : null));
    }
    return bars;
  }
}
