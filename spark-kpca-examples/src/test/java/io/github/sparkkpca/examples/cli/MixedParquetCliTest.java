package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fit} and {@code transform --format parquet} on a vector column that mixes SparseVector and
 * DenseVector rows give the model and scores of the same rows stored all dense.
 */
class MixedParquetCliTest {

  private static final int N = 90;
  private static final int D = 600;

  @TempDir Path dir;

  /** N sparse rows of D columns, 2 to 9 non-zeros each, every third row stored dense if asked. */
  private Path write(String name, boolean mixed) {
    Random random = new Random(21);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < N; i++) {
      TreeMap<Integer, Double> entries = new TreeMap<>();
      int count = 2 + random.nextInt(8);
      while (entries.size() < count) {
        entries.put(random.nextInt(D), 0.1 + random.nextDouble());
      }
      Vector v =
          Vectors.sparse(
              D,
              entries.keySet().stream().mapToInt(Integer::intValue).toArray(),
              entries.values().stream().mapToDouble(Double::doubleValue).toArray());
      rows.add(
          RowFactory.create(
              (long) i, mixed && i % 3 != 0 ? v.toSparse() : new DenseVector(v.toArray())));
    }
    StructType schema =
        new StructType()
            .add("id", DataTypes.LongType, false)
            .add("features", SQLDataTypes.VectorType(), false);
    Path path = dir.resolve(name);
    TestSpark.session().createDataFrame(rows, schema).coalesce(1).write().parquet(path.toString());
    return path;
  }

  /** Fits and transforms {@code input}; returns the summary and the transform's CSV lines. */
  private JsonNode fitAndTransform(Path input, String name, List<String> lines) throws IOException {
    Path model = dir.resolve(name + "-model");
    Path summary = dir.resolve(name + ".json");
    TestSpark.Result fit =
        TestSpark.cli(
            "fit",
            "--input",
            input.toString(),
            "--format",
            "parquet",
            "--label-col",
            "id",
            "--kernel",
            "rbf",
            "--gamma",
            "0.5",
            "--k",
            "3",
            "--landmarks",
            "20",
            "--seed",
            "5",
            "--model-out",
            model.toString(),
            "--summary-out",
            summary.toString());
    assertEquals(0, fit.code(), fit::toString);
    Path output = dir.resolve(name + "-scores");
    TestSpark.Result transform =
        TestSpark.cli(
            "transform",
            "--model",
            model.toString(),
            "--input",
            input.toString(),
            "--format",
            "parquet",
            "--label-col",
            "id",
            "--output",
            output.toString());
    assertEquals(0, transform.code(), transform::toString);
    lines.addAll(FitTransformCliTest.csvLines(output));
    return CliFixture.json(summary);
  }

  @Test
  void mixedColumnScoresAsTheAllDenseColumn() throws IOException {
    Path mixed = write("mixed.parquet", true);
    Path dense = write("dense.parquet", false);
    List<Row> back = TestSpark.session().read().parquet(mixed.toString()).collectAsList();
    assertTrue(back.stream().anyMatch(r -> r.getAs("features") instanceof SparseVector));
    assertTrue(back.stream().anyMatch(r -> r.getAs("features") instanceof DenseVector));

    List<String> mixedLines = new ArrayList<>();
    List<String> denseLines = new ArrayList<>();
    JsonNode a = fitAndTransform(mixed, "mixed", mixedLines);
    JsonNode b = fitAndTransform(dense, "dense", denseLines);
    assertTrue(a.get("kernelBlockPath").asText().startsWith("sparse:"), a.toString());
    assertEquals(b.get("kernelBlockPath").asText(), a.get("kernelBlockPath").asText());
    double top = b.get("eigenvalues").get(0).asDouble();
    for (int i = 0; i < 3; i++) {
      assertEquals(
          b.get("eigenvalues").get(i).asDouble(),
          a.get("eigenvalues").get(i).asDouble(),
          1e-12 * top,
          "eigenvalue " + i);
    }

    assertEquals(N + 1, mixedLines.size());
    assertEquals("pc_1,pc_2,pc_3,id", mixedLines.get(0));
    assertEquals(denseLines.get(0), mixedLines.get(0));
    double largest = 0;
    for (String line : denseLines.subList(1, N + 1)) {
      String[] cells = line.split(",");
      for (int c = 0; c < 3; c++) {
        largest = Math.max(largest, Math.abs(Double.parseDouble(cells[c])));
      }
    }
    for (int i = 1; i <= N; i++) {
      String[] x = mixedLines.get(i).split(",");
      String[] y = denseLines.get(i).split(",");
      assertEquals(i - 1, Double.parseDouble(x[3]), 0.0, "rows in input order");
      assertEquals(y[3], x[3]);
      for (int c = 0; c < 3; c++) {
        assertEquals(
            Double.parseDouble(y[c]),
            Double.parseDouble(x[c]),
            1e-12 * largest,
            "row " + (i - 1) + ", pc_" + (c + 1));
      }
    }
  }
}
