package io.github.sparkkpca.ml;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.execution.DataScan;
import io.github.sparkkpca.execution.QuotedColumns;
import io.github.sparkkpca.feature.KernelExpansion;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelDegeneracy;
import io.github.sparkkpca.kernel.KernelFamily;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.RowSet;
import io.github.sparkkpca.linalg.SymmetricEigen;
import io.github.sparkkpca.pca.KernelPCASolution;
import io.github.sparkkpca.pca.Projector;
import io.github.sparkkpca.persistence.Persistence;
import io.github.sparkkpca.persistence.StageWriter;
import java.util.List;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.Params;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exact kernel PCA on the driver (Schölkopf, Smola and Müller 1998), for small n and as the
 * reference the Nyström estimator is tested against.
 *
 * <p>Collects the n rows (at most {@code maxRows}, checked before collecting), forms the n×n kernel
 * matrix K, centres it, K̃ = HKH with H = I − 11ᵀ/n (unless {@code centered} is false), and
 * eigendecomposes it, K̃ = V Λ Vᵀ (LAPACK dsyevr). The eigenvalues λ_i/n are the variances of the
 * scores, as scikit-learn's {@code KernelPCA.eigenvalues_ / n}; the coefficients α_i = v_i/√λ_i
 * give the scores y_i(x) = Σ_j α_ij k̃(x, x_j). Memory: 8n² bytes for K and as much again for the
 * eigenvectors.
 */
public final class KernelPCA extends Estimator<KernelPCAModel>
    implements KernelPCAParams, MLWritable {

  private static final Logger LOG = LoggerFactory.getLogger(KernelPCA.class);

  static final int DEFAULT_MAX_ROWS = 10_000;

  private final String uid;
  private final KernelPCAParams.Definitions kernelPCAParams;
  private final IntParam maxRows;

  public KernelPCA() {
    this(Identifiable.randomUID("kernelPCA"));
  }

  public KernelPCA(String uid) {
    this.uid = uid;
    this.kernelPCAParams = new KernelPCAParams.Definitions(this);
    this.maxRows = maxRowsParam(this);
    KernelPCAParams.setDefaults(this);
    setDefault(maxRows, DEFAULT_MAX_ROWS);
  }

  static IntParam maxRowsParam(Params owner) {
    return new IntParam(
        owner,
        "maxRows",
        "largest n exact kernel PCA accepts (it needs about 16 n^2 bytes on "
            + "the driver); above it, use NystromKernelPCA",
        ParamRule.intGt("maxRows", 0).of());
  }

  @Override
  public String uid() {
    return uid;
  }

  @Override
  public KernelPCAParams.Definitions kernelPCAParams() {
    return kernelPCAParams;
  }

  /** The largest number of rows accepted; default 10,000. */
  public IntParam maxRows() {
    return maxRows;
  }

  public int getMaxRows() {
    return (Integer) getOrDefault(maxRows);
  }

  public KernelPCA setMaxRows(int value) {
    set(maxRows, value);
    return this;
  }

  public KernelPCA setInputCol(String value) {
    set(inputCol(), value);
    return this;
  }

  public KernelPCA setOutputCol(String value) {
    set(outputCol(), value);
    return this;
  }

  public KernelPCA setResidualCol(String value) {
    set(residualCol(), value);
    return this;
  }

  /**
   * The column of each row's pre-image (the input-space point whose feature vector is nearest the
   * row's projection), copied to the fitted model; empty (the default) for none.
   */
  public KernelPCA setReconstructionCol(String value) {
    set(reconstructionCol(), value);
    return this;
  }

  /**
   * The models' column of ‖x − x̂‖² to the pre-image, at sparse cost (see {@code
   * preimageErrorCol}); empty: not produced.
   */
  public KernelPCA setPreimageErrorCol(String value) {
    set(preimageErrorCol(), value);
    return this;
  }

  /** How the model computes pre-images (see {@code preimageMethod}), copied to the fitted model. */
  public KernelPCA setPreimageMethod(String value) {
    set(preimageMethod(), value);
    return this;
  }

  /** The iterations of the fixed-point pre-image, copied to the fitted model. */
  public KernelPCA setPreimageMaxIter(int value) {
    set(preimageMaxIter(), value);
    return this;
  }

  /** The ridge of the learned pre-image map, copied to the fitted model. */
  public KernelPCA setPreimageRidge(double value) {
    set(preimageRidge(), value);
    return this;
  }

  public KernelPCA setK(int value) {
    set(k(), value);
    return this;
  }

  public KernelPCA setKernel(String value) {
    set(kernel(), value);
    return this;
  }

  public KernelPCA setGamma(double value) {
    set(gamma(), value);
    return this;
  }

  public KernelPCA setDegree(int value) {
    set(degree(), value);
    return this;
  }

  public KernelPCA setCoef0(double value) {
    set(coef0(), value);
    return this;
  }

  public KernelPCA setCentered(boolean value) {
    set(centered(), value);
    return this;
  }

  @Override
  public StructType transformSchema(StructType schema) {
    validateInputColumn(schema);
    return appendOutputColumns(
        schema, getK(), AttributeGroup.fromStructField(schema.apply(getInputCol())).size());
  }

  @Override
  public KernelPCAModel fit(Dataset<?> dataset) {
    transformSchema(dataset.schema(), true);
    String column = getInputCol();
    int k = getK();
    List<Row> rows =
        io.github.sparkkpca.execution.DistributedPass.described(
            dataset.sparkSession().sparkContext(),
            "KernelPCA " + uid + ": collect '" + column + "'",
            () -> {
              long n = dataset.count();
              if (n > getMaxRows()) {
                throw new IllegalArgumentException(
                    "Exact KernelPCA accepts at most maxRows = "
                        + getMaxRows()
                        + " rows, the input has n = "
                        + n
                        + "; use NystromKernelPCA or raise maxRows");
              }
              return dataset.select(QuotedColumns.column(dataset, column)).collectAsList();
            });
    int n = rows.size();
    if (n == 0) {
      throw new IllegalArgumentException("Column '" + column + "' of the input has no rows");
    }
    Object first = rows.get(0).get(0);
    int d = first instanceof Vector v ? v.size() : 0;
    DataScan scan = new DataScan(0, d, 0L, column);
    scan.scanPartition(0, 0L, rows.stream().map(r -> (Vector) r.get(0)).iterator());
    if (scan.errorMessage() != null) {
      throw new IllegalArgumentException(scan.errorMessage());
    }
    if (k > n) {
      throw new IllegalArgumentException("k = " + k + " exceeds the number of rows n = " + n);
    }
    // The rows as given: sparse rows stay their non-zeros, and the support takes the kernel-block
    // path its non-zeros call for (KernelBlockPath), so K costs O(n·nnz) per row on sparse data.
    Vector[] vectors = new Vector[n];
    for (int i = 0; i < n; i++) {
      vectors[i] = (Vector) rows.get(i).get(0);
    }
    RowSet points = RowSet.of(vectors, d);
    KernelFamily type = getKernelType();
    double gammaUsed = isDefined(gamma()) ? getGamma() : Kernel.medianHeuristicGamma(type, points);
    Kernel kernel = new Kernel(type, type.usesGamma() ? gammaUsed : 1.0, getDegree(), getCoef0());
    LandmarkKernel support = new LandmarkKernel(kernel, points);
    double[] gram = support.gram();
    String degenerate =
        KernelDegeneracy.warning(
            gram, n, kernel, "the n = " + n + " training rows", () -> heuristic(points, gammaUsed));
    if (!degenerate.equals(KernelDegeneracy.NONE)) {
      LOG.warn("KernelPCA {}: {}", uid, degenerate);
    }
    KernelPCASolution solution = solve(support, gram, k, n);
    KernelPCAModel model = new KernelPCAModel(uid, solution).setParent(this);
    copyValues(model, ParamMap.empty());
    return model.withFeatureNamesOf(dataset.schema());
  }

  /**
   * The median heuristic's γ for {@code points}: {@code gammaUsed} when γ is unset (it is that
   * value); NaN for a family without γ or rows that all coincide.
   */
  private double heuristic(RowSet points, double gammaUsed) {
    KernelFamily type = getKernelType();
    if (!type.usesGamma()) {
      return Double.NaN;
    }
    if (!isDefined(gamma())) {
      return gammaUsed;
    }
    try {
      return Kernel.medianHeuristicGamma(type, points);
    } catch (IllegalArgumentException e) {
      return Double.NaN;
    }
  }

  /** Exact kernel PCA of K = {@code support}'s {@code gram} (n×n, centred in place when asked). */
  private KernelPCASolution solve(LandmarkKernel support, double[] gram, int k, int n) {
    boolean centered = getCentered();
    double[] rowMeans = new double[n];
    double grandMean = 0;
    double trace = 0;
    for (int i = 0; i < n; i++) {
      trace += gram[i + i * n];
    }
    if (centered) {
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int i = 0; i < n; i++) {
          s += gram[i + j * n];
        }
        rowMeans[j] = s / n;
        grandMean += rowMeans[j];
      }
      grandMean /= n;
      for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++) {
          gram[i + j * n] += grandMean - rowMeans[i] - rowMeans[j];
        }
      }
    }
    SymmetricEigen eig = SymmetricEigen.of(gram, n);
    int rank = eig.rank(1e-12);
    if (k > rank) {
      throw new IllegalArgumentException(
          "k = "
              + k
              + " exceeds the numerical rank "
              + rank
              + " of the "
              + (centered ? "centred " : "")
              + "kernel matrix (n = "
              + n
              + ")");
    }
    double[] alpha = new double[n * k];
    for (int c = 0; c < k; c++) {
      double scale = 1.0 / Math.sqrt(eig.values()[c]);
      double mean = 0;
      for (int i = 0; i < n; i++) {
        alpha[i + c * n] = eig.vectors()[i + c * n] * scale;
        mean += alpha[i + c * n];
      }
      if (centered) {
        // Eigenvectors of HKH with λ > 0 are orthogonal to 1; remove the rounding residue exactly.
        mean /= n;
        for (int i = 0; i < n; i++) {
          alpha[i + c * n] -= mean;
        }
      }
    }
    SymmetricEigen.fixSigns(alpha, n, k);
    double[] offset = new double[k];
    // Centred, the mean embedding (1/n)Σk(·,x_i) is the expansion's last column.
    double[] coefficients = java.util.Arrays.copyOf(alpha, n * (centered ? k + 1 : k));
    if (centered) {
      for (int c = 0; c < k; c++) {
        double o = 0;
        for (int i = 0; i < n; i++) {
          o += alpha[i + c * n] * rowMeans[i];
        }
        offset[c] = o;
      }
      java.util.Arrays.fill(coefficients, n * k, n * (k + 1), 1.0 / n);
    }
    double[] spectrum = new double[rank];
    for (int i = 0; i < rank; i++) {
      spectrum[i] = eig.values()[i] / n;
    }
    boolean definite = support.kernel().isPositiveDefinite();
    // Centred, the entries of HKH carry rounding of n·ε·max|K| (sums of n terms), so its
    // eigenvalues over n do of about n·ε·(1/n)tr K: rows that are all equal leave only that, which
    // is reported as exactly 0 (no variance, ratios 0).
    double floor = centered && definite ? 4.0 * n * Math.ulp(1.0) * Math.abs(trace / n) : 0.0;
    for (int i = 0; i < rank; i++) {
      if (Math.abs(spectrum[i]) <= floor) {
        spectrum[i] = 0;
      }
    }
    double positivePart = java.util.Arrays.stream(spectrum).sum();
    // An indefinite kernel's trace is no variance: the ratios then refer to the positive part
    // found. A
    // definite one's is clamped at that part, which it bounds in exact arithmetic (constant data:
    // 0).
    double total =
        definite ? Math.max(trace / n - (centered ? grandMean : 0.0), positivePart) : positivePart;
    if (positivePart == 0 && total <= floor) {
      total = 0;
    }
    Projector projector =
        new Projector(
            new KernelExpansion(support, coefficients, centered ? k + 1 : k),
            k,
            offset,
            centered ? grandMean : 0.0);
    return new KernelPCASolution(
        projector,
        spectrum,
        total,
        definite
            ? "exact: (1/n) tr of the " + (centered ? "centred " : "") + "kernel matrix"
            : "positive-part: sum of the eigenvalues kept (the kernel "
                + "is not positive definite)",
        n,
        n - rank,
        "all " + n + " training rows (exact)",
        null);
  }

  @Override
  public KernelPCA copy(ParamMap extra) {
    return defaultCopy(extra);
  }

  @Override
  public MLWriter write() {
    return StageWriter.paramsOnly(this);
  }

  public static MLReader<KernelPCA> read() {
    return new MLReader<>() {
      @Override
      public KernelPCA load(String path) {
        JsonNode metadata = Persistence.loadMetadata(path, sparkSession(), KernelPCA.class);
        KernelPCA estimator = new KernelPCA(metadata.get("uid").asText());
        Persistence.applyParams(estimator, metadata, path);
        return estimator;
      }
    };
  }

  public static KernelPCA load(String path) {
    return read().load(path);
  }
}
