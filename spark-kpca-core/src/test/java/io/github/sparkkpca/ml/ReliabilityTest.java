package io.github.sparkkpca.ml;

import static io.github.sparkkpca.testing.SavedModelKinds.deleteTree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.testing.LocalSpark;
import io.github.sparkkpca.testing.SavedModelKinds;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Models that hold NaN are never loaded or written, non-finite scores are refused with the row, and
 * fits that cannot fit in memory are refused before any pass.
 */
class ReliabilityTest {

  @TempDir Path dir;

  private static Throwable rootIllegalArgument(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && !(root instanceof IllegalArgumentException)) {
      root = root.getCause();
    }
    return root;
  }

  @Test
  void aModelHoldingNaNIsRefusedOnLoad() throws IOException {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(60, 3, 3), 2);
    NystromKernelPCAModel model =
        new NystromKernelPCA().setK(2).setNumLandmarks(10).setSeed(1).fit(df);
    String path = dir.resolve("m").toString();
    model.write().save(path);
    // A copy whose landmark table holds one NaN weight, as a corrupted or hand-edited model would.
    String other = dir.resolve("corrupt").toString();
    model.write().save(other);
    Dataset<Row> landmarks = LocalSpark.spark().read().parquet(other + "/data/landmarks");
    List<Row> withNaN = new ArrayList<>();
    for (Row row : landmarks.collectAsList()) {
      double[] w = ((Vector) row.get(2)).toArray();
      if (row.getInt(0) == 3) {
        w[0] = Double.NaN;
      }
      withNaN.add(RowFactory.create(row.getInt(0), row.get(1), Vectors.dense(w)));
    }
    deleteTree(Path.of(other, "data", "landmarks"));
    LocalSpark.spark()
        .createDataFrame(withNaN, landmarks.schema())
        .write()
        .parquet(other + "/data/landmarks");
    // Without its manifest (which would name the replaced file first), as a model of an earlier
    // release: the values themselves are still checked.
    SavedModelKinds.dropManifest(Path.of(other));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> NystromKernelPCAModel.load(other));
    assertTrue(
        e.getMessage().startsWith("Cannot load NystromKernelPCAModel from '" + other + "'")
            && e.getMessage().contains("data/landmarks row 3")
            && e.getMessage().contains("NaN"),
        e.getMessage());
    // The intact copy still loads.
    assertEquals(model.numRows(), NystromKernelPCAModel.load(path).numRows());
  }

  @Test
  void polynomialOverflowInTransformNamesTheRow() {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(50, 3, 4), 2);
    NystromKernelPCAModel model =
        new NystromKernelPCA()
            .setK(2)
            .setNumLandmarks(10)
            .setSeed(2)
            .setKernel("polynomial")
            .setDegree(9)
            .setGamma(1.0)
            .fit(df);
    List<Vector> rows =
        List.of(Vectors.dense(1, 2, 3), Vectors.dense(1e40, 1e40, 1e40), Vectors.dense(0, 1, 0));
    Exception e =
        assertThrows(Exception.class, () -> model.transform(LocalSpark.vectors(rows, 1)).collect());
    String message = rootIllegalArgument(e).getMessage();
    assertTrue(
        message.contains("in row 1 (partition 0, position 1)")
            && message.contains("non-finite scores"),
        message);
  }

  @Test
  void tooManyLandmarksAreRefusedBeforeAnyPass() {
    List<String> jobs = Collections.synchronizedList(new ArrayList<>());
    SparkListener listener =
        new SparkListener() {
          @Override
          public void onJobStart(SparkListenerJobStart start) {
            jobs.add(String.valueOf(start.properties().getProperty("spark.job.description")));
          }
        };
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(50, 3, 5), 2);
    LocalSpark.spark().sparkContext().addSparkListener(listener);
    try {
      IllegalArgumentException arrayLimit =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  new NystromKernelPCA()
                      .setK(2)
                      .setStatisticsRoute("whitened")
                      .setNumLandmarks(46_341)
                      .fit(df));
      assertTrue(
          arrayLimit.getMessage().startsWith("numLandmarks m = 46341 is too large")
              && arrayLimit.getMessage().contains("(m <= 46340)"),
          arrayLimit.getMessage());
      // The top-k route's factor has no m×m array: m = 46,341 is refused by its memory (K_mm's
      // lower triangle in tiles, 8.6 GB, beyond the test JVM's heap), also before any job.
      IllegalArgumentException topK =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  new NystromKernelPCA()
                      .setK(2)
                      .setStatisticsRoute("top-k")
                      .setNumLandmarks(46_341)
                      .fit(df));
      assertTrue(
          topK.getMessage().startsWith("numLandmarks m = 46341 with statisticsRoute = top-k needs")
              && topK.getMessage().contains("K_mm's lower triangle in tiles"),
          topK.getMessage());
      // Wide sparse rows (8·m·d beyond the dense path's landmark budget) take the sparse path,
      // whose row sizes the scan measures; the m×m matrices are still checked before it.
      Dataset<Row> wide =
          LocalSpark.vectors(
              List.of(
                  Vectors.sparse(1000, new int[] {0, 999}, new double[] {1, 2}),
                  Vectors.sparse(1000, new int[] {5}, new double[] {3})),
              1);
      IllegalArgumentException wideHeap =
          assertThrows(
              IllegalArgumentException.class,
              () -> new NystromKernelPCA().setK(1).setNumLandmarks(40_000).fit(wide));
      assertTrue(
          wideHeap
                  .getMessage()
                  .contains("numLandmarks m = 40000 with statisticsRoute = top-k needs")
              && wideHeap.getMessage().contains("spark.driver.memory"),
          wideHeap.getMessage());
      IllegalArgumentException heap =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  new NystromKernelPCA()
                      .setK(2)
                      .setStatisticsRoute("whitened")
                      .setNumLandmarks(30_000)
                      .fit(df));
      assertTrue(
          heap.getMessage().contains("numLandmarks m = 30000 needs about")
              && heap.getMessage().contains("spark.driver.memory"),
          heap.getMessage());
      // Random features: D×d dense frequencies, 1000 × 2²² = 4.2·10⁹ entries on sparse rows.
      Dataset<Row> veryWide =
          LocalSpark.vectors(List.of(Vectors.sparse(1 << 22, new int[] {0}, new double[] {1})), 1);
      IllegalArgumentException frequencies =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  new RandomFeatureKernelPCA()
                      .setK(1)
                      .setNumRandomFeatures(1000)
                      .setGamma(1.0)
                      .fit(veryWide));
      assertTrue(
          frequencies.getMessage().contains("D = 1000 features for d = 4194304")
              && frequencies.getMessage().contains("a Java array holds"),
          frequencies.getMessage());
      LocalSpark.spark().sparkContext().listenerBus().waitUntilEmpty(10_000);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError(e);
    } finally {
      LocalSpark.spark().sparkContext().removeSparkListener(listener);
    }
    assertTrue(jobs.stream().noneMatch(j -> j.contains("KernelPCA")), "no pass ran: " + jobs);
  }
}
