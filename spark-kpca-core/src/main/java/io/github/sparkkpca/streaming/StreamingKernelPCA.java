package io.github.sparkkpca.streaming;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCAModel;
import io.github.sparkkpca.pca.OjaSubspace;
import io.github.sparkkpca.pca.StepSchedule;
import io.github.sparkkpca.persistence.ModelKind;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.IOException;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.ml.Estimator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kernel PCA of a Structured Streaming query: each micro-batch ({@code foreachBatch}) is folded
 * into the model and the model is written as a new version, atomically, so that a reader always
 * finds a whole model and a restart from the query's checkpoint folds in every input row exactly
 * once.
 *
 * <p><b>Algorithms.</b>
 *
 * <ul>
 *   <li>{@code exact}: the first non-empty micro-batch is fitted by the configured estimator
 *       ({@link NystromKernelPCA}: landmarks sampled from that micro-batch with its seed, or
 *       supplied, e.g. {@link NystromKernelPCA#setLandmarksFrom}; or {@link RandomFeatureKernelPCA}
 *       with a fixed D), every later one is absorbed by the model's own {@code update}: its feature
 *       statistics are merged and the components solved again. The model after any micro-batch
 *       equals, to rounding, a batch fit on every row seen so far with the same landmarks (or the
 *       same ω, b) and kernel. Cost per micro-batch: a fit's passes over that micro-batch only,
 *       plus the r×r eigensolve on the driver.
 *   <li>{@code oja}: RF-Oja (Ullah, Mianjy, Marinov and Arora, "Streaming Kernel PCA with Õ(√n)
 *       Random Features", NeurIPS 2018, Appendix D.2): the random Fourier features z(x) of a {@link
 *       RandomFeatureKernelPCA} configuration (D, kernel, γ, seed, centring) feed Oja's rule
 *       ({@link OjaSubspace}) in mini-batches of {@link #setMiniBatchSize} rows, in the stream's
 *       order, on the driver (the rows of a micro-batch are brought there one partition at a time);
 *       a Rayleigh–Ritz step then orders the basis and gives its eigenvalues: those of the feature
 *       covariance of every row seen restricted to the span found, the micro-batch's rows added to
 *       the earlier rows' k×k sum carried into the new basis ({@link OjaSubspace#carriedRitz}).
 *       State O(D·k) (plus D for the running mean and k² for the Rayleigh–Ritz step), in memory and
 *       on disk. A warm start takes the map and components of a {@link RandomFeatureKernelPCAModel}
 *       ({@link #setWarmStart}); otherwise the basis starts Gaussian from the estimator's seed, and
 *       an unset γ is chosen by the median heuristic on the first micro-batch. Each version is a
 *       {@link RandomFeatureKernelPCAModel} (it scores, exports and evaluates as any): ω and b (D×d
 *       + D), the basis U (D×k) and Λ, and its statistics {@linkplain
 *       FeatureStatistics#withoutScatter without the scatter} (n, z̄, Σ‖z‖²); its {@code update}
 *       refuses.
 * </ul>
 *
 * <p><b>Versions and exactly-once.</b> The model directory holds {@code version-<batchId>}
 * directories, each a saved model, and the marker {@value #MARKER}. A version is written into a
 * hidden sibling and renamed into place ({@link SafeOutput}): the rename is the commit, so a reader
 * ({@link #loadLatest}) that takes the highest committed version never sees a partial model. Spark
 * replays a micro-batch whose commit it did not record (with the same batch id and the same input);
 * a replayed batch whose version is already committed is skipped, and one killed before its rename
 * is recomputed from the previous version. Either way each row is folded in once. The oldest
 * versions beyond {@link #setKeepVersions} are deleted. The directory must be new, empty or an
 * earlier streaming model directory of the same algorithm; the checkpoint must stay with it.
 *
 * <p>This class is the sink; the versioned directory is {@link ModelDirectory} and the RF-Oja
 * algorithm {@link RandomFeatureOja}.
 */
public final class StreamingKernelPCA {

  /** The marker file of a streaming model directory (JSON: writer, algorithm). */
  public static final String MARKER = ModelDirectory.MARKER;

  private static final Logger LOG = LoggerFactory.getLogger(StreamingKernelPCA.class);

  /** What one micro-batch did, for progress lines. */
  public record BatchReport(
      long batchId,
      boolean skipped,
      long batchRows,
      long rowsSoFar,
      double[] eigenvalues,
      double seconds,
      String version) {}

  private Estimator<? extends AbstractKernelPCAModel<?>> estimator;
  private String algorithm = "exact";
  private String modelDir;
  private int keepVersions = 5;
  private StepSchedule schedule = StepSchedule.inverse(1.0, 10.0);
  private int miniBatchSize = 1;
  private int qrEvery = 16;
  private RandomFeatureKernelPCAModel warmStart;
  private Consumer<BatchReport> listener = report -> {};

  /**
   * Test hook: runs after a version is written into its hidden sibling, before the rename commits
   * it.
   */
  Consumer<String> beforeCommit = path -> {};

  /** Test hook: runs after the rename committed a version, before Spark records the batch. */
  Consumer<Long> afterCommit = batchId -> {};

  private ModelDirectory directory;
  private ModelDirectory.Version latest;

  /**
   * The estimator that fits the first micro-batch ({@code exact}) or whose random-feature
   * parameters (k, D, kernel, γ, seed, centring, input column) RF-Oja uses ({@code oja}: a {@link
   * RandomFeatureKernelPCA}).
   */
  public StreamingKernelPCA setEstimator(Estimator<? extends AbstractKernelPCAModel<?>> value) {
    this.estimator = value;
    return this;
  }

  /** {@code exact} (default) or {@code oja}. */
  public StreamingKernelPCA setAlgorithm(String value) {
    if (!value.equals("exact") && !value.equals("oja")) {
      throw new IllegalArgumentException("algorithm must be exact or oja, got '" + value + "'");
    }
    this.algorithm = value;
    return this;
  }

  /** The directory of the model versions (local, HDFS, any Hadoop file system). */
  public StreamingKernelPCA setModelDir(String value) {
    this.modelDir = value;
    return this;
  }

  /**
   * How many of the newest versions are kept (≥ 2, default 5): a reader may still be loading the
   * previous one.
   */
  public StreamingKernelPCA setKeepVersions(int value) {
    if (value < 2) {
      throw new IllegalArgumentException("keepVersions must be >= 2, got " + value);
    }
    this.keepVersions = value;
    return this;
  }

  /** RF-Oja's step sizes (default {@code inverse:1:10}, η_t = 1/(t + 10)). */
  public StreamingKernelPCA setStepSchedule(StepSchedule value) {
    this.schedule = value;
    return this;
  }

  /** RF-Oja's rows per step b (default 1, the paper's per-sample update). */
  public StreamingKernelPCA setMiniBatchSize(int value) {
    if (value < 1) {
      throw new IllegalArgumentException("miniBatchSize must be >= 1, got " + value);
    }
    this.miniBatchSize = value;
    return this;
  }

  /**
   * RF-Oja: re-orthonormalise the basis every this many steps (default 16; the span does not depend
   * on it).
   */
  public StreamingKernelPCA setQrEvery(int value) {
    if (value < 1) {
      throw new IllegalArgumentException("qrEvery must be >= 1, got " + value);
    }
    this.qrEvery = value;
    return this;
  }

  /** RF-Oja: start from this model's random features and components instead of a Gaussian basis. */
  public StreamingKernelPCA setWarmStart(RandomFeatureKernelPCAModel value) {
    this.warmStart = value;
    return this;
  }

  /** Called after every micro-batch (on the driver, in the query's thread). */
  public StreamingKernelPCA setBatchListener(Consumer<BatchReport> value) {
    this.listener = value;
    return this;
  }

  /**
   * Starts the query: {@code stream.writeStream().foreachBatch(...)} with the checkpoint and
   * trigger.
   *
   * @throws IllegalArgumentException when the configuration is incomplete or inconsistent (before
   *     starting)
   */
  public StreamingQuery start(Dataset<Row> stream, String checkpoint, Trigger trigger)
      throws Exception {
    validate();
    estimator.transformSchema(stream.schema());
    return stream
        .writeStream()
        .option("checkpointLocation", checkpoint)
        .trigger(trigger)
        .foreachBatch(sink())
        .start();
  }

  /** The {@code foreachBatch} function, for callers that build the query themselves. */
  public VoidFunction2<Dataset<Row>, Long> sink() {
    validate();
    return this::process;
  }

  private void validate() {
    if (estimator == null || modelDir == null) {
      throw new IllegalArgumentException(
          "StreamingKernelPCA needs an estimator and a model directory");
    }
    if (estimator instanceof RandomFeatureKernelPCA rf && rf.isSet(rf.featureScale())) {
      throw new IllegalArgumentException(
          "StreamingKernelPCA: featureScale sets D from n, which a stream does not "
              + "know in advance; set numRandomFeatures");
    }
    if (algorithm.equals("oja") && !(estimator instanceof RandomFeatureKernelPCA)) {
      throw new IllegalArgumentException(
          "StreamingKernelPCA: algorithm oja runs on random Fourier features; give a "
              + "RandomFeatureKernelPCA estimator");
    }
    if (!algorithm.equals("oja") && warmStart != null) {
      throw new IllegalArgumentException(
          "StreamingKernelPCA: a warm start applies to algorithm oja");
    }
    // The estimators a stream can refit batch by batch are the table's streamable kinds.
    if (ModelKind.ofEstimatorClass(estimator.getClass().getName())
        .filter(ModelKind::isStreamable)
        .isEmpty()) {
      throw new IllegalArgumentException(
          "StreamingKernelPCA: the estimator must be one of "
              + java.util.Arrays.stream(ModelKind.values())
                  .filter(ModelKind::isStreamable)
                  .map(
                      k ->
                          k.estimatorClassName()
                              .substring(k.estimatorClassName().lastIndexOf('.') + 1))
                  .collect(java.util.stream.Collectors.joining(", "))
              + ", got "
              + estimator.getClass().getSimpleName());
    }
  }

  /** Folds one micro-batch in (or skips it when its version is already committed). */
  void process(Dataset<Row> batch, Long batchIdBoxed) throws IOException {
    long batchId = batchIdBoxed;
    long start = System.nanoTime();
    Configuration conf = batch.sparkSession().sparkContext().hadoopConfiguration();
    if (directory == null) {
      directory = new ModelDirectory(modelDir, algorithm);
      latest = directory.open(conf);
      if (latest != null) {
        LOG.info(
            "StreamingKernelPCA: resuming after batch {} ({} rows)",
            latest.batchId(),
            latest.model().numRows());
      }
    }
    if (latest != null && latest.batchId() >= batchId) {
      LOG.info(
          "StreamingKernelPCA: batch {} is already folded into version {}: skipped",
          batchId,
          latest.batchId());
      listener.accept(
          new BatchReport(
              batchId,
              true,
              0,
              latest.model().numRows(),
              top(latest.model()),
              0.0,
              directory.versionPath(latest.batchId()).toString()));
      return;
    }
    if (batch.isEmpty()) {
      return;
    }
    long before = latest == null ? 0 : latest.model().numRows();
    AbstractKernelPCAModel<?> next;
    long ojaSteps = 0;
    if (algorithm.equals("exact")) {
      next = latest == null ? estimator.fit(batch) : latest.model().update(batch);
    } else {
      RandomFeatureOja.Step step =
          RandomFeatureOja.run(
              LOG,
              batch,
              batchId,
              (RandomFeatureKernelPCA) estimator,
              new RandomFeatureOja.Schedule(schedule, miniBatchSize, qrEvery),
              latest,
              warmStart);
      next = step.model();
      ojaSteps = step.steps();
    }
    directory.commit(next, batchId, ojaSteps, conf, beforeCommit);
    afterCommit.accept(batchId);
    latest = new ModelDirectory.Version(batchId, next, ojaSteps);
    directory.prune(keepVersions, conf);
    listener.accept(
        new BatchReport(
            batchId,
            false,
            next.numRows() - before,
            next.numRows(),
            top(next),
            (System.nanoTime() - start) / 1e9,
            directory.versionPath(batchId).toString()));
  }

  private static double[] top(AbstractKernelPCAModel<?> model) {
    return model.explainedVariance().toArray();
  }

  /**
   * The newest committed version of a streaming model directory, or null when none is committed
   * yet.
   *
   * @throws IllegalArgumentException when {@code dir} is not a streaming model directory
   */
  public static String latestVersion(String dir, Configuration conf) throws IOException {
    return ModelDirectory.latestVersion(dir, conf);
  }

  /**
   * Loads the newest committed version of a streaming model directory (a whole model: versions are
   * renamed into place only once written).
   *
   * @throws IllegalArgumentException when the directory holds no committed version
   */
  public static AbstractKernelPCAModel<?> loadLatest(String dir) throws IOException {
    SparkSession spark = SparkSession.builder().getOrCreate();
    String version = latestVersion(dir, spark.sparkContext().hadoopConfiguration());
    if (version == null) {
      throw new IllegalArgumentException(dir + " holds no committed model version yet");
    }
    return AbstractKernelPCAModel.loadAny(version);
  }

  /** The state file of a version (batch id, algorithm, rows, Oja steps), for tools. */
  static JsonNode versionState(String version, Configuration conf) throws IOException {
    return ModelDirectory.versionState(version, conf);
  }
}
