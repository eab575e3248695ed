package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every path option of the commands, input or output, given a path with a space, {@code #}, {@code
 * %} and a non-ASCII character: the command reads and writes the literal path (not its URI
 * encoding, "a%20b.json" for "a b.json") and its log names it. {@code %41} is in every name so that
 * a decoded name ("A") is caught as well as an encoded one.
 */
class PathCharactersCliTest {

  /** The characters under test, in every directory and file name. */
  static final String ODD = " #%41ü";

  @TempDir static Path tmp;

  /** The options given a path below, as "command --option". */
  private final Set<String> covered = new TreeSet<>();

  private Path root;

  /**
   * Runs {@code args}, expecting exit code 0, records its path options as covered and checks that
   * every output exists at its literal path and that the log names it.
   */
  private TestSpark.Result run(List<Path> outputs, String... args) {
    TestSpark.Result result = TestSpark.cli(args);
    assertEquals(0, result.code(), result::toString);
    for (int i = 1; i < args.length; i++) {
      if (args[i].startsWith("--")
          && i + 1 < args.length
          && args[i + 1].startsWith(root.toString())) {
        covered.add(args[0] + " " + args[i]);
      }
    }
    for (Path output : outputs) {
      assertTrue(Files.exists(output), output + " was not written:\n" + result);
      assertTrue(
          result.out().contains(output.toString()), "the log names " + output + ":\n" + result);
    }
    return result;
  }

  @Test
  void everyPathOptionReadsAndWritesTheLiteralPath() throws IOException {
    TestSpark.session();
    root = Files.createDirectories(tmp.resolve("dir" + ODD));
    Path in = Files.createDirectories(root.resolve("in" + ODD));
    for (int f = 0; f < 2; f++) {
      StreamCsvFiles.write(
          in, f, StreamCsvFiles.text(new Random(7 + f), 30, "id", i -> i % 3), null);
    }
    Path landmarks = root.resolve("landmarks" + ODD + ".csv");
    StringBuilder rows = new StringBuilder();
    Random random = new Random(3);
    for (int i = 0; i < 10; i++) {
      rows.append(random.nextGaussian()).append(',').append(random.nextGaussian()).append(',');
      rows.append(random.nextGaussian()).append('\n');
    }
    Files.writeString(landmarks, rows.toString());
    String input = in.toString();
    Path model = root.resolve("model" + ODD);
    Path fitSummary = root.resolve("fit" + ODD + ".json");
    Path fitPlots = root.resolve("plots" + ODD);
    run(
        List.of(model, fitSummary, fitPlots),
        "fit",
        "--input",
        input,
        "--label-col",
        "id",
        "--k",
        "2",
        "--landmarks-file",
        landmarks.toString(),
        "--model-out",
        model.toString(),
        "--summary-out",
        fitSummary.toString(),
        "--plots",
        fitPlots.toString());
    assertEquals(
        List.of(), leftovers(root), "only the literal names are written (no %20, no %C3%BC)");

    String m = model.toString();
    Path scores = root.resolve("scores" + ODD);
    Path transformPlots = root.resolve("transform plots" + ODD);
    run(
        List.of(scores, transformPlots),
        "transform",
        "--model",
        m,
        "--input",
        input,
        "--label-col",
        "id",
        "--output",
        scores.toString(),
        "--plots",
        transformPlots.toString());
    Path updated = root.resolve("updated" + ODD);
    Path updateSummary = root.resolve("updated" + ODD + ".json");
    run(
        List.of(updated, updateSummary),
        "update",
        "--model",
        m,
        "--input",
        input,
        "--label-col",
        "id",
        "--model-out",
        updated.toString(),
        "--summary-out",
        updateSummary.toString());
    Path grown = root.resolve("grown" + ODD);
    Path growSummary = root.resolve("grown" + ODD + ".json");
    run(
        List.of(grown, growSummary),
        "grow",
        "--model",
        m,
        "--input",
        input,
        "--label-col",
        "id",
        "--add-landmarks",
        "5",
        "--seed",
        "5",
        "--model-out",
        grown.toString(),
        "--summary-out",
        growSummary.toString());
    Path export = root.resolve("export" + ODD);
    run(List.of(export), "export", "--model", m, "--out", export.toString());
    Path evaluation = root.resolve("evaluate" + ODD + ".json");
    run(
        List.of(evaluation),
        "evaluate",
        "--model",
        m,
        "--input",
        input,
        "--label-col",
        "id",
        "--summary-out",
        evaluation.toString());
    Path selectK = root.resolve("select-k" + ODD + ".json");
    run(
        List.of(selectK),
        "select-k",
        "--input",
        input,
        "--label-col",
        "id",
        "--gamma",
        "0.5",
        "--max-k",
        "4",
        "--summary-out",
        selectK.toString());
    Path rde = root.resolve("rde" + ODD);
    Path rdeSummary = root.resolve("rde" + ODD + ".json");
    Path rdePlots = root.resolve("rde plots" + ODD);
    run(
        List.of(rde, rdeSummary, rdePlots),
        "rde",
        "--input",
        input,
        "--label-col",
        "id",
        "--gamma",
        "0.3",
        "--landmarks",
        "10",
        "--max-dimension",
        "3",
        "--model-out",
        rde.toString(),
        "--summary-out",
        rdeSummary.toString(),
        "--plots",
        rdePlots.toString());
    Path predictions = root.resolve("predictions" + ODD);
    run(
        List.of(predictions),
        "predict",
        "--model",
        rde.toString(),
        "--input",
        input,
        "--label-col",
        "id",
        "--output",
        predictions.toString());
    Path stream = root.resolve("stream" + ODD);
    Path streamSummary = root.resolve("stream" + ODD + ".json");
    run(
        List.of(stream, streamSummary),
        "stream",
        "--input",
        input,
        "--label-col",
        "id",
        "--k",
        "2",
        "--landmarks-from",
        m,
        "--model-out",
        stream.toString(),
        "--checkpoint",
        root.resolve("stream-ck" + ODD).toString(),
        "--summary-out",
        streamSummary.toString(),
        "--available-now");
    Path streamedScores = root.resolve("streamed scores" + ODD);
    run(
        List.of(streamedScores),
        "score-stream",
        "--model",
        m,
        "--input",
        input,
        "--label-col",
        "id",
        "--output",
        streamedScores.toString(),
        "--checkpoint",
        root.resolve("score-ck" + ODD).toString(),
        "--available-now");
    assertEquals(List.of(), leftovers(root), "only the literal names are written");

    // Every path option of these commands is covered; the others are named here with why not.
    Set<String> expected = new TreeSet<>(pathOptions());
    expected.removeAll(NOT_RUN);
    assertEquals(expected, covered);
  }

  /**
   * Path options not run here: the MNIST reader's directory (a data set the tests do not ship),
   * RF-Oja's warm start (a second fit and stream, read by the same loader as --landmarks-from), and
   * the long-running reproductions and benchmarks (java.nio paths they write directly).
   */
  static final Set<String> NOT_RUN =
      Set.of(
          "fit --mnist-dir",
          "transform --mnist-dir",
          "update --mnist-dir",
          "grow --mnist-dir",
          "stream --mnist-dir",
          "score-stream --mnist-dir",
          "evaluate --mnist-dir",
          "select-k --mnist-dir",
          "rde --mnist-dir",
          "predict --mnist-dir",
          "stream --landmarks-file",
          "fit --landmarks-from",
          "stream --warm-start",
          "demo --plots");

  /**
   * The path options (type Path or File, or a label naming a directory, file, path or model) of
   * every command but the reproductions and benchmarks, as "command --option".
   */
  static List<String> pathOptions() {
    List<String> options = new ArrayList<>();
    CommandLine cli = new CommandLine(new SparkKpcaCli());
    for (var command : cli.getSubcommands().entrySet()) {
      if (command.getKey().equals("reproduce") || command.getKey().equals("bench")) {
        continue;
      }
      for (OptionSpec option : command.getValue().getCommandSpec().options()) {
        String type = option.type().getName();
        if (type.equals(Path.class.getName())
            || type.equals(java.io.File.class.getName())
            || option.paramLabel().matches(".*(DIR|FILE|PATH|MODEL).*")) {
          options.add(command.getKey() + " " + option.longestName());
        }
      }
    }
    return options;
  }

  /** Names under {@code dir} that hold a percent-encoding of the characters under test. */
  private static List<String> leftovers(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .map(p -> dir.relativize(p).toString())
          .filter(name -> name.contains("%20") || name.contains("%C3") || name.contains("%23"))
          .toList();
    }
  }
}
