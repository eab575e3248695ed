package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.SparkException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input and parameters give exit code 2 and one clear line on stderr, without a stack trace.
 */
class CliErrorsTest {

  @TempDir static Path dir;
  static Path good;

  @BeforeAll
  static void writeGoodCsv() throws IOException {
    StringBuilder text = new StringBuilder("a,b,c\n");
    for (int i = 0; i < 20; i++) {
      text.append(i % 5).append(',').append(i * 0.5).append(',').append((i * 7) % 3).append('\n');
    }
    good = dir.resolve("good.csv");
    Files.writeString(good, text.toString());
  }

  /** Asserts exit code 2 and a single error line containing every fragment; returns the line. */
  static String assertUsageError(TestSpark.Result r, String... fragments) {
    assertEquals(2, r.code(), r::toString);
    List<String> lines = r.errLines();
    assertEquals(1, lines.size(), () -> "one stderr line expected: " + r);
    String line = lines.get(0);
    assertTrue(line.startsWith(SparkKpcaCli.ERROR_PREFIX), line);
    assertTrue(!line.contains("Exception") && !line.contains("\tat "), "no stack trace: " + line);
    for (String f : fragments) {
      assertTrue(line.contains(f), () -> "'" + f + "' missing in: " + line);
    }
    return line;
  }

  static TestSpark.Result fit(String input, String... more) {
    String[] base = {
      "fit",
      "--input",
      input,
      "--k",
      "2",
      "--landmarks",
      "5",
      "--model-out",
      dir.resolve("model").toString()
    };
    return CliFixture.run(List.of(base), more);
  }

  @Test
  void missingInputFile() {
    String missing = dir.resolve("nope.csv").toString();
    assertUsageError(fit(missing), "--input", missing);
  }

  @Test
  void kZero() {
    assertUsageError(
        TestSpark.cli(
            "fit",
            "--input",
            good.toString(),
            "--k",
            "0",
            "--landmarks",
            "5",
            "--model-out",
            dir.resolve("m0").toString()),
        "--k",
        ">= 1",
        "got 0");
  }

  @Test
  void badProgressAndPlotOptions() {
    assertUsageError(
        TestSpark.cli(
            "fit",
            "--input",
            good.toString(),
            "--k",
            "2",
            "--landmarks",
            "5",
            "--model-out",
            dir.resolve("m").toString(),
            "--progress-interval",
            "-1"),
        "--progress-interval");
    assertUsageError(
        TestSpark.cli("demo", "--plots", dir.resolve("p").toString(), "--plot-points", "0"),
        "--plot-points");
  }

  @Test
  void kAboveLandmarks() {
    assertUsageError(
        TestSpark.cli(
            "fit",
            "--input",
            good.toString(),
            "--k",
            "6",
            "--landmarks",
            "5",
            "--model-out",
            dir.resolve("m1").toString()),
        "--k 6",
        "--landmarks 5");
  }

  @Test
  void nonNumericCellNamesColumnValueAndRow() throws IOException {
    Path bad = dir.resolve("text.csv");
    Files.writeString(bad, "a,b,c\n1,2,3\n4,5,6\n7,oops,9\n1,1,1\n2,2,2\n3,3,3\n");
    assertUsageError(fit(bad.toString()), "column 'b'", "'oops'", "row 3", "line 4", "text.csv");
  }

  @Test
  void nanCellNamesColumnAndRow() throws IOException {
    Path bad = dir.resolve("nan.csv");
    Files.writeString(bad, "a,b,c,y\n1,2,3,x\n4,5,6,x\n7,8,9,x\n1,1,1,x\n2,2,NaN,x\n3,3,3,x\n");
    assertUsageError(
        fit(bad.toString(), "--label-col", "y", "--partitions", "2"),
        "column 'c'",
        "NaN",
        "row 5",
        "nan.csv");
  }

  @Test
  void emptyCellNamesColumnAndRow() throws IOException {
    Path bad = dir.resolve("empty.csv");
    Files.writeString(bad, "a,b\n1,2\n3,\n");
    assertUsageError(fit(bad.toString()), "column 'b'", "empty", "row 2");
  }

  /**
   * A row with an extra cell used to be cut to the header's width (or, with the extra cell in
   * front, to shift every feature and the label by one) without a word; now it is refused with its
   * file, row, line and both counts, also when the shifted cells would all be numbers.
   */
  @Test
  void rowWithMoreCellsThanTheHeaderNamesFileLineAndCounts() throws IOException {
    Path bad = dir.resolve("extra.csv");
    Files.writeString(bad, "a,b,c\n1,2,3\n4,5,6\n0,7,8,9\n1,1,1\n2,2,2\n3,3,3\n");
    assertUsageError(fit(bad.toString()), "4 cells", "header's 3", "row 3", "line 4", "extra.csv");
    Path quoted = dir.resolve("extra-quoted.csv");
    Files.writeString(quoted, "a,b,y\n1,2,\"x,1\"\n4,5,x,\"\"\n1,1,z\n2,2,z\n3,3,z\n4,4,z\n");
    assertUsageError(
        fit(quoted.toString(), "--label-col", "y", "--partitions", "2"),
        "4 cells",
        "header's 3",
        "row 2",
        "line 3",
        "extra-quoted.csv");
  }

  /**
   * A row without its label cell used to get a null label; it is refused like a row with an extra
   * cell.
   */
  @Test
  void rowWithFewerCellsThanTheHeaderNamesFileLineAndCounts() throws IOException {
    Path bad = dir.resolve("short.csv");
    Files.writeString(bad, "a,b,c,y\n1,2,3,x\n4,5,6,x\n7,8,9\n1,1,1,x\n2,2,2,x\n3,3,3,x\n");
    assertUsageError(
        fit(bad.toString(), "--label-col", "y"),
        "3 cells",
        "header's 4",
        "row 3",
        "line 4",
        "short.csv");
  }

  @Test
  void badLandmarkSamplingOptions() {
    assertUsageError(
        fit(good.toString(), "--landmark-sampling", "random"),
        "--landmark-sampling",
        "uniform, leverage, kmeans",
        "'random'");
    assertUsageError(
        fit(good.toString(), "--landmark-sampling", "leverage", "--leverage-regularization", "0"),
        "--leverage-regularization",
        "> 0",
        "got 0.0");
    assertUsageError(
        fit(good.toString(), "--landmark-sampling", "kmeans", "--kmeans-max-iter", "0"),
        "--kmeans-max-iter",
        ">= 1",
        "got 0");
    assertUsageError(
        fit(good.toString(), "--kmeans-max-iter", "5"),
        "--kmeans-max-iter",
        "--landmark-sampling kmeans only");
    assertUsageError(
        fit(good.toString(), "--landmark-sampling", "kmeans", "--leverage-regularization", "0.1"),
        "--leverage-regularization",
        "--landmark-sampling leverage only");
    assertUsageError(
        fit(good.toString(), "--statistics-route", "cholesky"),
        "--statistics-route",
        "auto, whitened, gram",
        "'cholesky'");
    assertUsageError(
        fit(good.toString(), "--feature-map", "rff", "--statistics-route", "gram"),
        "--statistics-route",
        "--feature-map nystrom");
  }

  @Test
  void badPreimageOptions() {
    String model = dir.resolve("no-model").toString();
    String out = dir.resolve("o").toString();
    assertUsageError(
        TestSpark.cli(
            "transform",
            "--model",
            model,
            "--input",
            good.toString(),
            "--output",
            out,
            "--reconstruction",
            "--preimage-method",
            "newton"),
        "--preimage-method",
        "fixed-point, ridge",
        "'newton'");
    assertUsageError(
        TestSpark.cli(
            "transform",
            "--model",
            model,
            "--input",
            good.toString(),
            "--output",
            out,
            "--reconstruction",
            "--preimage-max-iter",
            "0"),
        "--preimage-max-iter",
        ">= 1",
        "got 0");
    assertUsageError(
        TestSpark.cli(
            "transform",
            "--model",
            model,
            "--input",
            good.toString(),
            "--output",
            out,
            "--reconstruction",
            "--preimage-method",
            "ridge",
            "--preimage-ridge",
            "-1"),
        "--preimage-ridge",
        "> 0");
    assertUsageError(
        TestSpark.cli(
            "transform",
            "--model",
            model,
            "--input",
            good.toString(),
            "--output",
            out,
            "--reconstruction",
            "--preimage-method",
            "fixed-point",
            "--preimage-ridge",
            "0.1"),
        "--preimage-ridge",
        "ridge only");
    assertUsageError(
        TestSpark.cli(
            "transform",
            "--model",
            model,
            "--input",
            good.toString(),
            "--output",
            out,
            "--preimage-method",
            "ridge"),
        "--preimage-method",
        "--reconstruction and --preimage-error only");
  }

  /**
   * fixed-point pre-images exist for the Gaussian kernel only; other models are told to use ridge.
   */
  @Test
  void fixedPointPreimageOfANonRbfModel() {
    String model = dir.resolve("linear-model").toString();
    assertEquals(
        0,
        TestSpark.cli(
                "fit",
                "--input",
                good.toString(),
                "--k",
                "2",
                "--landmarks",
                "5",
                "--kernel",
                "linear",
                "--model-out",
                model)
            .code());
    assertUsageError(
        TestSpark.cli(
            "transform",
            "--model",
            model,
            "--input",
            good.toString(),
            "--output",
            dir.resolve("o-linear").toString(),
            "--reconstruction",
            "--preimage-method",
            "fixed-point"),
        "--preimage-method fixed-point needs an rbf model",
        "linear kernel",
        "--preimage-method ridge");
  }

  @Test
  void unknownFormat() {
    assertUsageError(
        fit(good.toString(), "--format", "xls"), "--format", "xls", "csv, parquet, libsvm");
  }

  @Test
  void unknownLabelColumn() {
    assertUsageError(
        fit(good.toString(), "--label-col", "target"), "--label-col", "'target'", "a, b, c");
  }

  @Test
  void unknownKernel() {
    assertUsageError(fit(good.toString(), "--kernel", "banana"), "--kernel", "banana");
  }

  @Test
  void libraryErrorIsUnwrappedToOneLine() {
    // 20 rows but 50 landmarks: NystromKernelPCA.fit rejects it with an IllegalArgumentException.
    assertUsageError(
        TestSpark.cli(
            "fit",
            "--input",
            good.toString(),
            "--k",
            "2",
            "--landmarks",
            "50",
            "--model-out",
            dir.resolve("m2").toString()),
        "numLandmarks",
        "50",
        "n = 20");
  }

  @Test
  void missingModel() {
    assertUsageError(
        TestSpark.cli(
            "transform",
            "--model",
            dir.resolve("no-model").toString(),
            "--input",
            good.toString(),
            "--output",
            dir.resolve("o").toString()),
        "--model",
        "no-model",
        "no such directory");
  }

  @Test
  void missingMnistFilesSayToFetchThem() throws IOException {
    Path empty = Files.createDirectories(dir.resolve("no-mnist"));
    assertUsageError(
        fit("mnist:train:digit=5", "--mnist-dir", empty.toString()),
        "bin/fetch-mnist",
        "train-images-idx3-ubyte");
  }

  @Test
  void badBuiltInSources() {
    assertUsageError(fit("mnist:validation"), "mnist:train or mnist:test");
    assertUsageError(fit("synthetic:n=10,q=3"), "unknown key 'q'");
  }

  @Test
  void missingRequiredOptionAndCommand() {
    assertUsageError(TestSpark.cli("fit", "--input", good.toString()), "--k", "--model-out");
    assertUsageError(TestSpark.cli(), "a command is needed");
    assertUsageError(TestSpark.cli("fitt"), "fitt");
  }

  /** fit with the given options after --input, --k 2 and --model-out (no --landmarks). */
  static TestSpark.Result fitWithout(String... more) {
    String[] base = {
      "fit", "--input", good.toString(), "--k", "2", "--model-out", dir.resolve("fm").toString()
    };
    return CliFixture.run(List.of(base), more);
  }

  @Test
  void featureMapOptionsAreCheckedTogether() {
    assertUsageError(fitWithout(), "--landmarks M is required with --feature-map nystrom");
    assertUsageError(
        fitWithout("--feature-map", "pca"), "--feature-map must be nystrom or rff", "'pca'");
    assertUsageError(
        fitWithout("--landmarks", "5", "--features", "10"),
        "--features applies to --feature-map rff");
    assertUsageError(
        fitWithout("--feature-map", "rff", "--landmarks", "5"),
        "--landmarks applies to --feature-map nystrom");
    assertUsageError(
        fitWithout("--feature-map", "rff", "--features", "10", "--feature-scale", "1"),
        "--features and --feature-scale are alternatives");
    assertUsageError(
        fitWithout("--feature-map", "rff", "--features", "1"), "--k 2 exceeds --features 1");
    assertUsageError(
        fitWithout("--feature-map", "rff", "--feature-scale", "-1"),
        "--feature-scale must be finite and > 0, got -1.0");
    assertUsageError(
        fitWithout("--feature-map", "rff", "--kernel", "polynomial"),
        "--kernel",
        "'polynomial' has no random Fourier features",
        "rbf and laplacian");
    assertUsageError(
        fitWithout("--landmarks", "5", "--landmarks-from", "m/"),
        "--landmarks and --landmarks-from are alternatives");
    assertUsageError(
        fitWithout("--landmarks-from", "m/", "--gamma", "0.5"),
        "--landmarks-from takes the kernel and landmarks of the model");
    assertUsageError(
        fitWithout("--feature-map", "rff", "--landmarks-from", "m/"),
        "--landmarks-from applies to --feature-map nystrom");
  }

  @Test
  void rootIllegalArgumentIsFoundThroughWrappers() {
    IllegalArgumentException root = new IllegalArgumentException("Column 'features': bad row 7");
    Exception wrapped = new RuntimeException("outer", new SparkException("Job aborted", root));
    assertSame(root, SparkKpcaCli.rootIllegalArgument(wrapped));
    assertNotNull(SparkKpcaCli.rootIllegalArgument(root));
    assertEquals(null, SparkKpcaCli.rootIllegalArgument(new IllegalStateException("x")));
    assertEquals("a b c", SparkKpcaCli.oneLine(" a\n  b\r\nc \n"));
  }
}
