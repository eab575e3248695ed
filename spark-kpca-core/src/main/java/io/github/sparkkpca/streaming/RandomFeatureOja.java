package io.github.sparkkpca.streaming;

import io.github.sparkkpca.execution.DistributedPass;
import io.github.sparkkpca.execution.KernelPcaFit;
import io.github.sparkkpca.execution.RandomFeatureFit;
import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.feature.RandomFourierFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.ml.FitSettings;
import io.github.sparkkpca.ml.RandomFeatureKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCAModel;
import io.github.sparkkpca.pca.FeaturePCA;
import io.github.sparkkpca.pca.KernelPCASolution;
import io.github.sparkkpca.pca.OjaSubspace;
import io.github.sparkkpca.pca.StepSchedule;
import java.util.Arrays;
import java.util.Iterator;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.slf4j.Logger;

/**
 * RF-Oja on one micro-batch (Ullah, Mianjy, Marinov and Arora, "Streaming Kernel PCA with Õ(√n)
 * Random Features", NeurIPS 2018, Appendix D.2), as the steps of {@link KernelPcaFit}: the random
 * Fourier features z(x) of a {@link RandomFeatureKernelPCA} configuration feed Oja's rule ({@link
 * OjaSubspace}) in mini-batches, in the stream's order, on the driver (the rows are brought there
 * one partition at a time); a Rayleigh–Ritz step then orders the basis and gives its eigenvalues,
 * the micro-batch's rows added to the earlier rows' k×k sum carried into the new basis ({@link
 * OjaSubspace#carriedRitz}). The support is the previous version's map and state, a warm start's,
 * or a new draw (γ set, or the median heuristic on the first micro-batch).
 */
public final class RandomFeatureOja
    implements KernelPcaFit.Steps<RandomFeatureOja.State, RandomFeatureOja.Step> {

  /** How an RF-Oja version describes its support in {@code landmarkSelection()}. */
  static final String SELECTION = "none: RF-Oja";

  private static final int MAP_BLOCK = 256;

  /** Oja's settings: step sizes, rows per step, steps between re-orthonormalisations. */
  public record Schedule(StepSchedule steps, int miniBatchSize, int qrEvery) {}

  /** The map, the Oja state, and the previous Rayleigh–Ritz basis, eigenvalues and rows. */
  public record State(
      RandomFourierFeatureMap map,
      OjaSubspace oja,
      double[] previousBasis,
      double[] previousEigenvalues,
      long previousRows) {}

  /** The version a micro-batch gives, and the Oja steps taken so far. */
  public record Step(RandomFeatureKernelPCAModel model, long steps) {}

  private final RandomFeatureKernelPCA rf;
  private final KernelPcaFit.Settings settings;
  private final Schedule schedule;
  private final ModelDirectory.Version latest;
  private final RandomFeatureKernelPCAModel warmStart;

  /**
   * @param latest the previous version, or null
   * @param warmStart the model to start from when there is no previous version, or null
   */
  private RandomFeatureOja(
      RandomFeatureKernelPCA rf,
      KernelPcaFit.Settings settings,
      Schedule schedule,
      ModelDirectory.Version latest,
      RandomFeatureKernelPCAModel warmStart) {
    this.rf = rf;
    this.settings = settings;
    this.schedule = schedule;
    this.latest = latest;
    this.warmStart = warmStart;
  }

  /**
   * Folds one micro-batch into the previous version (or the warm start, or a new basis).
   *
   * @param log the sink's logger
   */
  public static Step run(
      Logger log,
      Dataset<Row> batch,
      long batchId,
      RandomFeatureKernelPCA rf,
      Schedule schedule,
      ModelDirectory.Version latest,
      RandomFeatureKernelPCAModel warmStart) {
    KernelPcaFit.Settings settings =
        FitSettings.of(log, "StreamingKernelPCA (oja) batch " + batchId, rf);
    return KernelPcaFit.run(
        batch, settings, new RandomFeatureOja(rf, settings, schedule, latest, warmStart));
  }

  @Override
  public int knownDimension() {
    return latest != null
        ? latest.model().numFeatures()
        : warmStart != null ? warmStart.numFeatures() : 0;
  }

  /** O(D·k) state: nothing to check. */
  @Override
  public KernelPcaFit.Need memoryBeforeScan(int d) {
    return null;
  }

  @Override
  public int sampleCapacity(boolean gammaSet) {
    if (latest != null || warmStart != null) {
      return 0;
    }
    // A first draw: the median heuristic's rows, or those of the degeneracy test of a set γ.
    return gammaSet ? RandomFeatureFit.DEGENERACY_ROWS : Kernel.MEDIAN_HEURISTIC_POINTS;
  }

  @Override
  public State support(KernelPcaFit.Context c) {
    int k = settings.k();
    StepSchedule steps = schedule.steps();
    if (latest != null) {
      RandomFeatureKernelPCAModel last = (RandomFeatureKernelPCAModel) latest.model();
      RandomFourierFeatureMap map = last.featureMap();
      FeatureStatistics stats = last.statistics();
      double[] basis = last.components().toArray();
      OjaSubspace oja =
          OjaSubspace.of(
              map.numFeatures(),
              k,
              settings.centered(),
              steps,
              schedule.qrEvery(),
              basis,
              stats.mean(),
              latest.ojaSteps(),
              stats.count(),
              stats.diagonalSum());
      return new State(map, oja, basis, last.explainedVariance().toArray(), stats.count());
    }
    if (warmStart != null) {
      RandomFourierFeatureMap map = warmStart.featureMap();
      if (warmStart.numComponents() < k) {
        throw new IllegalArgumentException(
            "StreamingKernelPCA: the warm start has "
                + warmStart.numComponents()
                + " components, fewer than k = "
                + k);
      }
      double[] basis = Arrays.copyOf(warmStart.components().toArray(), map.numFeatures() * k);
      OjaSubspace oja =
          OjaSubspace.of(
              map.numFeatures(),
              k,
              settings.centered(),
              steps,
              schedule.qrEvery(),
              basis,
              new double[map.numFeatures()],
              0,
              0,
              0.0);
      return new State(map, oja, null, null, 0);
    }
    int features = rf.getNumRandomFeatures();
    if (k > features) {
      throw new IllegalArgumentException(
          "k = " + k + " exceeds the number of random features D = " + features);
    }
    RandomFeatureFit.testKernelOnSample(c);
    RandomFourierFeatureMap map =
        RandomFourierFeatureMap.draw(c.kernel(), features, c.d(), settings.seed());
    OjaSubspace oja =
        OjaSubspace.random(
            features, k, settings.centered(), steps, schedule.qrEvery(), settings.seed());
    return new State(map, oja, null, null, 0);
  }

  /** Checked by {@link #support} against D (a stream does not know n). */
  @Override
  public KernelPcaFit.Rank rank(State state, KernelPcaFit.Context c) {
    return null;
  }

  /** Oja's rule over the micro-batch's rows, then Rayleigh–Ritz over them, and the version. */
  @Override
  public Step solve(State s, KernelPcaFit.Context c) {
    RandomFourierFeatureMap map = s.map();
    OjaSubspace state = s.oja();
    int features = map.numFeatures();
    int k = settings.k();
    int d = c.d();
    String column = settings.column();
    int b = schedule.miniBatchSize();
    int blockRows = Math.max(b, (MAP_BLOCK / b) * b);
    double[] z = new double[features * blockRows];
    var vectors = c.scanned().vectors();
    DistributedPass.described(
        c.sparkContext(),
        settings.jobs()
            + "Oja steps over the rows on the driver (D = "
            + features
            + ", k = "
            + k
            + ", mini-batch "
            + b
            + ")",
        () ->
            forEachBlock(
                vectors.toLocalIterator(),
                map,
                d,
                blockRows,
                column,
                z,
                rows -> {
                  for (int i = 0; i < rows; i += b) {
                    int take = Math.min(b, rows - i);
                    state.step(Arrays.copyOfRange(z, i * features, (i + take) * features), take);
                  }
                }));
    state.orthonormalize();
    double[] ritz =
        s.previousBasis() == null
            ? new double[k * k]
            : state.carriedRitz(s.previousBasis(), s.previousEigenvalues(), s.previousRows());
    long[] seen = {s.previousRows()};
    DistributedPass.described(
        c.sparkContext(),
        settings.jobs() + "Rayleigh-Ritz: the micro-batch added to the earlier rows' sum",
        () ->
            forEachBlock(
                vectors.toLocalIterator(),
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
    String uid = latest != null ? latest.model().uid() : rf.uid();
    return new Step(model(rf, map, state, eigenvalues, uid), state.steps());
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
    RowBlock block = map.newBlock(blockRows);
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
  static RandomFeatureKernelPCAModel model(
      RandomFeatureKernelPCA params,
      RandomFourierFeatureMap map,
      OjaSubspace state,
      double[] eigenvalues,
      String uid) {
    int features = map.numFeatures();
    int k = state.numComponents();
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
    FeaturePCA fit =
        FeaturePCA.restore(map, stats, state.centered(), eigenvalues, state.basis(), k);
    String description =
        SELECTION
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
    // The kernel is the map's (a warm start's may differ from the estimator's params).
    model.clear(model.kernel());
    model.clear(model.gamma());
    model.clear(model.degree());
    model.clear(model.coef0());
    return model;
  }
}
