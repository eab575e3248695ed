package io.github.sparkkpca.ml;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.execution.DataScan;
import io.github.sparkkpca.execution.FeaturePasses;
import io.github.sparkkpca.execution.FitMemory;
import io.github.sparkkpca.execution.InputVectors;
import io.github.sparkkpca.execution.QuotedColumns;
import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.feature.NystromFeatureMap;
import io.github.sparkkpca.feature.StatisticsRoute;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.landmarks.LandmarkSampler;
import io.github.sparkkpca.landmarks.LandmarkSampling;
import io.github.sparkkpca.landmarks.ResidualGrowth;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.DriverThreads;
import io.github.sparkkpca.pca.FeaturePCA;
import io.github.sparkkpca.pca.KernelPCASolution;
import io.github.sparkkpca.persistence.Persistence;
import io.github.sparkkpca.persistence.StageWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkContext;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Distributed kernel PCA by Nyström sampling.
 *
 * <p>With landmarks z_1..z_m and k_x = (k(x,z_j))_j, the Nyström feature map φ(x) = Wᵀk_x, W = V_r
 * Λ_r^{-1/2} from K_mm = VΛVᵀ, gives the coordinates of the projection of k(·,x) onto H_m =
 * span{k(·,z_j)}. Nyström kernel PCA is linear PCA of φ: with the covariance C = (1/n)Σ(φ_i −
 * φ̄)(φ_i − φ̄)ᵀ = UΣUᵀ (or the second moment (1/n)Σφ_iφ_iᵀ when {@code centered} is false, Sterge
 * et al. 2020, Prop. 3.4), the model scores y(x) = U_kᵀ(φ(x) − φ̄) = Pᵀk_x − o with P = W U_k. With
 * m = n landmarks this is exact kernel PCA (Schölkopf et al. 1998).
 *
 * <p><b>Plan.</b> (1) One validating pass counts the rows, rejects null, wrongly sized and
 * non-finite vectors (naming the row), and draws the m landmarks uniformly without replacement,
 * reproducibly for a seed and independently of the partitioning ({@link DataScan}); another {@link
 * LandmarkSampler} may replace them. (2) The driver factors K_mm ({@link NystromFeatureMap}: W with
 * WWᵀ = K_mm⁺ on the eigenvalues above rcond·λ_max) and broadcasts W with the landmarks. (3) One
 * pass accumulates n, φ̄, the centred scatter and Σk(x,x) block by block with GEMM and SYRK — the
 * n×m kernel matrix is never stored — and merges them on the executors. (4) The driver solves
 * linear PCA of the features ({@link FeaturePCA}): the r×r covariance, each component's sign fixed
 * (its largest-magnitude landmark weight is positive). Before any pass, a fit whose m×m matrices
 * cannot fit in memory is refused ({@link FitMemory}). Cost: 2·n·m·d flops for kernel blocks, n·m·r
 * + n·r² for the statistics, O(m³) on the driver. The model keeps the statistics, so it can absorb
 * more rows ({@link NystromKernelPCAModel#update}).
 *
 * <p>References: Sterge, Sriperumbudur, Rosasco and Rudi, "Gain with no Pain: Efficiency of
 * Kernel-PCA by Nyström Sampling", AISTATS 2020; Williams and Seeger, NIPS 2001; Hallgren, PhD
 * thesis, UCL 2021, ch. 6.
 */
public final class NystromKernelPCA extends Estimator<NystromKernelPCAModel>
    implements NystromKernelPCAParams, MLWritable {

  private static final Logger LOG = LoggerFactory.getLogger(NystromKernelPCA.class);

  /** Landmarks used by the median heuristic for γ (pairs: about half its square). */
  private static final int MEDIAN_HEURISTIC_POINTS = 1000;

  private final String uid;
  private final KernelPCAParams.Definitions kernelPCAParams;
  private final NystromKernelPCAParams.Definitions nystromParams;

  /** User-supplied landmarks, row-major, or null to sample them. */
  private double[] suppliedLandmarks;

  private int suppliedCount;
  private int suppliedDim;

  public NystromKernelPCA() {
    this(Identifiable.randomUID("nystromKernelPCA"));
  }

  public NystromKernelPCA(String uid) {
    this.uid = uid;
    this.kernelPCAParams = new KernelPCAParams.Definitions(this);
    this.nystromParams = new NystromKernelPCAParams.Definitions(this);
    NystromKernelPCAParams.setDefaults(this);
  }

  @Override
  public String uid() {
    return uid;
  }

  @Override
  public KernelPCAParams.Definitions kernelPCAParams() {
    return kernelPCAParams;
  }

  @Override
  public NystromKernelPCAParams.Definitions nystromParams() {
    return nystromParams;
  }

  public NystromKernelPCA setInputCol(String value) {
    set(inputCol(), value);
    return this;
  }

  public NystromKernelPCA setOutputCol(String value) {
    set(outputCol(), value);
    return this;
  }

  public NystromKernelPCA setResidualCol(String value) {
    set(residualCol(), value);
    return this;
  }

  public NystromKernelPCA setK(int value) {
    set(k(), value);
    return this;
  }

  public NystromKernelPCA setNumLandmarks(int value) {
    set(numLandmarks(), value);
    return this;
  }

  public NystromKernelPCA setKernel(String value) {
    set(kernel(), value);
    return this;
  }

  public NystromKernelPCA setGamma(double value) {
    set(gamma(), value);
    return this;
  }

  /** Sets γ = 1/(2σ²) for the rbf kernel from a bandwidth σ > 0. */
  public NystromKernelPCA setSigma(double sigma) {
    if (!(sigma > 0) || Double.isInfinite(sigma)) {
      throw new IllegalArgumentException("sigma must be finite and > 0, got " + sigma);
    }
    return setGamma(1.0 / (2.0 * sigma * sigma));
  }

  public NystromKernelPCA setDegree(int value) {
    set(degree(), value);
    return this;
  }

  public NystromKernelPCA setCoef0(double value) {
    set(coef0(), value);
    return this;
  }

  public NystromKernelPCA setCentered(boolean value) {
    set(centered(), value);
    return this;
  }

  public NystromKernelPCA setLandmarkSampling(String value) {
    set(landmarkSampling(), value);
    return this;
  }

  public NystromKernelPCA setSeed(long value) {
    set(seed(), value);
    return this;
  }

  public NystromKernelPCA setLeverageRegularization(double value) {
    set(leverageRegularization(), value);
    return this;
  }

  /** {@code leading} (default) or {@code full}: how much of the covariance spectrum to compute. */
  public NystromKernelPCA setSpectrum(String value) {
    set(spectrum(), value);
    return this;
  }

  public NystromKernelPCA setKmeansMaxIter(int value) {
    set(kmeansMaxIter(), value);
    return this;
  }

  /**
   * Chooses m automatically ({@code landmarkSampling = residual}): landmarks are admitted until the
   * held-out probe rows' mean residual is at most {@code tolerance} times their mean k(x,x).
   */
  public NystromKernelPCA setNumLandmarksAuto(double tolerance) {
    set(landmarkTolerance(), tolerance);
    return setLandmarkSampling("residual");
  }

  public NystromKernelPCA setLandmarkTolerance(double value) {
    set(landmarkTolerance(), value);
    return this;
  }

  public NystromKernelPCA setMaxLandmarks(int value) {
    set(maxLandmarks(), value);
    return this;
  }

  public NystromKernelPCA setLandmarkProbeSize(int value) {
    set(landmarkProbeSize(), value);
    return this;
  }

  /** {@code tolerance} or {@code f} (the experimental F-test of Hallgren's thesis, ch. 4). */
  public NystromKernelPCA setLandmarkTest(String value) {
    set(landmarkTest(), value);
    return this;
  }

  public NystromKernelPCA setLandmarkAlpha(double value) {
    set(landmarkAlpha(), value);
    return this;
  }

  public NystromKernelPCA setRcond(double value) {
    set(rcond(), value);
    return this;
  }

  /**
   * {@code auto} (default), {@code whitened}, {@code gram} or {@code gram-checked}: how the
   * statistics pass forms the feature covariance ({@link
   * io.github.sparkkpca.feature.StatisticsRoute}; the error bounds, the a-posteriori check and the
   * cost rule in docs/gram-route.md).
   */
  public NystromKernelPCA setStatisticsRoute(String value) {
    set(statisticsRoute(), value);
    return this;
  }

  public NystromKernelPCA setBlockSize(int value) {
    set(blockSize(), value);
    return this;
  }

  /**
   * Uses these landmarks instead of sampling them ({@code numLandmarks} and {@code
   * landmarkSampling} are then ignored). All vectors must have the same size and finite values.
   */
  public NystromKernelPCA setLandmarks(Vector... landmarks) {
    if (landmarks == null || landmarks.length == 0) {
      throw new IllegalArgumentException("landmarks: at least one landmark is needed");
    }
    if (landmarks[0] == null) {
      throw new IllegalArgumentException("landmarks: landmark 0 is null");
    }
    int d = landmarks[0].size();
    double[] rows = new double[Math.multiplyExact(landmarks.length, d)];
    for (int j = 0; j < landmarks.length; j++) {
      InputVectors.require(landmarks[j], d, "landmarks: landmark " + j);
      System.arraycopy(landmarks[j].toArray(), 0, rows, j * d, d);
    }
    this.suppliedLandmarks = rows;
    this.suppliedCount = landmarks.length;
    this.suppliedDim = d;
    return this;
  }

  /**
   * Fits with the landmarks and the kernel of an existing model: its landmarks, and its kernel, γ,
   * degree and c₀ (set them again afterwards to change them). A fit on rows A ∪ B with the
   * landmarks of a model fitted on A equals that model updated with B ({@link
   * NystromKernelPCAModel#update}).
   */
  public NystromKernelPCA setLandmarksFrom(AbstractKernelPCAModel<?> model) {
    double[] rows = model.landmarks().transpose().toArray();
    int m = model.numSupportPoints();
    int d = model.numFeatures();
    Vector[] landmarks = new Vector[m];
    for (int j = 0; j < m; j++) {
      landmarks[j] = new DenseVector(java.util.Arrays.copyOfRange(rows, j * d, (j + 1) * d));
    }
    Kernel kernel = model.fittedKernel();
    setKernel(kernel.type().paramName());
    if (kernel.type().usesGamma()) {
      setGamma(kernel.gamma());
    }
    setDegree(kernel.degree());
    setCoef0(kernel.coef0());
    return setLandmarks(landmarks);
  }

  /**
   * Uses the vectors of {@code column} in {@code landmarks} (collected to the driver) as landmarks.
   */
  public NystromKernelPCA setLandmarks(Dataset<?> landmarks, String column) {
    List<Row> rows = landmarks.select(QuotedColumns.column(landmarks, column)).collectAsList();
    Vector[] vectors = new Vector[rows.size()];
    for (int i = 0; i < vectors.length; i++) {
      vectors[i] = (Vector) rows.get(i).get(0);
    }
    return setLandmarks(vectors);
  }

  /** Whether landmarks were supplied with {@code setLandmarks}. */
  public boolean hasSuppliedLandmarks() {
    return suppliedLandmarks != null;
  }

  /**
   * Landmarks grown until the data are explained ({@code landmarkSampling = residual}), not a set
   * number.
   */
  private boolean growsLandmarks() {
    return !hasSuppliedLandmarks() && getLandmarkSelection() == LandmarkSampling.RESIDUAL;
  }

  /** m, or its maximum when m is chosen by residual growth. */
  private int requestedLandmarks() {
    return hasSuppliedLandmarks()
        ? suppliedCount
        : growsLandmarks() ? getMaxLandmarks() : getNumLandmarks();
  }

  @Override
  public StructType transformSchema(StructType schema) {
    validateInputColumn(schema);
    int k = getK();
    int m = requestedLandmarks();
    if (k > m) {
      throw new IllegalArgumentException(
          "k = "
              + k
              + " exceeds the number of landmarks m = "
              + m
              + (hasSuppliedLandmarks()
                  ? " (supplied)"
                  : growsLandmarks() ? " (maxLandmarks)" : " (numLandmarks)")
              + "; k must be <= m");
    }
    return appendOutputColumns(
        schema, k, AttributeGroup.fromStructField(schema.apply(getInputCol())).size());
  }

  @Override
  public NystromKernelPCAModel fit(Dataset<?> dataset) {
    long start = System.nanoTime();
    transformSchema(dataset.schema(), true);
    String column = getInputCol();
    int k = getK();
    KernelType type = getKernelType();
    SparkContext sc = dataset.sparkSession().sparkContext();
    int d = FeaturePasses.inputDimension(dataset, column);
    if (hasSuppliedLandmarks() && suppliedDim != d) {
      throw new IllegalArgumentException(
          "The supplied landmarks have size "
              + suppliedDim
              + " but column '"
              + column
              + "' holds vectors of size "
              + d);
    }
    int requested = requestedLandmarks();
    int blockSize = effectiveBlockSize(requested, d, requested);
    FitMemory.check(
        sc,
        requested,
        d,
        blockSize,
        hasSuppliedLandmarks()
            ? "the number of supplied landmarks m"
            : growsLandmarks() ? "maxLandmarks M" : "numLandmarks m");
    ResidualGrowth.Settings growth = residualGrowthSettings();
    String jobs = "NystromKernelPCA " + uid + ": ";
    // Residual growth draws its own rows; the uniform sample then only serves the median heuristic
    // for γ.
    int sampleCapacity =
        hasSuppliedLandmarks()
            ? 0
            : growsLandmarks() ? Math.min(requested, MEDIAN_HEURISTIC_POINTS) : requested;
    try (FeaturePasses.Scanned scanned =
        FeaturePasses.scan(dataset, column, d, sampleCapacity, getSeed(), false, jobs)) {
      long n = scanned.count();
      if (!hasSuppliedLandmarks() && !growsLandmarks() && requested > n) {
        throw new IllegalArgumentException(
            "numLandmarks m = "
                + requested
                + " exceeds the number of rows n = "
                + n
                + "; use m <= n (m = n gives exact kernel PCA)");
      }
      DataScan scan = scanned.scan();
      double[] uniformSample = hasSuppliedLandmarks() ? suppliedLandmarks : scan.sampleRowMajor();
      int uniformCount = hasSuppliedLandmarks() ? suppliedCount : scan.sampleSize();
      double gammaUsed =
          isDefined(gamma())
              ? getGamma()
              : Kernel.medianHeuristicGamma(
                  type, uniformSample, uniformCount, d, MEDIAN_HEURISTIC_POINTS);
      Kernel kernel = new Kernel(type, type.usesGamma() ? gammaUsed : 1.0, getDegree(), getCoef0());
      if (!kernel.isPositiveDefinite()) {
        LOG.warn(
            "The kernel {} is not positive definite: negative eigenvalues of K_mm are dropped and the "
                + "result is the PCA of the positive part only",
            kernel);
      }
      LandmarkSampler.Landmarks chosen =
          hasSuppliedLandmarks()
              ? new LandmarkSampler.Landmarks(
                  suppliedLandmarks, suppliedCount, "supplied: " + suppliedCount + " landmarks")
              : LandmarkSampler.of(
                      getLandmarkSelection(),
                      getLeverageRegularization(),
                      getKmeansMaxIter(),
                      growth)
                  .select(
                      new LandmarkSampler.Input(
                          dataset.sparkSession(),
                          scanned.vectors(),
                          scan,
                          kernel,
                          n,
                          d,
                          requested,
                          getSeed(),
                          column,
                          effectiveBlockSize(scan.sampleSize(), d, scan.sampleSize()),
                          jobs));
      if (chosen.count() < k) {
        throw new IllegalArgumentException(
            "k = " + k + " exceeds the number of landmarks obtained, " + chosen.description());
      }
      if (chosen.count() < requested && !growsLandmarks()) {
        LOG.warn(
            "NystromKernelPCA {}: {} landmarks instead of the {} requested: {}",
            uid,
            chosen.count(),
            requested,
            chosen.description());
      }
      int m = chosen.count();
      NystromFeatureMap featureMap =
          NystromFeatureMap.fit(new LandmarkKernel(kernel, chosen.rows(), m, d), getRcond());
      int r = featureMap.rank();
      long maxComponents = getCentered() ? Math.min(r, n - 1) : r;
      if (k > maxComponents) {
        throw new IllegalArgumentException(
            "k = "
                + k
                + " exceeds the rank of the problem: the landmark kernel "
                + "matrix has numerical rank r = "
                + r
                + " (m = "
                + m
                + ", "
                + (m - r)
                + " dropped by rcond = "
                + getRcond()
                + ")"
                + (getCentered()
                    ? " and centring on n = " + n + " rows allows at most " + maxComponents
                    : "")
                + "; lower k or raise m");
      }
      LOG.info(
          "NystromKernelPCA {}: n = {}, d = {}, m = {}, rank r = {} ({} dropped), kernel = {}, BLAS = {}",
          uid,
          n,
          d,
          m,
          r,
          m - r,
          kernel,
          Blas.implementation());
      int statisticsBlock = effectiveBlockSize(m, d, r);
      double eta = StatisticsRoute.accumulationError(m, statisticsBlock, n);
      int slots = sc.defaultParallelism();
      int driverThreads = DriverThreads.count();
      StatisticsRoute route;
      String routeCheck;
      boolean checked = false;
      if (getStatisticsRoute() == StatisticsRoute.GRAM_CHECKED) {
        route = StatisticsRoute.GRAM;
        routeCheck = "a-posteriori check";
        checked = true;
      } else if (getStatisticsRoute() != StatisticsRoute.AUTO) {
        route = getStatisticsRoute();
        routeCheck = "requested";
      } else if (!StatisticsRoute.gramPaysOff(n, m, slots, driverThreads)) {
        route = StatisticsRoute.WHITENED;
        routeCheck =
            "cost: n/slots = "
                + (n / Math.max(1, slots))
                + " < 4m/(3 driver threads) = "
                + String.format(
                    java.util.Locale.ROOT,
                    "%.0f",
                    StatisticsRoute.gramBreakEvenRowsPerSlot(m, driverThreads));
      } else {
        route =
            featureMap.conditionBelow(StatisticsRoute.conditionLimit(m, statisticsBlock, n))
                ? StatisticsRoute.GRAM
                : StatisticsRoute.WHITENED;
        routeCheck = "a-priori bound";
      }
      LOG.info(
          "NystromKernelPCA {}: statistics route {}{} ({} requested; cond(K_mm) ~ {}, Gram route bound {} "
              + "of lambda_1, tolerance {})",
          uid,
          route.paramName(),
          checked ? " with the a-posteriori check" : "",
          getStatisticsRoute().paramName(),
          String.format("%.3g", featureMap.conditionEstimate()),
          String.format(
              "%.2g",
              StatisticsRoute.gramBound(featureMap.conditionEstimate(), m, statisticsBlock, n)),
          StatisticsRoute.TOLERANCE);
      int numEigenvalues = getSpectrumExtent().numEigenvalues(r, k);
      FeaturePCA fitted = null;
      if (route == StatisticsRoute.GRAM) {
        FeatureStatistics columns =
            FeaturePasses.statistics(
                scanned.vectors(), featureMap.kernelColumns(), statisticsBlock, column, jobs);
        double[] columnVariances = checked ? columns.variances() : null;
        FeatureStatistics stats = featureMap.whiten(columns);
        // The check needs eigenvalue k + 1; the model keeps the extent asked for.
        int solved = checked && numEigenvalues == k && k < r ? k + 1 : numEigenvalues;
        fitted = FeaturePCA.solve(featureMap, stats, k, getCentered(), solved);
        if (checked) {
          StatisticsRoute.Check check =
              StatisticsRoute.check(
                  eta,
                  featureMap.conditionEstimate(),
                  columnVariances,
                  featureMap.weights(),
                  m,
                  r,
                  featureMap.toLandmarkWeights(fitted.components(), k),
                  k,
                  fitted.spectrum());
          routeCheck =
              String.format(
                  java.util.Locale.ROOT,
                  "a-posteriori check %s (eigenvalue error %.2g, RMS " + "score error %.2g)",
                  check.passed() ? "passed" : "failed: whitened pass",
                  check.eigenvalueError(),
                  check.scoreError());
          LOG.info(
              "NystromKernelPCA {}: {}; allowed {} and {}",
              uid,
              routeCheck,
              String.format("%.2g", StatisticsRoute.TOLERANCE * fitted.spectrum()[0]),
              String.format(
                  "%.2g",
                  StatisticsRoute.SCORE_TOLERANCE * Math.sqrt(Math.max(0, fitted.spectrum()[0]))));
          if (check.passed()) {
            fitted = fitted.withLeadingEigenvalues(numEigenvalues);
          } else {
            route = StatisticsRoute.WHITENED;
            fitted = null;
          }
        }
      }
      if (fitted == null) {
        fitted =
            FeaturePCA.solve(
                featureMap,
                FeaturePasses.statistics(
                    scanned.vectors(), featureMap, statisticsBlock, column, jobs),
                k,
                getCentered(),
                numEigenvalues);
      }
      warnOnZeroVariance(fitted.spectrum(), k);
      NystromKernelPCAModel model =
          new NystromKernelPCAModel(uid, KernelPCASolution.of(fitted, m - r, chosen.description()))
              .setParent(this);
      copyValues(model, ParamMap.empty());
      if (type.usesGamma()) {
        model.set(model.gamma(), gammaUsed);
      }
      model.set(model.numLandmarks(), m);
      model.set(model.statisticsRouteTaken(), route.paramName());
      model.set(model.statisticsRouteCheck(), routeCheck);
      model.set(model.landmarkConditionEstimate(), featureMap.conditionEstimate());
      if (chosen.residualCurve() != null) {
        model.set(model.landmarkResidualCurve(), chosen.residualCurve());
      } else {
        model.clear(model.landmarkResidualCurve());
      }
      LOG.info(
          "NystromKernelPCA {}: fitted in {} s; explained variance ratio {}",
          uid,
          String.format("%.3f", (System.nanoTime() - start) / 1e9),
          model.explainedVarianceRatio());
      return model;
    }
  }

  /**
   * Warns when a kept component has (numerically) zero variance: k is larger than the data support.
   */
  void warnOnZeroVariance(double[] spectrum, int k) {
    for (int c = 1; c < k; c++) {
      if (!(spectrum[c] > getRcond() * spectrum[0])) {
        LOG.warn(
            "NystromKernelPCA {}: component {} of {} has (numerically) zero variance {}",
            uid,
            c + 1,
            k,
            spectrum[c]);
        break;
      }
    }
  }

  @Override
  public NystromKernelPCA copy(ParamMap extra) {
    NystromKernelPCA copied = defaultCopy(extra);
    if (hasSuppliedLandmarks()) {
      copied.suppliedLandmarks = suppliedLandmarks;
      copied.suppliedCount = suppliedCount;
      copied.suppliedDim = suppliedDim;
    }
    return copied;
  }

  @Override
  public MLWriter write() {
    return new Writer(this);
  }

  public static MLReader<NystromKernelPCA> read() {
    return new Reader();
  }

  public static NystromKernelPCA load(String path) {
    return read().load(path);
  }

  private static final class Writer extends StageWriter {
    private final NystromKernelPCA instance;

    Writer(NystromKernelPCA instance) {
      this.instance = instance;
    }

    @Override
    public void saveImpl(String path) {
      Persistence.saveMetadata(instance, path, sparkSession());
      if (instance.hasSuppliedLandmarks()) {
        int d = instance.suppliedDim;
        List<Row> rows = new ArrayList<>(instance.suppliedCount);
        for (int j = 0; j < instance.suppliedCount; j++) {
          rows.add(
              RowFactory.create(
                  j,
                  new DenseVector(
                      java.util.Arrays.copyOfRange(
                          instance.suppliedLandmarks, j * d, (j + 1) * d))));
        }
        StructType schema =
            new StructType().add("index", "int").add("landmark", SQLDataTypes.VectorType());
        sparkSession().createDataFrame(rows, schema).write().parquet(path + "/data/landmarks");
      }
    }
  }

  private static final class Reader extends MLReader<NystromKernelPCA> {
    @Override
    public NystromKernelPCA load(String path) {
      JsonNode metadata = Persistence.loadMetadata(path, sparkSession(), NystromKernelPCA.class);
      NystromKernelPCA estimator = new NystromKernelPCA(metadata.get("uid").asText());
      Persistence.applyParams(estimator, metadata, path);
      org.apache.hadoop.fs.Path landmarksPath =
          new org.apache.hadoop.fs.Path(path, "data/landmarks");
      try {
        org.apache.hadoop.fs.FileSystem fs =
            landmarksPath.getFileSystem(sparkSession().sparkContext().hadoopConfiguration());
        if (fs.exists(landmarksPath)) {
          List<Row> rows =
              sparkSession()
                  .read()
                  .parquet(landmarksPath.toString())
                  .orderBy("index")
                  .collectAsList();
          Vector[] landmarks = new Vector[rows.size()];
          for (int j = 0; j < landmarks.length; j++) {
            landmarks[j] = (Vector) rows.get(j).get(1);
          }
          estimator.setLandmarks(landmarks);
        }
      } catch (java.io.IOException e) {
        throw new IllegalArgumentException(
            "Cannot load NystromKernelPCA from '" + path + "': " + e.getMessage(), e);
      }
      return estimator;
    }
  }
}
