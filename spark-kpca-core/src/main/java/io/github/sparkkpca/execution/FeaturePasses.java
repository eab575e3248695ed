package io.github.sparkkpca.execution;

import io.github.sparkkpca.feature.FeatureMap;
import io.github.sparkkpca.feature.FeatureStatistics;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The passes that fits and updates share: the validating scan of the input column (count, first bad
 * row, uniform sample) and the accumulation of a feature map's statistics.
 */
public final class FeaturePasses {

  private static final Logger LOG = LoggerFactory.getLogger(FeaturePasses.class);

  /**
   * Bytes of a cached row beyond its stored entries (a vector object and its arrays' headers), for
   * the estimate the persistence log line reports.
   */
  private static final long CACHED_ROW_OVERHEAD = 64;

  /** A bound of the serialized size of a scan without a sample (counts and the first error). */
  private static final long UNSAMPLED_SCAN_BYTES = 64L << 10;

  private FeaturePasses() {}

  /**
   * The input column's vectors after a successful validating scan, cached for the passes that
   * follow unless the caller's dataset is cached already. Close to release them.
   */
  public static final class Scanned implements AutoCloseable {
    private final JavaRDD<Vector> vectors;
    private final boolean persisted;
    private final DataScan scan;

    private Scanned(JavaRDD<Vector> vectors, boolean persisted, DataScan scan) {
      this.vectors = vectors;
      this.persisted = persisted;
      this.scan = scan;
    }

    public JavaRDD<Vector> vectors() {
      return vectors;
    }

    public DataScan scan() {
      return scan;
    }

    public long count() {
      return scan.count();
    }

    /**
     * Rows per block of a pass of {@code map} over these rows ({@link FeaturePasses#blockSize}).
     */
    public int blockSize(FeatureMap map, KernelPcaFit.BlockSizes sizes) {
      return FeaturePasses.blockSize(map, scan.maxStoredEntries(), sizes);
    }

    @Override
    public void close() {
      if (persisted) {
        vectors.unpersist(false);
      }
    }
  }

  /**
   * Rows per block of a pass of {@code map} over rows of at most {@code maxStoredEntries} stored
   * entries, the one rule of every fit, update, growth and streaming fold: {@code sizes.of(c, w,
   * r)} for the c values of a row's kernel block ({@link FeatureMap#blockColumns}: m landmarks or D
   * random features), the width w of a row of the block ({@link FeatureMap#blockWidth(long)}, by
   * {@link io.github.sparkkpca.linalg.RowBlock#width}: d dense, about 1.5 × the non-zeros sparse)
   * and its r features.
   */
  public static int blockSize(
      FeatureMap map, long maxStoredEntries, KernelPcaFit.BlockSizes sizes) {
    return sizes.of(map.blockColumns(), map.blockWidth(maxStoredEntries), map.outputDim());
  }

  /**
   * Counts and checks every vector of {@code column} and draws {@code sampleCapacity} rows
   * uniformly without replacement, in one pass.
   *
   * <p><b>Persistence.</b> The passes that follow (landmark selection, statistics, updates) read
   * the vectors again. When the caller's dataset is not cached ({@code storageLevel} NONE, e.g. the
   * output of a Pipeline's featurizers), the column's vectors are persisted MEMORY_AND_DISK before
   * the scan, as Spark's own iterative estimators do, so that the featurizers run once, and
   * released when the {@link Scanned} closes; one log line gives their size (about 12 bytes per
   * stored entry and 64 per row) against the executors' free storage memory, and says when part
   * will spill to disk. A cached dataset is read as it is.
   *
   * @param allowEmpty whether a column without rows is accepted (an update with nothing new)
   * @throws IllegalArgumentException naming the first bad row, or when the column has no rows
   */
  public static Scanned scan(
      Dataset<?> dataset,
      String column,
      int d,
      int sampleCapacity,
      long seed,
      boolean allowEmpty,
      String jobPrefix) {
    JavaRDD<Vector> vectors =
        dataset
            .select(QuotedColumns.column(dataset, column))
            .toJavaRDD()
            .map(row -> (Vector) row.get(0));
    boolean persist = dataset.storageLevel().equals(StorageLevel.NONE());
    if (persist) {
      vectors.persist(StorageLevel.MEMORY_AND_DISK());
    }
    try {
      String description = jobPrefix + "validate '" + column + "'";
      // Sampling keys depend on each row's position in the data (so repeated rows are drawn as
      // rows): number the rows first when there is a sample to draw. zipWithIndex runs a job of its
      // own (the partition sizes): under the same description.
      String sampling = description + " and sample " + sampleCapacity + " landmarks";
      DataScan scan =
          sampleCapacity > 0
              ? DistributedPass.described(
                  vectors.context(),
                  sampling,
                  () ->
                      DistributedPass.run(
                          vectors.context(),
                          sampling,
                          vectors.zipWithIndex().map(indexed -> indexed),
                          null,
                          Object.class,
                          (none, partition, rows) ->
                              new DataScan(sampleCapacity, d, seed, column)
                                  .scanIndexedPartition(partition, rows),
                          DataScan::merge))
              : DistributedPass.run(
                  vectors.context(),
                  description,
                  vectors,
                  null,
                  Object.class,
                  (none, partition, rows) ->
                      new DataScan(0, d, seed, column).scanPartition(partition, 0, rows),
                  DataScan::merge,
                  // Without a sample a scan holds counts and the first error: small.
                  UNSAMPLED_SCAN_BYTES + 128L * vectors.getNumPartitions());
      if (scan.errorMessage() != null) {
        throw new IllegalArgumentException(scan.errorMessage());
      }
      if (scan.count() == 0 && !allowEmpty) {
        throw new IllegalArgumentException("Column '" + column + "' of the input has no rows");
      }
      if (persist) {
        logPersisted(vectors.context(), column, scan, jobPrefix);
      }
      return new Scanned(vectors, persist, scan);
    } catch (RuntimeException e) {
      if (persist) {
        vectors.unpersist(false);
      }
      throw e;
    }
  }

  /** The persistence log line: the cached rows' estimated size against the free storage memory. */
  private static void logPersisted(
      org.apache.spark.SparkContext sc, String column, DataScan scan, String jobPrefix) {
    long bytes = 12L * scan.storedEntries() + CACHED_ROW_OVERHEAD * scan.count();
    long free = 0;
    // A Scala iterator: the same calls on Scala 2.12 and 2.13 (their collection converters differ).
    scala.collection.Iterator<scala.Tuple2<Object, Object>> statuses =
        sc.getExecutorMemoryStatus().valuesIterator();
    while (statuses.hasNext()) {
      free += (Long) statuses.next()._2();
    }
    String message =
        String.format(
            java.util.Locale.ROOT,
            "%sthe input is not cached: the %d vectors of '%s' (about %.1f MiB) are persisted"
                + " MEMORY_AND_DISK for the passes that follow and released after them (%.1f MiB"
                + " of storage memory free%s)",
            jobPrefix,
            scan.count(),
            column,
            bytes / 1048576.0,
            free / 1048576.0,
            bytes > free ? ": the rows that do not fit spill to disk" : "");
    if (bytes > free) {
      LOG.warn(message);
    } else {
      LOG.info(message);
    }
  }

  /** n, φ̄, the centred scatter and Σ‖φ_full‖² of the rows under {@code map}, block by block. */
  public static FeatureStatistics statistics(
      JavaRDD<Vector> vectors, FeatureMap map, int blockSize, String column, String jobPrefix) {
    int r = map.outputDim();
    return DistributedPass.run(
        vectors.context(),
        jobPrefix
            + "accumulate the "
            + r
            + "x"
            + r
            + " "
            + map.kind()
            + " statistics (block "
            + blockSize
            + ")",
        vectors,
        map,
        FeatureMap.class,
        (shared, partition, rows) -> shared.accumulate(rows, blockSize, column),
        FeatureStatistics::merge,
        FeatureStatistics.serializedBytes(r));
  }

  /** d from the column's size metadata, else from its first row. */
  public static int inputDimension(Dataset<?> dataset, String column) {
    int size = AttributeGroup.fromStructField(dataset.schema().apply(column)).size();
    if (size >= 0) {
      return size;
    }
    List<Row> first =
        dataset.select(QuotedColumns.column(dataset, column)).limit(1).collectAsList();
    if (first.isEmpty()) {
      throw new IllegalArgumentException("Column '" + column + "' of the input has no rows");
    }
    Object v = first.get(0).get(0);
    if (!(v instanceof Vector vector)) {
      throw new IllegalArgumentException("Column '" + column + "': the vector in row 0 is null");
    }
    return vector.size();
  }
}
