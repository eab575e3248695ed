package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.evaluation.KSelection;
import io.github.sparkkpca.evaluation.Mpress;
import io.github.sparkkpca.kernel.Kernel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * select-k: the MPRESS curve of the library for the rows of a CSV file, its argmin, and the row
 * limit.
 */
class SelectKCliTest {

  @TempDir static Path dir;
  static Path csv;
  static double[] points;
  static final int N = 30;

  @BeforeAll
  static void writeCsv() throws IOException {
    TestSpark.session();
    Random random = new Random(3);
    StringBuilder text = new StringBuilder("x1,x2,x3\n");
    points = new double[N * 3];
    for (int i = 0; i < N; i++) {
      for (int t = 0; t < 3; t++) {
        // Six decimals, so the values parsed from the file are these exactly.
        points[i * 3 + t] =
            Double.parseDouble(
                String.format(Locale.ROOT, "%.6f", (i % 2) * 2.0 + random.nextGaussian()));
      }
      text.append(
          String.format(
              Locale.ROOT,
              "%.6f,%.6f,%.6f%n",
              points[i * 3],
              points[i * 3 + 1],
              points[i * 3 + 2]));
    }
    csv = Files.writeString(dir.resolve("rows.csv"), text.toString(), StandardCharsets.UTF_8);
  }

  @Test
  void writesTheCurveAndItsArgmin() throws IOException {
    Path summary = dir.resolve("select-k.json");
    TestSpark.Result run =
        TestSpark.cli(
            "select-k",
            "--input",
            csv.toString(),
            "--kernel",
            "rbf",
            "--gamma",
            "0.5",
            "--max-k",
            "6",
            "--summary-out",
            summary.toString());
    assertEquals(0, run.code(), run::toString);
    JsonNode json = CliFixture.json(summary);
    Mpress.Curve expected = Mpress.compute(Kernel.rbf(0.5), points, N, 3, 6);
    assertEquals(6, json.get("mpress").size());
    for (int k = 1; k <= 6; k++) {
      // MPRESS does not depend on the order of the rows.
      assertEquals(
          expected.mpress()[k - 1],
          json.get("mpress").get(k - 1).asDouble(),
          1e-9 * expected.mpress()[0]);
    }
    assertEquals(expected.k(), json.get("k").asInt());
    assertEquals(N, json.get("n").asInt());
    assertTrue(run.out().contains("selected k = " + expected.k()), run.out());

    TestSpark.Result again =
        TestSpark.cli(
            "select-k",
            "--input",
            csv.toString(),
            "--gamma",
            "0.5",
            "--max-k",
            "6",
            "--summary-out",
            summary.toString());
    assertEquals(2, again.code(), again::toString);
    assertTrue(again.err().contains("--summary-out"), again.err());
  }

  /** What select-k prints and writes is the library's {@link KSelection} on the same rows. */
  @Test
  void printsTheCurveOfTheLibrarysKSelection() throws IOException {
    Path summary = dir.resolve("select-k-median.json");
    TestSpark.Result run =
        TestSpark.cli(
            "select-k",
            "--input",
            csv.toString(),
            "--max-k",
            "5",
            "--loo-method",
            "rank_one",
            "--summary-out",
            summary.toString());
    assertEquals(0, run.code(), run::toString);
    KSelection.Result expected =
        new KSelection()
            .setMaxK(5)
            .setMethod(Mpress.Method.RANK_ONE)
            .select(new Mpress.Sample(points, N, 3));
    JsonNode json = CliFixture.json(summary);
    assertEquals(expected.kernel().gamma(), json.get("gamma").asDouble(), 1e-12);
    for (int k = 1; k <= 5; k++) {
      double value = expected.mpress()[k - 1];
      assertEquals(value, json.get("mpress").get(k - 1).asDouble(), 1e-9 * expected.mpress()[0]);
      // The printed table: k and MPRESS(k) to 8 significant digits.
      assertTrue(run.out().contains(String.format(Locale.ROOT, "%5d %14.8g", k, value)), run.out());
    }
    assertEquals(expected.k(), json.get("k").asInt());
    assertTrue(run.out().contains("selected k = " + expected.k()), run.out());
    assertTrue(run.out().contains("leave-one-out decompositions: rank_one"), run.out());
  }

  @Test
  void refusesMoreRowsThanTheLimitOrSubsamples() {
    TestSpark.Result run =
        TestSpark.cli(
            "select-k",
            "--input",
            csv.toString(),
            "--gamma",
            "0.5",
            "--max-k",
            "3",
            "--max-rows",
            "20");
    assertEquals(2, run.code(), run::toString);
    assertTrue(run.err().contains("--max-rows 20") && run.err().contains("n = 30"), run.err());
    TestSpark.Result sub =
        TestSpark.cli(
            "select-k",
            "--input",
            csv.toString(),
            "--gamma",
            "0.5",
            "--max-k",
            "3",
            "--max-rows",
            "20",
            "--subsample-seed",
            "4");
    assertEquals(0, sub.code(), sub::toString);
    assertTrue(sub.out().contains("n = 20 rows"), sub.out());
    TestSpark.Result rank =
        TestSpark.cli("select-k", "--input", csv.toString(), "--kernel", "linear", "--max-k", "3");
    assertEquals(2, rank.code(), rank::toString);
    assertTrue(
        rank.err().contains("--max-k") && rank.err().contains("numerical rank is 3"), rank.err());
    assertFalse(rank.err().contains("Exception"), rank.err());
  }

  /**
   * --max-rows N asks for N×N matrices: refused before anything is collected, with the estimate,
   * instead of an OutOfMemoryError or a NegativeArraySizeException.
   */
  @Test
  void refusesARowLimitWhoseMatricesCannotBeAllocated() {
    TestSpark.Result heap =
        TestSpark.cli(
            "select-k",
            "--input",
            "synthetic:n=20000,d=2,seed=1",
            "--gamma",
            "0.5",
            "--max-k",
            "3",
            "--max-rows",
            "20000");
    CliErrorsTest.assertUsageError(
        heap, "n = 20000", "GiB", "heap", "--max-rows", "spark.driver.memory");
    TestSpark.Result array =
        TestSpark.cli(
            "select-k",
            "--input",
            "synthetic:n=46400,d=2,seed=1",
            "--gamma",
            "0.5",
            "--max-k",
            "3",
            "--max-rows",
            "46341",
            "--subsample-seed",
            "2");
    CliErrorsTest.assertUsageError(array, "n = 46341", "46340", "--max-rows");
  }

  /** The seeded subsample depends on the rows, not on how they are split into partitions. */
  @Test
  void subsampleDoesNotDependOnThePartitions() throws IOException {
    double[][] curves = new double[2][];
    int c = 0;
    for (String partitions : new String[] {"1", "4"}) {
      Path summary = dir.resolve("select-k-partitions-" + partitions + ".json");
      TestSpark.Result run =
          TestSpark.cli(
              "select-k",
              "--input",
              csv.toString(),
              "--partitions",
              partitions,
              "--gamma",
              "0.5",
              "--max-k",
              "4",
              "--max-rows",
              "12",
              "--subsample-seed",
              "7",
              "--summary-out",
              summary.toString());
      assertEquals(0, run.code(), run::toString);
      JsonNode json = CliFixture.json(summary);
      curves[c] = new double[4];
      for (int k = 0; k < 4; k++) {
        curves[c][k] = json.get("mpress").get(k).asDouble();
      }
      c++;
    }
    for (int k = 0; k < 4; k++) {
      assertEquals(curves[0][k], curves[1][k], 1e-12 * curves[0][0], "MPRESS(" + (k + 1) + ")");
    }
  }

  /** A minimum at k = --max-k is said plainly: MPRESS may still decrease beyond it. */
  @Test
  void flagsAnArgminAtTheEdge() {
    TestSpark.Result run =
        TestSpark.cli("select-k", "--input", csv.toString(), "--gamma", "0.5", "--max-k", "1");
    assertEquals(0, run.code(), run::toString);
    assertTrue(run.out().contains("selected k = 1"), run.out());
    assertTrue(
        run.out().contains("edge of the curve (k = --max-k = 1)")
            && run.out().contains("larger --max-k"),
        run.out());
  }
}
