package io.github.sparkkpca.examples.quickstart;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.examples.DocPages;
import io.github.sparkkpca.examples.cli.TestSpark;
import io.github.sparkkpca.examples.data.MnistIdx;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the README's Java quick start on MNIST and checks what it prints and returns. */
class JavaQuickStartTest {

  @TempDir Path dir;

  @Test
  void readmeJavaQuickStartRuns() throws IOException {
    var spark = TestSpark.session();
    Dataset<Row> train =
        MnistIdx.read(MnistIdx.defaultDirectory(), true)
            .toDataFrame(spark, null, 1500)
            .withColumn("id", functions.monotonically_increasing_id());
    Dataset<Row> test =
        MnistIdx.read(MnistIdx.defaultDirectory(), false)
            .toDataFrame(spark, null, 200)
            .withColumn("id", functions.monotonically_increasing_id());
    List<Row> rows =
        JavaQuickStart.run(train, test, dir.resolve("kpca").toString())
            .select("kpca", "kpcaBeforeSave", "novelty")
            .collectAsList();
    assertEquals(200, rows.size());
    for (Row row : rows) {
      Vector after = (Vector) row.get(0);
      assertEquals(10, after.size());
      assertArrayEquals(
          ((Vector) row.get(1)).toArray(), after.toArray(), 0.0, "reloaded model scores alike");
      assertTrue(row.getDouble(2) >= 0, "residual is a squared distance");
    }
    assertTrue(Files.isDirectory(dir.resolve("kpca").resolve("metadata")));
  }

  /**
   * The Java blocks of the README and of the getting-started page contain, in order, every line
   * this test runs.
   */
  @Test
  void readmeShowsTheCodeThisTestRuns() throws IOException {
    assertShowsTheCodeThisTestRuns(
        DocPages.block(DocPages.text(DocPages.README), "## Java", "java").code(), "README");
    assertShowsTheCodeThisTestRuns(
        DocPages.block(DocPages.text(DocPages.GETTING_STARTED), "## First fit from Java", "java")
            .code(),
        "docs/getting-started.md");
  }

  private static void assertShowsTheCodeThisTestRuns(String block, String page) throws IOException {
    String source =
        Files.readString(
            Path.of(
                "src",
                "main",
                "java",
                "io",
                "github",
                "sparkkpca",
                "examples",
                "quickstart",
                "JavaQuickStart.java"));
    String tested =
        source.substring(source.indexOf("// README: begin") + 16, source.indexOf("// README: end"));
    int at = 0;
    for (String line : tested.strip().split("\n")) {
      String want = line.strip();
      int found = block.indexOf(want, at);
      assertTrue(found >= 0, page + "'s Java quick start lacks (in order): " + want);
      at = found + want.length();
    }
  }
}
