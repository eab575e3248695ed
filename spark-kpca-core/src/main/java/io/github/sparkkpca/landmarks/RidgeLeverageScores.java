package io.github.sparkkpca.landmarks;

import io.github.sparkkpca.execution.RowHash;
import io.github.sparkkpca.execution.SmallestKeys;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.Blas;
import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.linalg.SymmetricEigen;
import java.io.Serializable;
import java.util.Iterator;
import org.apache.spark.ml.linalg.Vector;

/**
 * Weighted landmark sampling by approximate ridge leverage scores.
 *
 * <p>The ridge leverage score of x_i is l_i(λ) = [K(K + nλI)⁻¹]_ii. From a uniform pilot set S it
 * is approximated (Alaoui and Mahoney 2015; Sterge et al. 2020, §3.2.1) by l̃_i = (k(x_i,x_i) −
 * k_iᵀ(K_SS + nλI)⁻¹k_i) / (nλ), which equals l_i when S is all of the data. With K_SS = VΛVᵀ and M
 * = V(Λ + nλ)^{-1/2}, k_iᵀ(K_SS + nλI)⁻¹k_i = ‖Mᵀk_i‖², one GEMM per block.
 *
 * <p>Rows are then drawn without replacement with probabilities ∝ l̃_i by keeping the smallest keys
 * −ln(u_i)/l̃_i (Efraimidis and Spirakis 2006), with u_i the draw of the row's position in the data
 * ({@link RowHash#uniform(long, long)}), until m distinct rows are found ({@link SmallestKeys}):
 * identical rows have equal scores and independent draws, so a value repeated in c rows weighs
 * c·l̃, as c rows do. The sample depends on the rows in their order, not on how they are split into
 * partitions.
 */
public final class RidgeLeverageScores implements Serializable {

  /** Offsets the seed so the pilot and the weighted draw use independent hash streams. */
  private static final long STREAM = 0x5DEECE66DL;

  private final LandmarkKernel pilot;
  private final double[] whitening;
  private final double nLambda;
  private final int m;
  private final long seed;

  /**
   * @param pilot the kernel bound to the pilot rows S
   * @param n number of rows
   * @param regularization λ relative to the mean of k(z,z) over the pilot (so it is scale-free)
   * @param m landmarks to draw
   * @param seed the fit's seed
   */
  public RidgeLeverageScores(
      LandmarkKernel pilot, long n, double regularization, int m, long seed) {
    int p = pilot.numLandmarks();
    double[] gram = pilot.gram();
    double diagonalMean = 0;
    for (int j = 0; j < p; j++) {
      diagonalMean += gram[j + j * p] / p;
    }
    if (!(diagonalMean > 0)) {
      throw new IllegalArgumentException(
          "leverage sampling: the pilot landmarks have k(z,z) = 0 on average");
    }
    this.nLambda = n * regularization * diagonalMean;
    SymmetricEigen eig = SymmetricEigen.of(gram, p);
    this.whitening = new double[p * p];
    for (int c = 0; c < p; c++) {
      double scale = 1.0 / Math.sqrt(Math.max(eig.values()[c], 0.0) + nLambda);
      for (int i = 0; i < p; i++) {
        whitening[i + c * p] = eig.vectors()[i + c * p] * scale;
      }
    }
    this.pilot = pilot;
    this.m = m;
    this.seed = seed;
  }

  /** nλ, the ridge added to K_SS. */
  public double ridge() {
    return nLambda;
  }

  /**
   * Scores one partition's rows and keeps the m distinct rows with the smallest sampling keys.
   *
   * @param firstRow the 0-based position in the data of the partition's first row
   */
  public SmallestKeys samplePartition(
      Iterator<Vector> vectors, long firstRow, int blockSize, String column) {
    int p = pilot.numLandmarks();
    SmallestKeys keep = new SmallestKeys(m);
    RowBlock block = pilot.newBlock(blockSize);
    Vector[] rows = new Vector[blockSize];
    double[] kernel = new double[p * blockSize];
    double[] projected = new double[p * blockSize];
    double[] scores = new double[blockSize];
    long blockStart = firstRow;
    while (vectors.hasNext()) {
      Vector v = vectors.next();
      rows[block.size()] = v;
      block.add(v, column);
      if (block.isFull() || !vectors.hasNext()) {
        int b = block.size();
        scores(block, kernel, projected, scores);
        for (int i = 0; i < b; i++) {
          long row = blockStart + i;
          double key = -Math.log(RowHash.uniform(seed ^ STREAM, row)) / scores[i];
          if (keep.accepts(key, row)) {
            keep.offer(key, row, rows[i]);
          }
        }
        blockStart += b;
        block.clear();
      }
    }
    return keep;
  }

  /** l̃_i for the rows of the block. */
  void scores(RowBlock block, double[] kernel, double[] projected, double[] out) {
    int p = pilot.numLandmarks();
    int b = block.size();
    pilot.compute(block, kernel);
    Blas.blas().dgemm("T", "N", p, b, p, 1.0, whitening, p, kernel, p, 0.0, projected, p);
    for (int i = 0; i < b; i++) {
      double q = 0;
      for (int c = 0; c < p; c++) {
        double t = projected[c + i * p];
        q += t * t;
      }
      out[i] = Math.max(pilot.diagonal(block, i) - q, 0.0) / nLambda;
    }
  }
}
