package io.github.sparkkpca.ml;

import io.github.sparkkpca.execution.DistributedPass;
import io.github.sparkkpca.execution.FeaturePasses;
import io.github.sparkkpca.execution.KernelPcaFit;
import io.github.sparkkpca.execution.QuotedColumns;
import io.github.sparkkpca.feature.FeatureMap;
import io.github.sparkkpca.feature.NystromFeatureMap;
import io.github.sparkkpca.kernel.KernelFamilies;
import io.github.sparkkpca.kernel.KernelFamily;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.pca.FeaturePCA;
import io.github.sparkkpca.pca.SpectrumExtent;
import io.github.sparkkpca.regression.ComponentRegression;
import io.github.sparkkpca.regression.LabelCoding;
import io.github.sparkkpca.regression.LabelScan;
import io.github.sparkkpca.regression.LabelledPass;
import io.github.sparkkpca.regression.LabelledStatistics;
import io.github.sparkkpca.regression.RelevantDimension;
import io.github.sparkkpca.regression.WidthDiagnostics;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * The fit that {@link KernelPCARegressor} and {@link RelevantDimensionEstimator} share, for one
 * kernel or a grid of kernel scales:
 *
 * <ol>
 *   <li>a pass over the labels (first non-finite one named; the coding: real, ±1 or classes);
 *   <li>the validating scan of the features, which draws the m landmarks uniformly ({@link
 *       FeaturePasses});
 *   <li>per kernel scale, the Nyström map of the landmarks (driver, O(m³) each);
 *   <li><b>one</b> pass accumulating, for every scale at once, the labelled statistics: n, φ̄, the
 *       r×r scatter, Σk(x,x), ȳ and the r×c cross-moment C_φy (executor memory: one r×r matrix per
 *       scale and task, 8·m² bytes each: 20 scales at m = 1000 are 160 MB per task);
 *   <li>per scale, the kernel PCA and the regression on it (driver), and ℓ(d) ({@link
 *       RelevantDimension});
 *   <li>a second pass scoring the training rows of every scale: the leave-one-out curve and the
 *       training loss for every d;
 *   <li>the choice: the scale with the smallest min_d ℓ(d) and its argmin d (or the fixed scale and
 *       d).
 * </ol>
 */
final class RegressionFit
    implements KernelPcaFit.Steps<List<FeatureMap>, KernelPCARegressionModel> {

  private static final Logger LOG = LoggerFactory.getLogger(RegressionFit.class);

  private final KernelPCARegressionParams stage;
  private final KernelPcaFit.Settings settings;
  private final String uid;
  private final String labelCol;
  private final double[] gammas;
  private final int fixedDimension;
  private final long start = System.nanoTime();
  private LabelCoding coding;
  private double[] scaleValues;

  private RegressionFit(
      KernelPCARegressionParams stage,
      KernelPcaFit.Settings settings,
      String uid,
      String labelCol,
      double[] gammas,
      int fixedDimension) {
    this.stage = stage;
    this.settings = settings;
    this.uid = uid;
    this.labelCol = labelCol;
    this.gammas = gammas;
    this.fixedDimension = fixedDimension;
  }

  /**
   * @param gammas the kernel scales to evaluate; null: the stage's γ (or the median heuristic)
   * @param fixedDimension d to use, or 0 to choose it by the likelihood
   * @param stageName the stage and its uid, for logs and Spark job descriptions
   */
  static KernelPCARegressionModel fit(
      KernelPCARegressionParams stage,
      String uid,
      String featuresCol,
      String labelCol,
      Dataset<?> dataset,
      double[] gammas,
      int fixedDimension,
      String stageName) {
    KernelFamily type = stage.getKernelType();
    if (gammas != null && !type.usesGamma()) {
      throw new IllegalArgumentException(
          "the kernel '"
              + type.paramName()
              + "' has no scale gamma: a gamma grid "
              + "needs "
              + String.join(
                  ", ",
                  KernelFamilies.all().stream()
                      .filter(KernelFamily::usesGamma)
                      .map(KernelFamily::paramName)
                      .toList()));
    }
    KernelPcaFit.Settings settings = FitSettings.regression(LOG, stageName, stage, featuresCol);
    return KernelPcaFit.run(
        dataset,
        settings,
        new RegressionFit(stage, settings, uid, labelCol, gammas, fixedDimension));
  }

  private int scales() {
    return gammas == null ? 1 : gammas.length;
  }

  @Override
  public KernelPcaFit.Need memoryBeforeScan(int d) {
    return new KernelPcaFit.Need(stage.getNumLandmarks(), "numLandmarks m", scales());
  }

  @Override
  public List<String> otherColumns() {
    return List.of(labelCol);
  }

  /**
   * The landmark kernels take the path their landmarks call for ({@link LandmarkKernel}), so wide
   * or sparse rows are checked by their stored entries after the scan, as a Nyström fit's are.
   */
  @Override
  public boolean sparseKernelBlocks() {
    return settings.family().hasSparseForm();
  }

  /** A pass over the labels: the first non-finite one named, and the coding. */
  @Override
  public void beforeScan(Dataset<?> dataset) {
    String labelCol = this.labelCol;
    JavaRDD<Double> labels =
        dataset
            .select(QuotedColumns.column(dataset, labelCol))
            .toJavaRDD()
            .map(row -> row.isNullAt(0) ? null : row.getDouble(0));
    LabelScan labelScan =
        DistributedPass.run(
            dataset.sparkSession().sparkContext(),
            settings.jobs() + "check the labels '" + labelCol + "'",
            labels,
            null,
            Object.class,
            (none, partition, rows) -> new LabelScan(labelCol).scan(partition, rows),
            LabelScan::merge);
    if (labelScan.errorMessage() != null) {
      throw new IllegalArgumentException(labelScan.errorMessage());
    }
    coding = labelScan.coding(stage.getLabelMode());
  }

  @Override
  public int sampleCapacity(boolean gammaSet) {
    return stage.getNumLandmarks();
  }

  @Override
  public void checkRows(long n) {
    int requested = stage.getNumLandmarks();
    if (requested > n) {
      throw new IllegalArgumentException(
          "numLandmarks m = "
              + requested
              + " exceeds the number of rows n = "
              + n
              + "; use m <= n (m = n is the exact kernel method)");
    }
    if (n < 3) {
      throw new IllegalArgumentException("kernel PCA regression needs at least 3 rows, got " + n);
    }
  }

  /** Per kernel scale, the Nyström map of the uniformly drawn landmarks. */
  @Override
  public List<FeatureMap> support(KernelPcaFit.Context c) {
    io.github.sparkkpca.linalg.RowSet landmarkRows = c.scanned().scan().sampleRows();
    scaleValues = gammas != null ? gammas.clone() : new double[] {c.gamma()};
    List<FeatureMap> maps = new ArrayList<>(scales());
    for (double gamma : scaleValues) {
      LandmarkKernel landmarks = new LandmarkKernel(c.kernelWithGamma(gamma), landmarkRows);
      double[] gram = landmarks.gram();
      int m = landmarks.numLandmarks();
      c.degeneracy(gram, m, landmarks.kernel(), "the m = " + m + " landmarks");
      maps.add(NystromFeatureMap.fit(landmarks, gram, stage.getRcond()));
    }
    return maps;
  }

  /** Checked per scale by {@link #solve}. */
  @Override
  public KernelPcaFit.Rank rank(List<FeatureMap> maps, KernelPcaFit.Context c) {
    return null;
  }

  @Override
  public KernelPCARegressionModel solve(List<FeatureMap> supportMaps, KernelPcaFit.Context c) {
    Dataset<?> dataset = c.dataset();
    SparkContext sc = c.sparkContext();
    LabelCoding coding = this.coding;
    String labelCol = this.labelCol;
    String featuresCol = settings.column();
    String jobs = settings.jobs();
    long n = c.n();
    int m = c.scanned().scan().sampleSize();
    int requested = stage.getNumLandmarks();
    int scales = scales();
    // One pass over every scale's map: the smallest of their blocks.
    int blockSize = supportMaps.stream().mapToInt(c::blockSize).min().orElseThrow();
    String landmarkSelection =
        "uniform: "
            + m
            + " of "
            + n
            + " rows"
            + (m < requested ? " (the data have only " + m + " distinct rows)" : "");
    ArrayList<FeatureMap> maps = new ArrayList<>(supportMaps);
    // The labelled passes read features and labels together: the scan's cache is no longer needed.
    c.scanned().close();
    JavaRDD<Tuple2<Vector, Double>> rows =
        dataset
            .select(
                QuotedColumns.column(dataset, featuresCol), QuotedColumns.column(dataset, labelCol))
            .toJavaRDD()
            .map(row -> new Tuple2<>((Vector) row.get(0), row.getDouble(1)));
    // Read twice; from the fit's persisted columns when the input was not cached.
    boolean persist = dataset.storageLevel().equals(StorageLevel.NONE());
    if (persist) {
      rows.persist(StorageLevel.MEMORY_AND_DISK());
    }
    try {
      int b = blockSize;
      @SuppressWarnings("unchecked")
      Class<ArrayList<FeatureMap>> mapsClass =
          (Class<ArrayList<FeatureMap>>) (Class<?>) ArrayList.class;
      ArrayList<LabelledStatistics> statistics =
          DistributedPass.run(
              sc,
              jobs
                  + "accumulate the labelled "
                  + m
                  + "x"
                  + m
                  + " statistics of "
                  + scales
                  + " kernel scale(s) (block "
                  + b
                  + ")",
              rows,
              maps,
              mapsClass,
              (shared, partition, it) ->
                  new ArrayList<>(LabelledPass.statistics(shared, coding, it, b, featuresCol)),
              (x, y) -> new ArrayList<>(LabelledPass.merge(x, y)));

      boolean intercept = stage.getFitIntercept();
      long count = ComponentRegression.coefficientCount(n, intercept);
      List<ComponentRegression> regressions = new ArrayList<>(scales);
      List<RelevantDimension> dimensions = new ArrayList<>(scales);
      for (int w = 0; w < scales; w++) {
        FeatureMap map = maps.get(w);
        int k = (int) Math.min(map.outputDim(), count - 1);
        if (stage.getMaxDimension() > 0) {
          k = Math.min(k, Math.max(stage.getMaxDimension(), fixedDimension));
        }
        if (fixedDimension > k) {
          throw new IllegalArgumentException(
              "dimension d = "
                  + fixedDimension
                  + " exceeds the components available: "
                  + "the landmark kernel matrix has numerical rank "
                  + map.outputDim()
                  + " (m = "
                  + m
                  + ") on n = "
                  + n
                  + " rows"
                  + (intercept ? " (centred: at most n - 2)" : "")
                  + "; lower d or raise m");
        }
        FeaturePCA pca =
            FeaturePCA.solve(map, statistics.get(w).features(), k, intercept, SpectrumExtent.FULL);
        ComponentRegression regression = ComponentRegression.fit(pca, statistics.get(w));
        if (fixedDimension > regression.q()) {
          throw new IllegalArgumentException(
              "dimension d = "
                  + fixedDimension
                  + " exceeds the "
                  + regression.q()
                  + " components with a non-negligible eigenvalue (gamma = "
                  + scaleValues[w]
                  + "); lower d");
        }
        regressions.add(regression);
        dimensions.add(regression.relevantDimension());
      }

      List<LabelledPass.Scorer> scorers = new ArrayList<>(scales);
      for (ComponentRegression regression : regressions) {
        scorers.add(LabelledPass.Scorer.of(regression));
      }
      ArrayList<LabelledPass.Scorer> shared = new ArrayList<>(scorers);
      @SuppressWarnings("unchecked")
      Class<ArrayList<LabelledPass.Scorer>> scorersClass =
          (Class<ArrayList<LabelledPass.Scorer>>) (Class<?>) ArrayList.class;
      LabelledPass.Sums sums =
          DistributedPass.run(
              sc,
              jobs + "leave-one-out and training error of " + scales + " kernel scale(s)",
              rows,
              shared,
              scorersClass,
              (s, partition, it) -> LabelledPass.scores(s, coding, it, b, featuresCol),
              LabelledPass.Sums::merge);

      List<WidthDiagnostics> widths = new ArrayList<>(scales);
      int chosen = 0;
      for (int w = 0; w < scales; w++) {
        ComponentRegression regression = regressions.get(w);
        RelevantDimension rd = dimensions.get(w);
        double[] loo = sums.leaveOneOut(w);
        double[] loss = sums.loss(w);
        for (int i = 0; i < loo.length; i++) {
          loo[i] /= n;
          loss[i] /= n;
        }
        double[] eigenvalues = java.util.Arrays.copyOf(regression.pca().spectrum(), regression.q());
        widths.add(
            new WidthDiagnostics(
                scaleValues[w],
                eigenvalues,
                regression.coefficients(),
                coding.columns(),
                rd.logLikelihood(),
                rd.dimension(),
                loo,
                loss));
        if (rd.minimum() < dimensions.get(chosen).minimum()) {
          chosen = w;
        }
      }
      int dimension = fixedDimension > 0 ? fixedDimension : dimensions.get(chosen).dimension();
      ComponentRegression regression = regressions.get(chosen);
      RelevantDimension atD = regression.relevantDimension(fixedDimension);
      KernelPCARegressionModel model =
          new KernelPCARegressionModel(
              uid,
              regression.predictor(dimension),
              coding,
              widths,
              chosen,
              regression.labelSquares(),
              atD.signalVariance(),
              atD.noiseVariance(),
              n,
              landmarkSelection,
              dimension);
      LOG.info(
          "{}: n = {}, m = {}, {} kernel scale(s): gamma = {}, d = {}, training error {} ({} s)",
          jobs,
          n,
          m,
          scales,
          scaleValues[chosen],
          dimension,
          widths.get(chosen).trainingLoss()[dimension - 1],
          String.format(java.util.Locale.ROOT, "%.2f", (System.nanoTime() - start) / 1e9));
      return model;
    } finally {
      if (persist) {
        rows.unpersist(false);
      }
    }
  }
}
