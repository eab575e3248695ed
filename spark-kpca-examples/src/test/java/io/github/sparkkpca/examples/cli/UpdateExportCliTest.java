package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.persistence.ModelExport;
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
 * update, fit --landmarks-from and export through the command line: updating a model with more rows
 * gives the model a fit on all rows with its landmarks gives, and the export holds what a plain
 * reader needs.
 */
class UpdateExportCliTest {

  @TempDir static Path dir;
  static Path first;
  static Path second;
  static Path both;

  private static String rows(Random random, int n, boolean header) {
    StringBuilder text = new StringBuilder(header ? "x1,x2,x3\n" : "");
    for (int i = 0; i < n; i++) {
      double centre = (i % 2) * 2.0;
      text.append(
          String.format(
              Locale.ROOT,
              "%.6f,%.6f,%.6f%n",
              centre + random.nextGaussian(),
              0.5 * random.nextGaussian(),
              centre - random.nextGaussian()));
    }
    return text.toString();
  }

  @BeforeAll
  static void writeCsv() throws IOException {
    TestSpark.session();
    Random random = new Random(5);
    String a = rows(random, 150, true);
    String b = rows(random, 90, false);
    first = Files.writeString(dir.resolve("first.csv"), a, StandardCharsets.UTF_8);
    second = Files.writeString(dir.resolve("second.csv"), "x1,x2,x3\n" + b, StandardCharsets.UTF_8);
    both = Files.writeString(dir.resolve("both.csv"), a + b, StandardCharsets.UTF_8);
  }

  private static JsonNode json(Path file) throws IOException {
    return CliFixture.json(file);
  }

  @Test
  void updateEqualsFitWithTheSameLandmarksAndExportIsComplete() throws IOException {
    Path model = dir.resolve("model");
    TestSpark.Result fit =
        TestSpark.cli(
            "fit",
            "--input",
            first.toString(),
            "--k",
            "3",
            "--landmarks",
            "25",
            "--seed",
            "4",
            "--model-out",
            model.toString());
    assertEquals(0, fit.code(), fit::toString);

    Path updated = dir.resolve("updated");
    Path updatedSummary = dir.resolve("updated.json");
    TestSpark.Result update =
        TestSpark.cli(
            "update",
            "--model",
            model.toString(),
            "--input",
            second.toString(),
            "--model-out",
            updated.toString(),
            "--summary-out",
            updatedSummary.toString());
    assertEquals(0, update.code(), update::toString);

    Path refit = dir.resolve("refit");
    Path refitSummary = dir.resolve("refit.json");
    TestSpark.Result again =
        TestSpark.cli(
            "fit",
            "--input",
            both.toString(),
            "--k",
            "3",
            "--landmarks-from",
            model.toString(),
            "--model-out",
            refit.toString(),
            "--summary-out",
            refitSummary.toString());
    assertEquals(0, again.code(), again::toString);

    JsonNode u = json(updatedSummary);
    JsonNode r = json(refitSummary);
    assertEquals(240, u.get("n").asLong());
    assertEquals(240, r.get("n").asLong());
    assertEquals(r.get("m").asInt(), u.get("m").asInt());
    for (int i = 0; i < 3; i++) {
      double want = r.get("eigenvalues").get(i).asDouble();
      assertEquals(want, u.get("eigenvalues").get(i).asDouble(), 1e-9 * want, "eigenvalue " + i);
    }

    // The model being read is never replaced, even with --overwrite.
    TestSpark.Result self =
        TestSpark.cli(
            "update",
            "--model",
            model.toString(),
            "--input",
            second.toString(),
            "--model-out",
            model.toString(),
            "--overwrite");
    assertEquals(2, self.code(), self::toString);
    assertTrue(self.err().contains("--model-out"), self::toString);

    Path bundle = dir.resolve("bundle");
    TestSpark.Result export =
        TestSpark.cli("export", "--model", updated.toString(), "--out", bundle.toString());
    assertEquals(0, export.code(), export::toString);
    JsonNode exported = json(bundle.resolve("model.json"));
    assertEquals(240, exported.get("n").asLong());
    assertEquals(3, exported.get("k").asInt());
    assertEquals(u.get("m").asInt(), Files.readAllLines(bundle.resolve("landmarks.csv")).size());
    assertEquals(3, Files.readAllLines(bundle.resolve("offset.csv")).size());
    assertEquals(3, Files.readAllLines(bundle.resolve("projector.csv")).get(0).split(",").length);
    TestSpark.Result twice =
        TestSpark.cli("export", "--model", updated.toString(), "--out", bundle.toString());
    assertEquals(2, twice.code(), twice::toString);
    assertEquals(
        0,
        TestSpark.cli(
                "export", "--model", updated.toString(), "--out", bundle.toString(), "--overwrite")
            .code());

    // --format onnx writes DIR/model.onnx, byte for byte what ModelExport.writeOnnx writes (whose
    // graphs the Python tests score with onnxruntime against transform).
    Path onnx = dir.resolve("onnx");
    TestSpark.Result toOnnx =
        TestSpark.cli(
            "export", "--model", updated.toString(), "--out", onnx.toString(), "--format", "onnx");
    assertEquals(0, toOnnx.code(), toOnnx::toString);
    Path direct = dir.resolve("direct.onnx");
    ModelExport.writeOnnx(
        AbstractKernelPCAModel.loadAny(updated.toString()),
        direct.toString(),
        TestSpark.session().sparkContext().hadoopConfiguration(),
        ModelExport.OnnxOptions.DEFAULT);
    byte[] written = Files.readAllBytes(onnx.resolve(ExportCommand.ONNX_FILE));
    assertArrayEquals(Files.readAllBytes(direct), written);
    assertEquals(0x08, written[0]); // ModelProto field 1, ir_version
    TestSpark.Result misplaced =
        TestSpark.cli(
            "export",
            "--model",
            updated.toString(),
            "--out",
            dir.resolve("x").toString(),
            "--float32");
    assertEquals(2, misplaced.code(), misplaced::toString);
    assertTrue(
        misplaced.err().contains("--float32 applies to --format onnx only"), misplaced::toString);
  }
}
