package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.SparseMatrix;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model fitted on wide sparse rows (d = 2^20, 20 non-zeros a row, cosine, m = 160) whose dense
 * landmarks, m·d doubles = 1.25 GiB, exceed Spark's default 1 GiB driver: saved, then loaded and
 * scored (with the residual) by {@code spark-kpca transform} in a JVM with a 1 GiB heap, whose
 * scores and residuals are bit-identical to the fitted model's in this JVM; and the loaded model
 * holds its landmarks as their stored entries.
 */
class WideSparseModelCliTest {

  private static final int D = 1 << 20;
  private static final int N = 200;
  private static final int M = 160;
  private static final int K = 4;
  private static final int NNZ = 20;

  @TempDir Path dir;

  /** Text-like rows: most non-zeros in a 400-column vocabulary, some anywhere in d. */
  private static List<Vector> rows() {
    Random random = new Random(11);
    List<Vector> rows = new ArrayList<>(N);
    for (int i = 0; i < N; i++) {
      TreeSet<Integer> columns = new TreeSet<>();
      while (columns.size() < NNZ) {
        columns.add(columns.size() < 14 ? random.nextInt(400) : random.nextInt(D));
      }
      int[] indices = columns.stream().mapToInt(Integer::intValue).toArray();
      double[] values = new double[indices.length];
      for (int t = 0; t < values.length; t++) {
        values[t] = 1 + random.nextInt(5);
      }
      rows.add(Vectors.sparse(D, indices, values));
    }
    return rows;
  }

  @Test
  void loadsAndScoresInAOneGigabyteHeapBitIdentically() throws Exception {
    List<Vector> vectors = rows();
    StringBuilder libsvm = new StringBuilder();
    List<Row> input = new ArrayList<>(N);
    for (int i = 0; i < N; i++) {
      org.apache.spark.ml.linalg.SparseVector v =
          (org.apache.spark.ml.linalg.SparseVector) vectors.get(i);
      libsvm.append(i);
      for (int p = 0; p < v.indices().length; p++) {
        libsvm.append(' ').append(v.indices()[p] + 1).append(':').append(v.values()[p]);
      }
      libsvm.append('\n');
      input.add(RowFactory.create((double) i, v));
    }
    Path file = dir.resolve("rows.libsvm");
    Files.writeString(file, libsvm.toString());
    Dataset<Row> df =
        TestSpark.session()
            .createDataFrame(
                input,
                new StructType()
                    .add("label", DataTypes.DoubleType)
                    .add("features", SQLDataTypes.VectorType()))
            .coalesce(1);
    NystromKernelPCAModel fitted =
        new NystromKernelPCA()
            .setKernel("cosine")
            .setK(K)
            .setNumLandmarks(M)
            .setSeed(3)
            .setResidualCol("residual")
            .fit(df);
    Path model = dir.resolve("model");
    fitted.save(model.toString());
    List<Row> expected = fitted.transform(df).select("kpca", "residual").collectAsList();

    // The loaded model keeps the landmarks as stored: compressed rows, bytes ∝ their entries.
    NystromKernelPCAModel loaded = NystromKernelPCAModel.load(model.toString());
    assertTrue(loaded.landmarks() instanceof SparseMatrix, "sparse landmarks");
    LandmarkKernel support = loaded.solution().projector().kernelExpansion().support();
    assertTrue(support.isSparse(), support.path().reason());
    long entries = (long) M * NNZ;
    assertTrue(
        support.landmarkBytes() <= 2 * (12 * entries + 4L * (D + M + 1)),
        "landmark bytes " + support.landmarkBytes() + " for " + entries + " entries");

    Path scores = dir.resolve("scores");
    List<String> command =
        CliFixture.childCli(
            "-Xmx1g",
            "transform",
            "--model",
            model.toString(),
            "--input",
            file.toString(),
            "--num-features",
            Integer.toString(D),
            "--residual",
            "--output",
            scores.toString());
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(child.waitFor(Duration.ofMinutes(5).toSeconds(), TimeUnit.SECONDS), output);
    assertEquals(0, child.exitValue(), output);

    List<String> lines = FitTransformCliTest.csvLines(scores);
    assertEquals("pc_1,pc_2,pc_3,pc_4,residual,label", lines.get(0));
    assertEquals(N, lines.size() - 1, output);
    for (int i = 0; i < N; i++) {
      String[] cells = lines.get(i + 1).split(",");
      double[] want = ((Vector) expected.get(i).get(0)).toArray();
      for (int c = 0; c < K; c++) {
        assertEquals(
            Double.doubleToLongBits(want[c]),
            Double.doubleToLongBits(Double.parseDouble(cells[c])),
            "row " + i + ", pc_" + (c + 1) + ": " + want[c] + " vs " + cells[c]);
      }
      assertEquals(
          Double.doubleToLongBits(expected.get(i).getDouble(1)),
          Double.doubleToLongBits(Double.parseDouble(cells[K])),
          "row " + i + ", residual");
      assertEquals(i, Double.parseDouble(cells[K + 1]), "row order");
    }
  }
}
