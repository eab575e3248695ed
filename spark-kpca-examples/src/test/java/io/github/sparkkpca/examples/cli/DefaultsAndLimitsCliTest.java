package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * Defaults that suit the data and limits said before they bite: evaluate's exact sample, the
 * options named in refusals, single-class labels, the advice of landmark growth, rde's default
 * landmarks.
 */
class DefaultsAndLimitsCliTest {

  @TempDir static Path dir;
  static Path twoClasses;
  static Path oneClass;

  @BeforeAll
  static void writeCsv() throws IOException {
    TestSpark.session();
    Random random = new Random(11);
    StringBuilder two = new StringBuilder("x1,x2,x3,label\n");
    StringBuilder one = new StringBuilder("x1,x2,x3,label\n");
    for (int i = 0; i < 60; i++) {
      int label = i % 2 == 0 ? 1 : -1;
      String row =
          String.format(
              Locale.ROOT,
              "%.6f,%.6f,%.6f,",
              label + random.nextGaussian(),
              random.nextGaussian(),
              random.nextGaussian());
      two.append(row).append(label).append('\n');
      one.append(row).append(1).append('\n');
    }
    twoClasses = Files.writeString(dir.resolve("two.csv"), two.toString(), StandardCharsets.UTF_8);
    oneClass = Files.writeString(dir.resolve("one.csv"), one.toString(), StandardCharsets.UTF_8);
  }

  /** --exact-sample N: N×N doubles are estimated before the sample is collected. */
  @Test
  void evaluateRefusesAnExactSampleTheDriverCannotHold() {
    String model = dir.resolve("synthetic-model").toString();
    TestSpark.Result fit =
        TestSpark.cli(
            "fit",
            "--input",
            "synthetic:n=200,d=2,seed=1",
            "--k",
            "2",
            "--landmarks",
            "10",
            "--model-out",
            model);
    assertEquals(0, fit.code(), fit::toString);
    TestSpark.Result run =
        TestSpark.cli(
            "evaluate",
            "--model",
            model,
            "--input",
            "synthetic:n=20000,d=2,seed=2",
            "--exact-sample",
            "20000");
    CliErrorsTest.assertUsageError(
        run, "n = 20000", "GiB", "heap", "--exact-sample", "spark.driver.memory");
    TestSpark.Result array =
        TestSpark.cli(
            "evaluate",
            "--model",
            model,
            "--input",
            "synthetic:n=46400,d=2,seed=2",
            "--exact-sample",
            "46341");
    CliErrorsTest.assertUsageError(array, "n = 46341", "46340", "--exact-sample");
  }

  @Test
  void missingLandmarksFromModelIsNamedByItsOption() {
    String missing = dir.resolve("no-such-model").toString();
    TestSpark.Result run =
        TestSpark.cli(
            "fit",
            "--input",
            twoClasses.toString(),
            "--k",
            "2",
            "--landmarks-from",
            missing,
            "--model-out",
            dir.resolve("from-missing").toString());
    String line = CliErrorsTest.assertUsageError(run, "--landmarks-from:", missing);
    assertTrue(!line.contains("--model:") && !line.contains("--model "), line);
  }

  @Test
  void rdeRefusesSingleClassLabels() {
    TestSpark.Result run =
        TestSpark.cli(
            "rde",
            "--input",
            oneClass.toString(),
            "--label-col",
            "label",
            "--gamma-grid",
            "0.1",
            "--landmarks",
            "30",
            "--model-out",
            dir.resolve("one-class").toString());
    CliErrorsTest.assertUsageError(run, "'label'", "single label value, 1,", "60 rows");
    assertTrue(!Files.exists(dir.resolve("one-class")), "no model written");
  }

  /**
   * Two distinct rows: both are held out as probe rows, no candidate is left, and a lower tolerance
   * cannot help; the message says so instead of advising it.
   */
  @Test
  void growthWithTooFewDistinctRowsSaysWhy() throws IOException {
    StringBuilder text = new StringBuilder("x1,x2\n");
    for (int i = 0; i < 40; i++) {
      text.append(i % 2 == 0 ? "0,0\n" : "1,2\n");
    }
    Path twoRows = Files.writeString(dir.resolve("two-rows.csv"), text.toString());
    TestSpark.Result run =
        TestSpark.cli(
            "fit",
            "--input",
            twoRows.toString(),
            "--k",
            "1",
            "--gamma",
            "0.5",
            "--landmarks",
            "auto",
            "--landmark-tolerance",
            "1e-9",
            "--model-out",
            dir.resolve("two-rows-model").toString());
    String line =
        CliErrorsTest.assertUsageError(run, "only 2 distinct rows", "probe", "numLandmarks <= 2");
    assertTrue(!line.contains("lower landmarkTolerance"), line);
  }

  /** One landmark has no pairwise distance: the median heuristic says so, not "duplicated rows". */
  @Test
  void medianHeuristicOnOneLandmarkSaysWhy() {
    TestSpark.Result run =
        TestSpark.cli(
            "fit",
            "--input",
            twoClasses.toString(),
            "--label-col",
            "label",
            "--k",
            "1",
            "--landmarks",
            "auto",
            "--max-landmarks",
            "1",
            "--model-out",
            dir.resolve("one-landmark-model").toString());
    String line = CliErrorsTest.assertUsageError(run, "at least 2 landmarks", "set gamma");
    assertTrue(!line.contains("duplicated"), line);
  }

  /**
   * Runs the command and returns its result and the Spark jobs it started: a size the driver cannot
   * hold must be refused before any job, as the input's own load is a pass over the data.
   */
  private static TestSpark.Result withoutJobs(String... args) {
    java.util.List<Integer> jobs =
        java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    org.apache.spark.scheduler.SparkListener listener =
        new org.apache.spark.scheduler.SparkListener() {
          @Override
          public void onJobStart(org.apache.spark.scheduler.SparkListenerJobStart start) {
            jobs.add(start.jobId());
          }
        };
    org.apache.spark.SparkContext sc = TestSpark.session().sparkContext();
    sc.addSparkListener(listener);
    try {
      TestSpark.Result result = TestSpark.cli(args);
      sc.listenerBus().waitUntilEmpty(10_000);
      assertTrue(jobs.isEmpty(), () -> "no Spark job expected, got " + jobs + ": " + result);
      return result;
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError(e);
    } finally {
      sc.removeSparkListener(listener);
    }
  }

  /**
   * m above 46,340 has m² entries, more than a Java array holds: the m×m routes refuse it before
   * any job; the top-k route (and auto, which falls back to it) refuses what its tiled factor's
   * memory cannot hold, also before any job.
   */
  @Test
  void landmarksBeyondTheArrayLimitAreRefusedBeforeAnyJob() throws IOException {
    String model = dir.resolve("never").toString();
    String input = twoClasses.toString();
    CliErrorsTest.assertUsageError(
        withoutJobs(
            "fit",
            "--input",
            input,
            "--k",
            "2",
            "--statistics-route",
            "whitened",
            "--landmarks",
            "50000",
            "--model-out",
            model),
        "--landmarks must be <= 46340, got 50000",
        "Java array");
    CliErrorsTest.assertUsageError(
        withoutJobs(
            "fit", "--input", input, "--k", "2", "--landmarks", "50000", "--model-out", model),
        "--landmarks m = 50000 with statisticsRoute = top-k needs about",
        "K_mm's lower triangle in tiles",
        "JAVA_OPTS=-Xmx");
    CliErrorsTest.assertUsageError(
        withoutJobs(
            "fit",
            "--input",
            input,
            "--k",
            "2",
            "--landmarks",
            "auto",
            "--max-landmarks",
            "46341",
            "--model-out",
            model),
        "--max-landmarks must be <= 46340, got 46341");
    CliErrorsTest.assertUsageError(
        withoutJobs(
            "rde",
            "--input",
            input,
            "--label-col",
            "label",
            "--landmarks",
            "46341",
            "--model-out",
            model),
        "--landmarks must be <= 46340, got 46341");
    StringBuilder rows = new StringBuilder();
    for (int i = 0; i <= 46_340; i++) {
      rows.append(i % 7).append(",1,2\n");
    }
    Path landmarks = Files.writeString(dir.resolve("many-landmarks.csv"), rows.toString());
    CliErrorsTest.assertUsageError(
        withoutJobs(
            "fit",
            "--input",
            input,
            "--k",
            "2",
            "--statistics-route",
            "whitened",
            "--landmarks-file",
            landmarks.toString(),
            "--model-out",
            model),
        "the landmarks of --landmarks-file, m = 46341 is too large",
        "(m <= 46340)");
    // Within the array limit but not the heap: the driver's estimate, also before the input's load.
    CliErrorsTest.assertUsageError(
        withoutJobs(
            "fit",
            "--input",
            input,
            "--k",
            "2",
            "--statistics-route",
            "whitened",
            "--landmarks",
            "30000",
            "--model-out",
            model),
        "--landmarks m = 30000 needs about",
        "on the driver",
        "JAVA_OPTS=-Xmx");
    CliErrorsTest.assertUsageError(
        withoutJobs(
            "fit",
            "--input",
            input,
            "--k",
            "2",
            "--feature-map",
            "rff",
            "--features",
            "46341",
            "--model-out",
            model),
        "--features D = 46341 is too large");
  }
}
