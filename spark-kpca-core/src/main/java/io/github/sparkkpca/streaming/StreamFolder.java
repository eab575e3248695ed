package io.github.sparkkpca.streaming;

import io.github.sparkkpca.execution.FeaturePasses;
import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.FeatureNames;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.ml.RandomFeatureKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCAModel;
import io.github.sparkkpca.pca.FeaturePCA;
import io.github.sparkkpca.pca.KernelPCASolution;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink's folding and solving: the state of a running stream (the newest model, the statistics
 * folded in since it was solved, the last batch folded in and the last version written) and what
 * one micro-batch does to it. On the first micro-batch it resumes from the {@link ModelDirectory}
 * (the newest version, then the pending micro-batches folded in again); then each micro-batch is
 * skipped when already held, or read, folded in ({@code exact}: the first fitted by the estimator,
 * later ones merged into the model's feature statistics; {@code oja}: {@link RandomFeatureOja}),
 * and either solved and written as a version or written as pending rows. The configuration is the
 * owning {@link StreamingKernelPCA}'s, read at every micro-batch.
 */
final class StreamFolder {

  private static final Logger LOG = LoggerFactory.getLogger(StreamingKernelPCA.class);

  private final StreamingKernelPCA config;

  private ModelDirectory directory;

  /** The newest model: solved ({@code exact}: up to {@link #unsolved}), or RF-Oja's state. */
  private AbstractKernelPCAModel<?> model;

  /** {@code exact}: the statistics of every row folded in, when newer than {@link #model}'s. */
  private FeatureStatistics unsolved;

  private long ojaSteps;
  private Long lastFolded;
  private Long lastVersion;
  private int batchesSinceVersion;
  private long lastVersionNanos;
  private String queryId;

  StreamFolder(StreamingKernelPCA config) {
    this.config = config;
  }

  /** The id of the query that wrote the directory or runs the sink, once known (else null). */
  String queryId() {
    return queryId;
  }

  /** Opens the directory once: the newest version, and the pending micro-batches folded in. */
  private void open(SparkSession spark) throws IOException {
    if (directory != null) {
      return;
    }
    Configuration conf = spark.sparkContext().hadoopConfiguration();
    ModelDirectory opened = new ModelDirectory(config.modelDir, config.algorithm, config.options());
    ModelDirectory.Contents contents = opened.open(conf);
    ModelDirectory.Version latest = contents.latest();
    if (latest != null) {
      model = latest.model();
      ojaSteps = latest.ojaSteps();
      lastFolded = latest.batchId();
      lastVersion = latest.batchId();
      LOG.info(
          "StreamingKernelPCA: resuming after batch {} ({} rows)",
          latest.batchId(),
          model.numRows());
    }
    if (!contents.pending().isEmpty() && latest == null) {
      throw new IOException(
          "Model directory " + config.modelDir + " holds pending micro-batches but no version");
    }
    for (long id : contents.pending()) {
      Dataset<Row> rows = opened.readPending(spark, id);
      long count = rows.count();
      opened.checkPendingRows(id, count, conf);
      if (count > 0) {
        fold(rows, id, count);
      }
      lastFolded = id;
      LOG.info("StreamingKernelPCA: pending batch {} folded in again", id);
    }
    queryId = contents.queryId();
    batchesSinceVersion = contents.pending().size();
    lastVersionNanos = System.nanoTime();
    directory = opened;
  }

  /** Folds one micro-batch in (or skips it when a version or a pending batch already holds it). */
  void process(Dataset<Row> batch, Long batchIdBoxed) throws IOException {
    long batchId = batchIdBoxed;
    long start = System.nanoTime();
    SparkSession spark = batch.sparkSession();
    Configuration conf = spark.sparkContext().hadoopConfiguration();
    open(spark);
    String running = spark.sparkContext().getLocalProperty(QUERY_ID_PROPERTY);
    if (running != null && queryId != null && !running.equals(queryId)) {
      throw new IllegalStateException(
          "Model directory "
              + config.modelDir
              + " was written by query "
              + queryId
              + ", this is query "
              + running
              + " (another checkpoint): its first micro-batches would be taken for replays; "
              + "restart with the checkpoint of that query, or give a new model directory");
    }
    if (running != null) {
      queryId = running;
    }
    if (lastFolded != null && lastFolded >= batchId) {
      LOG.info(
          "StreamingKernelPCA: batch {} is already folded in (up to batch {}): skipped",
          batchId,
          lastFolded);
      config.listener.accept(
          new StreamingKernelPCA.BatchReport(
              batchId,
              true,
              0,
              model.numRows() + pendingRows(),
              top(model),
              0.0,
              directory.versionPath(lastVersion).toString(),
              false,
              new StreamingKernelPCA.Phases(0, 0, 0, 0)));
      return;
    }
    String column = config.estimator.getOrDefault(config.estimator.getParam("inputCol")).toString();
    boolean cached = !batch.storageLevel().equals(StorageLevel.NONE());
    Dataset<Row> rows =
        batch.select(io.github.sparkkpca.execution.QuotedColumns.column(batch, column));
    if (!cached) {
      rows.persist(StorageLevel.MEMORY_AND_DISK());
    }
    try {
      long t0 = System.nanoTime();
      long count = rows.count();
      double read = (System.nanoTime() - t0) / 1e9;
      if (count == 0) {
        if (model != null) {
          // Recorded all the same (a pending batch of no rows): the directory's history then holds
          // every micro-batch Spark commits, so a missing one is noticed on a restart.
          directory.commitPending(rows, batchId, 0, queryId, conf);
          lastFolded = batchId;
        }
        return;
      }
      long before = model == null ? 0 : model.numRows() + pendingRows();
      t0 = System.nanoTime();
      fold(rows, batchId, count);
      double statistics = (System.nanoTime() - t0) / 1e9;
      lastFolded = batchId;
      batchesSinceVersion++;
      boolean due =
          lastVersion == null
              || batchesSinceVersion >= config.versionEveryBatches
              || (config.versionEverySeconds > 0
                  && System.nanoTime() - lastVersionNanos >= config.versionEverySeconds * 1e9);
      double solve = 0;
      double write;
      if (due) {
        t0 = System.nanoTime();
        solve();
        solve = (System.nanoTime() - t0) / 1e9;
        t0 = System.nanoTime();
        writeVersion(conf);
        write = (System.nanoTime() - t0) / 1e9;
      } else {
        t0 = System.nanoTime();
        directory.commitPending(rows, batchId, count, queryId, conf);
        config.afterCommit.accept(batchId);
        write = (System.nanoTime() - t0) / 1e9;
      }
      config.listener.accept(
          new StreamingKernelPCA.BatchReport(
              batchId,
              false,
              count,
              before + count,
              top(model),
              (System.nanoTime() - start) / 1e9,
              directory.versionPath(lastVersion).toString(),
              due,
              new StreamingKernelPCA.Phases(read, statistics, solve, write)));
    } finally {
      if (!cached) {
        rows.unpersist(false);
      }
    }
  }

  /** Rows folded in since the newest solved model (pending, {@code exact} only). */
  private long pendingRows() {
    return unsolved == null ? 0 : unsolved.count() - model.numRows();
  }

  /** Folds the rows of one micro-batch into the state (not solved for {@code exact}). */
  private void fold(Dataset<Row> rows, long batchId, long count) {
    // The names of the micro-batch's features: the model's must be the same (as update checks);
    // a model without names takes them, as a fit would.
    String[] names = FeatureNames.of(rows.schema().fields()[0]);
    if (model != null) {
      model.transformSchema(rows.schema());
    }
    String[] carried = model == null || !model.hasFeatureNames() ? names : model.featureNames();
    if (config.algorithm.equals("oja")) {
      RandomFeatureOja.Step step =
          RandomFeatureOja.run(
              LOG,
              rows,
              batchId,
              (RandomFeatureKernelPCA) config.estimator,
              new RandomFeatureOja.Schedule(config.schedule, config.miniBatchSize, config.qrEvery),
              model == null ? null : new ModelDirectory.Version(lastFolded, model, ojaSteps),
              config.warmStart);
      model = step.model();
      model.setFeatureNames(carried);
      ojaSteps = step.steps();
      return;
    }
    if (model == null) {
      model = config.estimator.fit(rows);
      return;
    }
    FeaturePCA fitted = model.solution().featurePCA();
    String column = model.getInputCol();
    String jobs = "StreamingKernelPCA batch " + batchId + ": ";
    try (FeaturePasses.Scanned scanned =
        FeaturePasses.scan(rows, column, model.numFeatures(), 0, 0L, true, jobs)) {
      FeatureStatistics more =
          FeaturePasses.statistics(
              scanned.vectors(),
              fitted.map(),
              scanned.blockSize(fitted.map(), model::effectiveBlockSize),
              column,
              jobs);
      unsolved = (unsolved == null ? fitted.statistics().copy() : unsolved).merge(more);
    }
  }

  /** {@code exact}: the components of every row folded in, as {@code update} solves them. */
  private void solve() {
    if (unsolved == null) {
      return;
    }
    FeaturePCA fitted = model.solution().featurePCA();
    FeaturePCA solved =
        FeaturePCA.solve(
            fitted.map(),
            unsolved,
            fitted.numComponents(),
            fitted.centered(),
            ((io.github.sparkkpca.ml.FeaturePCAParams) model).getSpectrumExtent());
    KernelPCASolution solution =
        KernelPCASolution.of(solved, model.droppedRank(), model.landmarkSelection());
    if (model instanceof NystromKernelPCAModel nystrom) {
      model = nystrom.withSolution(solution);
    } else {
      RandomFeatureKernelPCAModel next = new RandomFeatureKernelPCAModel(model.uid(), solution);
      model.copyValues(next, ParamMap.empty());
      next.setParent(((RandomFeatureKernelPCAModel) model).parent());
      model = next;
    }
    unsolved = null;
  }

  private void writeVersion(Configuration conf) throws IOException {
    directory.commit(model, lastFolded, ojaSteps, queryId, conf, config.beforeCommit);
    config.afterCommit.accept(lastFolded);
    lastVersion = lastFolded;
    batchesSinceVersion = 0;
    lastVersionNanos = System.nanoTime();
    directory.prune(config.keepVersions, conf);
  }

  /**
   * Writes a version holding every row folded in so far when the newest version does not (see
   * {@link StreamingKernelPCA#flush}).
   *
   * @return the newest version's path, or null when the directory holds no model
   */
  String flush(SparkSession spark) throws IOException {
    open(spark);
    if (model == null) {
      return null;
    }
    if (lastVersion == null || lastFolded > lastVersion) {
      solve();
      writeVersion(spark.sparkContext().hadoopConfiguration());
    }
    return directory.versionPath(lastVersion).toString();
  }

  /** The local property under which Spark runs a micro-batch with its query's id. */
  private static final String QUERY_ID_PROPERTY = "sql.streaming.queryId";

  private static double[] top(AbstractKernelPCAModel<?> model) {
    return model.explainedVariance().toArray();
  }
}
