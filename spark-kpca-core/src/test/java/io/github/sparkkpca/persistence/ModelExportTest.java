package io.github.sparkkpca.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.ml.RandomFeatureKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The exported bundle scores rows as {@code transform} does, computed here from the CSV files and
 * model.json alone: the kernel formulas below are written out, not the library's.
 */
class ModelExportTest {

  @TempDir Path dir;

  private static double[][] csv(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file);
    double[][] out = new double[lines.size()][];
    for (int i = 0; i < out.length; i++) {
      String[] cells = lines.get(i).split(",");
      out[i] = new double[cells.length];
      for (int j = 0; j < cells.length; j++) {
        out[i][j] = Double.parseDouble(cells[j]);
      }
    }
    return out;
  }

  private static double kernel(JsonNode model, double[] x, double[] z) {
    double dot = 0;
    double sq = 0;
    for (int t = 0; t < x.length; t++) {
      dot += x[t] * z[t];
      sq += (x[t] - z[t]) * (x[t] - z[t]);
    }
    double gamma = model.get("gamma").asDouble();
    return switch (model.get("kernel").asText()) {
      case "rbf" -> Math.exp(-gamma * sq);
      case "polynomial" ->
          Math.pow(gamma * dot + model.get("coef0").asDouble(), model.get("degree").asInt());
      default -> throw new AssertionError("kernel not covered by this test");
    };
  }

  @ParameterizedTest
  @ValueSource(strings = {"rbf", "polynomial"})
  void bundleReproducesTransform(String kernelName) throws IOException {
    double[][] x = LocalSpark.clusters(80, 4, 21);
    Dataset<Row> df = LocalSpark.frame(x, 2);
    boolean centered = kernelName.equals("rbf");
    NystromKernelPCAModel model =
        new NystromKernelPCA()
            .setK(3)
            .setNumLandmarks(20)
            .setSeed(5)
            .setKernel(kernelName)
            .setDegree(2)
            .setCoef0(0.5)
            .setCentered(centered)
            .fit(df);
    Path out = dir.resolve("bundle");
    ModelExport.write(
        model, out.toString(), LocalSpark.spark().sparkContext().hadoopConfiguration());

    // A bundle leaves Hadoop: no checksum files beside its own (hidden .NAME.crc ones included).
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(out)) {
      assertEquals(
          List.of("landmarks.csv", "model.json", "offset.csv", "projector.csv"),
          files.map(f -> f.getFileName().toString()).sorted().toList());
    }
    JsonNode json = new ObjectMapper().readTree(out.resolve("model.json").toFile());
    assertEquals(kernelName, json.get("kernel").asText());
    assertEquals(centered, json.get("centered").asBoolean());
    assertEquals(80, json.get("n").asLong());
    assertEquals(20, json.get("m").asInt());
    assertEquals(3, json.get("k").asInt());
    assertEquals(model.totalVariance(), json.get("totalVariance").asDouble(), 0.0);
    double[][] landmarks = csv(out.resolve("landmarks.csv"));
    double[][] projector = csv(out.resolve("projector.csv"));
    double[][] offset = csv(out.resolve("offset.csv"));
    assertEquals(20, landmarks.length);
    assertEquals(4, landmarks[0].length);
    assertEquals(3, projector[0].length);
    assertEquals(3, offset.length);

    double[][] scores = LocalSpark.collect(model.transform(df), "kpca");
    for (int i = 0; i < x.length; i++) {
      for (int c = 0; c < 3; c++) {
        double y = -offset[c][0];
        for (int j = 0; j < landmarks.length; j++) {
          y += projector[j][c] * kernel(json, x[i], landmarks[j]);
        }
        assertEquals(
            scores[i][c], y, 1e-9 * Math.max(1, Math.abs(y)), "row " + i + " component " + c);
      }
    }
    IllegalArgumentException again =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ModelExport.write(
                    model,
                    out.toString(),
                    LocalSpark.spark().sparkContext().hadoopConfiguration()));
    assertTrue(again.getMessage().contains("exists already"), again.getMessage());
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void randomFeatureBundleReproducesTransform(boolean centered) throws IOException {
    double[][] x = LocalSpark.clusters(60, 4, 22);
    Dataset<Row> df = LocalSpark.frame(x, 2);
    RandomFeatureKernelPCAModel model =
        new RandomFeatureKernelPCA()
            .setK(3)
            .setNumRandomFeatures(40)
            .setSeed(5)
            .setCentered(centered)
            .fit(df);
    Path out = dir.resolve("rff-bundle");
    ModelExport.write(
        model, out.toString(), LocalSpark.spark().sparkContext().hadoopConfiguration());

    JsonNode json = new ObjectMapper().readTree(out.resolve("model.json").toFile());
    assertEquals("rff", json.get("featureMap").asText());
    assertEquals("rbf", json.get("kernel").asText());
    assertEquals(40, json.get("D").asInt());
    assertEquals(3, json.get("k").asInt());
    assertEquals("omega.csv", json.get("files").get("omega").asText());
    assertTrue(json.get("scores").asText().contains("sqrt(2/D) cos(omega[j] . x + phase[j])"));
    assertTrue(!out.resolve("landmarks.csv").toFile().exists());
    double[][] omega = csv(out.resolve("omega.csv"));
    double[][] phase = csv(out.resolve("phase.csv"));
    double[][] projector = csv(out.resolve("projector.csv"));
    double[][] offset = csv(out.resolve("offset.csv"));
    assertEquals(40, omega.length);
    assertEquals(4, omega[0].length);
    assertEquals(40, phase.length);
    assertEquals(40, projector.length);
    assertEquals(3, projector[0].length);
    assertEquals(3, offset.length);

    double[][] scores = LocalSpark.collect(model.transform(df), "kpca");
    for (int i = 0; i < x.length; i++) {
      double[] z = new double[omega.length];
      for (int j = 0; j < omega.length; j++) {
        double argument = phase[j][0];
        for (int t = 0; t < x[i].length; t++) {
          argument += omega[j][t] * x[i][t];
        }
        z[j] = Math.sqrt(2.0 / omega.length) * Math.cos(argument);
      }
      for (int c = 0; c < 3; c++) {
        double y = -offset[c][0];
        for (int j = 0; j < z.length; j++) {
          y += projector[j][c] * z[j];
        }
        assertEquals(scores[i][c], y, 1e-12, "row " + i + " component " + c);
      }
    }
  }
}
