package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.evaluation.NystromConfidenceBound;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.spark.ml.linalg.DenseMatrix;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fit's choices about landmarks and what it reports on them: {@code --confidence} (Theorem 4's
 * bound in the summary, refused where it does not hold), {@code --landmarks-file} (checked before
 * the fit) and {@code --landmarks auto} (residual growth, its curve in the summary).
 */
class LandmarkChoiceCliTest {

  static final int N = 200;
  static final int D = 3;

  @TempDir static Path dir;
  static Path csv;
  static double[][] rows;

  @BeforeAll
  static void writeCsv() throws IOException {
    TestSpark.session();
    Random random = new Random(5);
    rows = new double[N][D];
    StringBuilder text = new StringBuilder("x1,x2,x3\n");
    for (int i = 0; i < N; i++) {
      for (int t = 0; t < D; t++) {
        rows[i][t] =
            Double.parseDouble(
                String.format(Locale.ROOT, "%.6f", (i % 2) * 1.5 + random.nextGaussian()));
        text.append(String.format(Locale.ROOT, t == 0 ? "%.6f" : ",%.6f", rows[i][t]));
      }
      text.append('\n');
    }
    csv = Files.writeString(dir.resolve("rows.csv"), text.toString(), StandardCharsets.UTF_8);
  }

  @Test
  void confidenceAddsTheBoundOfTheSavedModel() throws IOException {
    Path summary = dir.resolve("bound.json");
    Path model = dir.resolve("bound-model");
    TestSpark.Result run =
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--k",
            "4",
            "--landmarks",
            "30",
            "--gamma",
            "0.3",
            "--no-center",
            "--seed",
            "2",
            "--confidence",
            "0.9",
            "--model-out",
            model.toString(),
            "--summary-out",
            summary.toString());
    assertEquals(0, run.code(), run::toString);
    JsonNode json = CliFixture.json(summary);
    List<String> keys = CliFixture.keys(json);
    assertEquals(
        List.of("fitSeconds", "confidence", "reconstructionErrorBound"), keys.subList(12, 15));
    assertEquals(0.9, json.get("confidence").asDouble(), 0);
    double[] expected =
        NystromConfidenceBound.compute(NystromKernelPCAModel.load(model.toString()), 0.9)
            .reconstructionErrorBound();
    assertEquals(4, json.get("reconstructionErrorBound").size());
    for (int d = 0; d < 4; d++) {
      assertEquals(expected[d], json.get("reconstructionErrorBound").get(d).asDouble(), 1e-12);
      assertTrue(d == 0 || expected[d] >= expected[d - 1], "the bound grows with d");
    }
    assertTrue(run.out().contains("Theorem 4"), run.out());
    // A summary with the optional keys is still a fit summary that --overwrite may replace.
    TestSpark.Result again =
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--k",
            "4",
            "--landmarks",
            "30",
            "--gamma",
            "0.3",
            "--no-center",
            "--model-out",
            model.toString(),
            "--summary-out",
            summary.toString(),
            "--overwrite");
    assertEquals(0, again.code(), again::toString);
  }

  @Test
  void confidenceIsRefusedWhereTheTheoremDoesNotHold() {
    // {expected words, extra arguments}
    String[][] cases = {
      {"--no-center", "--kernel", "rbf", "--gamma", "0.3"},
      {"unbounded", "--kernel", "polynomial", "--no-center"},
      {"kmeans", "--kernel", "rbf", "--no-center", "--landmark-sampling", "kmeans"}
    };
    for (String[] c : cases) {
      List<String> args =
          new ArrayList<>(
              List.of(
                  "fit",
                  "--input",
                  csv.toString(),
                  "--k",
                  "3",
                  "--landmarks",
                  "20",
                  "--confidence",
                  "0.9",
                  "--model-out",
                  dir.resolve("refused").toString()));
      args.addAll(List.of(c).subList(1, c.length));
      TestSpark.Result run = TestSpark.cli(args.toArray(new String[0]));
      assertEquals(2, run.code(), run::toString);
      assertEquals(1, run.errLines().size(), run::toString);
      assertTrue(run.err().contains("--confidence") && run.err().contains(c[0]), run.err());
      assertFalse(run.out().contains("loading"), "refused before the data are read: " + run.out());
      assertFalse(Files.exists(dir.resolve("refused")));
    }
  }

  @Test
  void landmarksFileGivesTheLandmarksOfTheModel() throws IOException {
    StringBuilder text = new StringBuilder();
    int m = 12;
    for (int j = 0; j < m; j++) {
      double[] r = rows[7 * j];
      text.append(String.format(Locale.ROOT, "%.6f,%.6f,%.6f%n", r[0], r[1], r[2]));
      if (j == 5) {
        text.append('\n'); // blank lines are skipped
      }
    }
    Path file =
        Files.writeString(dir.resolve("landmarks.csv"), text.toString(), StandardCharsets.UTF_8);
    Path model = dir.resolve("file-model");
    TestSpark.Result run =
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--k",
            "3",
            "--landmarks-file",
            file.toString(),
            "--gamma",
            "0.3",
            "--model-out",
            model.toString());
    assertEquals(0, run.code(), run::toString);
    DenseMatrix landmarks = NystromKernelPCAModel.load(model.toString()).landmarks().toDense();
    assertEquals(m, landmarks.numRows());
    for (int j = 0; j < m; j++) {
      for (int t = 0; t < D; t++) {
        assertEquals(rows[7 * j][t], landmarks.apply(j, t), 0.0);
      }
    }

    Path bad = Files.writeString(dir.resolve("bad.csv"), "1,2,3\n4,x,6\n", StandardCharsets.UTF_8);
    TestSpark.Result notNumber =
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--k",
            "1",
            "--landmarks-file",
            bad.toString(),
            "--model-out",
            dir.resolve("bad-model").toString());
    assertEquals(2, notNumber.code(), notNumber::toString);
    assertTrue(
        notNumber.err().contains(bad.toString())
            && notNumber.err().contains("line 2, column 2")
            && notNumber.err().contains("'x' is not a number"),
        notNumber.err());
    assertFalse(
        notNumber.out().contains("loading"),
        "refused before the data are read: " + notNumber.out());

    Path ragged =
        Files.writeString(dir.resolve("ragged.csv"), "1,2,3\n4,5\n", StandardCharsets.UTF_8);
    TestSpark.Result short2 =
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--k",
            "1",
            "--landmarks-file",
            ragged.toString(),
            "--model-out",
            dir.resolve("bad-model").toString());
    assertEquals(2, short2.code(), short2::toString);
    assertTrue(short2.err().contains("line 2 has 2 columns, line 1 has 3"), short2.err());

    Path wide =
        Files.writeString(dir.resolve("wide.csv"), "1,2,3,4\n5,6,7,8\n", StandardCharsets.UTF_8);
    TestSpark.Result dimension =
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--k",
            "1",
            "--landmarks-file",
            wide.toString(),
            "--model-out",
            dir.resolve("bad-model").toString());
    assertEquals(2, dimension.code(), dimension::toString);
    assertTrue(
        dimension.err().contains(wide.toString())
            && dimension.err().contains("4 columns but the input vectors have 3"),
        dimension.err());
    assertFalse(Files.exists(dir.resolve("bad-model")));
  }

  @Test
  void autoLandmarksReportTheirResidualCurve() throws IOException {
    Path summary = dir.resolve("auto.json");
    TestSpark.Result run =
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--k",
            "2",
            "--landmarks",
            "auto",
            "--landmark-tolerance",
            "0.2",
            "--max-landmarks",
            "60",
            "--landmark-probe-size",
            "40",
            "--gamma",
            "0.3",
            "--seed",
            "4",
            "--model-out",
            dir.resolve("auto-model").toString(),
            "--summary-out",
            summary.toString());
    assertEquals(0, run.code(), run::toString);
    JsonNode json = CliFixture.json(summary);
    int m = json.get("m").asInt();
    JsonNode curve = json.get("landmarkResidualCurve");
    assertEquals(m, curve.size());
    assertTrue(
        curve.get(m - 1).asDouble() <= 0.2 && (m == 1 || curve.get(m - 2).asDouble() > 0.2),
        curve.toString());
    assertEquals(
        m,
        NystromKernelPCAModel.load(dir.resolve("auto-model").toString())
            .getLandmarkResidualCurve()
            .length);
    assertTrue(run.out().contains("landmarks by residual growth: m = " + m), run.out());

    String[][] refused = {
      {"--landmarks", "many", "must be a number of landmarks or auto"},
      {
        "--landmarks",
        "30",
        "--landmark-tolerance",
        "0.1",
        "--landmark-tolerance applies to --landmarks auto"
      },
      {"--landmarks", "auto", "--alpha", "0.1", "--alpha applies to --landmark-test f"},
      {"--landmarks", "auto", "--landmark-test", "t", "--landmark-test must be tolerance or f"}
    };
    for (String[] r : refused) {
      List<String> args =
          new ArrayList<>(
              List.of(
                  "fit",
                  "--input",
                  csv.toString(),
                  "--k",
                  "2",
                  "--model-out",
                  dir.resolve("refused-auto").toString()));
      args.addAll(List.of(r).subList(0, r.length - 1));
      TestSpark.Result bad = TestSpark.cli(args.toArray(new String[0]));
      assertEquals(2, bad.code(), bad::toString);
      assertTrue(bad.err().contains(r[r.length - 1]), bad.err());
    }
  }
}
