package io.github.sparkkpca.landmarks;

import io.github.sparkkpca.execution.RowHash;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.clustering.KMeans;
import org.apache.spark.ml.clustering.KMeansModel;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import scala.Tuple2;

/**
 * Landmarks as k-means centres (Zhang, Tsang and Kwok 2008), computed by Spark ML's {@code KMeans}
 * (k-means|| initialisation, Bahmani et al. 2012).
 *
 * <p>Spark's k-means|| draws per partition, so its result depends on how the data are partitioned.
 * To make the landmarks depend on the data and seed only, the rows are first hash-partitioned by
 * their content hash into a number of partitions fixed by n, and sorted by that hash within each
 * partition.
 */
public final class KMeansSampler implements LandmarkSampler {

  /** Rows per canonical partition (about 64 MB of 784-dimensional doubles). */
  private static final long ROWS_PER_PARTITION = 10_000;

  private final int maxIter;

  /** A sampler running at most {@code maxIter} Lloyd iterations. */
  public KMeansSampler(int maxIter) {
    this.maxIter = maxIter;
  }

  @Override
  public Landmarks select(Input input) {
    int m = input.m();
    Centres centres =
        io.github.sparkkpca.execution.DistributedPass.described(
            input.vectors().context(),
            input.jobPrefix() + "k-means with k = " + m + " for the landmarks",
            () ->
                select(
                    input.spark(),
                    input.vectors(),
                    input.n(),
                    input.d(),
                    m,
                    input.seed(),
                    maxIter));
    return new Landmarks(
        io.github.sparkkpca.linalg.RowSet.dense(centres.rowMajor(), centres.count(), input.d()),
        "kmeans: "
            + centres.count()
            + " distinct centres of Spark ML KMeans (k = "
            + m
            + ", k-means|| init, maxIter = "
            + maxIter
            + ")"
            + (centres.count() < m
                ? "; "
                    + centres.count()
                    + " landmarks instead of the "
                    + m
                    + " requested: k-means|| found fewer distinct centres than k"
                : ""));
  }

  /** The result: distinct centres (row-major) and how many there are. */
  public record Centres(double[] rowMajor, int count, int requested) {}

  /**
   * Runs k-means with k = m and returns its distinct centres (fewer than m when k-means|| finds
   * fewer distinct candidates, e.g. with many duplicated rows).
   */
  public static Centres select(
      SparkSession spark, JavaRDD<Vector> vectors, long n, int d, int m, long seed, int maxIter) {
    int partitions =
        (int) Math.max(1, Math.min(1000, (n + ROWS_PER_PARTITION - 1) / ROWS_PER_PARTITION));
    JavaRDD<Row> canonical =
        vectors
            .mapToPair(v -> new Tuple2<>(RowHash.hash(v, seed), v))
            .repartitionAndSortWithinPartitions(new HashPartitioner(partitions))
            .map(pair -> RowFactory.create(pair._2()));
    StructType schema = new StructType().add("features", SQLDataTypes.VectorType(), false);
    Dataset<Row> frame = spark.createDataFrame(canonical, schema);
    KMeansModel model =
        new KMeans()
            .setK(m)
            .setSeed(seed)
            .setMaxIter(maxIter)
            .setInitMode("k-means||")
            .setFeaturesCol("features")
            .fit(frame);
    Set<List<Double>> distinct = new LinkedHashSet<>();
    for (Vector centre : model.clusterCenters()) {
      List<Double> values = new ArrayList<>(d);
      for (double x : centre.toArray()) {
        values.add(x);
      }
      distinct.add(values);
    }
    double[] out = new double[distinct.size() * d];
    int j = 0;
    for (List<Double> centre : distinct) {
      for (int t = 0; t < d; t++) {
        out[j * d + t] = centre.get(t);
      }
      j++;
    }
    return new Centres(out, distinct.size(), m);
  }
}
