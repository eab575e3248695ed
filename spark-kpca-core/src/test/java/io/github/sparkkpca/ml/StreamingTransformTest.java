package io.github.sparkkpca.ml;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.testing.LocalSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.spark.ml.Transformer;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code model.transform(streamingDataFrame)} written with {@code writeStream}: every model kind
 * (Nyström, random features, exact, the regression's predictions) scores a file source and a rate
 * source into a Parquet file sink with a checkpoint, stopped and restarted; the output equals the
 * batch transform of the same rows, each row exactly once. Bad rows still fail the query with the
 * batch transform's message.
 */
class StreamingTransformTest {

  private static final int D = 4;
  private static final int FILES = 4;
  private static final int FILE_ROWS = 30;

  /** The model kinds, with the output column each writes. */
  enum Kind {
    NYSTROM("scores"),
    RANDOM_FEATURES("scores"),
    EXACT("scores"),
    REGRESSION("prediction");

    final String outputCol;

    Kind(String outputCol) {
      this.outputCol = outputCol;
    }
  }

  private static final Map<Kind, Transformer> MODELS = new HashMap<>();

  @TempDir Path dir;

  /** Rows id, features (size D), label. */
  private static final StructType SCHEMA =
      new StructType()
          .add("id", DataTypes.LongType, false)
          .add("features", SQLDataTypes.VectorType(), true)
          .add("label", DataTypes.DoubleType, false);

  @BeforeAll
  static void fitModels() {
    Dataset<Row> train = frame(LocalSpark.clusters(60, D, 5), 0, 2);
    MODELS.put(
        Kind.NYSTROM,
        new NystromKernelPCA()
            .setK(3)
            .setNumLandmarks(20)
            .setSeed(7)
            .fit(train)
            .setOutputCol("scores")
            .setResidualCol("residual"));
    MODELS.put(
        Kind.RANDOM_FEATURES,
        new RandomFeatureKernelPCA()
            .setK(3)
            .setNumRandomFeatures(40)
            .setSeed(7)
            .fit(train)
            .setOutputCol("scores"));
    MODELS.put(Kind.EXACT, new KernelPCA().setK(3).fit(train).setOutputCol("scores"));
    MODELS.put(
        Kind.REGRESSION,
        new KernelPCARegressor().setGamma(0.3).setNumLandmarks(20).setDimension(3).fit(train));
  }

  /** A frame of {@link #SCHEMA}: ids from {@code firstId}, label a smooth function of the row. */
  private static Dataset<Row> frame(double[][] x, long firstId, int partitions) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < x.length; i++) {
      rows.add(
          RowFactory.create(firstId + i, new DenseVector(x[i]), Math.sin(x[i][0]) + 0.5 * x[i][1]));
    }
    SparkSession spark = LocalSpark.spark();
    return spark.createDataFrame(
        new org.apache.spark.api.java.JavaSparkContext(spark.sparkContext())
            .parallelize(rows, partitions),
        SCHEMA);
  }

  /** Writes rows as one parquet file {@code name} into {@code input} (an atomic move). */
  private void writeFile(Dataset<Row> rows, Path input, String name) throws IOException {
    Path tmp = Files.createTempDirectory(dir, "tmp");
    rows.coalesce(1).write().mode("overwrite").parquet(tmp.resolve("p").toString());
    try (Stream<Path> files = Files.list(tmp.resolve("p"))) {
      Path part =
          files
              .filter(p -> p.getFileName().toString().endsWith(".parquet"))
              .findFirst()
              .orElseThrow();
      Files.move(part, input.resolve(name));
    }
  }

  /** id → the output column's values (a vector's entries, or the one prediction). */
  private static Map<Long, double[]> outputs(Dataset<Row> scored, Kind kind) {
    Map<Long, double[]> out = new HashMap<>();
    for (Row r : scored.select(col("id"), col(kind.outputCol)).collectAsList()) {
      Object v = r.get(1);
      double[] values = v instanceof Vector vec ? vec.toArray() : new double[] {(Double) v};
      double[] earlier = out.put(r.getLong(0), values);
      assertEquals(null, earlier, "row " + r.getLong(0) + " written twice");
    }
    return out;
  }

  private static void assertSameOutputs(Map<Long, double[]> expected, Map<Long, double[]> actual) {
    assertEquals(expected.keySet(), actual.keySet(), "the streamed rows are the batch rows");
    for (Map.Entry<Long, double[]> e : expected.entrySet()) {
      double[] want = e.getValue();
      double[] got = actual.get(e.getKey());
      assertEquals(want.length, got.length);
      for (int j = 0; j < want.length; j++) {
        assertEquals(
            want[j], got[j], 1e-10 * (1 + Math.abs(want[j])), "row " + e.getKey() + ", entry " + j);
      }
    }
  }

  private StreamingQuery start(Dataset<Row> scored, Path output, Path checkpoint, Trigger trigger)
      throws TimeoutException {
    return scored
        .writeStream()
        .format("parquet")
        .option("path", output.toString())
        .option("checkpointLocation", checkpoint.toString())
        .trigger(trigger)
        .start();
  }

  /**
   * A file source, one file per micro-batch: two files scored (available-now), the query ends, two
   * more land, the restarted query scores only those; the sink holds every row once, equal to the
   * batch transform.
   */
  @ParameterizedTest
  @EnumSource(Kind.class)
  void fileStreamRestartedEqualsBatch(Kind kind) throws Exception {
    SparkSession spark = LocalSpark.spark();
    Transformer model = MODELS.get(kind);
    double[][] x = LocalSpark.clusters(FILES * FILE_ROWS, D, 23);
    Path input = Files.createDirectories(dir.resolve("input"));
    Path output = dir.resolve("out");
    Path checkpoint = dir.resolve("checkpoint");
    List<Dataset<Row>> chunks = new ArrayList<>();
    for (int f = 0; f < FILES; f++) {
      chunks.add(
          frame(
              Arrays.copyOfRange(x, f * FILE_ROWS, (f + 1) * FILE_ROWS), (long) f * FILE_ROWS, 1));
    }
    for (int run = 0; run < 2; run++) {
      for (int f = run * FILES / 2; f < (run + 1) * FILES / 2; f++) {
        writeFile(chunks.get(f), input, "chunk-" + f + ".parquet");
      }
      Dataset<Row> stream =
          spark
              .readStream()
              .schema(SCHEMA)
              .option("maxFilesPerTrigger", 1)
              .parquet(input.toString());
      Dataset<Row> scored = model.transform(stream);
      assertTrue(scored.isStreaming());
      StreamingQuery query = start(scored, output, checkpoint, Trigger.AvailableNow());
      query.awaitTermination();
      assertEquals(null, query.exception().isDefined() ? query.exception().get() : null);
      if (run == 0) {
        assertEquals(
            FILES / 2 * FILE_ROWS,
            spark.read().parquet(output.toString()).count(),
            "the first run scores the first files only");
      }
    }
    Dataset<Row> all = frame(x, 0, 3);
    assertSameOutputs(
        outputs(model.transform(all), kind),
        outputs(spark.read().parquet(output.toString()), kind));
  }

  /** Rows processed by the query so far, from its progress reports. */
  private static long processed(StreamingQuery query) {
    long rows = 0;
    for (StreamingQueryProgress p : query.recentProgress()) {
      rows += p.numInputRows();
    }
    return rows;
  }

  /** The rate source's row: a vector of D smooth functions of its value; the value is the id. */
  private static Dataset<Row> vectorsOf(Dataset<Row> values) {
    Column v = col("value").cast("double");
    Column[] entries = new Column[D];
    for (int j = 0; j < D; j++) {
      entries[j] = functions.sin(v.multiply(0.37 * (j + 1))).multiply(2.0).plus(j * 0.1);
    }
    return values.select(
        col("value").as("id"),
        org.apache.spark.ml.functions.array_to_vector(functions.array(entries)).as("features"));
  }

  /**
   * The rate source (vectors built from its value column), processing-time triggers: the query is
   * stopped while running, restarted from its checkpoint, stopped again; the sink holds each value
   * once, with no gap, and its outputs equal the batch transform of the vectors of those values.
   */
  @ParameterizedTest
  @EnumSource(Kind.class)
  void rateStreamStoppedAndRestartedEqualsBatch(Kind kind) throws Exception {
    SparkSession spark = LocalSpark.spark();
    Transformer model = MODELS.get(kind);
    Path output = dir.resolve("out");
    Path checkpoint = dir.resolve("checkpoint");
    for (int run = 0; run < 2; run++) {
      Dataset<Row> rate =
          spark
              .readStream()
              .format("rate")
              .option("rowsPerSecond", 200)
              .option("numPartitions", 2)
              .load();
      StreamingQuery query =
          start(model.transform(vectorsOf(rate)), output, checkpoint, Trigger.ProcessingTime(300));
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (processed(query) < 150 && System.nanoTime() < deadline) {
        assertTrue(query.isActive(), () -> "query died: " + query.exception());
        Thread.sleep(100);
      }
      query.stop();
      assertTrue(processed(query) >= 150, "rows processed before the stop");
    }
    Dataset<Row> written = spark.read().parquet(output.toString());
    Map<Long, double[]> streamed = outputs(written, kind);
    long max = streamed.keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
    assertEquals(max + 1, streamed.size(), "values 0..max, each once");
    assertTrue(streamed.size() >= 300, "both runs wrote rows");
    Dataset<Row> batch = vectorsOf(spark.range(max + 1).withColumnRenamed("id", "value"));
    assertSameOutputs(outputs(model.transform(batch), kind), streamed);
  }

  /** Bad rows in a stream fail the query with the batch transform's one-line message. */
  @Test
  void badRowsFailTheStreamWithTheirProblem() throws Exception {
    SparkSession spark = LocalSpark.spark();
    Transformer model = MODELS.get(Kind.NYSTROM);
    String[][] cases = {
      {"nan", "has a non-finite value (NaN)"}, {"size", "has size 3, the model expects " + D}
    };
    for (String[] c : cases) {
      Path input = Files.createDirectories(dir.resolve("input-" + c[0]));
      Vector bad = c[0].equals("nan") ? Vectors.dense(1, Double.NaN, 0, 0) : Vectors.dense(1, 2, 3);
      List<Row> rows =
          List.of(
              RowFactory.create(0L, Vectors.dense(1, 0, 0, 0), 0.0),
              RowFactory.create(1L, bad, 0.0));
      writeFile(spark.createDataFrame(rows, SCHEMA), input, "bad.parquet");
      Dataset<Row> stream = spark.readStream().schema(SCHEMA).parquet(input.toString());
      StreamingQuery query =
          start(
              model.transform(stream),
              dir.resolve("out-" + c[0]),
              dir.resolve("checkpoint-" + c[0]),
              Trigger.AvailableNow());
      StreamingQueryException e =
          assertThrows(StreamingQueryException.class, query::awaitTermination);
      Throwable cause = e;
      String found = null;
      for (; cause != null; cause = cause.getCause()) {
        if (cause instanceof IllegalArgumentException && cause.getMessage() != null) {
          found = cause.getMessage();
          break;
        }
      }
      assertNotNull(found, () -> "no IllegalArgumentException in " + e);
      assertTrue(
          found.startsWith("Column 'features': the vector in row 1 (partition 0, position 1) "),
          found);
      assertTrue(found.endsWith(c[1]), found);
      assertFalse(query.isActive());
    }
  }
}
