package io.github.sparkkpca.ml;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.execution.KernelPcaFit;
import io.github.sparkkpca.execution.RandomFeatureFit;
import io.github.sparkkpca.feature.RandomFourierFeatureMap;
import io.github.sparkkpca.pca.FeaturePCA;
import io.github.sparkkpca.pca.KernelPCASolution;
import io.github.sparkkpca.persistence.ModelExport;
import io.github.sparkkpca.persistence.Persistence;
import io.github.sparkkpca.persistence.StageWriter;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.attribute.AttributeGroup;
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
 * Distributed kernel PCA on random Fourier features (RF-ERM of Ullah, Mianjy, Marinov and Arora,
 * "Streaming Kernel PCA with Õ(√n) Random Features", NeurIPS 2018): linear PCA of z(x) =
 * √(2/D)·cos(Ωx + b), whose inner products approximate a shift-invariant kernel ({@link
 * RandomFourierFeatureMap}: rbf and laplacian). With C = (1/n)Σ(z_i − z̄)(z_i − z̄)ᵀ = UΣUᵀ (or the
 * second moment (1/n)Σz_iz_iᵀ when {@code centered} is false, the paper's formulation), the model
 * scores y(x) = U_kᵀ(z(x) − z̄). Unlike Nyström, the features do not depend on the data: there are
 * no landmarks, and the cost per row does not depend on n.
 *
 * <p><b>One model family.</b> This is a separate estimator, with its own model class {@link
 * RandomFeatureKernelPCAModel}, rather than a {@code featureMap} switch on {@link
 * NystromKernelPCA}: the two have different parameters (D, or the rate constant c, against m, the
 * landmark sampling and rcond), a Pipeline stage should only carry parameters that mean something
 * for it, and a saved model's class name says what it is. Both models extend {@link
 * AbstractKernelPCAModel} and share everything after the feature map: the statistics ({@link
 * FeaturePCA}), transform and residual, the summaries, {@code update} (statistics merged,
 * components solved again), persistence (format 2, one codec per map kind) and {@link ModelExport}.
 * What needs landmarks ({@code landmarks()}, {@code projector()}, pre-images) fails with a clear
 * message on a random feature model.
 *
 * <p><b>Plan.</b> (1) One validating pass counts the rows, rejects bad vectors (naming the row)
 * and, when γ is unset, samples up to 1000 rows for the median heuristic. (2) The driver chooses D
 * ({@code numRandomFeatures}, or ⌈c·√n·ln n⌉ when {@code featureScale} c is set: the O(√n log n)
 * rate under which the paper's Corollary 4.3 gives an O(1/√n) excess risk; the paper states no log
 * base, the natural log is used) and draws ω and b from the seed, independently of the data and the
 * partitioning. (3) One pass accumulates n, z̄, the centred D×D scatter and Σ‖z(x)‖² block by block
 * (one GEMM, a vectorised cosine and one SYRK per block), merged on the executors. (4) The driver
 * solves the D×D eigenproblem. Cost: 2·n·D·d flops for the features, n·D² for the statistics, O(D³)
 * on the driver. Before any pass (after the counting pass when D follows n), a D whose D×D matrices
 * cannot fit is refused.
 *
 * <p>The total variance is exact for the features ((1/n)Σ‖z(x)‖² − ‖z̄‖² when centred): ratios
 * refer to the random feature space, whose kernel only approximates k (‖z(x)‖² is 1 on average, not
 * exactly).
 */
public final class RandomFeatureKernelPCA extends Estimator<RandomFeatureKernelPCAModel>
    implements RandomFeatureKernelPCAParams, MLWritable {

  private static final Logger LOG = LoggerFactory.getLogger(RandomFeatureKernelPCA.class);

  /** Rows sampled for the median heuristic for γ (pairs: about half its square). */
  private final String uid;

  private final KernelPCAParams.Definitions kernelPCAParams;
  private final RandomFeatureKernelPCAParams.Definitions randomFeatureParams;

  public RandomFeatureKernelPCA() {
    this(Identifiable.randomUID("randomFeatureKernelPCA"));
  }

  public RandomFeatureKernelPCA(String uid) {
    this.uid = uid;
    this.kernelPCAParams = new KernelPCAParams.Definitions(this);
    this.randomFeatureParams = new RandomFeatureKernelPCAParams.Definitions(this);
    RandomFeatureKernelPCAParams.setDefaults(this);
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
  public RandomFeatureKernelPCAParams.Definitions randomFeatureParams() {
    return randomFeatureParams;
  }

  /** {@code leading} (default) or {@code full}: how much of the covariance spectrum to compute. */
  public RandomFeatureKernelPCA setSpectrum(String value) {
    set(spectrum(), value);
    return this;
  }

  public RandomFeatureKernelPCA setInputCol(String value) {
    set(inputCol(), value);
    return this;
  }

  public RandomFeatureKernelPCA setOutputCol(String value) {
    set(outputCol(), value);
    return this;
  }

  public RandomFeatureKernelPCA setResidualCol(String value) {
    set(residualCol(), value);
    return this;
  }

  /**
   * The column of each row's pre-image (the input-space point whose feature vector is nearest the
   * row's projection), copied to the fitted model; empty (the default) for none.
   */
  public RandomFeatureKernelPCA setReconstructionCol(String value) {
    set(reconstructionCol(), value);
    return this;
  }

  /**
   * The models' column of ‖x − x̂‖² to the pre-image, at sparse cost (see {@code
   * preimageErrorCol}); empty: not produced.
   */
  public RandomFeatureKernelPCA setPreimageErrorCol(String value) {
    set(preimageErrorCol(), value);
    return this;
  }

  /** How the model computes pre-images (see {@code preimageMethod}), copied to the fitted model. */
  public RandomFeatureKernelPCA setPreimageMethod(String value) {
    set(preimageMethod(), value);
    return this;
  }

  /** The iterations of the fixed-point pre-image, copied to the fitted model. */
  public RandomFeatureKernelPCA setPreimageMaxIter(int value) {
    set(preimageMaxIter(), value);
    return this;
  }

  /** The ridge of the learned pre-image map, copied to the fitted model. */
  public RandomFeatureKernelPCA setPreimageRidge(double value) {
    set(preimageRidge(), value);
    return this;
  }

  public RandomFeatureKernelPCA setK(int value) {
    set(k(), value);
    return this;
  }

  public RandomFeatureKernelPCA setNumRandomFeatures(int value) {
    set(numRandomFeatures(), value);
    return this;
  }

  public RandomFeatureKernelPCA setFeatureScale(double value) {
    set(featureScale(), value);
    return this;
  }

  public RandomFeatureKernelPCA setKernel(String value) {
    set(kernel(), value);
    return this;
  }

  public RandomFeatureKernelPCA setGamma(double value) {
    set(gamma(), value);
    return this;
  }

  /** Sets γ = 1/(2σ²) for the rbf kernel from a bandwidth σ > 0. */
  public RandomFeatureKernelPCA setSigma(double sigma) {
    if (!(sigma > 0) || Double.isInfinite(sigma)) {
      throw new IllegalArgumentException("sigma must be finite and > 0, got " + sigma);
    }
    return setGamma(1.0 / (2.0 * sigma * sigma));
  }

  public RandomFeatureKernelPCA setCentered(boolean value) {
    set(centered(), value);
    return this;
  }

  public RandomFeatureKernelPCA setSeed(long value) {
    set(seed(), value);
    return this;
  }

  public RandomFeatureKernelPCA setBlockSize(int value) {
    set(blockSize(), value);
    return this;
  }

  @Override
  public StructType transformSchema(StructType schema) {
    validateInputColumn(schema);
    try {
      RandomFourierFeatureMap.requireSupported(getKernelType());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("RandomFeatureKernelPCA: " + e.getMessage(), e);
    }
    if (isSet(numRandomFeatures()) && isSet(featureScale())) {
      throw new IllegalArgumentException(
          "RandomFeatureKernelPCA: set numRandomFeatures (D = "
              + getNumRandomFeatures()
              + ") or featureScale (c = "
              + getFeatureScale()
              + ", D = ceil(c sqrt(n) ln n)), "
              + "not both");
    }
    int k = getK();
    if (!isDefined(featureScale()) && k > getNumRandomFeatures()) {
      throw new IllegalArgumentException(
          "k = "
              + k
              + " exceeds the number of random features D = "
              + getNumRandomFeatures()
              + " (numRandomFeatures); k must be <= D");
    }
    return appendOutputColumns(
        schema, k, AttributeGroup.fromStructField(schema.apply(getInputCol())).size());
  }

  @Override
  public RandomFeatureKernelPCAModel fit(Dataset<?> dataset) {
    long start = System.nanoTime();
    transformSchema(dataset.schema(), true);
    KernelPcaFit.Settings settings = FitSettings.of(LOG, "RandomFeatureKernelPCA " + uid, this);
    RandomFeatureFit.Result fit =
        KernelPcaFit.run(
            dataset,
            settings,
            new RandomFeatureFit(
                settings,
                getNumRandomFeatures(),
                isDefined(featureScale()) ? getFeatureScale() : Double.NaN,
                getSpectrumExtent()));
    RandomFeatureKernelPCAModel model =
        new RandomFeatureKernelPCAModel(
                uid, KernelPCASolution.of(fit.fitted(), 0, fit.description()))
            .setParent(this);
    copyValues(model, ParamMap.empty());
    model.withFeatureNamesOf(dataset.schema());
    LOG.info(
        "RandomFeatureKernelPCA {}: fitted in {} s; explained variance ratio {}",
        uid,
        String.format("%.3f", (System.nanoTime() - start) / 1e9),
        model.explainedVarianceRatio());
    return model;
  }

  @Override
  public RandomFeatureKernelPCA copy(ParamMap extra) {
    return defaultCopy(extra);
  }

  @Override
  public MLWriter write() {
    return StageWriter.paramsOnly(this);
  }

  public static MLReader<RandomFeatureKernelPCA> read() {
    return new MLReader<>() {
      @Override
      public RandomFeatureKernelPCA load(String path) {
        JsonNode metadata =
            Persistence.loadMetadata(path, sparkSession(), RandomFeatureKernelPCA.class);
        RandomFeatureKernelPCA estimator = new RandomFeatureKernelPCA(metadata.get("uid").asText());
        Persistence.applyParams(estimator, metadata, path);
        return estimator;
      }
    };
  }

  public static RandomFeatureKernelPCA load(String path) {
    return read().load(path);
  }
}
