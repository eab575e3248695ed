package io.github.sparkkpca.ml;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.feature.FeatureMap;
import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.feature.LinearPCA;
import io.github.sparkkpca.feature.NystromFeatureMap;
import io.github.sparkkpca.feature.NystromProjector;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.landmarks.DataScan;
import io.github.sparkkpca.landmarks.KMeansLandmarks;
import io.github.sparkkpca.landmarks.LeverageScoreSampler;
import io.github.sparkkpca.landmarks.SmallestKeys;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.SymmetricEigen;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
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
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Distributed kernel PCA by Nyström sampling.
 *
 * <p>With landmarks z_1..z_m and k_x = (k(x,z_j))_j, the Nyström feature map φ(x) = Wᵀk_x,
 * W = V_r Λ_r^{-1/2} from K_mm = VΛVᵀ, gives the coordinates of the projection of k(·,x) onto
 * H_m = span{k(·,z_j)}. Nyström kernel PCA is linear PCA of φ: with the covariance
 * C = (1/n)Σ(φ_i − φ̄)(φ_i − φ̄)ᵀ = UΣUᵀ (or the second moment (1/n)Σφ_iφ_iᵀ when {@code centered} is
 * false, Sterge et al. 2020, Prop. 3.4), the model scores y(x) = U_kᵀ(φ(x) − φ̄) = Pᵀk_x − o with
 * P = W U_k. With m = n landmarks this is exact kernel PCA (Schölkopf et al. 1998).
 *
 * <p><b>Plan.</b> (1) One validating pass counts the rows, rejects null, wrongly sized and non-finite
 * vectors (naming the row), and draws the m landmarks uniformly without replacement, reproducibly for a
 * seed and independently of the partitioning ({@link DataScan}). (2) The driver eigendecomposes K_mm
 * (LAPACK dsyevr), drops eigenvalues ≤ rcond·λ_max and broadcasts W with the landmarks. (3) One pass
 * accumulates n, φ̄, the centred scatter and Σk(x,x) block by block with GEMM and SYRK — the n×m kernel
 * matrix is never stored — and {@code treeAggregate}s them. (4) The driver decomposes the r×r covariance
 * and fixes each component's sign (its largest-magnitude landmark weight is positive). Cost: 2·n·m·d
 * flops for kernel blocks, n·m·r + n·r² for the statistics, O(m³) on the driver.
 *
 * <p>References: Sterge, Sriperumbudur, Rosasco and Rudi, "Gain with no Pain: Efficiency of Kernel-PCA by
 * Nyström Sampling", AISTATS 2020; Williams and Seeger, NIPS 2001; Hallgren, PhD thesis, UCL 2021, ch. 6.
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

  public NystromKernelPCA setKmeansMaxIter(int value) {
    set(kmeansMaxIter(), value);
    return this;
  }

  public NystromKernelPCA setRcond(double value) {
    set(rcond(), value);
    return this;
  }

  public NystromKernelPCA setBlockSize(int value) {
    set(blockSize(), value);
    return this;
  }

  /**
   * Uses these landmarks instead of sampling them ({@code numLandmarks} and {@code landmarkSampling} are
   * then ignored). All vectors must have the same size and finite values.
   */
  public NystromKernelPCA setLandmarks(Vector... landmarks) {
    if (landmarks == null || landmarks.length == 0) {
      throw new IllegalArgumentException("landmarks: at least one landmark is needed");
    }
    int d = landmarks[0].size();
    double[] rows = new double[Math.multiplyExact(landmarks.length, d)];
    for (int j = 0; j < landmarks.length; j++) {
      Vector v = landmarks[j];
      if (v == null || v.size() != d) {
        throw new IllegalArgumentException("landmarks: landmark " + j + " is " + (v == null ? "null"
            : "of size " + v.size() + ", expected " + d));
      }
      double[] values = v.toArray();
      for (double x : values) {
        if (!Double.isFinite(x)) {
          throw new IllegalArgumentException("landmarks: landmark " + j + " has a non-finite value " + x);
        }
      }
      System.arraycopy(values, 0, rows, j * d, d);
    }
    this.suppliedLandmarks = rows;
    this.suppliedCount = landmarks.length;
    this.suppliedDim = d;
    return this;
  }

  /** Uses the vectors of {@code column} in {@code landmarks} (collected to the driver) as landmarks. */
  public NystromKernelPCA setLandmarks(Dataset<?> landmarks, String column) {
    List<Row> rows = landmarks.select(SparkJobs.column(landmarks, column)).collectAsList();
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

  private int requestedLandmarks() {
    return hasSuppliedLandmarks() ? suppliedCount : getNumLandmarks();
  }

  @Override
  public StructType transformSchema(StructType schema) {
    validateInputColumn(schema);
    int k = getK();
    int m = requestedLandmarks();
    if (k > m) {
      throw new IllegalArgumentException("k = " + k + " exceeds the number of landmarks m = " + m
          + (hasSuppliedLandmarks() ? " (supplied)" : " (numLandmarks)") + "; k must be <= m");
    }
    return appendOutputColumns(schema, k, AttributeGroup.fromStructField(schema.apply(getInputCol())).size());
  }

  @Override
  public NystromKernelPCAModel fit(Dataset<?> dataset) {
    long start = System.nanoTime();
    transformSchema(dataset.schema(), true);
    String column = getInputCol();
    int k = getK();
    KernelType type = getKernelType();
    if (!type.isPositiveDefinite()) {
      LOG.warn("The {} kernel is not positive definite: negative eigenvalues of K_mm are dropped and the "
          + "result is the PCA of the positive part only", type.paramName());
    }
    SparkSession spark = dataset.sparkSession();
    SparkContext sc = spark.sparkContext();
    int d = inputDimension(dataset, column);
    if (hasSuppliedLandmarks() && suppliedDim != d) {
      throw new IllegalArgumentException("The supplied landmarks have size " + suppliedDim + " but column '"
          + column + "' holds vectors of size " + d);
    }
    int requested = requestedLandmarks();

    JavaRDD<Vector> vectors = dataset.select(SparkJobs.column(dataset, column)).toJavaRDD().map(row -> (Vector) row.get(0));
    boolean persist = dataset.storageLevel().equals(StorageLevel.NONE());
    if (persist) {
      vectors.persist(StorageLevel.MEMORY_AND_DISK());
    }
    try {
      int partitions = vectors.getNumPartitions();
      int sampleCapacity = hasSuppliedLandmarks() ? 0 : requested;
      long seed = getSeed();
      DataScan zero = new DataScan(sampleCapacity, d, seed, column);
      int scanDepth = SparkJobs.aggregationDepth(sc, partitions, 8L * requested * d);
      DataScan scan = SparkJobs.described(sc, "NystromKernelPCA " + uid + ": validate '" + column
          + "' and sample " + sampleCapacity + " landmarks", () -> vectors
          .mapPartitionsWithIndex((index, it) -> Collections.singletonList(
              new DataScan(sampleCapacity, d, seed, column).scanPartition(index, it)).iterator(), true)
          .treeAggregate(zero, DataScan::merge, DataScan::merge, scanDepth));
      if (scan.errorMessage() != null) {
        throw new IllegalArgumentException(scan.errorMessage());
      }
      long n = scan.count();
      if (n == 0) {
        throw new IllegalArgumentException("Column '" + column + "' of the input has no rows");
      }
      if (!hasSuppliedLandmarks() && requested > n) {
        throw new IllegalArgumentException("numLandmarks m = " + requested + " exceeds the number of rows n = " + n
            + "; use m <= n (m = n gives exact kernel PCA)");
      }
      double[] uniformSample = hasSuppliedLandmarks() ? suppliedLandmarks : scan.sampleRowMajor();
      int uniformCount = hasSuppliedLandmarks() ? suppliedCount : scan.sampleSize();
      double gammaUsed = isDefined(gamma()) ? getGamma()
          : Kernel.medianHeuristicGamma(type, uniformSample, uniformCount, d, MEDIAN_HEURISTIC_POINTS);
      Kernel kernel = new Kernel(type, type.usesGamma() ? gammaUsed : 1.0, getDegree(), getCoef0());
      ChosenLandmarks chosen = hasSuppliedLandmarks()
          ? new ChosenLandmarks(suppliedLandmarks, suppliedCount, "supplied: " + suppliedCount + " landmarks")
          : chooseLandmarks(spark, vectors, scan, kernel, n, d, requested);
      if (chosen.count() < k) {
        throw new IllegalArgumentException("k = " + k + " exceeds the number of landmarks obtained, "
            + chosen.description());
      }
      int m = chosen.count();
      LandmarkKernel landmarkKernel = new LandmarkKernel(kernel, chosen.rows(), m, d);
      NystromFeatureMap featureMap = NystromFeatureMap.fit(landmarkKernel, getRcond());
      int r = featureMap.rank();
      long maxComponents = getCentered() ? Math.min(r, n - 1) : r;
      if (k > maxComponents) {
        throw new IllegalArgumentException("k = " + k + " exceeds the rank of the problem: the landmark kernel "
            + "matrix has numerical rank r = " + r + " (m = " + m + ", " + (m - r) + " dropped by rcond = "
            + getRcond() + ")" + (getCentered() ? " and centring on n = " + n + " rows allows at most "
            + maxComponents : "") + "; lower k or raise m");
      }
      LOG.info("NystromKernelPCA {}: n = {}, d = {}, m = {}, rank r = {} ({} dropped), kernel = {}, BLAS = {}",
          uid, n, d, m, r, m - r, kernel, Blas.implementation());

      int blockSize = effectiveBlockSize(m, d, r);
      Broadcast<FeatureMap> broadcast = sc.broadcast(featureMap,
          scala.reflect.ClassTag$.MODULE$.apply(FeatureMap.class));
      FeatureStatistics stats;
      try {
        int depth = SparkJobs.aggregationDepth(sc, partitions, 8L * r * r);
        stats = SparkJobs.described(sc, "NystromKernelPCA " + uid + ": accumulate the " + r + "x" + r
            + " Nyström statistics (m = " + m + ", block " + blockSize + ")", () -> vectors
            .mapPartitions(it -> Collections.singletonList(broadcast.value().accumulate(it, blockSize, column))
                .iterator())
            .treeAggregate(new FeatureStatistics(r), FeatureStatistics::merge, FeatureStatistics::merge, depth));
      } finally {
        broadcast.destroy();
      }
      KernelPCASolution solution = solve(featureMap, stats, k, n, m - r, chosen.description());
      NystromKernelPCAModel model = new NystromKernelPCAModel(uid, solution).setParent(this);
      copyValues(model, ParamMap.empty());
      if (type.usesGamma()) {
        model.set(model.gamma(), gammaUsed);
      }
      model.set(model.numLandmarks(), m);
      LOG.info("NystromKernelPCA {}: fitted in {} s; explained variance ratio {}", uid,
          String.format("%.3f", (System.nanoTime() - start) / 1e9), model.explainedVarianceRatio());
      return model;
    } finally {
      if (persist) {
        vectors.unpersist(false);
      }
    }
  }

  /** Linear PCA of the Nyström features, mapped back to landmark weights (driver side). */
  private KernelPCASolution solve(NystromFeatureMap featureMap, FeatureStatistics stats, int k, long n,
      int droppedRank, String landmarkSelection) {
    boolean centered = getCentered();
    LinearPCA pca = LinearPCA.fit(stats, k, centered);
    int m = featureMap.landmarkKernel().numLandmarks();
    int r = featureMap.rank();
    double[] projector = featureMap.toLandmarkWeights(pca.components(), k);
    double[] signs = SymmetricEigen.fixSigns(projector, m, k);
    double[] mean = pca.mean();
    double[] offset = new double[k];
    double[] meanWeights = new double[m];
    double meanSqNorm = 0;
    if (centered) {
      double[] u = pca.components();
      for (int c = 0; c < k; c++) {
        double o = 0;
        for (int i = 0; i < r; i++) {
          o += u[i + c * r] * mean[i];
        }
        offset[c] = signs[c] * o;
      }
      meanWeights = featureMap.toLandmarkWeights(mean, 1);
      for (double v : mean) {
        meanSqNorm += v * v;
      }
    }
    double[] spectrum = pca.variances();
    for (int c = 1; c < k; c++) {
      if (!(spectrum[c] > getRcond() * spectrum[0])) {
        LOG.warn("NystromKernelPCA {}: component {} of {} has (numerically) zero variance {}", uid, c + 1, k,
            spectrum[c]);
        break;
      }
    }
    double total;
    String method;
    if (!getKernelType().isPositiveDefinite()) {
      // k(x,x) of an indefinite kernel is no variance; refer the ratios to the positive part found.
      total = java.util.Arrays.stream(spectrum).sum();
      method = "positive-part: sum of the eigenvalues kept (the kernel is not positive definite)";
    } else if (centered) {
      total = pca.diagonalMean() - meanSqNorm;
      method = "nystrom-mean: (1/n) sum k(x,x) - ||projected mean||^2, an upper bound of the centred variance";
    } else {
      total = pca.diagonalMean();
      method = "exact: (1/n) sum k(x,x)";
    }
    NystromProjector projectorMap = new NystromProjector(featureMap.landmarkKernel(), projector, k, offset,
        meanWeights, meanSqNorm);
    return new KernelPCASolution(projectorMap, spectrum, total, method, n, droppedRank, landmarkSelection);
  }

  /** Landmarks as chosen by a strategy: m×d row-major rows, their count and how they were obtained. */
  private record ChosenLandmarks(double[] rows, int count, String description) {
  }

  /** Runs the {@code landmarkSampling} strategy (the uniform one was drawn by the validating scan). */
  private ChosenLandmarks chooseLandmarks(SparkSession spark, JavaRDD<Vector> vectors, DataScan scan,
      Kernel kernel, long n, int d, int m) {
    SparkContext sc = spark.sparkContext();
    String fewer = scan.sampleSize() < m ? " (the data have only " + scan.sampleSize() + " distinct rows)" : "";
    switch (getLandmarkSelection()) {
      case UNIFORM -> {
        return new ChosenLandmarks(scan.sampleRowMajor(), scan.sampleSize(), "uniform: " + scan.sampleSize()
            + " distinct rows of " + n + ", sampled without replacement" + fewer);
      }
      case LEVERAGE -> {
        LeverageScoreSampler sampler = new LeverageScoreSampler(
            new LandmarkKernel(kernel, scan.sampleRowMajor(), scan.sampleSize(), d), n,
            getLeverageRegularization(), m, getSeed());
        int blockSize = effectiveBlockSize(scan.sampleSize(), d, scan.sampleSize());
        String column = getInputCol();
        Broadcast<LeverageScoreSampler> broadcast = sc.broadcast(sampler,
            scala.reflect.ClassTag$.MODULE$.apply(LeverageScoreSampler.class));
        try {
          int depth = SparkJobs.aggregationDepth(sc, vectors.getNumPartitions(), 8L * m * d);
          SmallestKeys kept = SparkJobs.described(sc, "NystromKernelPCA " + uid + ": sample " + m
              + " landmarks by approximate ridge leverage scores", () -> vectors
              .mapPartitions(it -> Collections.singletonList(broadcast.value().samplePartition(it, blockSize, column))
                  .iterator())
              .treeAggregate(new SmallestKeys(m), SmallestKeys::merge, SmallestKeys::merge, depth));
          return new ChosenLandmarks(kept.rowsByKey(d), kept.size(), "leverage: " + kept.size() + " distinct rows of "
              + n + ", sampled without replacement proportionally to approximate ridge leverage scores (lambda = "
              + getLeverageRegularization() + " x mean k(x,x), n*lambda = " + sampler.ridge() + ", pilot of "
              + scan.sampleSize() + " uniform rows)" + fewer);
        } finally {
          broadcast.destroy();
        }
      }
      case KMEANS -> {
        KMeansLandmarks.Centres centres = SparkJobs.described(sc, "NystromKernelPCA " + uid + ": k-means with k = "
            + m + " for the landmarks", () -> KMeansLandmarks.select(spark, vectors, n, d, m, getSeed(),
            getKmeansMaxIter()));
        return new ChosenLandmarks(centres.rowMajor(), centres.count(), "kmeans: " + centres.count()
            + " distinct centres of Spark ML KMeans (k = " + m + ", k-means|| init, maxIter = " + getKmeansMaxIter()
            + ")" + (centres.count() < m ? " (k-means|| found fewer distinct centres than k)" : ""));
      }
      default -> throw new IllegalStateException("unhandled landmark strategy " + getLandmarkSelection());
    }
  }

  /** d from the column's size metadata, else from its first row. */
  private static int inputDimension(Dataset<?> dataset, String column) {
    StructField field = dataset.schema().apply(column);
    int size = AttributeGroup.fromStructField(field).size();
    if (size >= 0) {
      return size;
    }
    List<Row> first = dataset.select(SparkJobs.column(dataset, column)).limit(1).collectAsList();
    if (first.isEmpty()) {
      throw new IllegalArgumentException("Column '" + column + "' of the input has no rows");
    }
    Object v = first.get(0).get(0);
    if (v == null) {
      throw new IllegalArgumentException("Column '" + column + "': the vector in row 0 is null");
    }
    return ((Vector) v).size();
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

  private static final class Writer extends MLWriter {
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
          rows.add(RowFactory.create(j, new DenseVector(java.util.Arrays.copyOfRange(instance.suppliedLandmarks,
              j * d, (j + 1) * d))));
        }
        StructType schema = new StructType().add("index", "int").add("landmark", SQLDataTypes.VectorType());
        sparkSession().createDataFrame(rows, schema).write().parquet(path + "/data/landmarks");
      }
    }

    /** Replaces only a saved spark-kpca stage, atomically ({@link io.github.sparkkpca.ml.util.SafeOutput}). */
    @Override
    public void save(String path) throws java.io.IOException {
      io.github.sparkkpca.ml.util.SafeOutput.saveStage(path, shouldOverwrite(), sparkSession(), this::saveImpl);
    }
  }

  private static final class Reader extends MLReader<NystromKernelPCA> {
    @Override
    public NystromKernelPCA load(String path) {
      JsonNode metadata = Persistence.loadMetadata(path, sparkSession(), NystromKernelPCA.class);
      NystromKernelPCA estimator = new NystromKernelPCA(metadata.get("uid").asText());
      Persistence.applyParams(estimator, metadata, path);
      org.apache.hadoop.fs.Path landmarksPath = new org.apache.hadoop.fs.Path(path, "data/landmarks");
      try {
        org.apache.hadoop.fs.FileSystem fs = landmarksPath.getFileSystem(sparkSession().sparkContext()
            .hadoopConfiguration());
        if (fs.exists(landmarksPath)) {
          List<Row> rows = sparkSession().read().parquet(landmarksPath.toString()).orderBy("index")
              .collectAsList();
          Vector[] landmarks = new Vector[rows.size()];
          for (int j = 0; j < landmarks.length; j++) {
            landmarks[j] = (Vector) rows.get(j).get(1);
          }
          estimator.setLandmarks(landmarks);
        }
      } catch (java.io.IOException e) {
        throw new IllegalArgumentException("Cannot load NystromKernelPCA from '" + path + "': " + e.getMessage(),
            e);
      }
      return estimator;
    }
  }
}
