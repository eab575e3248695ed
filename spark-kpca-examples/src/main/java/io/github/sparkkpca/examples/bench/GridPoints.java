package io.github.sparkkpca.examples.bench;

import io.github.sparkkpca.examples.data.DataSources;
import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.examples.data.SourceOptions;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import java.util.Arrays;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;

/**
 * The workload of {@code spark-kpca bench}: an input loaded and cached once, a warm-up, and each
 * grid point's best-of-repeat Nyström fit (its phases from {@link JobTimes}) and transform, with
 * the dgemm rate that bounds them; the settings are the command's options.
 */
final class GridPoints {

  private final BenchCommand options;
  private final GridReport report;
  private final JobTimes jobTimes;

  GridPoints(BenchCommand options, GridReport report, JobTimes jobTimes) {
    this.options = options;
    this.report = report;
    this.jobTimes = jobTimes;
  }

  DgemmRate measureDgemm(int slots) {
    // Concurrent callers: as many as task slots or cores, whichever is larger, so the bound is the
    // machine's
    // best rate even when fewer task slots than cores are configured.
    DgemmRate rate =
        DgemmRate.measure(
            options.dgemmSize,
            5,
            Math.max(Math.max(1, slots), Runtime.getRuntime().availableProcessors()));
    report.say(
        "dgemm %d^3 (%s): one call %.1f GFLOP/s, %d concurrent calls %.1f GFLOP/s in total; bound uses %.1f",
        options.dgemmSize,
        rate.implementation(),
        rate.singleGflops(),
        rate.threads(),
        rate.concurrentGflops(),
        rate.gflops());
    return rate;
  }

  static BenchRow withRate(BenchRow r, DgemmRate rate) {
    return new BenchRow(
        r.input(),
        r.n(),
        r.d(),
        r.m(),
        r.r(),
        r.k(),
        r.gamma(),
        r.partitions(),
        r.blockSize(),
        r.fitSeconds(),
        r.scanSeconds(),
        r.statsSeconds(),
        r.otherJobSeconds(),
        r.transformSeconds(),
        rate,
        r.openblasThreads(),
        r.taskSlots(),
        r.peakRssBytes(),
        r.peakHeapBytes(),
        r.loadStart(),
        r.loadEnd(),
        r.explainedVarianceSum(),
        r.statisticsRoute(),
        r.conditionEstimate(),
        r.eigenvalueDifference());
  }

  /** One grid point: best-of-repeat fit and transform. */
  BenchRow measure(
      String in,
      LoadedData data,
      int m,
      int k,
      DgemmRate rate,
      String threads,
      int slots,
      String route,
      double[] firstRoute) {
    double loadStart = PeakMemory.loadAverage();
    PeakMemory.reset();
    double fitSeconds = Double.POSITIVE_INFINITY;
    double[] phases = new double[3];
    NystromKernelPCAModel model = null;
    for (int i = 0; i < options.repeat; i++) {
      NystromKernelPCA estimator = estimator(data, m, k).setStatisticsRoute(route);
      jobTimes.reset();
      long start = System.nanoTime();
      NystromKernelPCAModel fitted = estimator.fit(data.data());
      double s = (System.nanoTime() - start) / 1e9;
      jobTimes.awaitJobEnds();
      if (s < fitSeconds) {
        fitSeconds = s;
        model = fitted;
        phases =
            new double[] {
              jobTimes.seconds(JobTimes.SCAN),
              jobTimes.seconds(JobTimes.STATISTICS),
              jobTimes.seconds(JobTimes.OTHER)
            };
      }
    }
    double transformSeconds = Double.NaN;
    if (!options.noTransform) {
      transformSeconds = Double.POSITIVE_INFINITY;
      for (int i = 0; i < options.repeat; i++) {
        long start = System.nanoTime();
        model.transform(data.data()).write().format("noop").mode("overwrite").save();
        transformSeconds = Math.min(transformSeconds, (System.nanoTime() - start) / 1e9);
      }
    }
    lastModel = model;
    long rss = PeakMemory.rssPeakBytes();
    long heap = PeakMemory.heapPeakBytes();
    double[] explained = model.explainedVariance().toArray();
    double evSum = Arrays.stream(explained).sum();
    double difference = Double.NaN;
    if (firstRoute != null) {
      difference = 0;
      for (int i = 0; i < explained.length; i++) {
        difference = Math.max(difference, Math.abs(explained[i] - firstRoute[i]) / firstRoute[0]);
      }
    }
    report.say(
        "%s: statistics route %s (cond(K_mm) ~ %.3g; %s)%s",
        in,
        model.getStatisticsRouteTaken(),
        model.getLandmarkConditionEstimate(),
        model.getStatisticsRouteCheck(),
        firstRoute == null
            ? ""
            : String.format(
                Locale.ROOT,
                "; eigenvalues differ from the first route's by %.3g of lambda_1",
                difference));
    int b =
        options.blockSize != null
            ? options.blockSize
            : model.effectiveBlockSize(model.numSupportPoints(), model.numFeatures(), model.rank());
    return new BenchRow(
        in,
        model.numRows(),
        model.numFeatures(),
        model.numSupportPoints(),
        model.rank(),
        k,
        model.fittedKernel().gamma(),
        data.data().rdd().getNumPartitions(),
        b,
        fitSeconds,
        phases[0],
        phases[1],
        phases[2],
        transformSeconds,
        rate,
        threads,
        slots,
        rss,
        heap,
        loadStart,
        PeakMemory.loadAverage(),
        evSum,
        model.getStatisticsRouteTaken(),
        model.getLandmarkConditionEstimate(),
        difference);
  }

  private NystromKernelPCA estimator(LoadedData data, int m, int k) {
    NystromKernelPCA estimator =
        new NystromKernelPCA()
            .setInputCol(data.featuresCol())
            .setOutputCol("kpca")
            .setK(k)
            .setNumLandmarks(m)
            .setSeed(options.seed)
            .setSpectrum(options.spectrum);
    if (options.gamma != null) {
      estimator.setGamma(options.gamma);
    }
    if (options.blockSize != null) {
      estimator.setBlockSize(options.blockSize);
    }
    return estimator;
  }

  /** A small fit and transform first, so the timed ones run compiled code. */
  void warmUp(LoadedData data) {
    long start = System.nanoTime();
    Dataset<Row> small = data.data().limit(20_000).persist(StorageLevel.MEMORY_ONLY());
    try {
      int m = Math.min(200, options.ms.get(0));
      NystromKernelPCAModel model =
          estimator(data, m, Math.min(options.ks.get(0), m))
              .setStatisticsRoute(options.routes.get(0))
              .fit(small);
      model.transform(small).write().format("noop").mode("overwrite").save();
    } finally {
      small.unpersist(false);
    }
    report.say(
        "warm-up fit and transform (20000 rows) in %.1f s", (System.nanoTime() - start) / 1e9);
  }

  /** The model of the last measured grid point (for the baselines' landmarks and spectra). */
  private NystromKernelPCAModel lastModel;

  NystromKernelPCAModel lastModel() {
    return lastModel;
  }

  LoadedData load(SparkSession spark, String in, BenchCommand.Cache mode) {
    long start = System.nanoTime();
    LoadedData data =
        DataSources.load(
            spark,
            new SourceOptions(
                in, null, "features", null, options.partitions, options.mnistDir, null));
    long rows;
    switch (mode) {
      case MEMORY -> rows = data.persistAndValidate();
      case DISK -> {
        data.data().persist(StorageLevel.DISK_ONLY());
        rows = data.data().count();
      }
      default -> rows = data.data().count();
    }
    report.say(
        "loaded %s: %d rows, %d partitions, cache %s (%.1f s)",
        data.description(),
        rows,
        data.data().rdd().getNumPartitions(),
        mode.name().toLowerCase(Locale.ROOT),
        (System.nanoTime() - start) / 1e9);
    return data;
  }
}
