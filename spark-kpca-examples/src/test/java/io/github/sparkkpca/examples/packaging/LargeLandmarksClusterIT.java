package io.github.sparkkpca.examples.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.examples.cli.TestSpark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The top-k route on a real standalone cluster whose executors are too small for the m×m routes:
 * the master and two one-core workers of {@link StandaloneClusterIT.Cluster}, {@code
 * spark.executor.memory = 1g}, m = 7000 landmarks. A whitened (or Gram) fit needs about 24m² = 1.2
 * GB per one-task executor (its m×m statistic, the broadcast W and a merge copy) and is refused
 * before any pass, in one line naming {@code spark.executor.memory}; the top-k route needs 8(b·m +
 * b·l + 2·m·l) bytes per task, a few MB, and {@code auto} takes it there, with the whitening that
 * holds no m×m array (m above 4096: pivoted Cholesky, else K_mm in tiles). Its model must equal the
 * same command's on {@code local[2]} in this JVM (which falls back to the same route: its m×m
 * routes do not fit a 1 GiB heap either): eigenvalues, total variance and reconstruction error to
 * 1e-9 relative. The rows have d = 50 columns: at d = 10 the rbf K_mm of 7000 landmarks is
 * numerically singular with a rank far above the pivoted factor's 875, which the route refuses in
 * one line (more landmarks than the data's kernel has directions; see docs/gram-route.md).
 */
class LargeLandmarksClusterIT {

  static final int ROWS = 12_000;
  static final String INPUT = "synthetic:n=" + ROWS + ",d=50,seed=7,partitions=8";
  static final List<String> FIT = List.of("--k", "5", "--landmarks", "7000", "--seed", "3");
  static final List<String> SMALL_EXECUTORS = List.of("spark.executor.memory=1g");

  @TempDir Path dir;

  @Test
  @Timeout(value = 20, unit = TimeUnit.MINUTES)
  void autoTakesTheTopKRouteWhereTheExecutorsCannotHoldAnMxMStatistic() throws Exception {
    Path jar = Path.of(System.getProperty("examples.jar", "target/missing.jar"));
    Path sparkHome =
        Path.of(System.getProperty("cluster.spark.home", "target/spark-home")).toAbsolutePath();
    assertTrue(Files.isRegularFile(jar), jar + " is missing: run `mvn verify`");
    Path logs = Path.of("target", "large-landmarks-cluster-it").toAbsolutePath();
    Files.createDirectories(logs);

    Path localSummary = dir.resolve("local-summary.json");
    TestSpark.Result local =
        TestSpark.cli(
            concat(
                    List.of("fit", "--input", INPUT),
                    FIT,
                    List.of(
                        "--model-out",
                        dir.resolve("local-model").toString(),
                        "--summary-out",
                        localSummary.toString(),
                        "--progress-interval",
                        "0"))
                .toArray(String[]::new));
    assertEquals(0, local.code(), local::toString);

    Path clusterSummary = dir.resolve("cluster-summary.json");
    try (StandaloneClusterIT.Cluster cluster = StandaloneClusterIT.Cluster.start(sparkHome, logs)) {
      ChildJvm whitened =
          cluster.submit(
              jar,
              logs.resolve("driver-whitened.log"),
              concat(
                  List.of("fit", "--input", INPUT, "--statistics-route", "whitened"),
                  FIT,
                  List.of("--model-out", dir.resolve("never").toString())),
              "2g",
              SMALL_EXECUTORS);
      assertEquals(2, whitened.awaitExit(Duration.ofMinutes(5)), whitened::tail);
      assertTrue(
          whitened.output().contains("--landmarks m = 7000 needs about")
              && whitened.output().contains("per executor")
              && whitened.output().contains("spark.executor.memory is 1.0 GiB"),
          whitened::tail);
      assertTrue(!Files.exists(dir.resolve("never")), "a refused fit wrote a model");

      ChildJvm auto =
          cluster.submit(
              jar,
              logs.resolve("driver-auto.log"),
              concat(
                  List.of("fit", "--input", INPUT),
                  FIT,
                  List.of(
                      "--model-out",
                      dir.resolve("cluster-model").toString(),
                      "--summary-out",
                      clusterSummary.toString(),
                      "--progress-interval",
                      "0")),
              "2g",
              SMALL_EXECUTORS);
      assertEquals(0, auto.awaitExit(Duration.ofMinutes(15)), auto::tail);
    }
    JsonNode expected = StandaloneClusterIT.readJson(localSummary);
    JsonNode actual = StandaloneClusterIT.readJson(clusterSummary);
    for (JsonNode summary : List.of(expected, actual)) {
      assertEquals("top-k", summary.get("statisticsRoute").asText(), summary.toString());
      String check = summary.get("statisticsRouteCheck").asText();
      assertTrue(check.contains("auto: top-k, the m×m routes cannot run here"), check);
    }
    assertTrue(
        actual.get("statisticsRouteCheck").asText().contains("spark.executor.memory"),
        actual.get("statisticsRouteCheck").asText());
    assertEquals(ROWS, actual.get("n").asLong());
    assertEquals(expected.get("m"), actual.get("m"));
    for (String key : List.of("eigenvalues", "reconstructionError")) {
      double[] e = StandaloneClusterIT.doubles(expected.get(key));
      double[] a = StandaloneClusterIT.doubles(actual.get(key));
      assertEquals(e.length, a.length, key);
      for (int i = 0; i < e.length; i++) {
        assertEquals(e[i], a[i], 1e-9 * Math.abs(e[0]), key + "[" + i + "]");
      }
    }
    double total = expected.get("totalVariance").asDouble();
    assertEquals(total, actual.get("totalVariance").asDouble(), 1e-9 * total, "totalVariance");
  }

  @SafeVarargs
  private static List<String> concat(List<String>... parts) {
    return java.util.Arrays.stream(parts).flatMap(List::stream).toList();
  }
}
