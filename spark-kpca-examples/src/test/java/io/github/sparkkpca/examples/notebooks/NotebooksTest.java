package io.github.sparkkpca.examples.notebooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.sparkkpca.examples.DocPages;
import io.github.sparkkpca.examples.cli.TestSpark;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Executes every notebook in {@code notebooks/} cell by cell, as a cluster would (see {@link
 * NotebookRunner}); a cell that does not compile or throws fails the build, naming the notebook and
 * the cell. The notebooks check their own results with {@code require}; this test also checks the
 * PNG files they promise.
 */
class NotebooksTest {

  static final Path NOTEBOOKS = Path.of("..", "notebooks");

  /** The files (under the notebooks' output directory) each notebook must produce. */
  static final Map<String, List<String>> IMAGES =
      Map.of(
          "01-quick-start.scala",
              List.of(
                  "quick-start-scree.png", "quick-start-error.png", "quick-start-embedding.png"),
          "03-denoising.scala", List.of("denoising.png"));

  @TempDir static Path work;

  static Path outputDir;

  /**
   * One SparkContext per JVM: the shared test session stops; {@link TestSpark} starts another when
   * needed.
   */
  @BeforeAll
  static void setUp() throws IOException {
    TestSpark.session().stop();
    outputDir = Files.createDirectories(work.resolve("out"));
    System.setProperty("notebook.outputDir", outputDir.toString());
    System.setProperty("java.awt.headless", "true");
  }

  @AfterAll
  static void tearDown() {
    System.clearProperty("notebook.outputDir");
  }

  /**
   * A fresh local "cluster" per notebook, as when a notebook is attached: a session whose executors
   * load the classes the notebook's interpreter writes to {@code classDir}.
   */
  static SparkSession cluster(Path classDir) {
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("spark-kpca-notebooks")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.repl.class.outputDir", classDir.toString())
            .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    SparkSession.setActiveSession(spark);
    SparkSession.setDefaultSession(spark);
    return spark;
  }

  static List<Path> notebooks() throws IOException {
    try (Stream<Path> files = Files.list(NOTEBOOKS)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".scala")).sorted().toList();
    }
  }

  @Test
  void theNotebooksAreThere() throws IOException {
    List<String> names = notebooks().stream().map(p -> p.getFileName().toString()).toList();
    assertEquals(
        List.of("01-quick-start.scala", "02-anomaly-detection.scala", "03-denoising.scala"), names);
  }

  @TestFactory
  Stream<DynamicTest> everyCellOfEveryNotebookRuns() throws IOException {
    return notebooks().stream()
        .map(
            notebook ->
                DynamicTest.dynamicTest(notebook.getFileName().toString(), () -> run(notebook)));
  }

  /**
   * The Scala block of the getting-started page ("First fit from Scala"), verbatim, in a session
   * that has only what the page assumes: a DataFrame {@code df} with numeric columns x1, x2, x3. A
   * second cell checks what the snippet built. The README's Scala block must be the same code.
   */
  @Test
  void readmeScalaSnippetRuns() throws Exception {
    DocPages.Block snippet =
        DocPages.block(DocPages.text(DocPages.GETTING_STARTED), "## First fit from Scala", "scala");
    assertEquals(
        snippet.code(),
        DocPages.block(DocPages.text(DocPages.README), "## Scala", "scala").code(),
        "README's Scala block differs from the getting-started page's, which this test runs");
    String data =
        String.join(
            "\n",
            "val df = spark.range(0, 3000, 1, 3).selectExpr(",
            "  \"sin(id * 0.37) + 0.1 * randn(1) as x1\", \"cos(id * 0.37) + 0.1 * randn(2) as x2\",",
            "  \"(id % 3) + 0.1 * randn(3) as x3\")");
    String check =
        String.join(
            "\n",
            "require(kpcaModel.numComponents == 5 && kpcaModel.numSupportPoints == 300, kpcaModel.toString)",
            "require(kpcaModel.explainedVarianceRatio.toArray.sum > 0.5, kpcaModel.explainedVarianceRatio.toString)",
            "require(model.transform(df).select(\"kpca\").count() == 3000)");
    run(
        "getting-started.md",
        List.of(
            new NotebookRunner.Cell(1, 0, data),
            new NotebookRunner.Cell(2, snippet.line(), snippet.code()),
            new NotebookRunner.Cell(3, 0, check)));
  }

  static void run(Path notebook) throws Exception {
    run(notebook.getFileName().toString(), NotebookRunner.cells(notebook));
  }

  static void run(String name, List<NotebookRunner.Cell> cells) throws Exception {
    assertFalse(cells.stream().allMatch(NotebookRunner.Cell::isMagic), name + " has no code cells");
    long start = System.nanoTime();
    Path classDir = Files.createTempDirectory(work, "classes");
    SparkSession spark = cluster(classDir);
    try (NotebookRunner runner = new NotebookRunner(spark, classDir)) {
      for (NotebookRunner.Cell cell : cells) {
        if (cell.isMagic()) {
          continue;
        }
        System.out.printf("%n=== %s, cell %d (line %d)%n", name, cell.number(), cell.line());
        long cellStart = System.nanoTime();
        NotebookRunner.Outcome outcome = runner.run(cell);
        System.out.printf(
            "=== %s, cell %d: %s in %.1f s%n",
            name, cell.number(), outcome.result(), (System.nanoTime() - cellStart) / 1e9);
        if (!outcome.succeeded()) {
          fail(
              String.format(
                  "notebooks/%s, cell %d (line %d): %s%n%s%n--- interpreter output%n%s",
                  name,
                  cell.number(),
                  cell.line(),
                  outcome.result(),
                  cell.source().strip(),
                  outcome.output().strip()));
        }
      }
    } finally {
      spark.stop();
    }
    System.out.printf(
        "=== %s: %d cells in %.1f s%n", name, cells.size(), (System.nanoTime() - start) / 1e9);
    for (String image : IMAGES.getOrDefault(name, List.of())) {
      Path file = outputDir.resolve(image);
      assertTrue(Files.isRegularFile(file), name + " did not write " + image);
      BufferedImage png = ImageIO.read(file.toFile());
      assertNotNull(png, image + " is not an image");
      assertTrue(
          png.getWidth() >= 300 && png.getHeight() >= 200,
          image + " is " + png.getWidth() + "x" + png.getHeight());
    }
  }
}
