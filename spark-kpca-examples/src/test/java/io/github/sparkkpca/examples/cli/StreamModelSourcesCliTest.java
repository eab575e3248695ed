package io.github.sparkkpca.examples.cli;

import static io.github.sparkkpca.examples.cli.CliErrorsTest.assertUsageError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.RandomFeatureKernelPCAModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stream directory (the {@code version-N} subdirectories written by {@code stream}) is read at
 * its newest version wherever a model is read, also by {@code score-stream --model}, {@code stream
 * --warm-start} and {@code fit --landmarks-from}; and {@code stream} places its outputs by the same
 * rules as every other command (no output is, contains or lies inside an input, naming both
 * options).
 */
class StreamModelSourcesCliTest {

  static final int N = 60;

  @TempDir static Path dir;
  static Path data;
  static Path stream;
  static Path rffStream;

  @BeforeAll
  static void writeCsvAndStream() throws IOException {
    TestSpark.session();
    StringBuilder text = new StringBuilder("a,b,c\n");
    for (int i = 0; i < N; i++) {
      text.append(
          String.format(Locale.ROOT, "%d,%.3f,%.3f%n", i % 4, Math.sin(i), Math.cos(0.3 * i)));
    }
    data = Files.createDirectories(dir.resolve("data"));
    Files.writeString(data.resolve("data.csv"), text.toString());
    stream = dir.resolve("stream");
    TestSpark.Result exact =
        stream(stream, dir.resolve("ckpt"), "--k", "2", "--landmarks", "10", "--seed", "1");
    assertEquals(0, exact.code(), exact::toString);
    rffStream = dir.resolve("rff-stream");
    TestSpark.Result oja =
        stream(
            rffStream,
            dir.resolve("rff-ckpt"),
            "--k",
            "2",
            "--feature-map",
            "rff",
            "--features",
            "16",
            "--seed",
            "1",
            "--algorithm",
            "oja");
    assertEquals(0, oja.code(), oja::toString);
  }

  static TestSpark.Result stream(Path modelOut, Path checkpoint, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "stream",
                "--input",
                data.toString(),
                "--model-out",
                modelOut.toString(),
                "--checkpoint",
                checkpoint.toString(),
                "--available-now"));
    args.addAll(List.of(more));
    return TestSpark.cli(args.toArray(new String[0]));
  }

  /** The newest version-N subdirectory of a stream directory. */
  static String newest(Path streamDir) throws IOException {
    try (Stream<Path> files = Files.list(streamDir)) {
      List<String> versions =
          files
              .map(p -> p.getFileName().toString())
              .filter(n -> n.startsWith("version-"))
              .sorted()
              .toList();
      assertFalse(versions.isEmpty(), "no version in " + streamDir);
      return versions.get(versions.size() - 1);
    }
  }

  static String said(String option, Path streamDir) throws IOException {
    return option
        + " "
        + streamDir
        + " is a stream directory: reading its newest version, "
        + newest(streamDir);
  }

  @Test
  void scoreStreamReadsAStreamDirectoryAsItsModel() throws IOException {
    Path output = dir.resolve("scores");
    TestSpark.Result run =
        TestSpark.cli(
            "score-stream",
            "--model",
            stream.toString(),
            "--input",
            data.toString(),
            "--output",
            output.toString(),
            "--checkpoint",
            dir.resolve("score-ckpt").toString(),
            "--available-now");
    assertEquals(0, run.code(), run::toString);
    assertTrue(run.out().contains(said("--model", stream)), run.out());
    assertEquals(
        N,
        TestSpark.session().read().parquet(output.toString()).count(),
        "every input row scored once");

    // The stream directory as a whole is the input: nothing is written inside it.
    Path inside = stream.resolve("scores");
    assertUsageError(
        TestSpark.cli(
            "score-stream",
            "--model",
            stream.toString(),
            "--input",
            data.toString(),
            "--output",
            inside.toString(),
            "--checkpoint",
            dir.resolve("score-ckpt-2").toString()),
        "--output " + inside + ": it is inside the --model " + stream);
    assertFalse(Files.exists(inside));
  }

  @Test
  void warmStartReadsAStreamDirectory() throws IOException {
    Path warm = dir.resolve("warm");
    TestSpark.Result run =
        stream(
            warm,
            dir.resolve("warm-ckpt"),
            "--k",
            "2",
            "--feature-map",
            "rff",
            "--features",
            "16",
            "--seed",
            "1",
            "--algorithm",
            "oja",
            "--warm-start",
            rffStream.toString());
    assertEquals(0, run.code(), run::toString);
    assertTrue(run.out().contains(said("--warm-start", rffStream)), run.out());
    assertTrue(
        AbstractKernelPCAModel.loadAny(warm.resolve(newest(warm)).toString())
            instanceof RandomFeatureKernelPCAModel);

    Path missing = dir.resolve("no-model");
    assertUsageError(
        stream(
            dir.resolve("warm-2"),
            dir.resolve("warm-ckpt-2"),
            "--k",
            "2",
            "--feature-map",
            "rff",
            "--features",
            "16",
            "--algorithm",
            "oja",
            "--warm-start",
            missing.toString()),
        "--warm-start: no saved model in " + missing);

    Path inside = rffStream.resolve("ckpt");
    assertUsageError(
        stream(
            dir.resolve("warm-3"),
            inside,
            "--k",
            "2",
            "--feature-map",
            "rff",
            "--features",
            "16",
            "--algorithm",
            "oja",
            "--warm-start",
            rffStream.toString()),
        "--checkpoint " + inside + ": it lies inside the input " + rffStream + " (--warm-start)");
    assertFalse(Files.exists(inside));
  }

  @Test
  void landmarksFromReadsAStreamDirectory() throws IOException {
    Path fitted = dir.resolve("fitted");
    TestSpark.Result fit =
        TestSpark.cli(
            "fit",
            "--input",
            data.toString(),
            "--k",
            "2",
            "--landmarks-from",
            stream.toString(),
            "--model-out",
            fitted.toString());
    assertEquals(0, fit.code(), fit::toString);
    assertTrue(fit.out().contains(said("--landmarks-from", stream)), fit.out());
    assertEquals(
        AbstractKernelPCAModel.loadAny(stream.resolve(newest(stream)).toString())
            .numSupportPoints(),
        AbstractKernelPCAModel.loadAny(fitted.toString()).numSupportPoints());
  }

  @Test
  void streamRefusesAnOutputHoldingItsInput() throws IOException {
    Path modelOut = dir.resolve("holder");
    Path input = Files.createDirectories(modelOut.resolve("in"));
    Files.copy(data.resolve("data.csv"), input.resolve("data.csv"));
    List<String> args =
        new ArrayList<>(
            List.of(
                "stream",
                "--input",
                input.toString(),
                "--model-out",
                modelOut.toString(),
                "--checkpoint",
                dir.resolve("holder-ckpt").toString(),
                "--k",
                "2",
                "--landmarks",
                "10",
                "--available-now"));
    assertUsageError(
        TestSpark.cli(args.toArray(new String[0])),
        "--model-out " + modelOut + ": it contains the input " + input + " (--input)");
    assertFalse(Files.exists(dir.resolve("holder-ckpt")));

    // --landmarks-from is an input too: the checkpoint may not be written inside it.
    Path inside = stream.resolve("ckpt");
    assertUsageError(
        stream(dir.resolve("lf-out"), inside, "--k", "2", "--landmarks-from", stream.toString()),
        "--checkpoint " + inside + ": it lies inside the input " + stream + " (--landmarks-from)");
    assertFalse(Files.exists(inside));
  }
}
