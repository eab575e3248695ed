package io.github.sparkkpca.examples.bench;

import java.awt.BasicStroke;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The benchmark's PNG plots (XChart): fit time against n and against m, each with its dgemm lower
 * bound dashed, the fit and transform efficiency (bound / time) against n, and the peak memory
 * (resident set and Java heap) of each grid point against n.
 */
public final class BenchCharts {

  /** File names written by {@link #writeAll}. */
  public static final List<String> FILES =
      List.of("fit-time-vs-n.png", "fit-time-vs-m.png", "efficiency.png", "peak-memory-vs-n.png");

  private static final int WIDTH = 900;
  private static final int HEIGHT = 560;
  private static final BasicStroke DASHED =
      new BasicStroke(
          1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f);

  private BenchCharts() {}

  /** Writes the four charts into {@code dir}; returns the files written. */
  public static List<Path> writeAll(List<BenchRow> rows, Path dir, String subtitle)
      throws IOException {
    System.setProperty("java.awt.headless", "true");
    List<Path> written = new ArrayList<>();
    if (rows.isEmpty()) {
      return written;
    }
    written.add(save(timeVsN(rows, subtitle), dir.resolve(FILES.get(0))));
    written.add(save(timeVsM(rows, subtitle), dir.resolve(FILES.get(1))));
    written.add(save(efficiency(rows, subtitle), dir.resolve(FILES.get(2))));
    written.add(save(peakMemory(rows, subtitle), dir.resolve(FILES.get(3))));
    return written;
  }

  static XYChart peakMemory(List<BenchRow> rows, String subtitle) {
    XYChart chart = chart("Peak memory vs n" + subtitle, "n (rows)", "MB");
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setXAxisLogarithmicDecadeOnly(false);
    chart.getStyler().setYAxisMin(0.0);
    lines(
        chart,
        rows,
        BY_M_D_K,
        BY_N,
        "resident set",
        r -> r.peakRssBytes() / 1048576.0,
        "Java heap",
        r -> r.peakHeapBytes() / 1048576.0);
    return chart;
  }

  static XYChart timeVsN(List<BenchRow> rows, String subtitle) {
    XYChart chart = chart("Fit time vs n" + subtitle, "n (rows)", "seconds");
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setXAxisLogarithmicDecadeOnly(false);
    chart.getStyler().setYAxisLogarithmicDecadeOnly(false);
    lines(
        chart,
        rows,
        BY_M_D_K,
        BY_N,
        "fit",
        BenchRow::fitSeconds,
        "bound",
        BenchRow::fitBoundSeconds);
    return chart;
  }

  static XYChart timeVsM(List<BenchRow> rows, String subtitle) {
    XYChart chart = chart("Fit time vs m" + subtitle, "m (landmarks)", "seconds");
    lines(
        chart,
        rows,
        r -> "n=" + r.n() + ", d=" + r.d() + ", k=" + r.k(),
        r -> (double) r.m(),
        "fit",
        BenchRow::fitSeconds,
        "bound",
        BenchRow::fitBoundSeconds);
    return chart;
  }

  /** The file {@link #comparison} writes. */
  public static final String COMPARISON_FILE = "fit-time-vs-m-compare.png";

  /**
   * Fit time vs m of spark-kpca and of each baseline measured beside it in the same run (the rows
   * of {@code compare.csv}); failed baselines are left out. Written into {@code dir}; returns the
   * file.
   */
  public static Path comparison(List<CompareRow> rows, Path dir, String subtitle)
      throws IOException {
    System.setProperty("java.awt.headless", "true");
    XYChart chart = chart("Fit time vs m" + subtitle, "m (landmarks)", "seconds");
    Map<String, List<CompareRow>> systems = new LinkedHashMap<>();
    Map<Integer, Double> ours = new java.util.TreeMap<>();
    for (CompareRow r : rows) {
      ours.put(r.m(), r.sparkKpcaSeconds());
      if (r.status().equals("ok")) {
        systems.computeIfAbsent(r.system(), x -> new ArrayList<>()).add(r);
      }
    }
    XYSeries s =
        chart.addSeries(
            "spark-kpca NystromKernelPCA",
            ours.keySet().stream().mapToDouble(m -> m).toArray(),
            ours.values().stream().mapToDouble(v -> v).toArray());
    s.setMarker(SeriesMarkers.CIRCLE);
    for (Map.Entry<String, List<CompareRow>> e : systems.entrySet()) {
      List<CompareRow> sorted = new ArrayList<>(e.getValue());
      sorted.sort((a, b) -> Integer.compare(a.m(), b.m()));
      XYSeries b =
          chart.addSeries(
              e.getKey(),
              sorted.stream().mapToDouble(CompareRow::m).toArray(),
              sorted.stream().mapToDouble(CompareRow::seconds).toArray());
      b.setMarker(SeriesMarkers.DIAMOND);
      b.setLineStyle(DASHED);
    }
    return save(chart, dir.resolve(COMPARISON_FILE));
  }

  static XYChart efficiency(List<BenchRow> rows, String subtitle) {
    XYChart chart = chart("Efficiency (dgemm bound / time)" + subtitle, "n (rows)", "efficiency");
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setXAxisLogarithmicDecadeOnly(false);
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setYAxisMax(1.0);
    // Rows without a transform have no transform efficiency (NaN): line leaves them out.
    lines(
        chart,
        rows,
        BY_M_D_K,
        BY_N,
        "fit",
        BenchRow::fitEfficiency,
        "transform",
        BenchRow::transformEfficiency);
    return chart;
  }

  private static XYChart chart(String title, String x, String y) {
    XYChart chart =
        new XYChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title(title)
            .xAxisTitle(x)
            .yAxisTitle(y)
            .build();
    chart.getStyler().setLegendPosition(LegendPosition.OutsideS);
    chart.getStyler().setMarkerSize(7);
    chart.getStyler().setDecimalPattern("#,##0.###");
    return chart;
  }

  private static final Function<BenchRow, String> BY_M_D_K =
      r -> "m=" + r.m() + ", d=" + r.d() + ", k=" + r.k();
  private static final ToDoubleFunction<BenchRow> BY_N = r -> (double) r.n();

  /**
   * For each group of the rows (by {@code group}'s label), sorted by x: the solid line {@code
   * solid} and the dashed line {@code dashed}, each named with the group.
   */
  private static void lines(
      XYChart chart,
      List<BenchRow> rows,
      Function<BenchRow, String> group,
      ToDoubleFunction<BenchRow> x,
      String solidName,
      ToDoubleFunction<BenchRow> solid,
      String dashedName,
      ToDoubleFunction<BenchRow> dashed) {
    for (Map.Entry<String, List<BenchRow>> g : group(rows, group).entrySet()) {
      List<BenchRow> sorted = sorted(g.getValue(), x);
      line(chart, solidName + " " + g.getKey(), sorted, x, solid, false);
      line(chart, dashedName + " " + g.getKey(), sorted, x, dashed, true);
    }
  }

  private static void line(
      XYChart chart,
      String name,
      List<BenchRow> rows,
      ToDoubleFunction<BenchRow> x,
      ToDoubleFunction<BenchRow> y,
      boolean dashed) {
    List<BenchRow> finite =
        rows.stream()
            .filter(r -> Double.isFinite(y.applyAsDouble(r)) && y.applyAsDouble(r) > 0)
            .toList();
    if (finite.isEmpty()) {
      return;
    }
    XYSeries s =
        chart.addSeries(
            name,
            finite.stream().mapToDouble(x).toArray(),
            finite.stream().mapToDouble(y).toArray());
    s.setMarker(dashed ? SeriesMarkers.DIAMOND : SeriesMarkers.CIRCLE);
    if (dashed) {
      s.setLineStyle(DASHED);
    }
  }

  private static Map<String, List<BenchRow>> group(
      List<BenchRow> rows, Function<BenchRow, String> key) {
    Map<String, List<BenchRow>> groups = new LinkedHashMap<>();
    for (BenchRow r : rows) {
      groups.computeIfAbsent(key.apply(r), x -> new ArrayList<>()).add(r);
    }
    return groups;
  }

  private static List<BenchRow> sorted(List<BenchRow> rows, ToDoubleFunction<BenchRow> key) {
    List<BenchRow> copy = new ArrayList<>(rows);
    copy.sort((a, b) -> Double.compare(key.applyAsDouble(a), key.applyAsDouble(b)));
    return copy;
  }

  private static Path save(XYChart chart, Path file) throws IOException {
    String name = file.toString();
    String base =
        name.toLowerCase(Locale.ROOT).endsWith(".png")
            ? name.substring(0, name.length() - 4)
            : name;
    BitmapEncoder.saveBitmap(chart, base, BitmapFormat.PNG);
    return Path.of(base + ".png");
  }
}
