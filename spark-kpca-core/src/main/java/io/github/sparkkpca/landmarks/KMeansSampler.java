package io.github.sparkkpca.landmarks;

import io.github.sparkkpca.execution.RowHash;
import io.github.sparkkpca.linalg.RowSet;
import java.util.LinkedHashSet;
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
 *
 * <p>Sparse rows are not densified here: Spark's KMeans reads sparse vectors by their non-zeros
 * (distances from the norms and sparse inner products). The centres are dense by nature; {@link
 * #select(Input)} refuses up front m·d too large for them (before k-means runs).
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
    requireDenseCentresFit(m, input.d(), Runtime.getRuntime().maxMemory());
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
        centres.points(),
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

  /**
   * The result: the distinct centres, held sparse when most of their values are 0 ({@link
   * RowSet#of}: the mean of sparse rows is often sparse), and the k asked for.
   */
  public record Centres(RowSet points, int requested) {
    /** The number of distinct centres. */
    public int count() {
      return points.count();
    }
  }

  /**
   * Refuses, before k-means runs, centres whose dense d-wide arrays cannot fit: k-means centres are
   * dense by nature (means of rows), and Spark's KMeans holds the m centres, their broadcast copy
   * and each task's m per-cluster sums as dense vectors (about 3·8·m·d bytes). Refused above a
   * quarter of the heap, as pre-images are: sparse input rows are read by their non-zeros, but the
   * centres of wide data are not.
   *
   * @throws IllegalArgumentException naming m, d, the estimate and the heap
   */
  static void requireDenseCentresFit(int m, int d, long heap) {
    long bytes = 3L * 8L * m * d;
    if (bytes > heap / 4) {
      throw new IllegalArgumentException(
          String.format(
              java.util.Locale.ROOT,
              "landmarkSampling kmeans: k-means centres are dense vectors of d = %d values, and"
                  + " k-means holds about %.1f GiB of them (m = %d centres, their broadcast copy"
                  + " and each task's sums), more than a quarter of the %.1f GiB heap; use"
                  + " landmarkSampling uniform, leverage or residual for data this wide (their"
                  + " landmarks are rows and stay sparse)",
              d,
              bytes / (double) (1L << 30),
              m,
              heap / (double) (1L << 30)));
    }
  }

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
    // Vectors compare by value (a centre equal to another in either form is one landmark).
    Set<Vector> distinct = new LinkedHashSet<>(java.util.Arrays.asList(model.clusterCenters()));
    return new Centres(RowSet.of(distinct.toArray(new Vector[0]), d), m);
  }
}
