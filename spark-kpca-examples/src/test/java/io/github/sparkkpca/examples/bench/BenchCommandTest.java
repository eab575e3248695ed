package io.github.sparkkpca.examples.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.examples.cli.TestSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * spark-kpca bench on tiny sizes: the CSV columns, the flop counts, the plots and the Spark ML
 * baseline.
 */
class BenchCommandTest {

  @TempDir Path dir;

  /**
   * The CSV as maps from column to value (the inputs here contain no quoted commas but the first
   * column).
   */
  private static List<Map<String, String>> readCsv(Path file, List<String> expectedColumns)
      throws IOException {
    List<String> lines = Files.readAllLines(file);
    assertEquals(String.join(",", expectedColumns), lines.get(0));
    return lines.subList(1, lines.size()).stream()
        .map(
            line -> {
              List<String> cells = splitCsv(line);
              assertEquals(expectedColumns.size(), cells.size(), line);
              Map<String, String> row = new HashMap<>();
              for (int i = 0; i < cells.size(); i++) {
                row.put(expectedColumns.get(i), cells.get(i));
              }
              return row;
            })
        .toList();
  }

  private static List<String> splitCsv(String line) {
    List<String> cells = new java.util.ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '"') {
        if (quoted && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          cell.append('"');
          i++;
        } else {
          quoted = !quoted;
        }
      } else if (c == ',' && !quoted) {
        cells.add(cell.toString());
        cell.setLength(0);
      } else {
        cell.append(c);
      }
    }
    cells.add(cell.toString());
    return cells;
  }

  private static double num(Map<String, String> row, String column) {
    return Double.parseDouble(row.get(column));
  }

  @Test
  void gridWritesCsvWithFlopCountsBoundsAndPlotsAndComparesSparkPca() throws IOException {
    Path out = dir.resolve("results");
    TestSpark.Result r =
        TestSpark.cli(
            "bench",
            "--input",
            "synthetic:clusters=3",
            "--n",
            "1500,3000",
            "--d",
            "6",
            "--m",
            "20,40",
            "--k",
            "3",
            "--seed",
            "5",
            "--dgemm-size",
            "150",
            "--no-warmup",
            "--compare",
            "spark-pca",
            "--out",
            out.toString());
    assertEquals(0, r.code(), r::toString);
    assertTrue(
        r.out().contains("fit s") && r.out().contains("bound s") && r.out().contains("eff"),
        r::toString);

    List<Map<String, String>> rows = readCsv(out.resolve("bench.csv"), BenchRow.COLUMNS);
    assertEquals(4, rows.size());
    for (Map<String, String> row : rows) {
      long n = Long.parseLong(row.get("n"));
      int d = Integer.parseInt(row.get("d"));
      int m = Integer.parseInt(row.get("m"));
      int rank = Integer.parseInt(row.get("r"));
      int k = Integer.parseInt(row.get("k"));
      assertTrue(n == 1500 || n == 3000, row::toString);
      assertEquals(6, d);
      assertEquals(3, k);
      assertTrue(m == 20 || m == 40, row::toString);
      assertTrue(rank >= k && rank <= m, row::toString);
      assertEquals("synthetic:n=" + n + ",d=6,clusters=3,seed=5", row.get("input"));
      double fitFlops = 2.0 * n * m * d + (double) n * m * rank + (double) n * rank * rank;
      assertEquals(fitFlops / 1e9, num(row, "fit_gflop"), 1e-5 * fitFlops / 1e9);
      double transformFlops = 2.0 * n * m * d + 2.0 * n * m * k;
      assertEquals(transformFlops / 1e9, num(row, "transform_gflop"), 1e-5 * transformFlops / 1e9);
      assertEquals((double) n * m, num(row, "exponentials"), 1e-5 * n * m);
      double rate = num(row, "dgemm_gflops");
      assertEquals(
          Math.max(num(row, "dgemm_single_gflops"), num(row, "dgemm_concurrent_gflops")),
          rate,
          1e-5 * rate);
      assertEquals(
          num(row, "fit_gflop") / rate, num(row, "fit_bound_s"), 1e-4 * num(row, "fit_bound_s"));
      assertEquals(
          num(row, "fit_bound_s") / num(row, "fit_s"),
          num(row, "fit_efficiency"),
          1e-4 * num(row, "fit_efficiency"));
      assertEquals(
          n / num(row, "transform_s"),
          num(row, "transform_rows_per_s"),
          1e-4 * num(row, "transform_rows_per_s"));
      assertEquals(
          num(row, "transform_gflop") / rate / num(row, "transform_s"),
          num(row, "transform_efficiency"),
          1e-3 * num(row, "transform_efficiency"));
      // The fit splits into the scan job, the statistics job and the driver's share (no other jobs
      // here).
      assertTrue(num(row, "scan_s") > 0 && num(row, "stats_s") > 0, row::toString);
      assertEquals(
          num(row, "fit_s"),
          num(row, "scan_s") + num(row, "stats_s") + num(row, "driver_s"),
          1e-4 * num(row, "fit_s"));
      assertEquals(
          num(row, "fit_bound_s") / num(row, "stats_s"),
          num(row, "stats_efficiency"),
          1e-4 * num(row, "stats_efficiency"));
      assertEquals("2", row.get("task_slots"));
      assertTrue(num(row, "peak_heap_mb") > 0, row::toString);
      assertTrue(num(row, "explained_variance_sum") > 0, row::toString);
    }

    // Same landmarks and γ: Spark ML's PCA on the UDF features finds the same spectrum.
    List<Map<String, String>> cmp = readCsv(out.resolve("compare.csv"), CompareRow.COLUMNS);
    assertEquals(4, cmp.size());
    for (Map<String, String> row : cmp) {
      assertEquals("ok", row.get("status"));
      assertTrue(num(row, "evr_max_abs_diff") < 1e-8, row::toString);
      assertEquals(
          num(row, "fit_s") / num(row, "spark_kpca_fit_s"),
          num(row, "spark_kpca_speedup"),
          1e-4 * num(row, "spark_kpca_speedup"));
    }

    for (String png : BenchCharts.FILES) {
      byte[] bytes = Files.readAllBytes(out.resolve(png));
      assertTrue(bytes.length > 1000, png);
      assertArrayEquals(
          new byte[] {(byte) 0x89, 'P', 'N', 'G'}, java.util.Arrays.copyOf(bytes, 4), png);
    }
  }

  @Test
  void badGridsAreUsageErrors() {
    String out = dir.resolve("bad").toString();
    TestSpark.Result sizeOnFile =
        TestSpark.cli("bench", "--input", "mnist:train", "--n", "100", "--m", "10", "--out", out);
    assertEquals(2, sizeOnFile.code(), sizeOnFile::toString);
    assertTrue(
        sizeOnFile.err().contains("--n and --d apply to synthetic inputs only"),
        sizeOnFile::toString);
    TestSpark.Result kAboveM =
        TestSpark.cli("bench", "--n", "100", "--m", "10", "--k", "11", "--out", out);
    assertEquals(2, kAboveM.code(), kAboveM::toString);
    assertTrue(kAboveM.err().contains("--k 11 must be in 1..10"), kAboveM::toString);
    TestSpark.Result unknown =
        TestSpark.cli(
            "bench", "--n", "100", "--m", "10", "--k", "3", "--compare", "matlab", "--out", out);
    assertEquals(2, unknown.code(), unknown::toString);
    assertTrue(
        unknown.err().contains("--compare: expected sklearn or spark-pca"), unknown::toString);
    TestSpark.Result twice =
        TestSpark.cli(
            "bench",
            "--input",
            "synthetic:n=5",
            "--n",
            "100",
            "--m",
            "10",
            "--k",
            "3",
            "--out",
            out);
    assertEquals(2, twice.code(), twice::toString);
    assertTrue(twice.err().contains("give n either in --input or with --n"), twice::toString);
  }
}
