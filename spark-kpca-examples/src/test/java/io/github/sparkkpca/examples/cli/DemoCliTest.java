package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The demo runs without arguments beyond sizes and prints the spectrum and scores. */
class DemoCliTest {

  @Test
  void demoPrintsSpectrumAndScores() {
    TestSpark.Result r =
        TestSpark.cli("demo", "--n", "3000", "--landmarks", "60", "--k", "4", "--rows", "3");
    assertEquals(0, r.code(), r::toString);
    List<String> lines = Arrays.asList(r.out().split("\\R"));
    int header =
        lines.indexOf(
            lines.stream()
                .filter(l -> l.trim().startsWith("component"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(r.toString())));
    double cumulative = 0;
    double previousError = Double.POSITIVE_INFINITY;
    for (int c = 1; c <= 4; c++) {
      String[] cells = lines.get(header + c).trim().split("\\s+");
      assertEquals(String.valueOf(c), cells[0], r::toString);
      double ratio = Double.parseDouble(cells[2]);
      double error = Double.parseDouble(cells[4]);
      assertTrue(ratio > 0 && ratio <= 1, r::toString);
      assertTrue(error <= previousError, r::toString);
      cumulative += ratio;
      previousError = error;
    }
    // Four Gaussian clusters in a 3-dimensional subspace: the leading components carry most
    // variance.
    assertTrue(
        cumulative > 0.3 && cumulative <= 1 + 1e-3, "cumulative ratio " + cumulative + "\n" + r);
    assertTrue(r.out().contains("first 3 rows' scores"), r::toString);
    assertTrue(r.out().contains("n = 3000, d = 20, m = 60"), r::toString);
  }

  @Test
  void helpAndVersionExitZero() {
    TestSpark.Result help = TestSpark.cli("fit", "--help");
    assertEquals(0, help.code());
    assertTrue(help.out().contains("--landmarks=M"), help::toString);
    assertEquals(0, TestSpark.cli("--version").code());
  }
}
