package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.testing.LocalSpark;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bad input gets a clear error naming the column, row or parameter, raised before the expensive
 * pass (checked by recording the Spark jobs that ran).
 */
class BadInputTest {

  private final List<String> jobs = Collections.synchronizedList(new ArrayList<>());
  private final SparkListener listener =
      new SparkListener() {
        @Override
        public void onJobStart(SparkListenerJobStart start) {
          String description =
              start.properties() == null
                  ? null
                  : start.properties().getProperty("spark.job.description");
          jobs.add(String.valueOf(description));
        }
      };

  @BeforeEach
  void listen() {
    LocalSpark.spark().sparkContext().addSparkListener(listener);
  }

  @AfterEach
  void stopListening() {
    LocalSpark.spark().sparkContext().removeSparkListener(listener);
  }

  private static void drainListenerBus() {
    try {
      LocalSpark.spark().sparkContext().listenerBus().waitUntilEmpty(10_000);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("Spark listener bus did not drain", e);
    }
  }

  private List<Vector> good(int n) {
    List<Vector> out = new ArrayList<>();
    for (double[] row : LocalSpark.clusters(n, 3, 1)) {
      out.add(Vectors.dense(row));
    }
    return out;
  }

  private String fitError(List<Vector> data, NystromKernelPCA estimator) {
    Dataset<Row> df = LocalSpark.vectors(data, 3);
    jobs.clear();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> estimator.fit(df));
    drainListenerBus();
    assertTrue(
        jobs.stream().noneMatch(j -> j.contains("accumulate")),
        "the statistics pass must not run: " + jobs);
    return e.getMessage();
  }

  @Test
  void nonFiniteValuesNameTheRow() {
    List<Vector> data = good(50);
    data.set(17, Vectors.dense(1, Double.NaN, 0));
    String nan = fitError(data, new NystromKernelPCA().setK(2).setNumLandmarks(10));
    assertTrue(
        nan.contains("Column 'features'") && nan.contains("row 17") && nan.contains("NaN"), nan);
    data.set(17, Vectors.dense(1, 0, Double.POSITIVE_INFINITY));
    String inf = fitError(data, new NystromKernelPCA().setK(2).setNumLandmarks(10));
    assertTrue(inf.contains("row 17") && inf.contains("Infinity"), inf);
  }

  /** Columns that are not vectors name the conversion they need. */
  @Test
  void arrayAndTextColumnsNameTheirConversion() {
    org.apache.spark.sql.SparkSession spark = LocalSpark.spark();
    Dataset<Row> df =
        spark.sql(
            "select array(1.0d, 2.0d) as a, array(cast(1 as float)) as f, 'some words' as s,"
                + " array('some', 'words') as w");
    String[][] cases = {
      {"a", "array<double>", "org.apache.spark.ml.functions.array_to_vector"},
      {"f", "array<float>", "pyspark.ml.functions.array_to_vector"},
      {
        "s",
        "string",
        "RegexTokenizer or Tokenizer) and turn the words into a vector (HashingTF or"
            + " CountVectorizer"
      },
      {"w", "array<string>", "HashingTF or CountVectorizer"}
    };
    for (String[] c : cases) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> new NystromKernelPCA().setK(1).setInputCol(c[0]).fit(df));
      assertTrue(
          e.getMessage().contains("but is " + c[1] + ";") && e.getMessage().contains(c[2]),
          e.getMessage());
    }
  }

  /** A DataFrame without partitions is refused like one without rows, by every stage. */
  @Test
  void noPartitionsIsNoRows() {
    org.apache.spark.sql.SparkSession spark = LocalSpark.spark();
    Dataset<Row> noRows = LocalSpark.vectors(new ArrayList<>(), 3);
    Dataset<Row> noPartitions =
        spark
            .createDataFrame(
                new org.apache.spark.api.java.JavaSparkContext(spark.sparkContext()).emptyRDD(),
                noRows.schema())
            // size metadata: the fit goes straight to its scan
            .withColumn(
                "features",
                org.apache
                    .spark
                    .sql
                    .functions
                    .col("features")
                    .as(
                        "features",
                        new org.apache.spark.ml.attribute.AttributeGroup("features", 3)
                            .toMetadata()));
    assertEquals(0, noPartitions.rdd().getNumPartitions());
    String expected = "Column 'features' of the input has no rows";
    for (Dataset<Row> df : List.of(noRows, noPartitions)) {
      for (org.apache.spark.ml.Estimator<?> estimator :
          List.<org.apache.spark.ml.Estimator<?>>of(
              new NystromKernelPCA().setK(1).setNumLandmarks(2),
              new RandomFeatureKernelPCA().setK(1))) {
        IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> estimator.fit(df));
        assertEquals(expected, e.getMessage());
      }
    }
  }

  @Test
  void nullAndWronglySizedVectors() {
    List<Vector> data = good(40);
    data.set(33, null);
    String nul = fitError(data, new NystromKernelPCA().setK(2).setNumLandmarks(10));
    assertTrue(nul.contains("row 33") && nul.contains("is null"), nul);
    data = good(40);
    data.set(21, Vectors.dense(1, 2));
    String size = fitError(data, new NystromKernelPCA().setK(2).setNumLandmarks(10));
    assertTrue(size.contains("row 21") && size.contains("has size 2, expected 3"), size);
  }

  @Test
  void emptyInputAndTooManyLandmarks() {
    String empty = fitError(new ArrayList<>(), new NystromKernelPCA().setK(2).setNumLandmarks(10));
    assertTrue(empty.contains("no rows"), empty);
    String tooMany = fitError(good(30), new NystromKernelPCA().setK(2).setNumLandmarks(31));
    assertEquals(
        "numLandmarks m = 31 exceeds the number of rows n = 30; use m <= n (m = n gives exact kernel PCA)",
        tooMany);
    String rank =
        fitError(good(30), new NystromKernelPCA().setKernel("linear").setK(4).setNumLandmarks(10));
    assertTrue(rank.contains("k = 4 exceeds the rank") && rank.contains("r = 3"), rank);
  }

  @Test
  void badParametersFailWhenSetOrBeforeAnyJob() {
    Dataset<Row> df = LocalSpark.vectors(good(20), 2);
    jobs.clear();
    IllegalArgumentException km =
        assertThrows(
            IllegalArgumentException.class,
            () -> new NystromKernelPCA().setK(11).setNumLandmarks(10).fit(df));
    assertTrue(
        km.getMessage().contains("k = 11 exceeds the number of landmarks m = 10"), km.getMessage());
    IllegalArgumentException noK =
        assertThrows(IllegalArgumentException.class, () -> new NystromKernelPCA().fit(df));
    assertTrue(noK.getMessage().contains("Param k"), noK.getMessage());
    drainListenerBus();
    assertEquals(List.of(), jobs, "parameter errors come before any Spark job");

    for (double gamma : new double[] {0, -1}) {
      IllegalArgumentException g =
          assertThrows(
              IllegalArgumentException.class, () -> new NystromKernelPCA().setGamma(gamma));
      assertTrue(g.getMessage().contains("gamma"), g.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> new NystromKernelPCA().setK(0));
    assertThrows(IllegalArgumentException.class, () -> new NystromKernelPCA().setNumLandmarks(0));
    assertThrows(IllegalArgumentException.class, () -> new NystromKernelPCA().setKernel("rbff"));
    assertThrows(IllegalArgumentException.class, () -> new NystromKernelPCA().setRcond(1.0));
    assertThrows(
        IllegalArgumentException.class, () -> new NystromKernelPCA().setLandmarkSampling("best"));
    IllegalArgumentException column =
        assertThrows(
            IllegalArgumentException.class,
            () -> new NystromKernelPCA().setK(2).setInputCol("pixels").fit(df));
    assertTrue(column.getMessage().contains("'pixels' does not exist"), column.getMessage());
    IllegalArgumentException type =
        assertThrows(
            IllegalArgumentException.class,
            () -> new NystromKernelPCA().setK(2).setInputCol("id").fit(df));
    assertTrue(type.getMessage().contains("must be of type Vector"), type.getMessage());
    IllegalArgumentException landmarks =
        assertThrows(
            IllegalArgumentException.class,
            () -> new NystromKernelPCA().setK(1).setLandmarks(Vectors.dense(1, 2)).fit(df));
    assertTrue(landmarks.getMessage().contains("size 2"), landmarks.getMessage());
  }

  @Test
  void dottedColumnNamesAreTakenLiterally() {
    Dataset<Row> df = LocalSpark.vectors(good(30), 2).withColumnRenamed("features", "pixels.raw");
    NystromKernelPCAModel model =
        new NystromKernelPCA().setInputCol("pixels.raw").setK(2).setNumLandmarks(10).fit(df);
    assertEquals(30, model.transform(df).count());
  }

  @Test
  void transformRejectsNonFiniteValuesWithTheirPosition() {
    NystromKernelPCAModel model =
        new NystromKernelPCA().setK(2).setNumLandmarks(10).fit(LocalSpark.vectors(good(30), 2));
    List<Vector> bad = good(5);
    bad.set(3, Vectors.dense(1, Double.NaN, 0));
    Exception e =
        assertThrows(Exception.class, () -> model.transform(LocalSpark.vectors(bad, 1)).collect());
    Throwable root = e;
    while (root.getCause() != null && !(root instanceof IllegalArgumentException)) {
      root = root.getCause();
    }
    // In partition 0 the row's number is its position: named as the fit names it.
    assertTrue(root instanceof io.github.sparkkpca.execution.InvalidRowException, root.toString());
    assertEquals(
        "Column 'features': the vector in row 3 (partition 0, position 3) has a non-finite value"
            + " (NaN)",
        root.getMessage());
    IllegalArgumentException fit =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new NystromKernelPCA().setK(1).setNumLandmarks(2).fit(LocalSpark.vectors(bad, 1)));
    assertEquals(root.getMessage(), fit.getMessage(), "transform and fit name the row alike");
    // Beyond partition 0 a scoring task knows its partition and position only.
    List<Vector> later = good(6);
    later.set(4, Vectors.dense(0, 0, Double.POSITIVE_INFINITY));
    Exception e2 =
        assertThrows(
            Exception.class, () -> model.transform(LocalSpark.vectors(later, 2)).collect());
    Throwable root2 = e2;
    while (root2.getCause() != null && !(root2 instanceof IllegalArgumentException)) {
      root2 = root2.getCause();
    }
    assertEquals(
        "Column 'features': the vector at position 1 of partition 1 has a non-finite value"
            + " (Infinity)",
        root2.getMessage());
    // On the failure path, the input counted: the fit's words for the same rows and partitions.
    io.github.sparkkpca.execution.InvalidRowException invalid =
        (io.github.sparkkpca.execution.InvalidRowException) root2;
    Dataset<Row> input = LocalSpark.vectors(later, 2);
    IllegalArgumentException fit2 =
        assertThrows(
            IllegalArgumentException.class,
            () -> new NystromKernelPCA().setK(1).setNumLandmarks(2).fit(input));
    assertEquals(
        "Column 'features': the vector in row 4 (partition 1, position 1) has a non-finite value"
            + " (Infinity)",
        invalid.messageWithRow(input));
    assertEquals(fit2.getMessage(), invalid.messageWithRow(input));
    assertEquals(null, invalid.messageWithRow(LocalSpark.vectors(good(6), 2)), "another dataset");
  }

  @Test
  void transformRejectsVectorsOfTheWrongSize() {
    NystromKernelPCAModel model =
        new NystromKernelPCA().setK(2).setNumLandmarks(10).fit(LocalSpark.vectors(good(30), 2));
    List<Vector> wrong = List.of(Vectors.dense(1, 2, 3, 4));
    Exception e =
        assertThrows(
            Exception.class, () -> model.transform(LocalSpark.vectors(wrong, 1)).collect());
    Throwable root = e;
    while (root.getCause() != null && !(root instanceof IllegalArgumentException)) {
      root = root.getCause();
    }
    assertTrue(root.getMessage().contains("has size 4, the model expects 3"), root.getMessage());
  }

  /**
   * Finite values whose squared norm overflows (|x| ~ 1e154) are named as such, not as NaN or
   * infinite.
   */
  @Test
  void valuesTooLargeForKernelArithmeticNameTheRow() {
    List<Vector> data = good(50);
    data.set(17, Vectors.dense(1, 1e154, -1e154));
    String fit = fitError(data, new NystromKernelPCA().setK(2).setNumLandmarks(10));
    assertTrue(
        fit.contains("Column 'features'")
            && fit.contains("row 17")
            && fit.contains("squared norm overflows")
            && fit.contains("at index 1")
            && !fit.contains("NaN"),
        fit);

    NystromKernelPCAModel model =
        new NystromKernelPCA().setK(2).setNumLandmarks(10).fit(LocalSpark.vectors(good(30), 2));
    List<Vector> bad = good(5);
    bad.set(2, Vectors.dense(3e154, 0, 0));
    Exception e =
        assertThrows(Exception.class, () -> model.transform(LocalSpark.vectors(bad, 1)).collect());
    Throwable root = e;
    while (root.getCause() != null && !(root instanceof IllegalArgumentException)) {
      root = root.getCause();
    }
    assertTrue(
        root.getMessage().contains("position 2")
            && root.getMessage().contains("squared norm overflows"),
        root.getMessage());
  }
}
