package io.github.sparkkpca.ml;

import io.github.sparkkpca.feature.NystromProjector;
import io.github.sparkkpca.feature.Preimage;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import java.util.Arrays;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.DenseMatrix;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * What every fitted kernel PCA model shares: scores y(x) = Pᵀk_x − o over m support points, the per-row
 * residual, the spectrum and its summaries, and persistence.
 *
 * @param <M> the concrete model type
 */
public abstract class AbstractKernelPCAModel<M extends AbstractKernelPCAModel<M>> extends Model<M>
    implements KernelPCAParams, MLWritable {

  private final String uid;
  private final KernelPCAParams.Definitions kernelPCAParams;
  private final KernelPCASolution solution;

  protected AbstractKernelPCAModel(String uid, KernelPCASolution solution) {
    this.uid = uid;
    this.kernelPCAParams = new KernelPCAParams.Definitions(this);
    this.solution = solution;
  }

  @Override
  public String uid() {
    return uid;
  }

  @Override
  public KernelPCAParams.Definitions kernelPCAParams() {
    return kernelPCAParams;
  }

  /** The fitted state. */
  public KernelPCASolution solution() {
    return solution;
  }

  /** The kernel with the parameters used at fit (γ resolved). */
  public Kernel fittedKernel() {
    return solution.projector().landmarkKernel().kernel();
  }

  @SuppressWarnings("unchecked")
  public M setInputCol(String value) {
    set(inputCol(), value);
    return (M) this;
  }

  @SuppressWarnings("unchecked")
  public M setOutputCol(String value) {
    set(outputCol(), value);
    return (M) this;
  }

  @SuppressWarnings("unchecked")
  public M setResidualCol(String value) {
    set(residualCol(), value);
    return (M) this;
  }

  @SuppressWarnings("unchecked")
  public M setReconstructionCol(String value) {
    set(reconstructionCol(), value);
    return (M) this;
  }

  @SuppressWarnings("unchecked")
  public M setPreimageMethod(String value) {
    set(preimageMethod(), value);
    return (M) this;
  }

  @SuppressWarnings("unchecked")
  public M setPreimageMaxIter(int value) {
    set(preimageMaxIter(), value);
    return (M) this;
  }

  @SuppressWarnings("unchecked")
  public M setPreimageRidge(double value) {
    set(preimageRidge(), value);
    return (M) this;
  }

  @SuppressWarnings("unchecked")
  public M setBlockSize(int value) {
    set(blockSize(), value);
    return (M) this;
  }

  /** k, the number of components. */
  public int numComponents() {
    return solution.projector().numComponents();
  }

  /** d, the input dimension. */
  public int numFeatures() {
    return solution.projector().landmarkKernel().dim();
  }

  /** n, the number of training rows. */
  public long numRows() {
    return solution.numRows();
  }

  /** m, the number of support points (landmarks, or training rows for exact KPCA). */
  public int numSupportPoints() {
    return solution.projector().landmarkKernel().numLandmarks();
  }

  /**
   * The numerical rank of the fit: the number of eigenvalues kept (support points minus
   * {@link #droppedRank()}).
   */
  public int rank() {
    return numSupportPoints() - solution.droppedRank();
  }

  /** How the support points were chosen (strategy, effective count, and why fewer when fewer). */
  public String landmarkSelection() {
    return solution.landmarkSelection();
  }

  /** How many support directions were dropped by rank thresholding (duplicates, ill-conditioning). */
  public int droppedRank() {
    return solution.droppedRank();
  }

  /**
   * Every eigenvalue the fit found, descending: the covariance spectrum in feature space (in H_m for
   * Nyström). Its first k entries are {@link #explainedVariance()}.
   */
  public DenseVector eigenvalues() {
    return new DenseVector(solution.spectrum().clone());
  }

  /** Σ_1..Σ_k: the variances of the k scores on the training data (mean squares when uncentred). */
  public DenseVector explainedVariance() {
    return new DenseVector(Arrays.copyOf(solution.spectrum(), numComponents()));
  }

  /** Σ_i / {@link #totalVariance()} for i = 1..k. */
  public DenseVector explainedVarianceRatio() {
    double[] ratio = Arrays.copyOf(solution.spectrum(), numComponents());
    for (int i = 0; i < ratio.length; i++) {
      ratio[i] /= solution.totalVariance();
    }
    return new DenseVector(ratio);
  }

  /** The total feature-space variance the ratios and errors refer to; see {@link #totalVarianceMethod()}. */
  public double totalVariance() {
    return solution.totalVariance();
  }

  /** How {@link #totalVariance()} was obtained. */
  public String totalVarianceMethod() {
    return solution.totalVarianceMethod();
  }

  /**
   * Training reconstruction error R(ℓ) = totalVariance − Σ_{i≤ℓ} Σ_i for ℓ = 1..k: the mean squared
   * feature-space distance of the (centred) training points to the ℓ-dimensional principal subspace
   * (Sterge et al. 2020, eq. 19, when uncentred). Clamped at 0.
   */
  public DenseVector reconstructionError() {
    int k = numComponents();
    double[] error = new double[k];
    double captured = 0;
    for (int l = 0; l < k; l++) {
      captured += solution.spectrum()[l];
      error[l] = Math.max(solution.totalVariance() - captured, 0.0);
    }
    return new DenseVector(error);
  }

  /** The m×d support points (landmarks), one per row. */
  public DenseMatrix landmarks() {
    LandmarkKernel lk = solution.projector().landmarkKernel();
    // Row-major m×d equals column-major d×m, hence the transpose.
    return new DenseMatrix(lk.dim(), lk.numLandmarks(), lk.landmarks().clone()).transpose().toDense();
  }

  /** P, the m×k projector: y(x) = Pᵀk_x − o. */
  public DenseMatrix projector() {
    return new DenseMatrix(numSupportPoints(), numComponents(), solution.projector().projector().clone());
  }

  /** o, the score offset (Pᵀ times the mean kernel vector; zero when uncentred). */
  public DenseVector offset() {
    return new DenseVector(solution.projector().offset().clone());
  }

  @Override
  public StructType transformSchema(StructType schema) {
    StructField input = validateInputColumn(schema);
    int expected = AttributeGroup.fromStructField(input).size();
    if (expected >= 0 && expected != numFeatures()) {
      throw new IllegalArgumentException("Input column '" + getInputCol() + "' holds vectors of size " + expected
          + " but the model was fitted on size " + numFeatures());
    }
    if (!getReconstructionCol().isEmpty() && Preimage.Method.parse(getPreimageMethod()) == Preimage.Method.FIXED_POINT
        && fittedKernel().type() != io.github.sparkkpca.kernel.KernelType.RBF) {
      throw new IllegalArgumentException("preimageMethod fixed-point needs the rbf kernel, the model uses "
          + fittedKernel().type().paramName() + "; set preimageMethod to ridge");
    }
    return appendOutputColumns(schema, numComponents(), numFeatures());
  }

  /** The pre-image map the params ask for, or null when {@code reconstructionCol} is empty. */
  private Preimage preimage() {
    if (getReconstructionCol().isEmpty()) {
      return null;
    }
    return Preimage.Method.parse(getPreimageMethod()) == Preimage.Method.FIXED_POINT
        ? Preimage.fixedPoint(solution.projector(), getPreimageMaxIter())
        : Preimage.ridge(solution.projector(), getPreimageRidge());
  }

  @Override
  public Dataset<Row> transform(Dataset<?> dataset) {
    StructType outSchema = transformSchema(dataset.schema(), true);
    SparkSession spark = dataset.sparkSession();
    NystromProjector projector = solution.projector();
    Broadcast<NystromProjector> broadcast = spark.sparkContext().broadcast(projector,
        scala.reflect.ClassTag$.MODULE$.apply(NystromProjector.class));
    int blockSize = effectiveBlockSize(numSupportPoints(), numFeatures(), numComponents());
    Preimage preimage = preimage();
    Broadcast<Preimage> preimageBroadcast = preimage == null ? null : spark.sparkContext().broadcast(preimage,
        scala.reflect.ClassTag$.MODULE$.apply(Preimage.class));
    ProjectPartition project = new ProjectPartition(broadcast, dataset.schema().fieldIndex(getInputCol()),
        getInputCol(), numFeatures(), blockSize, !getResidualCol().isEmpty(), preimageBroadcast);
    Dataset<Row> scored = dataset.toDF().mapPartitions(project, Encoders.row(outSchema));
    // The row encoder drops column metadata; re-attach the vector sizes.
    for (String vectorCol : new String[] {getOutputCol(), getReconstructionCol()}) {
      if (!vectorCol.isEmpty()) {
        StructField field = outSchema.apply(vectorCol);
        scored = scored.withColumn(vectorCol, SparkJobs.column(scored, vectorCol).as(vectorCol, field.metadata()));
      }
    }
    return scored;
  }

  @Override
  public MLWriter write() {
    return new ModelWriter(this);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + ": uid=" + uid + ", k=" + numComponents() + ", m=" + numSupportPoints()
        + ", d=" + numFeatures() + ", kernel=" + fittedKernel();
  }

  /** Writes metadata (params) and the solution. */
  static final class ModelWriter extends MLWriter {
    private final AbstractKernelPCAModel<?> instance;

    ModelWriter(AbstractKernelPCAModel<?> instance) {
      this.instance = instance;
    }

    @Override
    public void saveImpl(String path) {
      Persistence.saveMetadata(instance, path, sparkSession());
      Persistence.saveSolution(instance.solution, path, sparkSession());
    }

    /** Replaces only a saved spark-kpca stage, atomically ({@link io.github.sparkkpca.ml.util.SafeOutput}). */
    @Override
    public void save(String path) throws java.io.IOException {
      io.github.sparkkpca.ml.util.SafeOutput.saveStage(path, shouldOverwrite(), sparkSession(), this::saveImpl);
    }
  }

  /** The kernel a saved model's params describe. */
  static Kernel kernelOf(KernelPCAParams params) {
    double gamma = params.getGamma();
    return new Kernel(params.getKernelType(), params.getKernelType().usesGamma() ? gamma : 1.0,
        params.getDegree(), params.getCoef0());
  }
}
