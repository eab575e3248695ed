package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.examples.data.DataSources;
import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.examples.data.SourceOptions;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * libsvm with a stated {@code --num-features N}: the rows equal Spark's own libsvm reader given the
 * same N, comments and blank lines are skipped as Spark skips them, and an index above N is refused
 * in one line naming the file and the line; the option is refused for other inputs.
 */
class LibsvmNumFeaturesCliTest {

  @TempDir Path dir;

  /** 40 rows over 50 columns, a comment, a blank line. */
  private Path write(String name, String extraLine) throws IOException {
    Random random = new Random(3);
    StringBuilder text = new StringBuilder("# generated\n");
    for (int i = 0; i < 40; i++) {
      text.append(i % 3);
      int index = 0;
      for (int p = 0; p < 4; p++) {
        index += 1 + random.nextInt(12);
        text.append(' ').append(index).append(':').append(random.nextInt(90) / 10.0 + 0.1);
      }
      text.append('\n');
      if (i == 10) {
        text.append('\n');
      }
      if (i == 20 && extraLine != null) {
        text.append(extraLine).append('\n');
      }
    }
    Path file = dir.resolve(name);
    Files.writeString(file, text.toString());
    return file;
  }

  @Test
  void statedSizeReadsWhatSparksReaderReads() throws IOException {
    Path file = write("in.libsvm", null);
    LoadedData data =
        DataSources.load(
            TestSpark.session(),
            SourceOptions.of(file.toString()).withExpectedFeatures(60).withPartitions(3));
    assertEquals(60, AttributeGroup.fromStructField(data.data().schema().apply("features")).size());
    data.persistAndValidate();
    List<Row> rows = data.data().orderBy(data.orderBy()).collectAsList();
    data.unpersist();
    Dataset<Row> spark =
        TestSpark.session()
            .read()
            .format("libsvm")
            .option("numFeatures", "60")
            .load(file.toString());
    List<Row> expected = spark.collectAsList();
    assertEquals(expected.size(), rows.size());
    for (int i = 0; i < rows.size(); i++) {
      Vector v = rows.get(i).getAs("features");
      assertTrue(v instanceof org.apache.spark.ml.linalg.SparseVector, "sparse: " + v);
      assertArrayEquals(((Vector) expected.get(i).getAs("features")).toArray(), v.toArray(), 0.0);
      assertEquals((double) expected.get(i).getAs("label"), (double) rows.get(i).getAs("label"));
    }
  }

  /** Without N: the largest index, as Spark's reader finds it, and the same rows. */
  @Test
  void unstatedSizeReadsWhatSparksReaderReads() throws IOException {
    Path file = write("unstated.libsvm", null);
    LoadedData data =
        DataSources.load(TestSpark.session(), SourceOptions.of(file.toString()).withPartitions(2));
    data.persistAndValidate();
    List<Row> rows = data.data().orderBy(data.orderBy()).collectAsList();
    data.unpersist();
    List<Row> expected =
        TestSpark.session().read().format("libsvm").load(file.toString()).collectAsList();
    assertEquals(expected.size(), rows.size());
    for (int i = 0; i < rows.size(); i++) {
      Vector v = rows.get(i).getAs("features");
      Vector w = expected.get(i).getAs("features");
      assertEquals(w.size(), v.size());
      assertArrayEquals(w.toArray(), v.toArray(), 0.0);
      assertEquals((double) expected.get(i).getAs("label"), (double) rows.get(i).getAs("label"));
    }
  }

  /** Spark's reader would say {@code For input string: "qid"}, naming no file or line. */
  @Test
  void withoutTheSizeABadLineNamesFileAndLine() throws IOException {
    Path file = write("qid.libsvm", "1 qid:3 4:1");
    CliErrorsTest.assertUsageError(
        TestSpark.cli(
            "fit",
            "--input",
            file.toString(),
            "--k",
            "2",
            "--landmarks",
            "5",
            "--model-out",
            dir.resolve("model").toString()),
        "index 'qid' is not an integer",
        "line 24 of " + file);
  }

  /** An index no Spark vector holds is named as such, not as "not an integer". */
  @Test
  void anIndexBeyondTheVectorLimitNamesFileAndLine() throws IOException {
    Path file = write("huge.libsvm", "1 3:1 3000000000:2");
    CliErrorsTest.assertUsageError(
        TestSpark.cli(
            "fit",
            "--input",
            file.toString(),
            "--k",
            "2",
            "--landmarks",
            "5",
            "--model-out",
            dir.resolve("model").toString()),
        "libsvm index 3000000000 is beyond 2147483647, the most features a Spark vector holds",
        "line 24 of " + file);
  }

  /** The size a model gives is named as the model's, not as an option the user did not give. */
  @Test
  void anIndexAboveTheModelsSizeNamesTheModel() throws IOException {
    Path file = write("train.libsvm", null);
    Path model = dir.resolve("model");
    TestSpark.Result fit =
        TestSpark.cli(
            "fit",
            "--input",
            file.toString(),
            "--num-features",
            "60",
            "--k",
            "2",
            "--landmarks",
            "8",
            "--model-out",
            model.toString());
    assertEquals(0, fit.code(), fit::toString);
    Path wide = write("wide.libsvm", "1 3:1 61:2.5");
    String line =
        CliErrorsTest.assertUsageError(
            TestSpark.cli(
                "transform",
                "--model",
                model.toString(),
                "--input",
                wide.toString(),
                "--output",
                dir.resolve("scores").toString()),
            "index 61 is beyond the model's 60 features",
            "line 24 of " + wide);
    assertTrue(!line.contains("--num-features"), line);
  }

  @Test
  void anIndexAboveTheStatedSizeNamesFileAndLine() throws IOException {
    // Line 1 is the comment, line 13 the blank one: the bad row, after data row 21, is line 24.
    Path file = write("bad.libsvm", "1 3:1 61:2.5");
    TestSpark.Result r =
        TestSpark.cli(
            "fit",
            "--input",
            file.toString(),
            "--num-features",
            "60",
            "--k",
            "2",
            "--landmarks",
            "5",
            "--model-out",
            dir.resolve("model").toString());
    CliErrorsTest.assertUsageError(
        r, "index 61", "--num-features 60", "line 24 of " + file.toString());
    assertTrue(!Files.exists(dir.resolve("model")), "no model written");
  }

  @Test
  void fitWithTheStatedSizeGivesItsDimension() throws IOException {
    Path file = write("fit.libsvm", null);
    Path model = dir.resolve("model");
    TestSpark.Result r =
        TestSpark.cli(
            "fit",
            "--input",
            file.toString(),
            "--num-features",
            "100",
            "--kernel",
            "cosine",
            "--k",
            "2",
            "--landmarks",
            "8",
            "--model-out",
            model.toString());
    assertEquals(0, r.code(), r::toString);
    assertEquals(100, NystromKernelPCAModel.load(model.toString()).landmarks().numCols());
  }

  @Test
  void numFeaturesIsForLibsvmOnly() throws IOException {
    Path csv = dir.resolve("in.csv");
    Files.writeString(csv, "a,b\n1,2\n3,4\n5,7\n");
    String model = dir.resolve("model").toString();
    CliErrorsTest.assertUsageError(
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--num-features",
            "2",
            "--k",
            "1",
            "--landmarks",
            "2",
            "--model-out",
            model),
        "--num-features applies to libsvm input only");
    CliErrorsTest.assertUsageError(
        TestSpark.cli(
            "fit",
            "--input",
            "synthetic:n=20,d=3",
            "--num-features",
            "3",
            "--k",
            "1",
            "--landmarks",
            "2",
            "--model-out",
            model),
        "--num-features applies to libsvm input only");
    for (String n : new String[] {"0", "3000000000"}) {
      CliErrorsTest.assertUsageError(
          TestSpark.cli(
              "fit",
              "--input",
              csv.toString(),
              "--format",
              "libsvm",
              "--num-features",
              n,
              "--k",
              "1",
              "--landmarks",
              "2",
              "--model-out",
              model),
          "--num-features must be in [1, 2147483647] (the most features a Spark vector holds), got "
              + n);
    }
  }
}
