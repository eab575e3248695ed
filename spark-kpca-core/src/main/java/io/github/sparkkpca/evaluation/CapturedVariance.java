package io.github.sparkkpca.evaluation;

import io.github.sparkkpca.feature.FeatureMap;
import io.github.sparkkpca.feature.RandomFourierFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.BlockKrylovEigen;
import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.ml.RandomFeatureKernelPCAModel;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The variance a model's k components capture on held-out rows <b>under the exact kernel</b>,
 * against the most any k orthonormal directions of the kernel's feature space capture on those
 * rows: the objective of Ullah, Mianjy, Marinov and Arora ("Streaming Kernel PCA with Õ(√n) Random
 * Features", NeurIPS 2018, Section 5 and Appendix E), and a way to compare Nyström, random-feature
 * and streamed models on one scale.
 *
 * <p><b>Landmark models</b> (Nyström, exact). Component j is g_j = Σ_l P_lj k(·, z_l), a unit
 * vector of the RKHS (the g_j are orthonormal there), and its score is y_j(x) = g_j(x) − o_j. On
 * the n_e held-out rows
 *
 * <pre>
 *   captured = Σ_j (1/n_e) Σ_i (g_j(x_i) − ḡ_j)²     (centred model; ḡ_j the mean over the rows)
 *   captured = Σ_j (1/n_e) Σ_i g_j(x_i)²              (uncentred model)</pre>
 *
 * one pass over the rows (the model's transform). By Ky Fan's maximum principle it never exceeds
 * the optimum below when both are taken on the same rows (n_e ≤ N).
 *
 * <p><b>Optimum</b> ({@code optimalVariance}): the sum of the k largest eigenvalues of HKH/n_s
 * (centred; K/n_s uncentred), K the exact n_s×n_s kernel matrix of at most N rows of the held-out
 * set (all of them when n_e ≤ N, else a seeded uniform subsample of N). K is built on the driver
 * block by block (one GEMM per block); it is n_s² doubles (200 MB for N = 5000) and its top k are
 * found by block Krylov iteration.
 *
 * <p><b>Kernels that are not positive definite</b> (sigmoid, polynomial with c₀ &lt; 0). The exact
 * kernel has no feature space whose variance could be captured (k(x,x) is no squared norm, HKH has
 * negative eigenvalues). A Nyström model is the PCA of its positive-part surrogate k̃(x,y) =
 * ⟨φ(x),φ(y)⟩ ({@link io.github.sparkkpca.feature.NystromFeatureMap}), so both numbers are taken
 * for k̃: the captured variance is as above (the model's scores are u_jᵀ(φ(x) − φ̄), u_j
 * orthonormal in R^r), and the optimum is the sum of the k largest eigenvalues of HK̃H/n_s, K̃ =
 * ΦᵀΦ the surrogate's matrix on the n_s sampled rows. As HK̃H/n_s is the covariance of φ on those
 * rows seen from the other side, Ky Fan's principle gives captured ≤ optimum again (same rows, n_e
 * ≤ N). Models without a feature map (exact kernel PCA, models saved in format 1) are refused for
 * such kernels. See docs/kernels.md.
 *
 * <p><b>Random-feature models.</b> Their components u_j ∈ R^D are not elements of the RKHS: f_j(x)
 * = z(x)ᵀu_j is a function whose RKHS norm is not 1 and the f_j are not orthogonal. As in the paper
 * (Lemma E.2, in its scale-consistent form), each f_j is scaled to unit norm in L²(ρ_e) on the n_s
 * sampled rows and scored by the Rayleigh quotient of the exact kernel operator: with v_j =
 * (f_j(x_i) − f̄_j)_i (uncentred: without the mean),
 *
 * <pre>  captured = Σ_j v_jᵀ (HKH/n_s) v_j / (v_jᵀ v_j)</pre>
 *
 * Each term is at most λ_1, but the sum is not bounded by the optimum: the f_j need not be
 * orthogonal in L²(ρ_e), so the number <em>can exceed the optimum</em> (the paper's Figure 2 curves
 * approach it from above). Rotating the basis by Rayleigh–Ritz on the evaluation rows would make it
 * a true projection; the number reported is the paper's. It is computed on the n_s sampled rows
 * only.
 */
public final class CapturedVariance {

  /** Default N, the most rows whose exact kernel matrix is formed. */
  public static final int DEFAULT_EXACT_SAMPLE = 5000;

  /**
   * The n×n matrices of doubles held for the exact kernel matrix (it and the kernel's work),
   * checked before the sample is collected.
   */
  static final int EXACT_SQUARES = 2;

  private CapturedVariance() {}

  /**
   * @param capturedVariance the variance the model's k components capture (see the class comment)
   * @param optimalVariance the sum of the k largest eigenvalues of the same-centred exact kernel
   *     matrix / n_s
   * @param n n_e, the held-out rows
   * @param sampleRows n_s, the rows of the exact kernel matrix
   * @param method how {@code capturedVariance} was computed, in words
   */
  public record Result(
      double capturedVariance, double optimalVariance, long n, int sampleRows, String method) {}

  /**
   * Evaluates {@code model} on the vectors of its input column in {@code heldOut}.
   *
   * @param exactSample N ≥ 2, the most rows of the exact kernel matrix
   * @param seed seeds the subsample when the held-out set has more than N rows
   * @throws IllegalArgumentException when the held-out set has fewer than 2 rows or k of them
   */
  public static Result evaluate(
      AbstractKernelPCAModel<?> model, Dataset<?> heldOut, int exactSample, long seed) {
    return evaluate(List.of(model), heldOut, exactSample, seed).get(0);
  }

  /**
   * Evaluates several models on the same held-out rows with one exact kernel matrix and one
   * optimum: the results equal those of {@link #evaluate(AbstractKernelPCAModel, Dataset, int,
   * long)} model by model, but the O(n_s²·d) kernel matrix and its eigensolve are computed once
   * (e.g. for every version of a stream).
   *
   * @param models at least one; all share the fitted kernel, the centring, k, the input size and
   *     the input column
   * @throws IllegalArgumentException when the models differ in one of those, or the held-out set
   *     has fewer than 2 rows or k of them
   */
  public static List<Result> evaluate(
      List<? extends AbstractKernelPCAModel<?>> models,
      Dataset<?> heldOut,
      int exactSample,
      long seed) {
    if (models.isEmpty()) {
      throw new IllegalArgumentException("captured variance: no model to evaluate");
    }
    AbstractKernelPCAModel<?> first = models.get(0);
    for (int i = 1; i < models.size(); i++) {
      AbstractKernelPCAModel<?> other = models.get(i);
      if (!other.fittedKernel().equals(first.fittedKernel())
          || other.getCentered() != first.getCentered()
          || other.numComponents() != first.numComponents()
          || other.numFeatures() != first.numFeatures()
          || !other.getInputCol().equals(first.getInputCol())) {
        throw new IllegalArgumentException(
            "captured variance: model "
                + (i + 1)
                + " differs from model 1 in its "
                + "kernel, centring, k, input size or input column; models evaluated together share one exact kernel "
                + "matrix");
      }
    }
    String column = first.getInputCol();
    int k = first.numComponents();
    boolean centered = first.getCentered();
    Mpress.Sample sample =
        Mpress.sample(
            heldOut,
            column,
            exactSample,
            OptionalLong.of(seed),
            EXACT_SQUARES,
            "captured variance: the exact kernel matrix",
            "exactSample");
    int ns = sample.n();
    if (ns < Math.max(2, k)) {
      throw new IllegalArgumentException(
          "captured variance: the held-out set has "
              + ns
              + " rows; at least "
              + Math.max(2, k)
              + " (and k = "
              + k
              + ") are needed");
    }
    if (sample.d() != first.numFeatures()) {
      throw new IllegalArgumentException(
          "captured variance: the held-out vectors have size "
              + sample.d()
              + ", the model was fitted on size "
              + first.numFeatures());
    }
    Kernel kernel = first.fittedKernel();
    boolean definite = kernel.isPositiveDefinite();
    if (!definite) {
      for (AbstractKernelPCAModel<?> model : models) {
        if (model.solution().featurePCA() == null) {
          throw new IllegalArgumentException(
              "captured variance: "
                  + kernel.indefiniteness()
                  + " (the exact kernel has no variance to capture) and this model (exact kernel"
                  + " PCA, or saved in format 1) keeps no feature map whose positive-part surrogate could be"
                  + " evaluated; fit NystromKernelPCA (m = n for the exact surrogate) instead");
        }
      }
    }
    double[] kernelMatrix = definite ? exactKernel(kernel, sample, centered) : null;
    double exactOptimum = definite ? optimum(kernelMatrix, ns, k) : Double.NaN;
    List<Result> results = new ArrayList<>();
    long heldOutRows = -1;
    for (AbstractKernelPCAModel<?> model : models) {
      if (model instanceof RandomFeatureKernelPCAModel rf) {
        double captured = rayleighQuotients(rf, sample, kernelMatrix, centered);
        heldOutRows = heldOutRows >= 0 ? heldOutRows : heldOut.count();
        results.add(
            new Result(
                captured,
                exactOptimum,
                heldOutRows,
                ns,
                "random features: the sum of the Rayleigh "
                    + "quotients of the exact kernel of each component lifted to z(x)'u_j (Ullah et al., Lemma E.2), on the "
                    + ns
                    + " sampled rows; it may exceed the optimum"));
        continue;
      }
      double optimal = exactOptimum;
      String surrogate = "";
      if (!definite) {
        FeatureMap map = model.solution().featurePCA().map();
        optimal = optimum(surrogateKernel(map, sample, centered), ns, k);
        surrogate =
            "; "
                + kernel.indefiniteness()
                + ": captured and optimum are those of the positive-part surrogate"
                + " k~(x,y) = phi(x)'phi(y) the model is the PCA of";
      }
      double[] moments = scoreMoments(model, heldOut, k);
      long n = (long) moments[0];
      double captured = 0;
      for (int j = 0; j < k; j++) {
        double mean = moments[1 + j] / n;
        double second = moments[1 + k + j] / n;
        captured += centered ? Math.max(second - mean * mean, 0.0) : second;
      }
      results.add(
          new Result(
              captured,
              optimal,
              n,
              ns,
              "landmark model: the "
                  + (centered ? "variances" : "mean squares")
                  + " of the k scores, unit RKHS components, over the "
                  + n
                  + " rows"
                  + surrogate));
    }
    return results;
  }

  /**
   * The sum of the k largest eigenvalues of an n_s×n_s kernel matrix, over n_s (negatives as 0).
   */
  private static double optimum(double[] kernelMatrix, int ns, int k) {
    double[] top = BlockKrylovEigen.leading(kernelMatrix, ns, k).eigen().values();
    double optimal = 0;
    for (int j = 0; j < k; j++) {
      optimal += Math.max(top[j], 0.0) / ns;
    }
    return optimal;
  }

  /**
   * The exact kernel matrix of the sampled rows, centred (HKH) when asked: n_s×n_s column-major.
   */
  static double[] exactKernel(Kernel kernel, Mpress.Sample sample, boolean centered) {
    int n = sample.n();
    return centre(new LandmarkKernel(kernel, sample.rows()).gram(), n, centered);
  }

  /**
   * The matrix of the positive-part surrogate k̃(x_i,x_j) = ⟨φ(x_i),φ(x_j)⟩ of the sampled rows
   * (ΦᵀΦ, Φ the r×n_s features), centred when asked: the matrix whose top k eigenvalues over n_s
   * bound the variance any k orthonormal directions of R^r capture on those rows.
   */
  static double[] surrogateKernel(FeatureMap map, Mpress.Sample sample, boolean centered) {
    int n = sample.n();
    int r = map.outputDim();
    double[] phi = new double[r * n];
    int blockRows = 256;
    RowBlock block = map.newBlock(blockRows);
    double[] scratch = new double[map.scratchSize(blockRows)];
    double[] out = new double[r * blockRows];
    for (int start = 0; start < n; start += blockRows) {
      int b = fill(block, sample, start, blockRows);
      map.map(block, scratch, out);
      System.arraycopy(out, 0, phi, start * r, b * r);
    }
    double[] gram = new double[n * n];
    io.github.sparkkpca.linalg.Blas.blas()
        .dgemm("T", "N", n, n, r, 1.0, phi, r, phi, r, 0.0, gram, n);
    return centre(gram, n, centered);
  }

  /**
   * Replaces the block's rows by the sample's rows from {@code start} (at most {@code capacity}),
   * each in the block's own form (a sparse row is never made d-wide for a sparse block); returns
   * their number.
   */
  private static int fill(RowBlock block, Mpress.Sample sample, int start, int capacity) {
    int b = Math.min(capacity, sample.n() - start);
    block.clear();
    for (int i = start; i < start + b; i++) {
      block.add(sample.rows().row(i), "sample");
    }
    return b;
  }

  /** HKH in place when {@code centered} (H = I − 11ᵀ/n), else K unchanged. */
  private static double[] centre(double[] k, int n, boolean centered) {
    if (centered) {
      double[] rowMean = new double[n];
      double all = 0;
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int i = 0; i < n; i++) {
          s += k[i + j * n];
        }
        rowMean[j] = s / n;
        all += s;
      }
      all /= (double) n * n;
      for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++) {
          k[i + j * n] += all - rowMean[i] - rowMean[j];
        }
      }
    }
    return k;
  }

  /**
   * Σ_j v_jᵀ K v_j / (n_s v_jᵀ v_j) for the lifted random-feature components (see the class
   * comment).
   */
  private static double rayleighQuotients(
      RandomFeatureKernelPCAModel model, Mpress.Sample sample, double[] kernel, boolean centered) {
    int n = sample.n();
    int k = model.numComponents();
    RandomFourierFeatureMap map = model.featureMap();
    int features = map.numFeatures();
    double[] u = model.components().toArray();
    double[] v = new double[n * k];
    int blockRows = 256;
    RowBlock block = map.newBlock(blockRows);
    double[] z = new double[features * blockRows];
    for (int start = 0; start < n; start += blockRows) {
      int b = fill(block, sample, start, blockRows);
      map.map(block, null, z);
      for (int i = 0; i < b; i++) {
        for (int j = 0; j < k; j++) {
          double s = 0;
          for (int t = 0; t < features; t++) {
            s += z[t + i * features] * u[t + j * features];
          }
          v[start + i + j * n] = s;
        }
      }
    }
    double captured = 0;
    double[] kv = new double[n];
    for (int j = 0; j < k; j++) {
      int o = j * n;
      if (centered) {
        double mean = 0;
        for (int i = 0; i < n; i++) {
          mean += v[o + i];
        }
        mean /= n;
        for (int i = 0; i < n; i++) {
          v[o + i] -= mean;
        }
      }
      double norm = 0;
      for (int i = 0; i < n; i++) {
        norm += v[o + i] * v[o + i];
      }
      if (norm == 0) {
        continue;
      }
      io.github.sparkkpca.linalg.Blas.blas()
          .dgemv("N", n, n, 1.0, kernel, 0, n, v, o, 1, 0.0, kv, 0, 1);
      double quad = 0;
      for (int i = 0; i < n; i++) {
        quad += v[o + i] * kv[i];
      }
      captured += quad / (n * norm);
    }
    return captured;
  }

  /** [n, Σ_i y_j(x_i) (k), Σ_i y_j(x_i)² (k)] over the rows, from the model's transform. */
  private static double[] scoreMoments(AbstractKernelPCAModel<?> model, Dataset<?> heldOut, int k) {
    String output = model.getOutputCol();
    return model
        .transform(heldOut)
        .select(output)
        .javaRDD()
        .treeAggregate(
            new double[1 + 2 * k],
            (double[] acc, Row row) -> {
              double[] y = ((Vector) row.get(0)).toArray();
              acc[0] += 1;
              for (int j = 0; j < k; j++) {
                acc[1 + j] += y[j];
                acc[1 + k + j] += y[j] * y[j];
              }
              return acc;
            },
            (double[] a, double[] b) -> {
              for (int i = 0; i < a.length; i++) {
                a[i] += b[i];
              }
              return a;
            });
  }
}
