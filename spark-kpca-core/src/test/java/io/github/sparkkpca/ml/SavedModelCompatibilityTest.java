package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.sparkkpca.ml.fixtures.ModelFixtures;
import io.github.sparkkpca.testing.LocalSpark;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.Transformer;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Models saved by earlier releases, and by the other Spark build, load and score as they did then:
 * each fixture holds a saved model and the scores (and residuals) it gave on held-out rows when it
 * was saved ({@link ModelFixtures}). {@code format2-spark-4.1} was written by the default build
 * (Spark 4.1, Scala 2.13), {@code format2-spark-3.5} by the {@code spark-3.5} build (Scala 2.12),
 * {@code format2-spark-4.0} and {@code format2-spark-4.2} on Spark 4.0.1 and 4.2.0 (profiles {@code
 * spark-4.0}, {@code spark-4.2}); this test is in the compatibility suite that CI runs on every one
 * of these lines, so each line loads and scores the models every other line saved.
 */
class SavedModelCompatibilityTest {

  /** Scores agree to rounding: the kernel block may be summed in another order than when saved. */
  private static final double TOLERANCE = 1e-10;

  static Path fixture(String format, String name) throws URISyntaxException {
    return Path.of(
        SavedModelCompatibilityTest.class.getResource("/fixtures/" + format + "/" + name).toURI());
  }

  static Transformer load(Path dir, String name) {
    LocalSpark.spark();
    String path = dir.resolve("model").toString();
    if (name.startsWith("pipeline")) {
      return PipelineModel.load(path);
    }
    return name.startsWith("exact") ? KernelPCAModel.load(path) : NystromKernelPCAModel.load(path);
  }

  /**
   * Asserts that {@code model} scores the held-out rows as recorded in {@code dir/expected.csv}.
   */
  static void assertScoresAsRecorded(Transformer model, Path dir) throws IOException {
    List<String> expected = Files.readAllLines(dir.resolve("expected.csv"));
    List<Row> rows = model.transform(ModelFixtures.heldOut()).orderBy("id").collectAsList();
    assertEquals(expected.size(), rows.size());
    for (int i = 0; i < rows.size(); i++) {
      String[] cells = expected.get(i).split(",");
      Row row = rows.get(i);
      assertEquals(Long.parseLong(cells[0]), row.getLong(row.fieldIndex("id")));
      double[] y = ((Vector) row.get(row.fieldIndex("kpca"))).toArray();
      boolean residual = cells.length == y.length + 2;
      assertEquals(cells.length, y.length + (residual ? 2 : 1), "row " + i + ": number of scores");
      for (int c = 0; c < y.length; c++) {
        double want = Double.parseDouble(cells[c + 1]);
        assertEquals(
            want, y[c], TOLERANCE * Math.max(1, Math.abs(want)), dir + " row " + i + " score " + c);
      }
      if (residual) {
        double want = Double.parseDouble(cells[cells.length - 1]);
        assertEquals(
            want,
            row.getDouble(row.fieldIndex("residual")),
            TOLERANCE * Math.max(1, want),
            dir + " row " + i + " residual");
      }
    }
  }

  @ParameterizedTest(name = "{0}/{1}")
  @CsvSource({
    "format1, nystrom-rbf-centered",
    "format1, nystrom-poly-uncentered",
    "format1, exact-laplacian-centered",
    "format1, pipeline-scaler-nystrom",
    "format2-spark-4.1, nystrom-rbf-centered",
    "format2-spark-4.1, nystrom-poly-uncentered",
    "format2-spark-4.1, exact-laplacian-centered",
    "format2-spark-4.1, pipeline-scaler-nystrom",
    "format2-spark-3.5, nystrom-rbf-centered",
    "format2-spark-3.5, nystrom-poly-uncentered",
    "format2-spark-3.5, exact-laplacian-centered",
    "format2-spark-3.5, pipeline-scaler-nystrom",
    "format2-spark-4.0, nystrom-rbf-centered",
    "format2-spark-4.0, nystrom-poly-uncentered",
    "format2-spark-4.0, exact-laplacian-centered",
    "format2-spark-4.0, pipeline-scaler-nystrom",
    "format2-spark-4.2, nystrom-rbf-centered",
    "format2-spark-4.2, nystrom-poly-uncentered",
    "format2-spark-4.2, exact-laplacian-centered",
    "format2-spark-4.2, pipeline-scaler-nystrom"
  })
  void savedModelsScoreAsWhenSaved(String format, String name) throws Exception {
    Path dir = fixture(format, name);
    Transformer model = load(dir, name);
    assertScoresAsRecorded(model, dir);
    if (model instanceof NystromKernelPCAModel nystrom) {
      // Format 2 keeps the statistics, so the model can grow; format 1 kept only the projector.
      assertEquals(format.startsWith("format2"), nystrom.isUpdatable(), "updatable");
    }
  }
}
