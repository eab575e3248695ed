package io.github.sparkkpca.examples.reproduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.examples.cli.TestSpark;
import io.github.sparkkpca.examples.data.ImageData;
import io.github.sparkkpca.examples.data.MnistIdx;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The landmark comparison on tiny sizes, and the data-set specs it reads. */
class LandmarkComparisonTest {

  @TempDir Path dir;

  @Test
  void tinyComparisonOfAllThreeStrategies() throws IOException {
    Path mnist = Mnist.requireTrainingFiles();
    Path out = dir.resolve("landmarks");
    LandmarkComparisonConfig config =
        LandmarkComparisonConfig.defaults()
            .withDatasets(List.of("mnist:5"))
            .withMs(List.of(20))
            .withElls(List.of(5, 10, 50))
            .withReps(2)
            .withLimit(300)
            .withKmeansMaxIter(2)
            .withMnistDir(mnist)
            .withPartitions(2)
            .withOut(out);
    LandmarkComparison.Result r = LandmarkComparison.run(TestSpark.session(), config, line -> {});
    // l = 50 > m = 20 is left out: 3 methods x 2 l.
    assertEquals(6, r.rows().size(), r.rows()::toString);
    for (LandmarkComparison.Row row : r.rows()) {
      assertEquals(300, row.n());
      assertTrue(row.ell() == 5 || row.ell() == 10, row::toString);
      assertTrue(row.exactError() > 0, row::toString);
      assertTrue(row.meanRatio() >= 1 - 1e-9, row::toString);
      assertTrue(row.meanFitSeconds() > 0, row::toString);
      assertTrue(row.meanLandmarks() > 0 && row.meanLandmarks() <= 20, row::toString);
    }
    assertEquals(
        List.of("uniform", "leverage", "kmeans"),
        r.rows().stream().map(LandmarkComparison.Row::method).distinct().toList());
    assertEquals(3 * 2 * 20, r.kyFanChecks());
    assertEquals(0, r.kyFanViolations());
    List<String> csv = Files.readAllLines(out.resolve("landmarks.csv"));
    assertEquals(7, csv.size());
    assertTrue(csv.get(0).startsWith("dataset,n,gamma,method,m,ell,mean_error"), csv.get(0));
    for (String png : List.of("landmarks_mnist-5-first300.png", "landmarks_fit_time.png")) {
      assertNotNull(ImageIO.read(out.resolve(png).toFile()), png);
    }
    assertTrue(
        Files.readString(out.resolve("summary.txt")).contains("Ky Fan: 120 checks, 0 violations"));

    // The charts can be redrawn from the CSV files alone, through the API and the command line.
    Files.delete(out.resolve("landmarks_fit_time.png"));
    List<Path> redrawn = LandmarkComparison.replot(out);
    assertEquals(2, redrawn.size(), redrawn::toString);
    assertNotNull(ImageIO.read(out.resolve("landmarks_fit_time.png").toFile()));
    TestSpark.Result cli =
        TestSpark.cli("reproduce", "landmarks", "--replot", "--out", out.toString());
    assertEquals(0, cli.code(), cli::toString);
    assertTrue(cli.out().contains("redrew 2 charts"), cli::toString);
  }

  @Test
  void specsParseAndDescribeThemselves() {
    ImageData.Spec digit = ImageData.Spec.parse("mnist:5", 0);
    assertEquals("mnist-5", digit.id());
    assertEquals("MNIST digit 5 (training set)", digit.describe());
    ImageData.Spec random = ImageData.Spec.parse("Fashion:random:6000", 100);
    assertEquals("fashion-random-6000-first100", random.id());
    assertTrue(random.describe().contains("random subset of 6000"), random.describe());
    for (String bad : List.of("mnist", "mnist:10", "cifar:1", "fashion:random:0", "mnist:x")) {
      assertThrows(IllegalArgumentException.class, () -> ImageData.Spec.parse(bad, 0), bad);
    }
  }

  @Test
  void randomSubsetIsFixedSortedAndReadsGzip() throws IOException {
    int count = 50;
    writeGz(dir.resolve("train-images-idx3-ubyte.gz"), 0x803, count, true);
    writeGz(dir.resolve("train-labels-idx1-ubyte.gz"), 0x801, count, false);
    MnistIdx idx = MnistIdx.read(dir, true);
    int[] a = ImageData.select(idx, ImageData.Spec.parse("fashion:random:20", 0));
    int[] b = ImageData.select(idx, ImageData.Spec.parse("fashion:random:20", 0));
    assertArrayEquals(a, b);
    assertEquals(20, a.length);
    for (int i = 1; i < a.length; i++) {
      assertTrue(a[i] > a[i - 1]);
    }
    assertArrayEquals(
        new int[] {3, 13, 23, 33, 43}, ImageData.select(idx, ImageData.Spec.parse("fashion:3", 0)));
    assertArrayEquals(
        new int[] {3, 13}, ImageData.select(idx, ImageData.Spec.parse("fashion:3", 2)));
  }

  /**
   * A tiny IDX file of {@code count} 2x2 images (pixel = index) or labels (index mod 10), gzipped.
   */
  static void writeGz(Path file, int magic, int count, boolean images) throws IOException {
    try (DataOutputStream out =
        new DataOutputStream(new GZIPOutputStream(Files.newOutputStream(file)))) {
      out.writeInt(magic);
      out.writeInt(count);
      if (images) {
        out.writeInt(2);
        out.writeInt(2);
      }
      for (int i = 0; i < count; i++) {
        if (images) {
          for (int p = 0; p < 4; p++) {
            out.writeByte(i);
          }
        } else {
          out.writeByte(i % 10);
        }
      }
    }
  }

  @Test
  void commandLineRejectsBadMethodAndDataset() {
    TestSpark.Result method =
        TestSpark.cli(
            "reproduce",
            "landmarks",
            "--methods",
            "uniform,random",
            "--out",
            dir.resolve("x").toString());
    assertEquals(2, method.code(), method::toString);
    assertTrue(method.err().contains("--methods"), method::toString);
    TestSpark.Result data =
        TestSpark.cli(
            "reproduce",
            "landmarks",
            "--datasets",
            "cifar:1",
            "--out",
            dir.resolve("x").toString());
    assertEquals(2, data.code(), data::toString);
    assertTrue(data.err().contains("--datasets") && data.err().contains("cifar:1"), data::toString);
  }
}
