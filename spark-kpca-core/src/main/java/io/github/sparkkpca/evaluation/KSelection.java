package io.github.sparkkpca.evaluation;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import java.util.Objects;
import java.util.OptionalLong;
import org.apache.spark.sql.Dataset;

/**
 * Chooses the number of kernel principal components k of a DataFrame by leave-one-out MPRESS
 * (Hallgren 2021, ch. 5; see {@link Mpress}): the rows are collected to the driver (at most {@link
 * #setMaxRows maxRows}, or a seeded subsample of that many), γ defaults to the median heuristic
 * over them, and MPRESS(k) of uncentred kernel PCA is computed for k = 1..maxK.
 *
 * <pre>{@code
 * KSelection.Result r = new KSelection().setKernel("rbf").setMaxK(10).select(df, "features");
 * int k = r.k();                 // argmin of r.mpress()
 * }</pre>
 *
 * <p>The two steps are public too, {@link #sample} (one Spark job) and {@link
 * #select(Mpress.Sample)} (driver only), for callers that release the input in between or report
 * progress.
 */
public final class KSelection {

  /** Points the median heuristic looks at, as the fits do. */
  private static final int MEDIAN_HEURISTIC_POINTS = 1000;

  private KernelType kernel = KernelType.RBF;
  private Double gamma;
  private int degree = 3;
  private double coef0 = 1.0;
  private int maxK = 1;
  private int maxRows = Mpress.DEFAULT_MAX_ROWS;
  private OptionalLong subsampleSeed = OptionalLong.empty();
  private Mpress.Method method = Mpress.Method.AUTO;

  /**
   * The curve, its argmin and how it was obtained.
   *
   * @param curve MPRESS(k) for k = 1..maxK, the selected k (the smallest argmin) and the rows used
   * @param kernel the kernel used, γ resolved (median heuristic when none was set)
   * @param method the leave-one-out route taken (never AUTO)
   * @param fallbackRows rows of a decremental route decomposed afresh
   */
  public record Result(Mpress.Curve curve, Kernel kernel, Mpress.Method method, int fallbackRows) {

    /** The selected number of components, argmin_k MPRESS(k). */
    public int k() {
      return curve.k();
    }

    /** MPRESS(k) for k = 1..maxK (index k − 1). */
    public double[] mpress() {
      return curve.mpress();
    }

    /** The number of rows the curve was computed on. */
    public int n() {
      return curve.n();
    }

    /**
     * Whether the argmin is the last k of the curve (k = maxK): MPRESS may still decrease beyond
     * it, so the selection is only a lower bound on the minimiser; a larger maxK tells.
     */
    public boolean argminAtMaxK() {
      return curve.k() == curve.mpress().length;
    }

    /** Whether a decremental leave-one-out route was taken. */
    public boolean decremental() {
      return method != Mpress.Method.BATCH;
    }
  }

  /** The kernel by name ({@link KernelType#parse}); default rbf. */
  public KSelection setKernel(String name) {
    this.kernel = KernelType.parse(name);
    return this;
  }

  /** γ &gt; 0; default the median heuristic over the rows used (polynomial and sigmoid: 1/d). */
  public KSelection setGamma(double gamma) {
    if (!(gamma > 0) || !Double.isFinite(gamma)) {
      throw new IllegalArgumentException("gamma must be finite and > 0, got " + gamma);
    }
    this.gamma = gamma;
    return this;
  }

  /** The polynomial degree (&ge; 1); default 3. */
  public KSelection setDegree(int degree) {
    if (degree < 1) {
      throw new IllegalArgumentException("degree must be >= 1, got " + degree);
    }
    this.degree = degree;
    return this;
  }

  /** The polynomial/sigmoid constant (finite); default 1. */
  public KSelection setCoef0(double coef0) {
    if (!Double.isFinite(coef0)) {
      throw new IllegalArgumentException("coef0 must be finite, got " + coef0);
    }
    this.coef0 = coef0;
    return this;
  }

  /** The largest k of the curve (1 &le; maxK &lt; the numerical rank of the kernel matrix). */
  public KSelection setMaxK(int maxK) {
    if (maxK < 1) {
      throw new IllegalArgumentException("maxK must be >= 1, got " + maxK);
    }
    this.maxK = maxK;
    return this;
  }

  /** The most rows accepted (&ge; 3); default {@link Mpress#DEFAULT_MAX_ROWS}. */
  public KSelection setMaxRows(int maxRows) {
    if (maxRows < 3) {
      throw new IllegalArgumentException("maxRows must be >= 3, got " + maxRows);
    }
    this.maxRows = maxRows;
    return this;
  }

  /** With more than maxRows rows, use a seeded uniform subsample of maxRows rows. */
  public KSelection setSubsampleSeed(long seed) {
    this.subsampleSeed = OptionalLong.of(seed);
    return this;
  }

  /** How each leave-one-out eigendecomposition is obtained; default AUTO. */
  public KSelection setMethod(Mpress.Method method) {
    this.method = Objects.requireNonNull(method, "method");
    return this;
  }

  /** The kernel family. */
  public KernelType kernelType() {
    return kernel;
  }

  /**
   * The curve for the vectors of {@code column}.
   *
   * @throws IllegalArgumentException naming the limit when there are more than maxRows rows and no
   *     subsample seed, the row of a null or mis-sized vector, or maxK when it is out of range
   */
  public Result select(Dataset<?> dataset, String column) {
    return select(sample(dataset, column));
  }

  /**
   * The rows of {@code column} on the driver ({@link Mpress#sample}), at most maxRows of them.
   *
   * @throws IllegalArgumentException naming the kernel when it is not positive definite (before
   *     reading any row), the limit, or the row of a null or mis-sized vector
   */
  public Mpress.Sample sample(Dataset<?> dataset, String column) {
    // Before any row is read: MPRESS refuses a kernel that is not positive definite (γ > 0 does
    // not change that).
    Kernel.of(kernel, 1.0, degree, coef0)
        .requirePositiveDefinite(
            "MPRESS (leave-one-out residuals k(x,x) - ||P phi(x)||^2)",
            "choose k from the explained variance ratios of a fit instead");
    if (maxK > maxRows - 1) {
      throw new IllegalArgumentException("maxK " + maxK + " must be < maxRows " + maxRows);
    }
    return Mpress.sample(
        dataset, column, maxRows, subsampleSeed, Mpress.DRIVER_SQUARES, "MPRESS", "maxRows");
  }

  /**
   * The curve for collected rows.
   *
   * @throws IllegalArgumentException when there are fewer than 3 rows or maxK is not below the
   *     numerical rank of the kernel matrix
   */
  public Result select(Mpress.Sample sample) {
    double g =
        gamma != null
            ? gamma
            : kernel.usesGamma()
                ? kernel.medianHeuristicGamma(sample.rows(), MEDIAN_HEURISTIC_POINTS)
                : 1.0;
    Kernel k = new Kernel(kernel, g, degree, coef0);
    Mpress.Run run = Mpress.run(k, sample.rows(), maxK, method);
    return new Result(run.curve(), k, run.method(), run.fallbackRows());
  }
}
