package io.github.sparkkpca.ml;

import io.github.sparkkpca.feature.KernelExpansion;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.RowSet;
import java.util.Arrays;
import org.apache.spark.ml.linalg.DenseMatrix;
import org.apache.spark.ml.linalg.Matrix;
import org.apache.spark.ml.linalg.SparseMatrix;
import org.apache.spark.ml.linalg.Vector;

/**
 * A landmark model's support points and projector as Spark's matrices and vectors, for the
 * accessors of {@link AbstractKernelPCAModel}: landmarks stay sparse when the model holds them
 * sparse, so nothing of size m×d is built for a model fitted on wide sparse rows.
 */
final class LandmarkMatrices {

  private LandmarkMatrices() {}

  /** The m support points, one vector each, in the form the model holds them. */
  static Vector[] vectors(LandmarkKernel support) {
    Vector[] out = new Vector[support.numLandmarks()];
    for (int j = 0; j < out.length; j++) {
      out[j] = support.landmark(j);
    }
    return out;
  }

  /**
   * The m×d support points, one per row: a row-major {@link SparseMatrix} of the non-zeros on the
   * sparse kernel-block path, else a {@link DenseMatrix}.
   */
  static Matrix rows(LandmarkKernel support) {
    int m = support.numLandmarks();
    int d = support.dim();
    if (support.isSparse()) {
      RowSet z = support.points().toSparse();
      // Compressed rows of the m×d matrix are compressed columns of its d×m transpose.
      return new SparseMatrix(
          m, d, z.offsets().clone(), z.indices().clone(), z.values().clone(), true);
    }
    // Row-major m×d equals column-major d×m, hence the transpose.
    return new DenseMatrix(d, m, support.landmarks().clone()).transpose().toDense();
  }

  /** P, the m×k projector of y(x) = Pᵀk_x − o (the expansion's first k columns). */
  static DenseMatrix projector(KernelExpansion expansion, int k) {
    int m = expansion.support().numLandmarks();
    return new DenseMatrix(m, k, Arrays.copyOf(expansion.coefficients(), m * k));
  }
}
