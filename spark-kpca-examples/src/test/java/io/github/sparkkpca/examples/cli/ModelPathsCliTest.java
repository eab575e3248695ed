package io.github.sparkkpca.examples.cli;

import static io.github.sparkkpca.examples.cli.CliErrorsTest.assertUsageError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.persistence.Manifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a command may write relative to what it reads, and which model directories it reads: no
 * output inside the model or data being read (exit 2 naming both options), two fits to one {@code
 * --model-out} at once leave one intact model and one usage error naming {@code --overwrite}, and a
 * stream directory is read at its newest version by every command that reads a model.
 */
class ModelPathsCliTest {

  static final int N = 60;

  @TempDir static Path dir;
  static Path data;
  static Path csv;
  static Path model;

  @BeforeAll
  static void writeCsvAndFit() throws IOException {
    TestSpark.session();
    StringBuilder text = new StringBuilder("a,b,c\n");
    for (int i = 0; i < N; i++) {
      text.append(
          String.format(Locale.ROOT, "%d,%.3f,%.3f%n", i % 4, Math.sin(i), Math.cos(0.3 * i)));
    }
    data = Files.createDirectories(dir.resolve("data"));
    csv = Files.writeString(data.resolve("data.csv"), text.toString());
    model = dir.resolve("model");
    TestSpark.Result fit = fit(model);
    assertEquals(0, fit.code(), fit::toString);
  }

  static TestSpark.Result fit(Path modelOut, String... more) {
    return CliFixture.fit(csv, modelOut, more);
  }

  /**
   * {@code update --model M --model-out M/sub} and {@code export --out M/data/bundle} were accepted
   * and then blocked {@code --overwrite} of M; outputs inside the data were accepted too.
   */
  @Test
  void outputsInsideTheModelOrTheDataAreRefusedNamingBothOptions() throws IOException {
    Path sub = model.resolve("sub");
    assertUsageError(
        TestSpark.cli(
            "update",
            "--model",
            model.toString(),
            "--input",
            csv.toString(),
            "--model-out",
            sub.toString()),
        "--model-out " + sub + ": it lies inside the input " + model + " (--model)");
    Path bundle = model.resolve("data").resolve("bundle");
    assertUsageError(
        TestSpark.cli("export", "--model", model.toString(), "--out", bundle.toString()),
        "--out " + bundle + ": it lies inside the input " + model + " (--model)");
    Path scores = model.resolve("scores");
    assertUsageError(
        TestSpark.cli(
            "transform",
            "--model",
            model.toString(),
            "--input",
            csv.toString(),
            "--output",
            scores.toString(),
            "--overwrite"),
        "--output " + scores + ": it lies inside the input " + model + " (--model)");
    Path inData = data.resolve("scores");
    assertUsageError(
        TestSpark.cli(
            "transform",
            "--model",
            model.toString(),
            "--input",
            data.toString(),
            "--output",
            inData.toString()),
        "--output " + inData + ": it lies inside the input " + data + " (--input)");
    Path fitSub = model.resolve("refit");
    assertUsageError(
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--k",
            "2",
            "--landmarks-from",
            model.toString(),
            "--model-out",
            fitSub.toString()),
        "--model-out " + fitSub + ": it lies inside the input " + model + " (--landmarks-from)");
    Path summary = model.resolve("evaluate.json");
    assertUsageError(
        TestSpark.cli(
            "evaluate",
            "--model",
            model.toString(),
            "--input",
            csv.toString(),
            "--summary-out",
            summary.toString()),
        "--summary-out " + summary + ": it lies inside the input " + model + " (--model)");
    // An output that contains the model names both options too.
    assertUsageError(
        TestSpark.cli("export", "--model", model.toString(), "--out", dir.toString()),
        "--out " + dir + ": it contains the input " + model + " (--model)");
    assertEquals(List.of(Manifest.NAME, "data", "metadata"), CliFixture.names(model));
    assertEquals(List.of("data.csv"), CliFixture.names(data));
    assertEquals(N, NystromKernelPCAModel.load(model.toString()).numRows());
  }

  /**
   * Two fits to one --model-out at once: the loser exited 1 with the Java API's advice
   * ("write().overwrite().save(path)").
   */
  @Test
  void twoFitsToOneModelOutLeaveOneIntactModelAndOneUsageError() throws Exception {
    Path target = dir.resolve("raced");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<TestSpark.Result> results = new ArrayList<>();
    try {
      List<Future<TestSpark.Result>> runs = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        runs.add(pool.submit(() -> fit(target)));
      }
      for (Future<TestSpark.Result> run : runs) {
        results.add(run.get());
      }
    } finally {
      pool.shutdown();
    }
    List<Integer> codes = results.stream().map(TestSpark.Result::code).sorted().toList();
    assertEquals(List.of(0, 2), codes, results::toString);
    TestSpark.Result loser = results.stream().filter(r -> r.code() != 0).findFirst().orElseThrow();
    String line = assertUsageError(loser, "--model-out " + target, "add --overwrite");
    assertFalse(line.contains("write()"), line);
    assertEquals(List.of(Manifest.NAME, "data", "metadata"), CliFixture.names(target));
    assertEquals(N, NystromKernelPCAModel.load(target.toString()).numRows());
    assertFalse(
        CliFixture.names(dir).stream().anyMatch(n -> n.contains(".spark-kpca-")),
        CliFixture.names(dir).toString());
  }

  /**
   * A stream directory given to transform, update or export said "no metadata directory" (while
   * evaluate read its newest version).
   */
  @Test
  void everyCommandReadsAStreamDirectoryAtItsNewestVersion() throws IOException {
    Path stream = dir.resolve("stream");
    TestSpark.Result streamed =
        TestSpark.cli(
            "stream",
            "--input",
            data.toString(),
            "--model-out",
            stream.toString(),
            "--checkpoint",
            dir.resolve("checkpoint").toString(),
            "--k",
            "2",
            "--landmarks",
            "10",
            "--available-now");
    assertEquals(0, streamed.code(), streamed::toString);
    List<String> versions =
        CliFixture.names(stream).stream().filter(n -> n.startsWith("version-")).sorted().toList();
    assertFalse(versions.isEmpty(), CliFixture.names(stream).toString());
    String newest = versions.get(versions.size() - 1);
    String said = "--model " + stream + " is a stream directory: reading its newest version, ";

    TestSpark.Result transform =
        TestSpark.cli(
            "transform",
            "--model",
            stream.toString(),
            "--input",
            csv.toString(),
            "--output",
            dir.resolve("stream-scores").toString());
    assertEquals(0, transform.code(), transform::toString);
    assertTrue(transform.out().contains(said + newest), transform.out());

    Path bundle = dir.resolve("stream-bundle");
    TestSpark.Result export =
        TestSpark.cli("export", "--model", stream.toString(), "--out", bundle.toString());
    assertEquals(0, export.code(), export::toString);
    assertTrue(export.out().contains(said + newest), export.out());
    assertTrue(Files.exists(bundle.resolve("model.json")));

    Path updated = dir.resolve("stream-updated");
    TestSpark.Result update =
        TestSpark.cli(
            "update",
            "--model",
            stream.toString(),
            "--input",
            csv.toString(),
            "--model-out",
            updated.toString());
    assertEquals(0, update.code(), update::toString);
    assertTrue(update.out().contains(said + newest), update.out());
    AbstractKernelPCAModel<?> before =
        AbstractKernelPCAModel.loadAny(stream.resolve(newest).toString());
    assertEquals(
        before.numRows() + N, AbstractKernelPCAModel.loadAny(updated.toString()).numRows());

    // The stream directory is an input as a whole: nothing may be written inside it.
    Path inside = stream.resolve("version-999999999999");
    assertUsageError(
        TestSpark.cli(
            "update",
            "--model",
            stream.toString(),
            "--input",
            csv.toString(),
            "--model-out",
            inside.toString()),
        "--model-out " + inside + ": it lies inside the input " + stream + " (--model)");
  }
}
