package io.github.sparkkpca.examples.plots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Charts are written headless as readable PNGs; log axes tolerate values <= 0. */
class ChartsTest {

  @TempDir Path dir;

  static BufferedImage readPng(Path png) throws IOException {
    BufferedImage image = ImageIO.read(png.toFile());
    assertNotNull(image, () -> png + " is not a readable image");
    return image;
  }

  @Test
  void lineChartWithBandsOnLogAxis() throws IOException {
    double[] x = {1, 2, 3, 4};
    Path png =
        Charts.lineChart(
            dir.resolve("sub/line.png"),
            new Charts.Axes("t", "x", "y", true),
            List.of(
                Charts.Line.of("exact", x, new double[] {1, 0.5, 0.1, 0.0}),
                Charts.Line.of("m = 2", x, new double[] {1, 0.6, 0.3, 0.2})
                    .withBand(new double[] {0.9, 0.5, -0.1, 0.1}, new double[] {1.1, 0.7, 0.7, 0.3})
                    .asDashed()),
            400,
            300);
    BufferedImage image = readPng(png);
    assertEquals(400, image.getWidth());
    assertEquals(300, image.getHeight());
    assertTrue(java.awt.GraphicsEnvironment.isHeadless());
  }

  @Test
  void groupedBarChart() throws IOException {
    Path png =
        Charts.barChart(
            dir.resolve("bars.png"),
            new Charts.Axes("t", "x", "y", false),
            List.of("a", "b"),
            List.of(
                new Charts.Bars("one", new double[] {1, 2}, new double[] {0.1, 0.2}),
                new Charts.Bars("two", new double[] {1.5, 0.5}, null)));
    assertTrue(readPng(png).getWidth() > 0);
    Path log =
        Charts.barChart(
            dir.resolve("bars-log.png"),
            new Charts.Axes("t", "x", "seconds", true),
            List.of("a", "b"),
            List.of(
                new Charts.Bars("one", new double[] {0.5, 20}, null),
                new Charts.Bars("two", new double[] {3, 0}, new double[] {1, 1})));
    assertTrue(readPng(log).getWidth() > 0);
  }

  @Test
  void inconsistentInputIsRejected() {
    assertThrows(
        IllegalArgumentException.class,
        () -> Charts.Line.of("a", new double[] {1, 2}, new double[] {1}));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            Charts.lineChart(
                dir.resolve("x.png"),
                new Charts.Axes("t", "x", "y", false),
                List.of(
                    Charts.Line.of("a", new double[] {1}, new double[] {1}),
                    Charts.Line.of("a", new double[] {1}, new double[] {2}))));
  }
}
