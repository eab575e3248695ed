package io.github.sparkkpca.examples.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.examples.cli.TestSpark;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Sterge et al. reproduction on a tiny configuration (the first 400 images of digit 5, m = 20
 * and 50, two repetitions, both settings): complete CSV files, the Ky Fan property at every ℓ and
 * repetition, an exact error decreasing in ℓ, and valid PNG charts. Also the command line around
 * it.
 */
class StergeReproductionTest {

  @TempDir static Path dir;
  static StergeReproduction.Result result;
  static Path out;

  @BeforeAll
  static void runTiny() {
    Path mnist = Mnist.requireTrainingFiles();
    out = dir.resolve("sterge");
    StergeReproduction.Config config =
        StergeReproduction.Config.defaults()
            .withDigits(List.of(5))
            .withMs(List.of(20, 50))
            .withReps(2)
            .withLimit(400)
            .withMnistDir(mnist)
            .withPartitions(2)
            .withOut(out);
    result = StergeReproduction.run(TestSpark.session(), config, line -> {});
  }

  static List<String[]> csv(String name) throws IOException {
    List<String> lines = Files.readAllLines(out.resolve(name));
    return lines.subList(1, lines.size()).stream().map(l -> l.split(",", -1)).toList();
  }

  @Test
  void errorCsvHasEveryRow() throws IOException {
    List<String> lines = Files.readAllLines(out.resolve("reconstruction_error.csv"));
    assertEquals("digit,setting,method,m,ell,mean,sd,lower,upper,reps", lines.get(0));
    Map<String, Set<Integer>> ells = new HashMap<>();
    for (String[] row : csv("reconstruction_error.csv")) {
      assertEquals(10, row.length, () -> String.join(",", row));
      assertEquals("5", row[0]);
      String key = row[1] + "/" + row[2] + "/" + row[3];
      assertTrue(
          ells.computeIfAbsent(key, k -> new HashSet<>()).add(Integer.parseInt(row[4])),
          key + " duplicated");
      double mean = Double.parseDouble(row[5]);
      double sd = Double.parseDouble(row[6]);
      assertTrue(mean >= 0 && sd >= 0, () -> String.join(",", row));
      assertEquals(mean - 2 * sd, Double.parseDouble(row[7]), 1e-9 * Math.max(1, mean));
      assertEquals(mean + 2 * sd, Double.parseDouble(row[8]), 1e-9 * Math.max(1, mean));
      assertEquals(row[2].equals("exact") ? "1" : "2", row[9]);
    }
    for (String setting : List.of("uncentred", "centred")) {
      assertEquals(range(50), ells.get(setting + "/exact/400"), setting);
      assertEquals(range(20), ells.get(setting + "/nystrom/20"), setting);
      assertEquals(range(50), ells.get(setting + "/nystrom/50"), setting);
    }
    assertEquals(6, ells.size(), ells::toString);
  }

  static Set<Integer> range(int to) {
    Set<Integer> s = new HashSet<>();
    for (int i = 1; i <= to; i++) {
      s.add(i);
    }
    return s;
  }

  @Test
  void kyFanHoldsAtEveryEllAndRepetition() throws IOException {
    assertEquals(2 * 2 * (20 + 50), result.kyFanChecks());
    assertEquals(0, result.kyFanViolations(), () -> result.kyFan().toString());
    for (StergeReproduction.KyFanRow k : result.kyFan()) {
      assertEquals(0, k.partialSumViolations(), k::toString);
      assertTrue(k.minRelativeMargin() >= -1e-9, k::toString);
    }
    List<String[]> rows = csv("kyfan.csv");
    assertEquals(4, rows.size());
    for (String[] row : rows) {
      assertEquals("0", row[5], () -> String.join(",", row));
    }
    // And directly from the CSV: every Nyström repetition mean is >= the exact error at the same l.
    Map<String, Double> exact = new HashMap<>();
    for (StergeReproduction.ErrorRow e : result.errors()) {
      if (e.method().equals("exact")) {
        exact.put(e.setting() + "/" + e.ell(), e.mean());
      }
    }
    for (StergeReproduction.ErrorRow e : result.errors()) {
      if (e.method().equals("nystrom")) {
        double ex = exact.get(e.setting() + "/" + e.ell());
        assertTrue(e.mean() >= ex * (1 - 1e-9), e::toString);
      }
    }
  }

  @Test
  void exactErrorDecreasesInEll() {
    for (String setting : List.of("uncentred", "centred")) {
      List<StergeReproduction.ErrorRow> exact =
          result.errors().stream()
              .filter(e -> e.method().equals("exact") && e.setting().equals(setting))
              .toList();
      assertEquals(50, exact.size());
      for (int i = 1; i < exact.size(); i++) {
        assertTrue(exact.get(i).mean() < exact.get(i - 1).mean(), exact.get(i)::toString);
      }
      // Gaussian kernel: k(x,x) = 1, so the uncentred total (the error at l = 0) is exactly 1.
      if (setting.equals("uncentred")) {
        assertTrue(exact.get(0).mean() < 1.0 && exact.get(0).mean() > 0.3, exact.get(0)::toString);
      }
    }
    assertEquals(2, result.exact().size());
    for (StergeReproduction.ExactRow x : result.exact()) {
      assertEquals(400, x.n());
      assertTrue(Math.abs(x.traceGap()) < 1e-8, x::toString);
    }
  }

  @Test
  void withoutItsResidualTheNystromErrorFallsBelowExact() {
    // Σ_{l<i<=m} of the Nyström eigenvalues is 0 at l = m while the exact error is not: the variant
    // that
    // omits (1/n) tr(K - K~) must cross the exact curve, eq. (19) never.
    assertEquals(4, result.crossings().size());
    for (StergeReproduction.CrossingRow c : result.crossings()) {
      assertTrue(
          c.firstEllWithinSpanBelowExact() >= 1 && c.firstEllWithinSpanBelowExact() <= c.m(),
          c::toString);
      assertEquals(0, c.firstEllNystromBelowExact(), c::toString);
      assertTrue(
          c.firstEllWithinSpanBelowHalfExact() >= c.firstEllWithinSpanBelowExact(), c::toString);
      assertTrue(
          c.withinSpanOverExactAtEll1() > 0 && c.withinSpanOverExactAtEll1() < 1, c::toString);
      assertTrue(c.withinSpanAtM() < 1e-12, c::toString);
    }
  }

  @Test
  void runtimesAndPlotsAreWritten() throws IOException {
    List<String[]> runtimes = csv("runtime.csv");
    assertEquals(2 * 3, runtimes.size());
    for (String[] row : runtimes) {
      assertTrue(Double.parseDouble(row[4]) > 0, () -> String.join(",", row));
    }
    for (String setting : List.of("uncentred", "centred")) {
      for (String prefix : List.of("reconstruction_error", "error_variants")) {
        Path png = out.resolve(prefix + "_digit5_" + setting + ".png");
        assertTrue(Files.size(png) > 1000, png::toString);
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image, png::toString);
        assertTrue(image.getWidth() > 0 && image.getHeight() > 0);
      }
    }
    String summary = Files.readString(out.resolve("summary.txt"));
    assertTrue(summary.contains("Ky Fan: 280 checks, 0 violations"), summary);
    assertTrue(summary.contains("BLAS = "), summary);
    assertFalse(result.files().isEmpty());
  }

  @Test
  void commandLineRunsAndRejectsBadOptions() throws IOException {
    Path cliOut = dir.resolve("cli");
    TestSpark.Result r =
        TestSpark.cli(
            "reproduce",
            "sterge",
            "--digits",
            "5",
            "--limit",
            "120",
            "--m",
            "10",
            "--reps",
            "1",
            "--settings",
            "uncentred",
            "--out",
            cliOut.toString());
    assertEquals(0, r.code(), r::toString);
    assertTrue(r.out().contains("Ky Fan check: 10 checks, 0 violations"), r::toString);
    assertTrue(
        Files.readAllLines(cliOut.resolve("reconstruction_error.csv")).size() == 1 + 10 + 10,
        r::toString);

    TestSpark.Result tooMany =
        TestSpark.cli(
            "reproduce",
            "sterge",
            "--digits",
            "5",
            "--limit",
            "30",
            "--m",
            "50",
            "--reps",
            "1",
            "--out",
            dir.resolve("bad").toString());
    assertEquals(2, tooMany.code(), tooMany::toString);
    assertTrue(tooMany.err().contains("m = 50 exceeds n = 30"), tooMany::toString);

    TestSpark.Result badSetting =
        TestSpark.cli(
            "reproduce", "sterge", "--settings", "both", "--out", dir.resolve("bad").toString());
    assertEquals(2, badSetting.code(), badSetting::toString);
    assertTrue(badSetting.err().contains("--settings"), badSetting::toString);

    TestSpark.Result none = TestSpark.cli("reproduce");
    assertEquals(2, none.code(), none::toString);
    assertTrue(none.err().contains("sterge or landmarks"), none::toString);
  }
}
