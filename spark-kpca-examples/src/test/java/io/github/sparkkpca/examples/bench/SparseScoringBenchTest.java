package io.github.sparkkpca.examples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sparkkpca.examples.cli.TestSpark;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bench sparse-scoring without its child processes (each a JVM): its in-JVM part at tiny sizes (the
 * load's and the scoring's JSON; the scores' sum of squares read back from the Parquet output
 * against the model's own transform), its CSV lines and the refusal of a bad step.
 */
class SparseScoringBenchTest {

  @TempDir Path dir;

  @Test
  void childLoadsAndScoresASavedSparseModel() throws Exception {
    SparseFiles.Generated file = new SparseFiles(dir, 60, 3).text(512, 8);
    Dataset<Row> rows =
        TestSpark.session()
            .read()
            .format("libsvm")
            .option("numFeatures", "512")
            .load(file.path().toString());
    NystromKernelPCAModel model =
        new NystromKernelPCA().setK(3).setNumLandmarks(10).setKernel("cosine").fit(rows);
    Path saved = dir.resolve("model");
    model.write().save(saved.toString());
    ObjectMapper json = new ObjectMapper();

    Path loadJson = dir.resolve("load.json");
    TestSpark.Result load =
        TestSpark.cli(
            "bench",
            "sparse-scoring-child",
            "load",
            "--model",
            saved.toString(),
            "--repeats",
            "2",
            "--json-out",
            loadJson.toString());
    assertEquals(0, load.code(), load::toString);
    JsonNode l = json.readTree(loadJson.toFile());
    assertEquals(10, l.get("m").asInt());
    assertEquals(512, l.get("d").asInt());
    assertEquals(2, l.get("load_times_s").size());
    assertTrue(l.get("load_s").asDouble() > 0 && l.get("first_load_s").asDouble() > 0, l::toString);

    Path scoreJson = dir.resolve("score.json");
    TestSpark.Result score =
        TestSpark.cli(
            "bench",
            "sparse-scoring-child",
            "score",
            "--model",
            saved.toString(),
            "--input",
            file.path().toString(),
            "--num-features",
            "512",
            "--output",
            dir.resolve("scores").toString(),
            "--json-out",
            scoreJson.toString());
    assertEquals(0, score.code(), score::toString);
    JsonNode s = json.readTree(scoreJson.toFile());
    assertEquals(60, s.get("rows").asLong());
    assertTrue(s.get("rows_per_s").asDouble() > 0, s::toString);
    double expected = 0;
    for (Row r : model.transform(rows).select(model.getOutputCol()).collectAsList()) {
      for (double v : ((Vector) r.get(0)).toArray()) {
        expected += v * v;
      }
    }
    assertTrue(expected > 0);
    assertEquals(expected, s.get("score_sumsq").asDouble(), 1e-9 * expected, s::toString);
  }

  @Test
  void linesFollowTheColumnsAndRefuseAnUnknownName() {
    String line =
        SparseScoringBench.line(Map.of("step", "load", "message", "out-of-memory: a, b", "m", "9"));
    List<String> columns = List.of(SparseScoringBench.COLUMNS.split(","));
    // The message's comma is quoted: split outside quotes only.
    String[] cells = line.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", -1);
    assertEquals(columns.size(), cells.length, line);
    assertEquals("load", cells[columns.indexOf("step")]);
    assertEquals("9", cells[columns.indexOf("m")]);
    assertEquals("\"out-of-memory: a, b\"", cells[columns.indexOf("message")]);
    assertThrows(
        IllegalArgumentException.class, () -> SparseScoringBench.line(Map.of("stpe", "load")));
  }

  @Test
  void childProcessReportsOutOfMemoryWithTheFrameThatAskedAndKillsAtTheLimit() throws Exception {
    ChildProcess.Outcome oom =
        ChildProcess.run(
            List.of(
                "sh",
                "-c",
                "echo started; echo 'Exception in thread \"main\" java.lang.OutOfMemoryError: Java"
                    + " heap space'; echo '\tat java.util.Arrays.copyOf(Arrays.java:1)';"
                    + " echo '\tat io.github.sparkkpca.linalg.RowSet.toDense(RowSet.java:2)';"
                    + " echo '\tat io.github.sparkkpca.Other.call(Other.java:3)'; exit 1"),
            Map.of(),
            dir.resolve("oom.log"),
            60);
    assertEquals("out-of-memory", oom.status());
    assertEquals(1, oom.exitCode());
    assertTrue(
        oom.message()
            .contains(
                "OutOfMemoryError: Java heap space"
                    + " at io.github.sparkkpca.linalg.RowSet.toDense(RowSet.java:2)"),
        oom::message);
    ChildProcess.Outcome slow =
        ChildProcess.run(List.of("sleep", "30"), Map.of(), dir.resolve("slow.log"), 1);
    assertEquals("timeout", slow.status());
    assertTrue(slow.seconds() < 20, slow::toString);
    ChildProcess.Outcome ok =
        ChildProcess.run(List.of("true"), Map.of(), dir.resolve("ok.log"), 60);
    assertTrue(ok.ok() && ok.message().isEmpty(), ok::toString);
  }

  @Test
  void badStepIsRefusedInOneLine() {
    TestSpark.Result run =
        TestSpark.cli(
            "bench",
            "sparse-scoring",
            "--steps",
            "load,fit",
            "--work",
            dir.resolve("w").toString(),
            "--out",
            dir.resolve("o.csv").toString());
    assertEquals(2, run.code(), run::toString);
    assertTrue(
        run.errLines().get(0).contains("--steps: expected load, cli or score, got 'fit'"),
        run::toString);
  }
}
