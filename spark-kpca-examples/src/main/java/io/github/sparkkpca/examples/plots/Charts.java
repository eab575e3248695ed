package io.github.sparkkpca.examples.plots;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG charts for the reproductions, comparisons and diagnostics (line charts with ±bands, grouped
 * bar charts), drawn headless with XChart. The API takes plain arrays and lists, so callers need no
 * plotting types (the examples jar relocates XChart).
 *
 * <p>AWT is switched to headless mode when this class loads, unless {@code java.awt.headless} was
 * set explicitly: the charts are drawn off-screen on machines without a display (CI, cluster
 * drivers).
 *
 * <p>Logarithmic axes cannot show values ≤ 0; such values (e.g. the lower end of a mean − 2 sd
 * band, or an error that is exactly 0) are drawn at half the smallest positive value of the chart,
 * which keeps the axis range meaningful. The numbers themselves belong in CSV files next to the
 * charts.
 */
public final class Charts {

  /** Default image size in pixels. */
  public static final int WIDTH = 960;

  public static final int HEIGHT = 640;

  /** A colour-blind-safe palette (Okabe and Ito), black first, used in series order unless set. */
  public static final List<Color> PALETTE =
      List.of(
          new Color(0, 0, 0),
          new Color(0, 114, 178),
          new Color(230, 159, 0),
          new Color(0, 158, 115),
          new Color(204, 121, 167),
          new Color(213, 94, 0),
          new Color(86, 180, 233),
          new Color(240, 228, 66));

  static {
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  private Charts() {}

  /**
   * One line of a line chart, optionally with a band (e.g. mean ± 2 sd) drawn as two thin lines of
   * the same colour that are not listed in the legend.
   *
   * @param name legend entry (unique within a chart)
   * @param x abscissae
   * @param y ordinates, as many as x
   * @param lower lower band, or null
   * @param upper upper band, or null
   * @param color colour, or null for the palette's next
   * @param dashed whether the line is dashed
   */
  public record Line(
      String name,
      double[] x,
      double[] y,
      double[] lower,
      double[] upper,
      Color color,
      boolean dashed) {

    public Line {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(x, "x");
      Objects.requireNonNull(y, "y");
      if (x.length != y.length || x.length == 0) {
        throw new IllegalArgumentException(
            "line '"
                + name
                + "': "
                + x.length
                + " x values and "
                + y.length
                + " y values; both must be equal and > 0");
      }
      if ((lower == null) != (upper == null)
          || (lower != null && (lower.length != x.length || upper.length != x.length))) {
        throw new IllegalArgumentException(
            "line '" + name + "': the band needs lower and upper values, one per x");
      }
    }

    /** A plain line in the palette's next colour. */
    public static Line of(String name, double[] x, double[] y) {
      return new Line(name, x, y, null, null, null, false);
    }

    /** The same line with a band between {@code lo} and {@code hi}. */
    public Line withBand(double[] lo, double[] hi) {
      return new Line(name, x, y, lo, hi, color, dashed);
    }

    /** The same line in colour {@code c}. */
    public Line withColor(Color c) {
      return new Line(name, x, y, lower, upper, c, dashed);
    }

    /** The same line, dashed. */
    public Line asDashed() {
      return new Line(name, x, y, lower, upper, color, true);
    }
  }

  /**
   * One series of a grouped bar chart: one value per category, with optional symmetric error bars.
   *
   * @param name legend entry
   * @param values one per category
   * @param errors half-lengths of the error bars, one per category, or null
   */
  public record Bars(String name, double[] values, double[] errors) {
    public Bars {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(values, "values");
      if (errors != null && errors.length != values.length) {
        throw new IllegalArgumentException(
            "bars '" + name + "': " + values.length + " values but " + errors.length + " errors");
      }
    }
  }

  /**
   * One group of a scatter chart (e.g. the rows of one label), drawn as small dots in one colour.
   *
   * @param name legend entry (unique within a chart)
   * @param x abscissae
   * @param y ordinates, as many as x
   */
  public record Points(String name, double[] x, double[] y) {
    public Points {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(x, "x");
      Objects.requireNonNull(y, "y");
      if (x.length != y.length) {
        throw new IllegalArgumentException(
            "points '" + name + "': " + x.length + " x values and " + y.length + " y values");
      }
    }
  }

  /** The axis titles and scale of a chart. */
  public record Axes(String title, String xLabel, String yLabel, boolean logY) {}

  /** Writes a line chart of default size to {@code png}. */
  public static Path lineChart(Path png, Axes axes, List<Line> lines) {
    return lineChart(png, axes, lines, WIDTH, HEIGHT);
  }

  /**
   * Writes a line chart (no markers, legend inside the top right corner) to {@code png}, creating
   * its directory; returns {@code png}.
   */
  public static Path lineChart(Path png, Axes axes, List<Line> lines, int width, int height) {
    if (lines.isEmpty()) {
      throw new IllegalArgumentException("a line chart needs at least one line");
    }
    XYChart chart = xyChart(axes, width, height, Styler.LegendPosition.InsideNE);
    chart.getStyler().setMarkerSize(0);
    double floor = axes.logY() ? logFloor(lines) : Double.NaN;
    if (lines.stream().allMatch(l -> Arrays.stream(l.x()).allMatch(v -> v >= 0))) {
      // Counts (components, landmarks) start the axis at 0, so its ticks fall on round numbers.
      chart.getStyler().setXAxisMin(0.0);
    }
    Set<String> names = new HashSet<>();
    int next = 0;
    for (Line line : lines) {
      if (!names.add(line.name())) {
        throw new IllegalArgumentException("duplicate line name '" + line.name() + "'");
      }
      Color color = line.color() != null ? line.color() : PALETTE.get(next++ % PALETTE.size());
      XYSeries main = chart.addSeries(line.name(), line.x(), positive(line.y(), floor));
      main.setMarker(SeriesMarkers.NONE);
      // XChart dashes each segment separately, so densely sampled dashed lines look solid; a
      // lighter tint
      // keeps them apart from the solid ones anyway.
      main.setLineColor(line.dashed() ? tint(color) : color);
      main.setLineStyle(stroke(2.0f, line.dashed()));
      if (line.lower() != null) {
        Color faint = new Color(color.getRed(), color.getGreen(), color.getBlue(), 140);
        for (int b = 0; b < 2; b++) {
          XYSeries band =
              chart.addSeries(
                  line.name() + (b == 0 ? " (lower)" : " (upper)"),
                  line.x(),
                  positive(b == 0 ? line.lower() : line.upper(), floor));
          band.setMarker(SeriesMarkers.NONE);
          band.setLineColor(faint);
          band.setLineStyle(stroke(0.8f, false));
          band.setShowInLegend(false);
        }
      }
    }
    return write(png, chart);
  }

  /**
   * Writes a scatter chart (one colour per group, in palette order, then in hues spread around the
   * colour wheel when there are more groups than palette colours) to {@code png}, creating its
   * directory; returns {@code png}. Empty groups are left out.
   */
  public static Path scatterChart(Path png, Axes axes, List<Points> groups, int width, int height) {
    List<Points> drawn = groups.stream().filter(g -> g.x().length > 0).toList();
    if (drawn.isEmpty()) {
      throw new IllegalArgumentException("a scatter chart needs at least one point");
    }
    XYChart chart = xyChart(axes, width, height, Styler.LegendPosition.OutsideE);
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    chart.getStyler().setMarkerSize(4);
    Set<String> names = new HashSet<>();
    for (int i = 0; i < drawn.size(); i++) {
      Points g = drawn.get(i);
      if (!names.add(g.name())) {
        throw new IllegalArgumentException("duplicate group name '" + g.name() + "'");
      }
      Color color =
          i < PALETTE.size()
              ? PALETTE.get(i)
              : Color.getHSBColor(
                  (float) (i - PALETTE.size()) / (drawn.size() - PALETTE.size()), 0.75f, 0.8f);
      XYSeries series = chart.addSeries(g.name(), g.x(), g.y());
      series.setMarker(SeriesMarkers.CIRCLE);
      series.setMarkerColor(new Color(color.getRed(), color.getGreen(), color.getBlue(), 170));
    }
    return write(png, chart);
  }

  /**
   * An XY chart with the axes' titles and scale, white and lightly gridded, its legend framed in
   * grey.
   */
  private static XYChart xyChart(Axes axes, int width, int height, Styler.LegendPosition legend) {
    XYChart chart =
        new XYChartBuilder()
            .width(width)
            .height(height)
            .title(axes.title())
            .xAxisTitle(axes.xLabel())
            .yAxisTitle(axes.yLabel())
            .build();
    chart.getStyler().setYAxisLogarithmic(axes.logY());
    whiteStyle(chart.getStyler(), legend);
    chart.getStyler().setLegendBorderColor(new Color(200, 200, 200));
    return chart;
  }

  /**
   * The charts' common look: white chart and plot, light grey grid lines, the legend where given.
   */
  private static void whiteStyle(AxesChartStyler styler, Styler.LegendPosition legend) {
    styler.setLegendPosition(legend);
    styler.setChartBackgroundColor(Color.WHITE);
    styler.setPlotBackgroundColor(Color.WHITE);
    styler.setPlotGridLinesColor(new Color(225, 225, 225));
  }

  /** Writes a grouped bar chart of default size to {@code png}. */
  public static Path barChart(Path png, Axes axes, List<String> categories, List<Bars> series) {
    return barChart(png, axes, categories, series, WIDTH, HEIGHT);
  }

  /**
   * Writes a grouped bar chart (one group per category, one bar per series, optional error bars) to
   * {@code png}, creating its directory; returns {@code png}.
   */
  public static Path barChart(
      Path png, Axes axes, List<String> categories, List<Bars> series, int width, int height) {
    if (categories.isEmpty() || series.isEmpty()) {
      throw new IllegalArgumentException("a bar chart needs at least one category and one series");
    }
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(width)
            .height(height)
            .title(axes.title())
            .xAxisTitle(axes.xLabel())
            .yAxisTitle(axes.yLabel())
            .build();
    AxesChartStyler styler = chart.getStyler();
    chart.getStyler().setYAxisLogarithmic(axes.logY());
    chart.getStyler().setErrorBarsColorSeriesColor(false);
    chart.getStyler().setErrorBarsColor(Color.BLACK);
    chart.getStyler().setOverlapped(false);
    int longest = categories.stream().mapToInt(String::length).max().orElse(0);
    if (longest * 7 * categories.size() > width * 0.85) {
      // Labels of about 7 px a character would overlap side by side.
      chart.getStyler().setXAxisLabelRotation(20);
    }
    whiteStyle(styler, Styler.LegendPosition.OutsideS);
    styler.setLegendLayout(Styler.LegendLayout.Horizontal);
    double floor = Double.NaN;
    if (axes.logY()) {
      floor = Double.POSITIVE_INFINITY;
      for (Bars b : series) {
        floor = Math.min(floor, minPositive(b.values()));
      }
      floor = Double.isFinite(floor) ? floor / 2 : 1.0;
      // Bars rise from the axis minimum, which XChart puts at 0 unless told otherwise.
      chart.getStyler().setYAxisMin(floor);
    }
    int next = 1;
    for (Bars b : series) {
      if (b.values().length != categories.size()) {
        throw new IllegalArgumentException(
            "bars '"
                + b.name()
                + "': "
                + b.values().length
                + " values for "
                + categories.size()
                + " categories");
      }
      List<Number> values = new ArrayList<>();
      for (double v : positive(b.values(), floor)) {
        values.add(v);
      }
      CategorySeries s;
      if (b.errors() != null) {
        List<Number> errors = new ArrayList<>();
        for (double e : b.errors()) {
          errors.add(Double.isFinite(e) ? e : 0.0);
        }
        s = chart.addSeries(b.name(), categories, values, errors);
      } else {
        s = chart.addSeries(b.name(), categories, values);
      }
      s.setFillColor(PALETTE.get(next++ % PALETTE.size()));
    }
    return write(png, chart);
  }

  private static Color tint(Color c) {
    return new Color((c.getRed() + 255) / 2, (c.getGreen() + 255) / 2, (c.getBlue() + 255) / 2);
  }

  private static BasicStroke stroke(float width, boolean dashed) {
    return dashed
        ? new BasicStroke(
            width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {7f, 5f}, 0f)
        : new BasicStroke(width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND);
  }

  private static double logFloor(List<Line> lines) {
    double min = Double.POSITIVE_INFINITY;
    for (Line l : lines) {
      min = Math.min(min, minPositive(l.y()));
      if (l.lower() != null) {
        min = Math.min(min, minPositive(l.lower()));
      }
    }
    return Double.isFinite(min) ? min / 2 : 1.0;
  }

  private static double minPositive(double[] values) {
    double min = Double.POSITIVE_INFINITY;
    for (double v : values) {
      if (v > 0 && v < min) {
        min = v;
      }
    }
    return min;
  }

  /** Values ≤ 0 or not finite replaced by {@code floor} when a floor is given (log axes). */
  private static double[] positive(double[] values, double floor) {
    if (Double.isNaN(floor)) {
      return values;
    }
    double[] out = Arrays.copyOf(values, values.length);
    for (int i = 0; i < out.length; i++) {
      if (!(out[i] > 0) || !Double.isFinite(out[i])) {
        out[i] = floor;
      }
    }
    return out;
  }

  private static Path write(Path png, org.knowm.xchart.internal.chartpart.Chart<?, ?> chart) {
    try {
      Path parent = png.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.write(png, BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG));
      return png;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the chart " + png + ": " + e.getMessage(), e);
    }
  }
}
