package io.github.sparkkpca.execution;

import io.github.sparkkpca.feature.KernelExpansion;
import io.github.sparkkpca.feature.KernelPanel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.SymmetricEigen;
import io.github.sparkkpca.linalg.WhiteningFactor;
import io.github.sparkkpca.pca.FeaturePCA;
import io.github.sparkkpca.pca.KernelPCASolution;
import io.github.sparkkpca.pca.Projector;
import io.github.sparkkpca.pca.TopKEigen;
import java.util.Locale;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.linalg.Vector;

/**
 * The top-k statistics route of a Nyström fit ({@link
 * io.github.sparkkpca.feature.StatisticsRoute#TOP_K}): the k leading eigenpairs of the feature
 * covariance C = Wᵀ S W (S = M/n the centred covariance of the kernel columns; uncentred S + k̄k̄ᵀ)
 * by {@link TopKEigen}, each product C·Q one distributed pass, and the model in expansion form.
 *
 * <p><b>A pass</b> broadcasts V = W·Q (m×l; the executors never see W) with the landmarks, and
 * returns M·V merged over the partitions ({@link KernelPanel}); the driver forms S·V = M·V/n (plus
 * k̄(k̄ᵀV) uncentred) and C·Q = Wᵀ(S·V). Per row: 2md flops for the kernel (2m·nnz on the sparse
 * path) + 4ml; per task 8(b·m + b·l + 2·m·l) bytes; broadcast and summary 8·m·l bytes each; on the
 * driver two m×l products with W per pass (2m²l flops at r = m triangular, 4mrl otherwise) and the
 * Krylov basis, 2·r·(passes·l) doubles. The first pass also gives n, k̄ and Σk(x,x).
 *
 * <p><b>The model</b> stores what scoring needs, not W: the landmarks with the expansion [P | w̄],
 * P = W U_k (m×k, signs fixed as every Nyström fit fixes them) and w̄ = W Wᵀ k̄ (the mean's
 * landmark weights, for the residual), the offset o = Pᵀk̄ and ‖φ̄‖² = ‖Wᵀk̄‖²; it scores at 2md +
 * 2mk flops per row, as any Nyström model. The total variance is (1/n)Σk(x,x) − ‖φ̄‖² centred
 * (clamped at the k eigenvalues found), (1/n)Σk(x,x) uncentred, as the other routes compute it.
 */
public final class TopKFit {

  /**
   * The route's settings.
   *
   * @param tolerance every ρ_i ≤ tolerance·θ_1
   * @param maxPasses the most distributed passes
   * @param oversampling l − k
   * @param denseFactorUpTo the most landmarks whose whitening is today's dense map (K_mm and W in
   *     one array each, 3m² doubles while it is built); above it the factor holds no m×m array
   *     ({@link io.github.sparkkpca.feature.NystromWhitening#factor}: pivoted Cholesky, else tiled)
   * @param tile the side of the tiled factor's tiles
   */
  public record Settings(
      double tolerance, int maxPasses, int oversampling, int denseFactorUpTo, int tile) {

    /** With the default {@link #OVERSAMPLING}, {@link #DENSE_FACTOR_UP_TO} and tile side. */
    public static Settings of(double tolerance, int maxPasses) {
      return new Settings(
          tolerance,
          maxPasses,
          OVERSAMPLING,
          DENSE_FACTOR_UP_TO,
          io.github.sparkkpca.linalg.TiledSymmetricMatrix.defaultTile());
    }

    /**
     * These settings with the session's {@link #DENSE_FACTOR_CONF} and {@link #TILE_CONF} when set
     * (runtime SQL configuration: {@code spark.conf.set}, {@code --conf}).
     *
     * @throws IllegalArgumentException naming the setting when it is not a positive integer
     */
    public Settings withSession(org.apache.spark.sql.SparkSession session) {
      return new Settings(
          tolerance,
          maxPasses,
          intConf(session, OVERSAMPLING_CONF, oversampling, 0),
          intConf(session, DENSE_FACTOR_CONF, denseFactorUpTo, 0),
          intConf(session, TILE_CONF, tile, 1));
    }

    private static int intConf(
        org.apache.spark.sql.SparkSession session, String key, int fallback, int least) {
      String value = session.conf().get(key, Integer.toString(fallback));
      try {
        int parsed = Integer.parseInt(value.trim());
        if (parsed >= least) {
          return parsed;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new IllegalArgumentException(
          key + " = " + value + " is not an integer >= " + least + " (Spark configuration)");
    }
  }

  /**
   * The Spark setting of {@link Settings#denseFactorUpTo}: m above it takes the factor with no m×m
   * array. Default {@link #DENSE_FACTOR_UP_TO}; 0 takes it at every m (the tests cross every tile
   * boundary at small m this way).
   */
  public static final String DENSE_FACTOR_CONF = "spark.kpca.topK.denseFactorUpTo";

  /** The Spark setting of {@link Settings#oversampling}, default {@link #OVERSAMPLING}. */
  public static final String OVERSAMPLING_CONF = "spark.kpca.topK.oversampling";

  /**
   * The Spark setting of {@link Settings#tile}: by default one G1 heap region per tile (1023 in a
   * 14 GiB heap; {@link io.github.sparkkpca.linalg.TiledSymmetricMatrix#defaultTile}).
   */
  public static final String TILE_CONF = "spark.kpca.topK.tileSize";

  /**
   * 4096: up to here K_mm, W and a copy take at most 0.4 GB and the dense factor is today's W bit
   * for bit; above it the tiled factor's 4m² bytes are a sixth of the dense 24m².
   */
  public static final int DENSE_FACTOR_UP_TO = 4096;

  /** The fitted solution and the route's account of it (passes, residuals). */
  public record Fitted(KernelPCASolution solution, TopKEigen.Result eigen, String report) {}

  /** Columns beyond k in each block: the usual oversampling of randomized range finders. */
  public static final int OVERSAMPLING = 10;

  private TopKFit() {}

  /**
   * The fit.
   *
   * @throws IllegalStateException when the passes run out before every residual meets the
   *     tolerance: one line naming the residual, the tolerance, the passes and what to raise
   */
  public static Fitted fit(
      JavaRDD<Vector> vectors,
      LandmarkKernel landmarks,
      WhiteningFactor w,
      int k,
      boolean centered,
      Settings settings,
      long seed,
      int blockSize,
      String column,
      String jobPrefix,
      int droppedRank,
      String landmarkSelection) {
    int m = w.landmarks();
    int r = w.rank();
    KernelPanel.Summary[] first = new KernelPanel.Summary[1];
    int[] pass = {0};
    long[] passNanos = {0};
    long start = System.nanoTime();
    TopKEigen.Operator operator =
        (q, l) -> {
          double[] panel = w.times(q, l);
          pass[0]++;
          long passStart = System.nanoTime();
          KernelPanel.Summary s =
              DistributedPass.run(
                  vectors.context(),
                  jobPrefix
                      + String.format(
                          Locale.ROOT,
                          "top-k pass %d: the %dx%d kernel-column product (block %d)",
                          pass[0],
                          m,
                          l,
                          blockSize),
                  vectors,
                  new KernelPanel(landmarks, panel, l),
                  KernelPanel.class,
                  (shared, partition, rows) -> shared.accumulate(rows, blockSize, column),
                  KernelPanel.Summary::merge,
                  KernelPanel.Summary.serializedBytes(m, l));
          passNanos[0] += System.nanoTime() - passStart;
          if (first[0] == null) {
            first[0] = s;
          }
          long n = s.count();
          if (n == 0) {
            throw new IllegalArgumentException("no rows were accumulated");
          }
          double[] sv = s.product();
          Blas.blas().dscal(sv.length, 1.0 / n, sv, 1);
          if (!centered) {
            // Second moment: S + k̄k̄ᵀ, so S·V gains k̄(k̄ᵀV).
            Blas.blas().dger(m, l, 1.0, s.mean(), 1, s.projectedMean(), 1, sv, m);
          }
          return w.transposeTimes(sv, l);
        };
    TopKEigen.Result eigen =
        TopKEigen.solve(
            operator,
            r,
            k,
            settings.oversampling(),
            settings.tolerance(),
            settings.maxPasses(),
            seed);
    String report =
        String.format(
            Locale.ROOT,
            "top-k: %d passes (%.1f s), driver %.1f s, largest residual %.2g of lambda_1"
                + " (tolerance %.2g); residuals %s",
            eigen.passes(),
            passNanos[0] / 1e9,
            (System.nanoTime() - start - passNanos[0]) / 1e9,
            eigen.largestRelativeResidual(),
            settings.tolerance(),
            residuals(eigen));
    if (!eigen.converged()) {
      throw new IllegalStateException(
          String.format(
              Locale.ROOT,
              "%sstatisticsRoute = top-k stopped after topKMaxPasses = %d passes with a residual"
                  + " of %.2g of lambda_1 above topKTolerance = %.2g: raise topKMaxPasses (or"
                  + " topKTolerance), or use statisticsRoute = whitened",
              jobPrefix,
              eigen.passes(),
              eigen.largestRelativeResidual(),
              settings.tolerance()));
    }
    return new Fitted(
        solution(first[0], landmarks, w, eigen, centered, droppedRank, landmarkSelection),
        eigen,
        report);
  }

  /** The residuals relative to θ_1, for the model's report. */
  private static String residuals(TopKEigen.Result eigen) {
    StringBuilder out = new StringBuilder("[");
    for (int i = 0; i < eigen.residuals().length; i++) {
      out.append(i == 0 ? "" : ", ")
          .append(String.format(Locale.ROOT, "%.2g", eigen.residuals()[i] / eigen.values()[0]));
    }
    return out.append(']').toString();
  }

  /** The expansion-form solution from the eigenpairs and the first pass's statistics. */
  static KernelPCASolution solution(
      KernelPanel.Summary stats,
      LandmarkKernel landmarks,
      WhiteningFactor w,
      TopKEigen.Result eigen,
      boolean centered,
      int droppedRank,
      String landmarkSelection) {
    int m = w.landmarks();
    int r = w.rank();
    int k = eigen.values().length;
    double[] u = eigen.vectors().clone();
    double[] projector = w.times(u, k);
    double[] signs = SymmetricEigen.fixSigns(projector, m, k);
    for (int c = 0; c < k; c++) {
      for (int i = 0; i < r; i++) {
        u[i + c * r] *= signs[c];
      }
    }
    long n = stats.count();
    double[] featureMean = w.transposeTimes(stats.mean().clone(), 1);
    double meanSqNorm = 0;
    for (double x : featureMean) {
      meanSqNorm += x * x;
    }
    double[] offset = new double[k];
    double[] coefficients = new double[m * (centered ? k + 1 : k)];
    System.arraycopy(projector, 0, coefficients, 0, m * k);
    if (centered) {
      for (int c = 0; c < k; c++) {
        offset[c] = Blas.blas().ddot(r, u, c * r, 1, featureMean, 0, 1);
      }
      System.arraycopy(w.times(featureMean, 1), 0, coefficients, m * k, m);
    }
    double[] values = new double[k];
    double found = 0;
    for (int i = 0; i < k; i++) {
      values[i] = Math.max(eigen.values()[i], 0.0);
      found += values[i];
    }
    double diagonalMean = stats.diagonalSum() / n;
    double total = centered ? Math.max(diagonalMean - meanSqNorm, found) : diagonalMean;
    String method = centered ? FeaturePCA.NYSTROM_MEAN_METHOD : FeaturePCA.KERNEL_DIAGONAL_METHOD;
    Projector scoring =
        new Projector(
            new KernelExpansion(landmarks, coefficients, centered ? k + 1 : k),
            k,
            offset,
            centered ? meanSqNorm : 0.0);
    return new KernelPCASolution(
        scoring, values, total, method, n, droppedRank, landmarkSelection, null);
  }
}
