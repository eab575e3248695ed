package io.github.sparkkpca.examples.cli;

import static io.github.sparkkpca.examples.cli.CliErrorsTest.assertUsageError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fit and transform replace only what they wrote before, only with {@code --overwrite}, and never a
 * path that is or holds their input or model. Each refusal is one line with exit code 2, given
 * before the input is read (the inputs of the refused runs hold a bad cell, whose error would come
 * first otherwise).
 */
class OutputSafetyCliTest {

  static final int N = 60;

  @TempDir static Path dir;
  static Path csv;
  static String csvText;
  static Path model;

  @BeforeAll
  static void writeCsvAndFit() throws IOException {
    TestSpark.session();
    StringBuilder text = new StringBuilder("a,b,c\n");
    for (int i = 0; i < N; i++) {
      text.append(String.format(Locale.ROOT, "%d,%.3f,%d%n", i % 4, Math.sin(i), (i * 7) % 5));
    }
    csvText = text.toString();
    csv =
        Files.writeString(
            Files.createDirectories(dir.resolve("data")).resolve("data.csv"), csvText);
    model = dir.resolve("model");
    TestSpark.Result fit = fit(csv, model);
    assertEquals(0, fit.code(), fit::toString);
  }

  static TestSpark.Result fit(Path input, Path modelOut, String... more) {
    return CliFixture.fit(input, modelOut, more);
  }

  static TestSpark.Result transform(Path output, String... more) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "transform",
                "--model",
                model.toString(),
                "--input",
                csv.toString(),
                "--output",
                output.toString()));
    args.addAll(List.of(more));
    return TestSpark.cli(args.toArray(new String[0]));
  }

  /**
   * A CSV whose third row is bad: a run that read it before checking its outputs would fail on
   * that.
   */
  static Path badCsvIn(Path directory) throws IOException {
    return Files.writeString(
        Files.createDirectories(directory).resolve("bad.csv"), "a,b,c\n1,2,3\n4,5,6\n7,x,9\n");
  }

  /**
   * {@code fit --model-out .} in the data's directory deleted the directory, the input included.
   */
  @Test
  void fitIntoTheInputsDirectoryIsRefusedAndTheInputKept() throws IOException {
    Path work = dir.resolve("work");
    Path input = badCsvIn(work);
    String text = Files.readString(input);
    for (String[] overwrite : new String[][] {{}, {"--overwrite"}}) {
      assertUsageError(
          fit(input, work, overwrite), "--model-out " + work + ": it contains the input " + input);
      assertUsageError(
          fit(input, input, overwrite), "--model-out " + input + ": it is the input " + input);
    }
    assertEquals(List.of("bad.csv"), CliFixture.names(work));
    assertEquals(text, Files.readString(input));
  }

  /** An output that leads into an input through a symbolic link is refused, saying so. */
  @Test
  void anOutputLinkedToAnInputIsRefusedWithTheLinksTarget() throws IOException {
    Path toModel = Files.createSymbolicLink(dir.resolve("link-to-model"), model);
    Path toData = Files.createSymbolicLink(dir.resolve("link-to-data"), csv.getParent());
    Path dangling = Files.createSymbolicLink(dir.resolve("link-dangling"), model.resolve("scores"));
    for (String[] overwrite : new String[][] {{}, {"--overwrite"}}) {
      assertUsageError(
          transform(toModel, overwrite),
          "--output "
              + toModel
              + ": it is the input "
              + model
              + " (--model) through symbolic links: "
              + toModel
              + " resolves to "
              + model.toRealPath()
              + "; choose another path");
      assertUsageError(
          transform(toData, overwrite),
          "--output " + toData + ": it contains the input " + csv + " (--input) through symbolic",
          "resolves to " + csv.getParent().toRealPath());
      assertUsageError(
          transform(dangling, overwrite),
          "--output " + dangling + ": it lies inside the input " + model,
          "resolves to " + model.toRealPath().resolve("scores"));
    }
    assertEquals(N, NystromKernelPCAModel.load(model.toString()).numRows());
    assertEquals(csvText, Files.readString(csv));
  }

  /** {@code transform --output M} with M the model deleted the model. */
  @Test
  void transformOntoItsModelIsRefusedAndTheModelKept() throws IOException {
    for (String[] overwrite : new String[][] {{}, {"--overwrite"}}) {
      assertUsageError(
          transform(model, overwrite), "--output " + model + ": it is the input " + model);
      assertUsageError(transform(dir, overwrite), "--output " + dir + ": it contains the input");
    }
    assertEquals(N, NystromKernelPCAModel.load(model.toString()).numRows());
    assertEquals(csvText, Files.readString(csv));
  }

  @Test
  void aSavedModelAndSummaryAreReplacedOnlyWithOverwrite() throws IOException {
    Path again = dir.resolve("again");
    Path summary = dir.resolve("again.json");
    assertEquals(0, fit(csv, again, "--summary-out", summary.toString()).code());
    String uid = NystromKernelPCAModel.load(again.toString()).uid();

    Path bad = badCsvIn(dir.resolve("bad-for-again"));
    assertUsageError(
        fit(bad, again),
        "--model-out "
            + again
            + ": a stage saved by spark-kpca already exists "
            + "there; to replace it, add --overwrite");
    TestSpark.Result replaced = fit(csv, again, "--summary-out", summary.toString(), "--overwrite");
    assertEquals(0, replaced.code(), replaced::toString);
    assertFalse(
        uid.equals(NystromKernelPCAModel.load(again.toString()).uid()), "the model was replaced");
    assertTrue(Files.readString(summary).contains("\"fitSeconds\""));
    assertFalse(
        CliFixture.names(dir).stream().anyMatch(n -> n.contains(".spark-kpca-")),
        "leftover sibling: " + CliFixture.names(dir));

    // A summary path holding another JSON file is not replaced, even with --overwrite.
    Path notes = Files.writeString(dir.resolve("notes.json"), "{\"mine\": 1}");
    assertUsageError(
        fit(bad, dir.resolve("m-notes"), "--summary-out", notes.toString(), "--overwrite"),
        "--summary-out " + notes + ": it exists and is not a summary written by spark-kpca fit");
    assertEquals("{\"mine\": 1}", Files.readString(notes));
  }

  /** {@code --overwrite} never deletes a directory that spark-kpca did not write. */
  @Test
  void overwriteRefusesDirectoriesItDidNotWrite() throws IOException {
    Path mine = Files.createDirectories(dir.resolve("mine"));
    Files.writeString(mine.resolve("notes.txt"), "keep");
    Path bad = badCsvIn(dir.resolve("bad-for-mine"));
    assertUsageError(
        fit(bad, mine, "--overwrite"),
        "--model-out " + mine + ": it exists and holds 'notes.txt'",
        "never replaced");
    assertUsageError(
        fit(bad, dir.resolve("m-mine"), "--plots", mine.toString(), "--overwrite"),
        "--plots " + mine + ": it exists and has no " + SafeOutput.MARKER + " file");
    assertUsageError(
        transform(mine, "--overwrite"),
        "--output " + mine + ": it exists and has no " + SafeOutput.MARKER + " file");
    assertEquals(List.of("notes.txt"), CliFixture.names(mine));
    assertUsageError(
        fit(bad, dir.resolve("nested"), "--plots", dir.resolve("nested/charts").toString()),
        "--plots "
            + dir.resolve("nested/charts")
            + ": it overlaps --model-out "
            + dir.resolve("nested"));
  }

  @Test
  void transformOutputIsReplacedOnlyWithOverwriteAndReadsBackWithoutTheMarker() throws IOException {
    Path scores = dir.resolve("scores");
    assertEquals(0, transform(scores).code());
    assertTrue(Files.isRegularFile(scores.resolve(SafeOutput.MARKER)));
    assertEquals(
        N, TestSpark.session().read().option("header", "true").csv(scores.toString()).count());
    assertUsageError(
        transform(scores),
        "--output "
            + scores
            + ": an output of spark-kpca already exists there; "
            + "to replace it, add --overwrite");
    TestSpark.Result again = transform(scores, "--overwrite", "--residual");
    assertEquals(0, again.code(), again::toString);
    assertEquals(
        List.of("pc_1", "pc_2", "residual"),
        List.of(
            TestSpark.session().read().option("header", "true").csv(scores.toString()).columns()));
  }
}
