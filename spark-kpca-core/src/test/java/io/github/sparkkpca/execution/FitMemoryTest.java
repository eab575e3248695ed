package io.github.sparkkpca.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.linalg.RowBlock;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import org.junit.jupiter.api.Test;

/**
 * The size FitMemory expects of one serialized statistic against the size Java serialization
 * produces.
 */
class FitMemoryTest {

  @Test
  void summaryBytesMatchTheSerializedStatistics() throws Exception {
    int r = 300;
    double[] block = new double[r * 40];
    for (int i = 0; i < block.length; i++) {
      block[i] = Math.sin(i);
    }
    FeatureStatistics stats = new FeatureStatistics(r);
    stats.addBlock(block, 40, 1.0);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(stats);
    }
    long expected = FitMemory.summaryBytes(r, "org.apache.spark.serializer.JavaSerializer");
    // The packed triangle and one 5-byte block header per 1024 bytes of it.
    assertEquals(4L * r * (r + 1) + 5 * ((4L * r * (r + 1) + 1023) / 1024), expected);
    assertTrue(
        bytes.size() >= expected && bytes.size() <= expected + 8L * r + 1000,
        bytes.size() + " bytes serialized, " + expected + " expected");
    assertEquals(
        8L * r * r, FitMemory.summaryBytes(r, "org.apache.spark.serializer.KryoSerializer"));
  }

  /**
   * Blocks on the sparse kernel-block path are sized by the rows' stored entries, not by d: hashed
   * text (2^18 columns, at most 60 entries) at m = 2000 gets blocks of about a thousand rows, where
   * sizing by d gave the 16-row floor; the dense path and rows as wide as d keep d.
   */
  @Test
  void sparseBlocksAreSizedByTheStoredEntries() {
    int d = 1 << 18;
    assertEquals(d, RowBlock.width(d, false, 60));
    assertEquals(90, RowBlock.width(d, true, 60));
    assertEquals(2, RowBlock.width(d, true, 1));
    assertEquals(2, RowBlock.width(d, true, 0));
    assertEquals(100, RowBlock.width(100, true, 100), "never wider than d");
    // The fit's default rows per block, 4·2^20 / (m + width + r) within [16, 4096].
    io.github.sparkkpca.ml.NystromKernelPCA fit = new io.github.sparkkpca.ml.NystromKernelPCA();
    assertEquals(1025, fit.effectiveBlockSize(2000, RowBlock.width(d, true, 60), 2000));
    assertEquals(16, fit.effectiveBlockSize(2000, RowBlock.width(d, false, 60), 2000));
  }

  @Test
  void squaresAreCheckedAgainstTheHeapAndTheArrayLimit() {
    long heap = 1L << 30;
    // 4 squares of n = 5000: 800 MB, within 1 GiB; n = 6000: 1.15 GB, refused with the numbers.
    FitMemory.checkSquares(5000, 4, "MPRESS", "maxRows", heap);
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> FitMemory.checkSquares(6000, 4, "MPRESS", "maxRows", heap));
    assertTrue(
        e.getMessage().contains("n = 6000")
            && e.getMessage().contains("1.1 GiB")
            && e.getMessage().contains("1.0 GiB")
            && e.getMessage().contains("lower maxRows"),
        e.getMessage());
    IllegalArgumentException array =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> FitMemory.checkSquares(46_341, 1, "MPRESS", "maxRows", Long.MAX_VALUE));
    assertTrue(array.getMessage().contains("46340"), array.getMessage());
  }

  /**
   * MPRESS holds 6 n×n matrices at its peak (the kernel matrix, the decomposition's vectors, Q and
   * the deleted rows' coordinates of Mpress$Downdates, K₍₋ᵢ₎ and a fallback's copy of it): n = 4600
   * is 0.95 GiB, within a 1 GiB heap but not beside the 0.2 GiB a Spark driver has in use.
   */
  @Test
  void squaresAreCheckedAgainstWhatTheHeapHasLeft() {
    long heap = 1L << 30;
    int squares = 6; // Mpress.DRIVER_SQUARES
    FitMemory.checkSquares(4600, squares, "MPRESS", "maxRows", heap, 0);
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> FitMemory.checkSquares(4600, squares, "MPRESS", "maxRows", heap, 200L << 20));
    assertTrue(
        e.getMessage().contains("n = 4600")
            && e.getMessage().contains("0.9 GiB")
            && e.getMessage().contains("heap is 1.0 GiB with 0.2 GiB in use"),
        e.getMessage());
    // The live check: a square as large as the whole heap is refused, whatever is in use.
    long side = (long) Math.ceil(Math.sqrt(Runtime.getRuntime().maxMemory() / 8.0));
    assertThrows(
        IllegalArgumentException.class, () -> FitMemory.checkSquares(side, 1, "MPRESS", "maxRows"));
  }

  /** The largest m accepted is accepted, and one more is refused: the inverse of the check. */
  @Test
  void largestLandmarksIsTheBoundaryOfTheCheck() {
    org.apache.spark.SparkContext sc =
        io.github.sparkkpca.testing.LocalSpark.spark().sparkContext();
    for (int maps : new int[] {1, 20}) {
      int m = FitMemory.largestLandmarks(sc, 20, size -> 256, maps, FitMemory.MAX_LANDMARKS);
      assertTrue(m > 100 && m < FitMemory.MAX_LANDMARKS, "m = " + m);
      FitMemory.check(sc, m, 20, 256, "m", maps);
      int over = m + 1;
      org.junit.jupiter.api.Assertions.assertThrows(
          IllegalArgumentException.class, () -> FitMemory.check(sc, over, 20, 256, "m", maps));
    }
    assertEquals(
        50, FitMemory.largestLandmarks(sc, 20, size -> 256, 1, 50), "the cap when memory allows");
  }

  /**
   * A need just above the heap was printed "needs about 1.0 GiB ... but its heap is 1.0 GiB": the
   * figures carry as many decimals as it takes to tell them apart (8 · 11586² bytes is 1.00014
   * GiB).
   */
  @Test
  void aRefusalPrintsFiguresThatDiffer() {
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> FitMemory.checkSquares(11586, 1, "MPRESS", "maxRows", 1L << 30, 0));
    assertTrue(
        e.getMessage().contains("needs about 1.0001 GiB")
            && e.getMessage().contains("heap is 1.0000 GiB"),
        e.getMessage());
    assertEquals("2.0 GiB", FitMemory.gib(2L << 30, 1L << 30));
  }

  /**
   * The top-k route has no m×m term on the executors: m = 30,000, d = 100, one task of 256-row
   * blocks, l = 60, fits a 1 GiB executor (about 0.12 GiB) where the m×m routes need 14 GiB.
   */
  @Test
  void topKExecutorsHoldNoSquare() {
    long gib = 1L << 30;
    long rowBytes = 800;
    assertTrue(FitMemory.executorBytesPerRow(30_000, rowBytes, 256, 1) > 10 * gib);
    long topK = FitMemory.topKExecutorBytes(30_000, rowBytes, 256, 1, 60);
    assertTrue(topK < gib / 4, "top-k executor bytes " + topK);
    // Closed form: broadcast 30000*800 + 8*30000*60; task 8(256*30000 + 256*60 + 2*30000*60) +
    // 256*800; merge 16*30000*60.
    assertEquals(24_000_000L + 14_400_000L + 90_362_880L + 204_800L + 28_800_000L, topK);
    // The dense factor keeps 3 m×m matrices and a basis of 2·passes·m·l doubles.
    TopKFit.Settings settings = new TopKFit.Settings(1e-6, 40, 10, 4096, 512);
    assertEquals(
        8L * 3 * 30_000 * 30_000 + 2L * 30_000 * 800 + 8L * (2 * 40 + 4) * 30_000 * 60,
        FitMemory.topKDriverBytes(30_000, rowBytes, 60, settings, false));
    // The factor with no m×m array keeps K_mm's lower triangle in tiles: m = 50,000 in 512-tiles
    // is 98·99/2 tiles, 10.0 GB, within a 14 GiB driver with the basis (2.0 GB at 40 passes).
    long large = FitMemory.topKDriverBytes(50_000, rowBytes, 60, settings, true);
    assertEquals(
        io.github.sparkkpca.linalg.TiledSymmetricMatrix.bytes(50_000, 512)
            + 2L * 50_000 * 800
            + 8L * (2 * 40 + 4) * 50_000 * 60,
        large);
    assertTrue(large < 14 * gib, "m = 50,000 driver bytes " + large);
  }

  /**
   * statisticsRoute = auto checks the m×m routes' bounds and, where they fail, the top-k route's
   * with its factor in tiles: m = 8000 in local mode needs 72m² = 4.6 GB of heap by the m×m routes,
   * and the top-k route's tiles, basis and tasks a tenth of it. The same need without the top-k
   * fallback is refused; an explicit top-k with the dense factor at m above the array limit is
   * refused, with the tiled factor it is not.
   */
  @Test
  void autoFallsBackToTheTopKFactorWhereTheSquaresDoNotFit() {
    org.apache.spark.SparkContext sc =
        io.github.sparkkpca.testing.LocalSpark.spark().sparkContext();
    long heap = Runtime.getRuntime().maxMemory();
    int m = (int) Math.min(46_000, Math.sqrt(heap / 60.0));
    int l = 60;
    TopKFit.Settings settings = TopKFit.Settings.of(1e-6, 40);
    if (FitMemory.topKDriverBytes(m, 800, l, settings, true) * 2 > heap) {
      return; // a heap too small for the comparison (the test JVM has more)
    }
    assertTrue(FitMemory.squareRoutesFit(sc, m, 800, 256, "numLandmarks m") != null);
    KernelPcaFit.Need auto = new KernelPcaFit.Need(m, "numLandmarks m", 1, l, settings, true);
    FitMemory.checkRowBytes(sc, m, 800, 256, "numLandmarks m", auto);
    KernelPcaFit.Need square = new KernelPcaFit.Need(m, "numLandmarks m");
    assertThrows(
        IllegalArgumentException.class,
        () -> FitMemory.checkRowBytes(sc, m, 800, 256, "numLandmarks m", square));
    TopKFit.Settings dense = new TopKFit.Settings(1e-6, 40, 10, Integer.MAX_VALUE, 512);
    IllegalArgumentException array =
        assertThrows(
            IllegalArgumentException.class,
            () -> FitMemory.checkTopK(sc, 46_341, 8, 1, "numLandmarks m", l, dense, false));
    assertTrue(array.getMessage().contains("46340"), array.getMessage());
    assertEquals(
        null,
        FitMemory.squareRoutesFit(sc, 100, 800, 256, "numLandmarks m"),
        "m = 100 fits the m×m routes");
  }
}
