package io.github.sparkkpca.examples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.examples.cli.TestSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bench sparse at tiny sizes (without scikit-learn, which is no test dependency): one line per
 * (data, m) with the generated files' sizes; the libsvm files hold what the lines say (rows, ones
 * per one-hot row, L2-normalised text rows); a bad --data is refused with one line.
 */
class SparseBenchTest {

  @TempDir Path dir;

  @Test
  void writesOneLinePerDataAndM() throws IOException {
    Path out = dir.resolve("sparse.csv");
    Path work = dir.resolve("work");
    TestSpark.Result run =
        TestSpark.cli(
            "bench",
            "sparse",
            "--rows",
            "80",
            "--d",
            "4096",
            "--nnz",
            "12",
            "--max-categories",
            "40",
            "--m",
            "10,20",
            "--k",
            "3",
            "--repeats",
            "2",
            "--collect-before-fits",
            "--work",
            work.toString(),
            "--out",
            out.toString());
    assertEquals(0, run.code(), run::toString);
    List<String> lines = Files.readAllLines(out);
    assertEquals(SparseBench.COLUMNS, lines.get(0));
    assertEquals(5, lines.size(), lines::toString);
    int columns = SparseBench.COLUMNS.split(",").length;
    for (int i = 1; i < lines.size(); i++) {
      String[] cells = lines.get(i).split(",", -1);
      assertEquals(columns, cells.length, lines.get(i));
      assertEquals(i <= 2 ? "text" : "onehot", cells[0]);
      assertEquals("80", cells[1]);
      assertEquals(i <= 2 ? "cosine" : "rbf", cells[4]);
      assertEquals(i % 2 == 1 ? "10" : "20", cells[6]);
      assertEquals("same", cells[8]);
      assertTrue(Double.parseDouble(cells[9]) > 0, lines.get(i));
      assertEquals("", cells[10], "no scikit-learn run without --compare sklearn");
      assertEquals("2", cells[18], "repeats");
      double median = Double.parseDouble(cells[9]);
      double first = Double.parseDouble(cells[19]);
      assertEquals(2, cells[22].split(" ").length, "each round's time: " + lines.get(i));
      assertTrue(first > 0 && median > 0, lines.get(i));
      assertTrue(
          Integer.parseInt(cells[21]) >= TestSpark.session().sparkContext().defaultParallelism(),
          "the rows spread over every task slot: " + lines.get(i));
    }
    String[] oneHot = lines.get(3).split(",");
    assertEquals("1600", oneHot[3], "20 ones per one-hot row");
    try (var files = Files.list(work)) {
      for (Path file : files.toList()) {
        List<String> rows = Files.readAllLines(file);
        assertEquals(80, rows.size(), file.toString());
        if (file.getFileName().toString().startsWith("text")) {
          double sq = 0;
          for (String pair : rows.get(7).split(" ")) {
            if (pair.contains(":")) {
              double v = Double.parseDouble(pair.substring(pair.indexOf(':') + 1));
              sq += v * v;
            }
          }
          assertEquals(1.0, sq, 1e-4, "an L2-normalised row");
        } else {
          assertEquals(21, rows.get(5).split(" ").length, "label and 20 ones");
        }
      }
    }
  }

  @Test
  void sixDigitsWritesTheValueOfPercentSixG() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(7);
    for (int i = 0; i < 20000; i++) {
      double v = Math.pow(10, random.nextDouble(-7, 1)) * random.nextDouble();
      assertEquals(
          Double.parseDouble(String.format(java.util.Locale.ROOT, "%.6g", v)),
          Double.parseDouble(SparseFiles.sixDigits(v)),
          0.0,
          "value " + v);
    }
    assertEquals("0.1", SparseFiles.sixDigits(0.1));
    assertEquals("0.123457", SparseFiles.sixDigits(0.1234565));
  }

  @Test
  void medianOfOddAndEvenCounts() {
    assertEquals(2.0, BenchOutput.median(new double[] {3, 1, 2}), 0.0);
    assertEquals(2.5, BenchOutput.median(new double[] {4, 1, 2, 3}), 0.0);
  }

  @Test
  void badDataIsRefusedInOneLine() {
    TestSpark.Result run =
        TestSpark.cli(
            "bench",
            "sparse",
            "--data",
            "images",
            "--work",
            dir.resolve("w").toString(),
            "--out",
            dir.resolve("o.csv").toString());
    assertEquals(2, run.code(), run::toString);
    assertTrue(run.errLines().get(0).contains("--data: expected text or onehot"), run::toString);
  }
}
