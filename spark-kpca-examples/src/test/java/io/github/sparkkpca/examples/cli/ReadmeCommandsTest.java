package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sparkkpca.examples.DocPages;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every {@code bin/spark-kpca} line of the command-line guide's first block
 * (docs/guides/command-line.md, "Commands"), in order, as written, and checks that the command
 * lines of the README and of the getting-started page are among them: the same arguments,
 * in-process, with relative paths taken relative to a temporary directory that holds a generated
 * {@code data.csv} (five numeric columns and a {@code label}). Then checks what the lines promise:
 * the model, the summary, the scores and the charts.
 */
class ReadmeCommandsTest {

  /** Options whose value is a file or directory. */
  static final Set<String> PATH_OPTIONS =
      Set.of(
          "--input",
          "--model-out",
          "--summary-out",
          "--model",
          "--output",
          "--plots",
          "--out",
          "--landmarks-from");

  @TempDir Path dir;

  @Test
  void readmeCommandLinesRun() throws IOException {
    writeCsv(dir.resolve("data.csv"), 2000);
    List<List<String>> commands = commands(DocPages.text(DocPages.COMMAND_LINE), "## Commands");
    assertTrue(commands.size() >= 4, "the guide lists " + commands.size() + " commands");
    for (List<String> command : commands) {
      String[] args = command.stream().skip(1).toArray(String[]::new);
      for (int i = 0; i + 1 < args.length; i++) {
        if (PATH_OPTIONS.contains(args[i]) && !args[i + 1].contains(":")) {
          args[i + 1] = dir.resolve(args[i + 1]).toString();
        }
      }
      long start = System.nanoTime();
      TestSpark.Result result = TestSpark.cli(args);
      System.out.printf(
          Locale.ROOT,
          "docs: %s (%.1f s)%n",
          String.join(" ", command),
          (System.nanoTime() - start) / 1e9);
      assertEquals(0, result.code(), () -> String.join(" ", command) + "\n" + result);
    }
    List<String> lines = commands.stream().map(c -> String.join(" ", c)).toList();
    if (lines.stream().anyMatch(l -> l.contains("--summary-out summary.json"))) {
      JsonNode summary = new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
      assertEquals(2000, summary.get("n").asLong());
      assertEquals(10, summary.get("k").asInt());
    }
    assertTrue(
        Files.isDirectory(dir.resolve("model/metadata")), "fit --model-out model/ saved no model");
    if (lines.stream().anyMatch(l -> l.contains("update --model model/"))) {
      // The same 2000 rows absorbed a second time: the updated model counts both.
      assertEquals(
          4000,
          new ObjectMapper().readTree(dir.resolve("updated.json").toFile()).get("n").asLong());
    }
    if (lines.stream().anyMatch(l -> l.contains("export --model model-updated/ --out bundle/"))) {
      JsonNode exported = new ObjectMapper().readTree(dir.resolve("bundle/model.json").toFile());
      assertEquals(4000, exported.get("n").asLong());
      assertEquals(
          exported.get("m").asInt(),
          Files.readAllLines(dir.resolve("bundle/landmarks.csv")).size());
    }
    try (Stream<Path> files = Files.list(dir.resolve("scores"))) {
      assertTrue(
          files.anyMatch(p -> p.getFileName().toString().endsWith(".csv")),
          "transform wrote no CSV");
    }
    for (List<String> command : commands) {
      if (command.contains("--reconstruction")) {
        String output = command.get(command.indexOf("--output") + 1);
        String header =
            String.join(
                ",",
                TestSpark.session()
                    .read()
                    .option("header", "true")
                    .csv(dir.resolve(output).toString())
                    .columns());
        assertTrue(header.contains("rec_1,rec_2,rec_3,rec_4,rec_5,label"), output + ": " + header);
      }
    }
    List<String> chartDirs = new ArrayList<>();
    for (List<String> command : commands) {
      int i = command.indexOf("--plots");
      if (i >= 0) {
        chartDirs.add(command.get(i + 1));
      }
    }
    assertFalse(chartDirs.isEmpty(), "the guide shows no --plots");
    for (String charts : chartDirs) {
      for (String png : List.of("scree.png", "reconstruction-error.png", "embedding.png")) {
        assertTrue(Files.size(dir.resolve(charts).resolve(png)) > 1000, charts + png);
      }
    }
  }

  /**
   * The command lines of the README and of the getting-started page are lines this test runs, so
   * what a newcomer copies first runs as written.
   */
  @Test
  void readmeAndGettingStartedShowLinesThatRun() throws IOException {
    List<List<String>> run = commands(DocPages.text(DocPages.COMMAND_LINE), "## Commands");
    for (var shown :
        List.of(
            commands(DocPages.text(DocPages.README), "## Command line"),
            commands(
                DocPages.text(DocPages.GETTING_STARTED), "## First fit from the command line"))) {
      assertFalse(shown.isEmpty());
      for (List<String> command : shown) {
        assertTrue(
            run.contains(command),
            String.join(" ", command) + " is not a line of the command-line guide's tested block");
      }
    }
  }

  /** The {@code bin/spark-kpca} lines of the first bash block of a page's section. */
  static List<List<String>> commands(String page, String heading) {
    String block = DocPages.block(page, heading, "bash").code();
    List<List<String>> commands = new ArrayList<>();
    for (String line : block.split("\n")) {
      String code = line.contains("#") ? line.substring(0, line.indexOf('#')) : line;
      if (code.strip().startsWith("bin/spark-kpca ")) {
        commands.add(List.of(code.strip().split("\\s+")));
      }
    }
    return commands;
  }

  /** Three Gaussian clusters in five dimensions, with the cluster as {@code label}. */
  static void writeCsv(Path csv, int rows) throws IOException {
    Random random = new Random(17);
    StringBuilder text = new StringBuilder("x1,x2,x3,x4,x5,label\n");
    for (int i = 0; i < rows; i++) {
      int label = i % 3;
      for (int j = 0; j < 5; j++) {
        text.append(
            String.format(
                Locale.ROOT, "%.5f,", (j == label ? 2.0 : 0.0) + 0.6 * random.nextGaussian()));
      }
      text.append(label).append('\n');
    }
    Files.writeString(csv, text.toString(), StandardCharsets.UTF_8);
  }
}
