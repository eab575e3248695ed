package io.github.sparkkpca.ml;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.execution.DataScan;
import io.github.sparkkpca.execution.FitMemory;
import io.github.sparkkpca.execution.KernelPcaFit;
import io.github.sparkkpca.execution.SuppliedLandmarks;
import io.github.sparkkpca.execution.TopKFit;
import io.github.sparkkpca.feature.NystromFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.landmarks.LandmarkSampler;
import io.github.sparkkpca.landmarks.LandmarkSampling;
import io.github.sparkkpca.pca.FeaturePCA;
import io.github.sparkkpca.persistence.Persistence;
import io.github.sparkkpca.persistence.StageWriter;
import java.util.Arrays;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
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
 * <p><b>Plan.</b> A validating pass draws the landmarks ({@link DataScan}); the driver factors K_mm
 * ({@link NystromFeatureMap}); one pass accumulates the features' statistics (or, {@code
 * statisticsRoute = top-k}, block Krylov passes with no m×m statistic: {@link TopKFit}); the driver
 * solves linear PCA ({@link FeaturePCA}). {@link FitMemory} refuses what cannot fit, before any
 * pass. The model keeps the statistics except on the top-k route.
 *
 * <p>References: Sterge, Sriperumbudur, Rosasco and Rudi, "Gain with no Pain: Efficiency of
 * Kernel-PCA by Nyström Sampling", AISTATS 2020; Williams and Seeger, NIPS 2001; Hallgren, PhD
 * thesis, UCL 2021, ch. 6.
 */
public final class NystromKernelPCA extends Estimator<NystromKernelPCAModel>
    implements NystromKernelPCAParams, MLWritable {

  private static final Logger LOG = LoggerFactory.getLogger(NystromKernelPCA.class);

  private final String uid;
  private final KernelPCAParams.Definitions kernelPCAParams;
  private final NystromKernelPCAParams.Definitions nystromParams;

  /** User-supplied landmarks, or null to sample them. */
  private SuppliedLandmarks supplied;

  /** The feature names of the model the supplied landmarks came from (none for other landmarks). */
  private String[] suppliedNames = FeatureNames.NONE;

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

  /**
   * Output column of the models' pre-images (copied to the model), e.g. for {@code
   * ReconstructionErrorEvaluator}'s input-space metrics.
   */
  public NystromKernelPCA setReconstructionCol(String value) {
    set(reconstructionCol(), value);
    return this;
  }

  /**
   * The models' column of ‖x − x̂‖² to the pre-image, at sparse cost (see {@code
   * preimageErrorCol}); empty: not produced.
   */
  public NystromKernelPCA setPreimageErrorCol(String value) {
    set(preimageErrorCol(), value);
    return this;
  }

  /** The models' pre-image method (copied to the model): fixed-point (rbf) or ridge. */
  public NystromKernelPCA setPreimageMethod(String value) {
    set(preimageMethod(), value);
    return this;
  }

  /** The ridge α of the models' ridge pre-image map (copied to the model). */
  public NystromKernelPCA setPreimageRidge(double value) {
    set(preimageRidge(), value);
    return this;
  }

  /** The models' fixed-point iterations (copied to the model). */
  public NystromKernelPCA setPreimageMaxIter(int value) {
    set(preimageMaxIter(), value);
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
   * {@code auto} (default), {@code whitened}, {@code gram}, {@code gram-checked} or {@code top-k}:
   * how the statistics pass forms the feature covariance ({@link
   * io.github.sparkkpca.feature.StatisticsRoute}; bounds, checks and the cost rule in
   * docs/gram-route.md).
   */
  public NystromKernelPCA setStatisticsRoute(String value) {
    set(statisticsRoute(), value);
    return this;
  }

  /** The top-k route's residual tolerance, relative to λ₁ (default 1e-6). */
  public NystromKernelPCA setTopKTolerance(double value) {
    set(topKTolerance(), value);
    return this;
  }

  /** The most passes the top-k route may make before it fails (default 40). */
  public NystromKernelPCA setTopKMaxPasses(int value) {
    set(topKMaxPasses(), value);
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
    this.supplied = SuppliedLandmarks.of(landmarks);
    this.suppliedNames = FeatureNames.NONE;
    return this;
  }

  /**
   * Fits with the landmarks and the kernel of an existing model: its landmarks, and its kernel, γ,
   * degree and c₀ (set them again afterwards to change them). A fit on rows A ∪ B with the
   * landmarks of a model fitted on A equals that model updated with B ({@link
   * NystromKernelPCAModel#update}).
   */
  public NystromKernelPCA setLandmarksFrom(AbstractKernelPCAModel<?> model) {
    SuppliedLandmarks landmarks = SuppliedLandmarks.of(model.landmarkVectors());
    Kernel kernel = model.fittedKernel();
    setKernel(kernel.type().paramName());
    if (kernel.type().usesGamma()) {
      setGamma(kernel.gamma());
    }
    setDegree(kernel.degree());
    setCoef0(kernel.coef0());
    this.supplied = landmarks;
    this.suppliedNames = model.featureNames();
    return this;
  }

  /**
   * The feature names of the model whose landmarks {@link #setLandmarksFrom} took (empty when it
   * had none, or the landmarks came from elsewhere): the fit's input must name its features alike.
   */
  public String[] landmarkFeatureNames() {
    return suppliedNames.clone();
  }

  /**
   * Uses the vectors of {@code column} in {@code landmarks} (collected to the driver) as landmarks.
   */
  public NystromKernelPCA setLandmarks(Dataset<?> landmarks, String column) {
    return setLandmarks(SuppliedLandmarks.collect(landmarks, column));
  }

  /** Whether landmarks were supplied with {@code setLandmarks}. */
  public boolean hasSuppliedLandmarks() {
    return supplied != null;
  }

  /**
   * The Nyström options of the fit, from the params, the supplied landmarks and the session's top-k
   * settings (none for the schema).
   */
  private NystromFit.Options options(org.apache.spark.sql.SparkSession session) {
    TopKFit.Settings topK = TopKFit.Settings.of(getTopKTolerance(), getTopKMaxPasses());
    boolean grows = supplied == null && getLandmarkSelection() == LandmarkSampling.RESIDUAL;
    return new NystromFit.Options(
        supplied,
        getLandmarkSelection(),
        grows ? getMaxLandmarks() : getNumLandmarks(),
        getLeverageRegularization(),
        getKmeansMaxIter(),
        residualGrowthSettings(),
        getRcond(),
        getStatisticsRoute(),
        getSpectrumExtent(),
        session == null ? topK : topK.withSession(session));
  }

  @Override
  public StructType transformSchema(StructType schema) {
    validateInputColumn(schema);
    int k = getK();
    NystromFit.Options options = options(null);
    int m = options.requestedLandmarks();
    if (k > m) {
      throw new IllegalArgumentException(
          "k = "
              + k
              + " exceeds the number of landmarks m = "
              + m
              + (hasSuppliedLandmarks()
                  ? " (supplied)"
                  : options.growsLandmarks() ? " (maxLandmarks)" : " (numLandmarks)")
              + "; k must be <= m");
    }
    return appendOutputColumns(
        schema, k, AttributeGroup.fromStructField(schema.apply(getInputCol())).size());
  }

  @Override
  public NystromKernelPCAModel fit(Dataset<?> dataset) {
    long start = System.nanoTime();
    transformSchema(dataset.schema(), true);
    if (supplied != null && Arrays.asList(dataset.schema().fieldNames()).contains(getInputCol())) {
      FeatureNames.check(
          suppliedNames,
          dataset.schema().apply(getInputCol()),
          "inputCol",
          "the model whose landmarks setLandmarksFrom took",
          () -> {});
    }
    KernelPcaFit.Settings settings = FitSettings.of(LOG, "NystromKernelPCA " + uid, this);
    NystromFit.Result fit =
        KernelPcaFit.run(
            dataset, settings, new NystromFit(settings, options(dataset.sparkSession())));
    LandmarkSampler.Landmarks chosen = fit.chosen();
    int m = chosen.count();
    NystromKernelPCAModel model =
        new NystromKernelPCAModel(uid, fit.solution(m - fit.support().rank(), chosen.description()))
            .setParent(this);
    copyValues(model, ParamMap.empty());
    model.withFeatureNamesOf(dataset.schema());
    model.recordFit(fit);
    LOG.info(
        "NystromKernelPCA {}: fitted in {} s; explained variance ratio {}",
        uid,
        String.format("%.3f", (System.nanoTime() - start) / 1e9),
        model.explainedVarianceRatio());
    return model;
  }

  @Override
  public NystromKernelPCA copy(ParamMap extra) {
    NystromKernelPCA copied = defaultCopy(extra);
    copied.supplied = supplied;
    copied.suppliedNames = suppliedNames;
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
      if (instance.supplied != null) {
        instance.supplied.save(path, sparkSession());
      }
    }
  }

  private static final class Reader extends MLReader<NystromKernelPCA> {
    @Override
    public NystromKernelPCA load(String path) {
      JsonNode metadata = Persistence.loadMetadata(path, sparkSession(), NystromKernelPCA.class);
      NystromKernelPCA estimator = new NystromKernelPCA(metadata.get("uid").asText());
      Persistence.applyParams(estimator, metadata, path);
      estimator.supplied = SuppliedLandmarks.load(path, sparkSession(), "NystromKernelPCA");
      return estimator;
    }
  }
}
