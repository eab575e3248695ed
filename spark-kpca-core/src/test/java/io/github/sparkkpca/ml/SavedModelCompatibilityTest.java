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
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Models saved by earlier releases load and score as they did then: each fixture holds a saved model and
 * the scores (and residuals) it gave on held-out rows when it was saved ({@link ModelFixtures}).
 */
class SavedModelCompatibilityTest {

  /** Scores agree to rounding: the kernel block may be summed in another order than when saved. */
  private static final double TOLERANCE = 1e-10;

  static Path fixture(String format, String name) throws URISyntaxException {
    return Path.of(SavedModelCompatibilityTest.class.getResource("/fixtures/" + format + "/" + name).toURI());
  }

  static Transformer load(Path dir, String name) {
    LocalSpark.spark();
    String path = dir.resolve("model").toString();
    if (name.startsWith("pipeline")) {
      return PipelineModel.load(path);
    }
    return name.startsWith("exact") ? KernelPCAModel.load(path) : NystromKernelPCAModel.load(path);
  }

  /** Asserts that {@code model} scores the held-out rows as recorded in {@code dir/expected.csv}. */
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
        assertEquals(want, y[c], TOLERANCE * Math.max(1, Math.abs(want)), dir + " row " + i + " score " + c);
      }
      if (residual) {
        double want = Double.parseDouble(cells[cells.length - 1]);
        assertEquals(want, row.getDouble(row.fieldIndex("residual")), TOLERANCE * Math.max(1, want),
            dir + " row " + i + " residual");
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"nystrom-rbf-centered", "nystrom-poly-uncentered", "exact-laplacian-centered",
      "pipeline-scaler-nystrom"})
  void formatOneModelsScoreAsWhenSaved(String name) throws Exception {
    Path dir = fixture("format1", name);
    Transformer model = load(dir, name);
    assertScoresAsRecorded(model, dir);
  }
}
