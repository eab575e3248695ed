package io.github.sparkkpca.streaming;

import io.github.sparkkpca.execution.FeaturePasses;
import io.github.sparkkpca.execution.FitMemory;
import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.feature.NystromFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.IncrementalEigen;
import io.github.sparkkpca.linalg.RowSet;
import io.github.sparkkpca.linalg.SymmetricEigen;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.pca.FeaturePCA;
import io.github.sparkkpca.pca.KernelPCASolution;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;

/**
 * Incremental Nyström (Hallgren, <i>Kernel PCA and the Nyström method</i>, PhD thesis, UCL 2021,
 * §3.3): a fitted {@link NystromKernelPCAModel} grown landmark by landmark. The eigendecomposition
 * K_mm = VΛVᵀ of the landmark kernel matrix is computed once for the model's m landmarks and then
 * updated for each new landmark z by bordering K_mm with [k(z_j, z)]_j and k(z, z) ({@link
 * IncrementalEigen#expand}, Algorithm 1: an expansion and two rank-one updates, 4m³ flops), instead
 * of a new O(m³) decomposition per landmark.
 *
 * <p>The grown model is then what a fit with all the landmarks gives ({@link NystromKernelPCA} with
 * {@code setLandmarks}): the feature map φ(x) = Wᵀk_x with W = V_r Λ_r^{-1/2} on the r eigenvalues
 * above rcond·λ_max ({@link NystromFeatureMap#of}; the batch fit uses the inverse Cholesky factor
 * when r = m, which differs by a rotation of R^r that linear PCA does not see), one pass over the
 * rows accumulating the feature statistics ({@link FeatureStatistics}: the thesis' "append a column
 * of K_nm" for every new landmark, O(nmr)), and linear PCA of them ({@link FeaturePCA}). The thesis
 * rescales the eigenpairs of K_mm into Williams–Seeger Nyström eigenpairs (its eq. 3.9); this
 * library's Nyström model is the PCA of the projected features (thesis ch. 6), which uses the same
 * K_mm eigendecomposition.
 *
 * <p><b>Drift.</b> After the last landmark the incremental decomposition is compared with a batch
 * one of the final K_mm ({@link Drift}): the eigenvalue drift, the orthogonality of V and the
 * difference of the pseudo-inverses W Wᵀ the two give. The rows of {@code dataset} replace the
 * model's statistics (they should be its training rows; the grown model's n is theirs).
 */
public final class IncrementalNystrom {

  private IncrementalNystrom() {}

  /**
   * How far the incrementally updated K_mm decomposition is from a batch one at the end.
   *
   * @param initialLandmarks m before growing
   * @param landmarks m after growing
   * @param eigenvalueDrift max_j |λ_j(incremental) − λ_j(batch)| / λ_max
   * @param orthogonality ‖VᵀV − I‖_F of the incremental eigenvectors
   * @param inverseDrift ‖W_inc W_incᵀ − W_batch W_batchᵀ‖_F / ‖W_batch W_batchᵀ‖_F, W = V_r
   *     Λ_r^{-1/2} (the Nyström map's pseudo-inverse K_mm⁺ on the kept rank; if the two ranks
   *     differ, it includes the direction one kept and the other dropped)
   * @param rankIncremental r kept from the incremental eigenvalues
   * @param rankBatch r the batch eigenvalues give
   * @param stats the updates' counters (rank-one updates, deflations, rotations, recomputations)
   */
  public record Drift(
      int initialLandmarks,
      int landmarks,
      double eigenvalueDrift,
      double orthogonality,
      double inverseDrift,
      int rankIncremental,
      int rankBatch,
      IncrementalEigen.Stats stats) {}

  /**
   * The grown model and its drift.
   *
   * @param model the model with every landmark
   * @param drift the drift of the incremental decomposition
   */
  public record Growth(NystromKernelPCAModel model, Drift drift) {}

  /**
   * Adds {@code count} landmarks drawn uniformly without replacement from the rows of the model's
   * input column in {@code dataset} (seeded, independent of the partitioning; rows equal to a
   * current landmark are skipped), then grows the model as {@link #grow(NystromKernelPCAModel,
   * Dataset, double[], int, IncrementalEigen.Monitoring)}.
   *
   * @throws IllegalArgumentException when count &lt; 1, or the rows do not hold count new distinct
   *     landmarks
   */
  public static Growth grow(
      NystromKernelPCAModel model,
      Dataset<?> dataset,
      int count,
      long seed,
      IncrementalEigen.Monitoring monitoring) {
    if (count < 1) {
      throw new IllegalArgumentException(
          "the number of landmarks to add must be >= 1, got " + count);
    }
    model.transformSchema(dataset.schema());
    int d = model.numFeatures();
    int m = model.numSupportPoints();
    FitMemory.checkLandmarks(
        dataset.sparkSession().sparkContext(),
        (long) m + count,
        "m + the landmarks to add, " + m + " + " + count + ",");
    // Vectors compare by value whatever their form (a sparse row equals its dense copy), so the
    // rows and landmarks are compared as stored, never made d-wide.
    Set<Vector> taken = new HashSet<>(Arrays.asList(model.landmarkVectors()));
    String jobs = "IncrementalNystrom " + model.uid() + ": ";
    try (FeaturePasses.Scanned scanned =
        FeaturePasses.scan(
            dataset, model.getInputCol(), d, Math.addExact(count, m), seed, false, jobs)) {
      RowSet sample = scanned.scan().sampleRows();
      List<Vector> fresh = new ArrayList<>();
      for (int i = 0; i < sample.count() && fresh.size() < count; i++) {
        Vector row = sample.row(i);
        if (taken.add(row)) {
          fresh.add(row);
        }
      }
      if (fresh.size() < count) {
        throw new IllegalArgumentException(
            "the input has "
                + fresh.size()
                + " rows that are not landmarks yet "
                + "(among "
                + scanned.count()
                + " rows), fewer than the "
                + count
                + " landmarks to add");
      }
      return grow(model, scanned, fresh.toArray(new Vector[0]), monitoring, jobs);
    }
  }

  /**
   * Adds the given landmarks (as {@link #grow(NystromKernelPCAModel, Dataset, double[], int,
   * IncrementalEigen.Monitoring)}); sparse landmarks stay their non-zeros.
   */
  public static Growth grow(
      NystromKernelPCAModel model,
      Dataset<?> dataset,
      Vector[] landmarks,
      IncrementalEigen.Monitoring monitoring) {
    int d = model.numFeatures();
    if (landmarks.length < 1) {
      throw new IllegalArgumentException("new landmarks: none given");
    }
    for (int j = 0; j < landmarks.length; j++) {
      io.github.sparkkpca.execution.InputVectors.require(landmarks[j], d, "new landmark " + j);
    }
    model.transformSchema(dataset.schema());
    int m = model.numSupportPoints();
    FitMemory.checkLandmarks(
        dataset.sparkSession().sparkContext(),
        (long) m + landmarks.length,
        "m + the new landmarks, " + m + " + " + landmarks.length + ",");
    String jobs = "IncrementalNystrom " + model.uid() + ": ";
    try (FeaturePasses.Scanned scanned =
        FeaturePasses.scan(dataset, model.getInputCol(), d, 0, 0L, false, jobs)) {
      return grow(model, scanned, landmarks.clone(), monitoring, jobs);
    }
  }

  /**
   * Adds {@code count} landmarks (row-major, count×d) one by one to the model's K_mm
   * eigendecomposition and refits the components on the rows of {@code dataset} with the grown
   * feature map.
   *
   * @throws IllegalArgumentException when the model has no landmarks or statistics, a landmark is
   *     not finite or has the wrong length, or a row of {@code dataset} is invalid
   */
  public static Growth grow(
      NystromKernelPCAModel model,
      Dataset<?> dataset,
      double[] landmarks,
      int count,
      IncrementalEigen.Monitoring monitoring) {
    int d = model.numFeatures();
    if (count < 1 || landmarks.length != (long) count * d) {
      throw new IllegalArgumentException(
          "new landmarks: "
              + landmarks.length
              + " values for "
              + count
              + " landmarks of length "
              + d);
    }
    for (int i = 0; i < landmarks.length; i++) {
      if (!Double.isFinite(landmarks[i])) {
        throw new IllegalArgumentException(
            "new landmark " + (i / d) + ", entry " + (i % d) + " is not finite: " + landmarks[i]);
      }
    }
    Vector[] rows = new Vector[count];
    for (int j = 0; j < count; j++) {
      rows[j] = new DenseVector(Arrays.copyOfRange(landmarks, j * d, (j + 1) * d));
    }
    return grow(model, dataset, rows, monitoring);
  }

  private static Growth grow(
      NystromKernelPCAModel model,
      FeaturePasses.Scanned scanned,
      Vector[] landmarks,
      IncrementalEigen.Monitoring monitoring,
      String jobs) {
    if (!model.isUpdatable()) {
      throw new IllegalArgumentException(
          "NystromKernelPCAModel "
              + model.uid()
              + " keeps no statistics (saved "
              + "in persistence format 1) and cannot grow; fit it again");
    }
    int d = model.numFeatures();
    int count = landmarks.length;
    Kernel kernel = model.fittedKernel();
    int m0 = model.numSupportPoints();
    int m = m0 + count;
    // The model's landmarks as stored and the new ones, each kept in its form: the grown kernel
    // takes the block path their non-zeros call for, as a fit with all of them would.
    Vector[] all = Arrays.copyOf(model.landmarkVectors(), m);
    System.arraycopy(landmarks, 0, all, m0, count);
    LandmarkKernel grown = new LandmarkKernel(kernel, RowSet.of(all, d));
    double[] gram = grown.gram();
    double[] initial = new double[m0 * m0];
    for (int c = 0; c < m0; c++) {
      System.arraycopy(gram, c * m, initial, c * m0, m0);
    }
    int[] size = {m0};
    IncrementalEigen eigen =
        IncrementalEigen.of(initial, m0, monitoring)
            .withExactMatrix(
                () -> {
                  int s = size[0];
                  double[] a = new double[s * s];
                  for (int c = 0; c < s; c++) {
                    System.arraycopy(gram, c * m, a, c * s, s);
                  }
                  return a;
                });
    for (int j = m0; j < m; j++) {
      double[] a = Arrays.copyOfRange(gram, j * m, j * m + j);
      size[0] = j + 1;
      eigen.expand(a, gram[j + j * m]);
    }
    SymmetricEigen incremental = eigen.toSymmetricEigen();
    double rcond = model.getRcond();
    int r = incremental.rank(rcond);
    if (r == 0) {
      throw new IllegalArgumentException(
          "The grown landmark kernel matrix (m = "
              + m
              + ") has no eigenvalue above "
              + "rcond·λ_max");
    }
    int k = model.numComponents();
    long n = scanned.count();
    boolean centered = model.getCentered();
    long maxComponents = centered ? Math.min(r, n - 1) : r;
    if (k > maxComponents) {
      throw new IllegalArgumentException(
          "k = " + k + " exceeds the rank of the grown problem (r = " + r + ", n = " + n + ")");
    }
    double[] w = whitening(incremental, m, r);
    NystromFeatureMap map = NystromFeatureMap.of(grown, w, r, false);
    FeatureStatistics stats =
        FeaturePasses.statistics(
            scanned.vectors(),
            map,
            scanned.blockSize(map, model::effectiveBlockSize),
            model.getInputCol(),
            jobs);
    FeaturePCA fitted = FeaturePCA.solve(map, stats, k, centered, model.getSpectrumExtent());
    String selection =
        model.landmarkSelection() + "; grown incrementally by " + count + " to " + m + " landmarks";
    NystromKernelPCAModel result =
        model.withSolution(KernelPCASolution.of(fitted, m - r, selection));
    return new Growth(result, drift(eigen, incremental, gram, m, m0, r, w, rcond));
  }

  /** W = V_r Λ_r^{-1/2}, m×r column-major. */
  private static double[] whitening(SymmetricEigen eig, int m, int r) {
    double[] w = new double[m * r];
    for (int c = 0; c < r; c++) {
      double scale = 1.0 / Math.sqrt(eig.values()[c]);
      for (int i = 0; i < m; i++) {
        w[i + c * m] = eig.vectors()[i + c * m] * scale;
      }
    }
    return w;
  }

  private static Drift drift(
      IncrementalEigen eigen,
      SymmetricEigen incremental,
      double[] gram,
      int m,
      int m0,
      int r,
      double[] w,
      double rcond) {
    SymmetricEigen batch = SymmetricEigen.of(gram, m);
    double top = Math.abs(batch.values()[0]);
    double valueDrift = 0;
    for (int j = 0; j < m; j++) {
      valueDrift = Math.max(valueDrift, Math.abs(incremental.values()[j] - batch.values()[j]));
    }
    int rb = batch.rank(rcond);
    double[] pInc = outer(w, m, r);
    double[] pBatch = outer(whitening(batch, m, rb), m, rb);
    double diff = 0;
    double norm = 0;
    for (int i = 0; i < pInc.length; i++) {
      diff += (pInc[i] - pBatch[i]) * (pInc[i] - pBatch[i]);
      norm += pBatch[i] * pBatch[i];
    }
    return new Drift(
        m0,
        m,
        top > 0 ? valueDrift / top : valueDrift,
        eigen.orthogonalityError(),
        Math.sqrt(diff / norm),
        r,
        rb,
        eigen.stats());
  }

  private static double[] outer(double[] w, int m, int r) {
    double[] out = new double[m * m];
    io.github.sparkkpca.linalg.Blas.blas().dgemm("N", "T", m, m, r, 1.0, w, m, w, m, 0.0, out, m);
    return out;
  }
}
