package io.github.sparkkpca.streaming;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkkpca.execution.DataScan;
import io.github.sparkkpca.execution.DistributedPass;
import io.github.sparkkpca.execution.FeaturePasses;
import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.feature.RandomFourierFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCAModel;
import io.github.sparkkpca.pca.FeaturePCA;
import io.github.sparkkpca.pca.KernelPCASolution;
import io.github.sparkkpca.pca.OjaSubspace;
import io.github.sparkkpca.pca.StepSchedule;
import io.github.sparkkpca.persistence.Persistence;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.ParamMap;
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
 */
public final class StreamingKernelPCA {

  /** The marker file of a streaming model directory (JSON: writer, algorithm). */
  public static final String MARKER = "_SPARK_KPCA_STREAM";

  /** How an RF-Oja version describes its support in {@code landmarkSelection()}. */
  private static final String OJA_SELECTION = "none: RF-Oja";

  private static final Pattern VERSION = Pattern.compile("version-(\\d{12})");
  private static final String STATE_FILE = "data/streaming.json";
  private static final int MEDIAN_HEURISTIC_POINTS = 1000;
  private static final int MAP_BLOCK = 256;
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

  /**
   * The committed version of the highest batch id, with its model (and the Oja state for RF-Oja).
   */
  private record Version(long batchId, AbstractKernelPCAModel<?> model, long ojaSteps) {}

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

  private Version latest;
  private boolean prepared;

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
    if (!(estimator instanceof RandomFeatureKernelPCA)
        && !(estimator instanceof NystromKernelPCA)) {
      throw new IllegalArgumentException(
          "StreamingKernelPCA: the estimator must be NystromKernelPCA or "
              + "RandomFeatureKernelPCA, got "
              + estimator.getClass().getSimpleName());
    }
  }

  /** Folds one micro-batch in (or skips it when its version is already committed). */
  void process(Dataset<Row> batch, Long batchIdBoxed) throws IOException {
    long batchId = batchIdBoxed;
    long start = System.nanoTime();
    Configuration conf = batch.sparkSession().sparkContext().hadoopConfiguration();
    prepare(conf);
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
              versionPath(latest.batchId()).toString()));
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
      OjaStep step = oja(batch, batchId);
      next = step.model();
      ojaSteps = step.steps();
    }
    commit(next, batchId, ojaSteps, conf);
    latest = new Version(batchId, next, ojaSteps);
    prune(conf);
    listener.accept(
        new BatchReport(
            batchId,
            false,
            next.numRows() - before,
            next.numRows(),
            top(next),
            (System.nanoTime() - start) / 1e9,
            versionPath(batchId).toString()));
  }

  private static double[] top(AbstractKernelPCAModel<?> model) {
    return model.explainedVariance().toArray();
  }

  /**
   * Checks the directory once, creates its marker, removes the hidden leftovers of a killed write.
   */
  private void prepare(Configuration conf) throws IOException {
    if (prepared) {
      return;
    }
    Path dir = new Path(modelDir);
    FileSystem fs = dir.getFileSystem(conf);
    Path marker = new Path(dir, MARKER);
    if (fs.exists(dir)) {
      if (!fs.getFileStatus(dir).isDirectory()) {
        throw new IOException("Model directory " + modelDir + " is a file");
      }
      FileStatus[] entries = fs.listStatus(dir);
      if (entries.length > 0) {
        if (!fs.exists(marker)) {
          throw new IOException(
              "Model directory "
                  + modelDir
                  + " exists and is not a streaming model directory of "
                  + "spark-kpca (no "
                  + MARKER
                  + "); it is never written into, choose a new path");
        }
        String saved;
        try (var in = fs.open(marker)) {
          saved = Persistence.JSON.readTree(in).path("algorithm").asText("");
        }
        if (!saved.equals(algorithm)) {
          throw new IOException(
              "Model directory "
                  + modelDir
                  + " holds a stream of algorithm "
                  + saved
                  + ", not "
                  + algorithm);
        }
        for (FileStatus entry : entries) {
          String name = entry.getPath().getName();
          if (name.startsWith(".") && (name.endsWith(".writing") || name.endsWith(".replaced"))) {
            fs.delete(entry.getPath(), true);
          }
        }
      }
    }
    if (!fs.exists(marker)) {
      fs.mkdirs(dir);
      ObjectNode json = Persistence.JSON.createObjectNode();
      json.put("writer", "spark-kpca");
      json.put("algorithm", algorithm);
      try (OutputStream out = fs.create(marker, false)) {
        out.write(Persistence.JSON.writeValueAsBytes(json));
      }
    }
    Long last = latestBatchId(fs, dir);
    if (last != null) {
      Path path = versionPath(last);
      AbstractKernelPCAModel<?> model = AbstractKernelPCAModel.loadAny(path.toString());
      long steps;
      try (var in = fs.open(new Path(path, STATE_FILE))) {
        steps = Persistence.JSON.readTree(in).path("ojaSteps").asLong(0);
      }
      latest = new Version(last, model, steps);
      LOG.info("StreamingKernelPCA: resuming after batch {} ({} rows)", last, model.numRows());
    }
    prepared = true;
  }

  private Path versionPath(long batchId) {
    return new Path(modelDir, String.format(Locale.ROOT, "version-%012d", batchId));
  }

  private static Long latestBatchId(FileSystem fs, Path dir) throws IOException {
    Long best = null;
    if (!fs.exists(dir)) {
      return null;
    }
    for (FileStatus entry : fs.listStatus(dir)) {
      Matcher m = VERSION.matcher(entry.getPath().getName());
      if (entry.isDirectory() && m.matches()) {
        long id = Long.parseLong(m.group(1));
        best = best == null ? id : Math.max(best, id);
      }
    }
    return best;
  }

  /**
   * Writes the version beside its final name and renames it into place: the commit of the
   * micro-batch.
   */
  private void commit(
      AbstractKernelPCAModel<?> model, long batchId, long ojaSteps, Configuration conf)
      throws IOException {
    Path target = versionPath(batchId);
    SafeOutput.to(target.toString(), SafeOutput.SAVED_STAGE)
        .named("Model version " + target, "never")
        .prepare(conf)
        .write(
            staging -> {
              model.write().save(staging);
              Path state = new Path(staging, STATE_FILE);
              ObjectNode json = Persistence.JSON.createObjectNode();
              json.put("batchId", batchId);
              json.put("algorithm", algorithm);
              json.put("rows", model.numRows());
              json.put("ojaSteps", ojaSteps);
              try (OutputStream out = state.getFileSystem(conf).create(state, false)) {
                out.write(Persistence.JSON.writeValueAsBytes(json));
              }
              beforeCommit.accept(staging);
            });
    afterCommit.accept(batchId);
  }

  private void prune(Configuration conf) throws IOException {
    Path dir = new Path(modelDir);
    FileSystem fs = dir.getFileSystem(conf);
    List<Long> ids = new ArrayList<>();
    for (FileStatus entry : fs.listStatus(dir)) {
      Matcher m = VERSION.matcher(entry.getPath().getName());
      if (entry.isDirectory() && m.matches()) {
        ids.add(Long.parseLong(m.group(1)));
      }
    }
    ids.sort(null);
    for (int i = 0; i < ids.size() - keepVersions; i++) {
      fs.delete(versionPath(ids.get(i)), true);
    }
  }

  /**
   * The newest committed version of a streaming model directory, or null when none is committed
   * yet.
   *
   * @throws IllegalArgumentException when {@code dir} is not a streaming model directory
   */
  public static String latestVersion(String dir, Configuration conf) throws IOException {
    Path path = new Path(dir);
    FileSystem fs = path.getFileSystem(conf);
    if (!fs.exists(new Path(path, MARKER))) {
      throw new IllegalArgumentException(
          dir + " is not a streaming model directory of spark-kpca (no " + MARKER + ")");
    }
    Long last = latestBatchId(fs, path);
    return last == null
        ? null
        : new Path(path, String.format(Locale.ROOT, "version-%012d", last)).toString();
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

  // ---------------------------------------------------------------------------------------------------------
  // RF-Oja

  private record OjaStep(RandomFeatureKernelPCAModel model, long steps) {}

  /**
   * Runs Oja's rule over the micro-batch's rows, then Rayleigh–Ritz over them, and builds the
   * version.
   */
  private OjaStep oja(Dataset<Row> batch, long batchId) {
    RandomFeatureKernelPCA rf = (RandomFeatureKernelPCA) estimator;
    String column = rf.getInputCol();
    int k = rf.getK();
    String jobs = "StreamingKernelPCA (oja) batch " + batchId + ": ";
    int d =
        latest != null
            ? latest.model().numFeatures()
            : warmStart != null
                ? warmStart.numFeatures()
                : FeaturePasses.inputDimension(batch, column);
    boolean sampleGamma = latest == null && warmStart == null && !rf.isDefined(rf.gamma());
    try (FeaturePasses.Scanned scanned =
        FeaturePasses.scan(
            batch,
            column,
            d,
            sampleGamma ? MEDIAN_HEURISTIC_POINTS : 0,
            rf.getSeed(),
            false,
            jobs)) {
      RandomFourierFeatureMap map;
      OjaSubspace state;
      // The previous Rayleigh-Ritz step (its basis, eigenvalues and rows), carried into this one.
      double[] previousBasis = null;
      double[] previousEigenvalues = null;
      long previousRows = 0;
      if (latest != null) {
        RandomFeatureKernelPCAModel last = (RandomFeatureKernelPCAModel) latest.model();
        map = last.featureMap();
        FeatureStatistics stats = last.statistics();
        previousBasis = last.components().toArray();
        previousEigenvalues = last.explainedVariance().toArray();
        previousRows = stats.count();
        state =
            OjaSubspace.of(
                map.numFeatures(),
                k,
                rf.getCentered(),
                schedule,
                qrEvery,
                previousBasis,
                stats.mean(),
                latest.ojaSteps(),
                stats.count(),
                stats.diagonalSum());
      } else if (warmStart != null) {
        map = warmStart.featureMap();
        if (warmStart.numComponents() < k) {
          throw new IllegalArgumentException(
              "StreamingKernelPCA: the warm start has "
                  + warmStart.numComponents()
                  + " components, fewer than k = "
                  + k);
        }
        double[] basis = Arrays.copyOf(warmStart.components().toArray(), map.numFeatures() * k);
        state =
            OjaSubspace.of(
                map.numFeatures(),
                k,
                rf.getCentered(),
                schedule,
                qrEvery,
                basis,
                new double[map.numFeatures()],
                0,
                0,
                0.0);
      } else {
        DataScan scan = scanned.scan();
        double gamma =
            sampleGamma
                ? Kernel.medianHeuristicGamma(
                    rf.getKernelType(),
                    scan.sampleRowMajor(),
                    scan.sampleSize(),
                    d,
                    MEDIAN_HEURISTIC_POINTS)
                : rf.getGamma();
        Kernel kernel = new Kernel(rf.getKernelType(), gamma, rf.getDegree(), rf.getCoef0());
        int features = rf.getNumRandomFeatures();
        if (k > features) {
          throw new IllegalArgumentException(
              "k = " + k + " exceeds the number of random features D = " + features);
        }
        map = RandomFourierFeatureMap.draw(kernel, features, d, rf.getSeed());
        state = OjaSubspace.random(features, k, rf.getCentered(), schedule, qrEvery, rf.getSeed());
      }
      int features = map.numFeatures();
      int b = miniBatchSize;
      int blockRows = Math.max(b, (MAP_BLOCK / b) * b);
      double[] z = new double[features * blockRows];
      SparkContext sc = batch.sparkSession().sparkContext();
      DistributedPass.described(
          sc,
          jobs
              + "Oja steps over the rows on the driver (D = "
              + features
              + ", k = "
              + k
              + ", mini-batch "
              + b
              + ")",
          () ->
              forEachBlock(
                  scanned.vectors().toLocalIterator(),
                  map,
                  d,
                  blockRows,
                  column,
                  z,
                  rows -> {
                    for (int s = 0; s < rows; s += b) {
                      int take = Math.min(b, rows - s);
                      state.step(Arrays.copyOfRange(z, s * features, (s + take) * features), take);
                    }
                  }));
      state.orthonormalize();
      double[] ritz =
          previousBasis == null
              ? new double[k * k]
              : state.carriedRitz(previousBasis, previousEigenvalues, previousRows);
      long[] seen = {previousRows};
      DistributedPass.described(
          sc,
          jobs + "Rayleigh-Ritz: the micro-batch added to the earlier rows' sum",
          () ->
              forEachBlock(
                  scanned.vectors().toLocalIterator(),
                  map,
                  d,
                  blockRows,
                  column,
                  z,
                  rows -> {
                    state.accumulateRitz(z, rows, ritz);
                    seen[0] += rows;
                  }));
      double[] eigenvalues = state.finishRitz(ritz, seen[0]);
      return new OjaStep(
          ojaModel(rf, map, state, eigenvalues, latest != null ? latest.model().uid() : rf.uid()),
          state.steps());
    }
  }

  private interface BlockAction {
    void accept(int rows);
  }

  /**
   * Maps the rows in blocks into {@code z} (D×rows) and hands each block to {@code action}; returns
   * null.
   */
  private static Void forEachBlock(
      Iterator<Vector> rows,
      RandomFourierFeatureMap map,
      int d,
      int blockRows,
      String column,
      double[] z,
      BlockAction action) {
    RowBlock block = new RowBlock(blockRows, d);
    while (rows.hasNext()) {
      block.add(rows.next(), column);
      if (block.isFull() || !rows.hasNext()) {
        map.map(block, null, z);
        action.accept(block.size());
        block.clear();
      }
    }
    return null;
  }

  /**
   * The version of an RF-Oja state: the Rayleigh–Ritz basis U and eigenvalues Λ as components and
   * spectrum, and the exact running n, z̄, Σ‖z‖² and tr M = Σ‖z − z̄‖² as statistics kept without
   * the scatter (so the total variance is exact, and the version is O(D·k)).
   */
  static RandomFeatureKernelPCAModel ojaModel(
      RandomFeatureKernelPCA params,
      RandomFourierFeatureMap map,
      OjaSubspace state,
      double[] eigenvalues,
      String uid) {
    int features = map.numFeatures();
    int k = state.numComponents();
    double[] u = state.basis();
    double[] mean = state.mean();
    long n = state.count();
    double meanSq = 0;
    for (double v : mean) {
      meanSq += v * v;
    }
    FeatureStatistics stats =
        FeatureStatistics.withoutScatter(
            features,
            n,
            mean,
            Math.max(0.0, state.sumOfSquares() - n * meanSq),
            state.sumOfSquares());
    FeaturePCA fit = FeaturePCA.restore(map, stats, state.centered(), eigenvalues, u, k);
    String description =
        OJA_SELECTION
            + " on "
            + features
            + " random Fourier features of the "
            + map.kernel().type().paramName()
            + " kernel, "
            + state.steps()
            + " steps of "
            + state.schedule()
            + ", Rayleigh-Ritz over every row seen";
    RandomFeatureKernelPCAModel model =
        new RandomFeatureKernelPCAModel(uid, KernelPCASolution.of(fit, 0, description))
            .setParent(params);
    params.copyValues(model, ParamMap.empty());
    model.set(model.gamma(), map.kernel().gamma());
    model.set(model.numRandomFeatures(), features);
    return model;
  }

  /** The state file of a version (batch id, algorithm, rows, Oja steps), for tools. */
  static JsonNode versionState(String version, Configuration conf) throws IOException {
    Path state = new Path(version, STATE_FILE);
    try (var in = state.getFileSystem(conf).open(state)) {
      return Persistence.JSON.readTree(in);
    }
  }
}
