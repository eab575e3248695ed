package io.github.sparkkpca.streaming;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCAModel;
import io.github.sparkkpca.pca.OjaSubspace;
import io.github.sparkkpca.pca.StepSchedule;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.IOException;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.ml.Estimator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryListener;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;

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
 * <p>This class is the sink's configuration, its entry points and its reports; each micro-batch is
 * folded in and solved by {@code StreamFolder}, the versioned directory is {@link ModelDirectory}
 * (tied to the checkpoint by {@code CheckpointBinding}, reopened on a restart by {@code
 * DirectoryRecovery}), Spark's share of a trigger is reported by {@code TriggerProgress}, and the
 * RF-Oja algorithm is {@link RandomFeatureOja}; the configuration is checked, and the options
 * recorded, by {@code StreamSettings}.
 */
public final class StreamingKernelPCA {

  /** The marker file of a streaming model directory (JSON: writer, algorithm). */
  public static final String MARKER = ModelDirectory.MARKER;

  /**
   * Where a micro-batch's time went, in seconds: reading its rows (into memory), the statistics
   * passes over them (validation included; the whole fit for the first micro-batch of {@code
   * exact}, the Oja steps and Rayleigh-Ritz pass for {@code oja}), merging them and solving the
   * eigenproblem (only when a version is written: the solve is deferred with the version), and
   * writing the version (or the pending rows when no version is due).
   */
  public record Phases(double read, double statistics, double solve, double write) {
    public double total() {
      return read + statistics + solve + write;
    }
  }

  /**
   * What one micro-batch did, for progress lines.
   *
   * @param eigenvalues the explained variances of the newest solved model (that of this micro-batch
   *     when {@code versioned})
   * @param version the version written, or the newest one when none was written for this batch
   * @param versioned whether this micro-batch wrote a version (false: its rows were written as
   *     pending until the next version)
   */
  public record BatchReport(
      long batchId,
      boolean skipped,
      long batchRows,
      long rowsSoFar,
      double[] eigenvalues,
      double seconds,
      String version,
      boolean versioned,
      Phases phases) {}

  /**
   * Spark's own share of a micro-batch, from the query's progress: the trigger's whole duration
   * against the time inside the sink ({@code addBatch}); the rest (offsets, planning, the
   * write-ahead log and commit log) is the trigger overhead.
   */
  public record TriggerReport(
      long batchId, double triggerSeconds, double sinkSeconds, double overheadSeconds) {

    /** The report of one progress event (null when it is not a micro-batch's). */
    public static TriggerReport of(StreamingQueryProgress progress) {
      java.util.Map<String, Long> durations = progress.durationMs();
      Long trigger = durations.get("triggerExecution");
      Long sink = durations.get("addBatch");
      if (trigger == null || sink == null) {
        return null;
      }
      return new TriggerReport(
          progress.batchId(), trigger / 1e3, sink / 1e3, Math.max(0, trigger - sink) / 1e3);
    }
  }

  Estimator<? extends AbstractKernelPCAModel<?>> estimator;
  String algorithm = "exact";
  String modelDir;
  int keepVersions = 5;
  int versionEveryBatches = 1;
  double versionEverySeconds = 0;
  StepSchedule schedule = StepSchedule.inverse(1.0, 10.0);
  int miniBatchSize = 1;
  int qrEvery = 16;
  RandomFeatureKernelPCAModel warmStart;
  Consumer<BatchReport> listener = report -> {};
  Consumer<TriggerReport> triggerListener = report -> {};

  /**
   * Test hook: runs after a version is written into its hidden sibling, before the rename commits
   * it.
   */
  Consumer<String> beforeCommit = path -> {};

  /** Test hook: runs after the rename committed a version, before Spark records the batch. */
  Consumer<Long> afterCommit = batchId -> {};

  private final StreamFolder folder = new StreamFolder(this);

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
   * Called with Spark's own share of every micro-batch ({@link TriggerReport}), on Spark's listener
   * thread, shortly after the micro-batch ends: {@link #start} registers it; callers that build the
   * query themselves add {@link #progressListener()} to {@code spark.streams()}.
   */
  public StreamingKernelPCA setTriggerListener(Consumer<TriggerReport> value) {
    this.triggerListener = value;
    return this;
  }

  /**
   * Write a version every N micro-batches with rows (default 1: every micro-batch). In between,
   * each micro-batch's input rows are written as {@code pending-<batchId>} (Parquet: the size of
   * the input, not of the model), the statistics merged in memory and the eigenproblem left for the
   * next version; a restart folds the pending rows in again, so every row is still counted exactly
   * once. The first micro-batch always writes a version (its landmarks or random features define
   * the model), and {@link #flush} writes one at the end.
   */
  public StreamingKernelPCA setVersionEveryBatches(int value) {
    if (value < 1) {
      throw new IllegalArgumentException("versionEveryBatches must be >= 1, got " + value);
    }
    this.versionEveryBatches = value;
    return this;
  }

  /**
   * Also write a version once this many seconds have passed since the last one (0, the default:
   * only {@link #setVersionEveryBatches}); checked after each micro-batch.
   */
  public StreamingKernelPCA setVersionEverySeconds(double value) {
    if (!(value >= 0) || !Double.isFinite(value)) {
      throw new IllegalArgumentException(
          "versionEverySeconds must be finite and >= 0, got " + value);
    }
    this.versionEverySeconds = value;
    return this;
  }

  /**
   * Starts the query: {@code stream.writeStream().foreachBatch(...)} with the checkpoint and
   * trigger, once the checkpoint is locked for the query's run ({@link CheckpointLock}) and the
   * model directory tied to the checkpoint ({@link #bind}).
   *
   * @throws IllegalArgumentException when the configuration is incomplete or inconsistent, the
   *     checkpoint is in use by another running query ({@link CheckpointLock.Held}), or the model
   *     directory does not go with the checkpoint or the options (before starting)
   */
  public StreamingQuery start(Dataset<Row> stream, String checkpoint, Trigger trigger)
      throws Exception {
    validate();
    estimator.transformSchema(stream.schema());
    Configuration conf = stream.sparkSession().sparkContext().hadoopConfiguration();
    ModelDirectory.requireSeparate(modelDir, checkpoint, conf);
    // One running query per checkpoint, held until the query ends.
    CheckpointLock lock = CheckpointLock.acquire(checkpoint, conf);
    try {
      bind(checkpoint, conf);
      stream.sparkSession().streams().addListener(progressListener());
      StreamingQuery query =
          stream
              .writeStream()
              .option("checkpointLocation", checkpoint)
              .trigger(trigger)
              .foreachBatch(sink())
              .start();
      lock.whileRunning(query);
      return query;
    } catch (Exception e) {
      lock.close();
      throw e;
    }
  }

  /**
   * Ties the model directory to the query's checkpoint and the model options before the query
   * starts ({@link ModelDirectory#bind}); {@link #start} calls it, callers that build the query
   * themselves should too.
   *
   * @throws IllegalArgumentException when the directory and the checkpoint are the same or nested,
   *     the directory belongs to another checkpoint or query, the checkpoint has committed batches
   *     the directory lacks, or an option differs from the recorded one ({@link
   *     ModelDirectory.OptionMismatch})
   */
  public void bind(String checkpoint, Configuration conf) throws IOException {
    validate();
    new ModelDirectory(modelDir, algorithm, options()).bind(checkpoint, conf);
  }

  /**
   * The options that define the model, recorded in the directory's marker and compared on a restart
   * ({@link StreamSettings#options}).
   */
  Map<String, String> options() {
    return StreamSettings.options(this);
  }

  /** A listener of the query's progress that reports Spark's share of each micro-batch. */
  public StreamingQueryListener progressListener() {
    return new TriggerProgress(folder::queryId, report -> triggerListener.accept(report));
  }

  /** The {@code foreachBatch} function, for callers that build the query themselves. */
  public VoidFunction2<Dataset<Row>, Long> sink() {
    validate();
    return folder::process;
  }

  private void validate() {
    StreamSettings.validate(this);
  }

  /**
   * Writes a version holding every row folded in so far, when the newest version does not (rows
   * written as pending since, {@link #setVersionEveryBatches}); call it when the query has ended.
   * Also folds in the pending micro-batches of an earlier run when this one saw no micro-batch.
   *
   * @return the newest version's path, or null when the directory holds no model
   */
  public String flush() throws IOException {
    validate();
    return folder.flush(SparkSession.active());
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
