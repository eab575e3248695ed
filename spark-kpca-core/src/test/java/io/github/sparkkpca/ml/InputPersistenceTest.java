package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.sparkkpca.testing.LocalSpark;
import java.util.Set;
import java.util.function.Function;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.LongAccumulator;
import org.junit.jupiter.api.Test;

/**
 * A fit on an uncached input (the output of a Pipeline's featurizers) computes that input once for
 * all its passes, releases what it persisted, and leaves the input's storage level as it was; a
 * cached input is read as it is. The input's vectors come from a UDF that counts its calls.
 */
class InputPersistenceTest {

  private static final int N = 60;
  private static final int D = 5;

  /** N rows whose 'features' are made by a counting UDF (with size metadata: no first-row read). */
  private static Dataset<Row> counted(LongAccumulator calls) {
    UserDefinedFunction features =
        functions.udf(
            (UDF1<Long, Vector>)
                id -> {
                  calls.add(1);
                  double[] x = new double[D];
                  for (int t = 0; t < D; t++) {
                    x[t] = Math.sin(0.7 * id * (t + 1) + t);
                  }
                  return Vectors.dense(x);
                },
            SQLDataTypes.VectorType());
    return LocalSpark.spark()
        .range(0, N, 1, 3)
        .select(
            functions.col("id"),
            features
                .apply(functions.col("id"))
                .as("features", new AttributeGroup("features", D).toMetadata()),
            functions.col("id").mod(2).cast("double").as("label"));
  }

  /** Fits on an uncached counted input; returns the UDF's calls. */
  private static long callsOfFit(Function<Dataset<Row>, Object> fit, boolean cacheFirst) {
    SparkSession spark = LocalSpark.spark();
    LongAccumulator calls = spark.sparkContext().longAccumulator();
    Dataset<Row> input = counted(calls);
    if (cacheFirst) {
      input.persist(StorageLevel.MEMORY_ONLY());
      input.count();
      calls.reset();
    }
    StorageLevel before = input.storageLevel();
    Set<Integer> persistedBefore =
        new java.util.HashSet<>(
            org.apache.spark.api.java.JavaSparkContext.fromSparkContext(spark.sparkContext())
                .getPersistentRDDs()
                .keySet());
    fit.apply(input);
    assertEquals(before, input.storageLevel(), "the input's storage level is kept");
    Set<Integer> persistedAfter =
        new java.util.HashSet<>(
            org.apache.spark.api.java.JavaSparkContext.fromSparkContext(spark.sparkContext())
                .getPersistentRDDs()
                .keySet());
    assertEquals(persistedBefore, persistedAfter, "what the fit persisted is released");
    if (cacheFirst) {
      input.unpersist(true);
    }
    return calls.value();
  }

  @Test
  void nystromFitComputesAnUncachedInputOnce() {
    assertEquals(
        N,
        callsOfFit(
            input -> new NystromKernelPCA().setK(2).setNumLandmarks(20).setSeed(3).fit(input),
            false));
  }

  @Test
  void leverageLandmarksAndRandomFeaturesReadTheCacheToo() {
    assertEquals(
        N,
        callsOfFit(
            input ->
                new NystromKernelPCA()
                    .setK(2)
                    .setNumLandmarks(20)
                    .setLandmarkSampling("leverage")
                    .setSeed(3)
                    .fit(input),
            false));
    assertEquals(
        N,
        callsOfFit(
            input -> new RandomFeatureKernelPCA().setK(2).setNumRandomFeatures(40).fit(input),
            false));
  }

  @Test
  void regressionFitComputesAnUncachedInputOnceWithItsLabels() {
    assertEquals(
        N,
        callsOfFit(
            input ->
                new KernelPCARegressor()
                    .setGamma(0.5)
                    .setNumLandmarks(20)
                    .setLabelMode("real")
                    .setDimension(2)
                    .fit(input),
            false));
  }

  @Test
  void aCachedInputIsReadAsItIs() {
    assertEquals(
        0,
        callsOfFit(
            input -> new NystromKernelPCA().setK(2).setNumLandmarks(20).setSeed(3).fit(input),
            true));
  }
}
