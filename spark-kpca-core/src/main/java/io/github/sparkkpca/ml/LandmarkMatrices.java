package io.github.sparkkpca.ml;

import io.github.sparkkpca.feature.KernelExpansion;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.RowSet;
import io.github.sparkkpca.pca.KernelPCASolution;
import java.util.Arrays;
import org.apache.spark.ml.linalg.DenseMatrix;
import org.apache.spark.ml.linalg.Matrix;
import org.apache.spark.ml.linalg.SparseMatrix;
import org.apache.spark.ml.linalg.Vector;

/**
 * A landmark model's support points and projector as Spark's matrices and vectors, for the
 * accessors of {@link AbstractKernelPCAModel}: landmarks stay sparse when the model holds them
 * sparse, so nothing of size m×d is built for a model fitted on wide sparse rows. A model without
 * landmarks (random features) refuses those accessors here, naming the accessor.
 */
final class LandmarkMatrices {

  private LandmarkMatrices() {}

  /**
   * The landmark form of {@code model}'s scores, or a clear error naming {@code accessor} when it
   * has no landmarks.
   */
  static KernelExpansion expansion(AbstractKernelPCAModel<?> model, String accessor) {
    if (!model.hasLandmarks()) {
      throw new UnsupportedOperationException(noLandmarks(model, accessor));
    }
    return model.solution().projector().kernelExpansion();
  }

  /** Why {@code model} cannot give {@code what}: it is a random feature model. */
  static String noLandmarks(AbstractKernelPCAModel<?> model, String what) {
    KernelPCASolution solution = model.solution();
    String map =
        solution.isUpdatable()
            ? solution.featurePCA().map().kind() + ", D = " + model.rank()
            : "no map";
    return model.getClass().getSimpleName()
        + " "
        + model.uid()
        + " has no landmarks: it is a random feature model ("
        + map
        + "); "
        + what
        + " needs a landmark model (NystromKernelPCA or KernelPCA)";
  }

  /** The m support points, one vector each, in the form the model holds them. */
  static Vector[] vectors(AbstractKernelPCAModel<?> model) {
    LandmarkKernel support = expansion(model, "landmarkVectors()").support();
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
  static Matrix rows(AbstractKernelPCAModel<?> model) {
    LandmarkKernel support = expansion(model, "landmarks()").support();
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
  static DenseMatrix projector(AbstractKernelPCAModel<?> model) {
    KernelExpansion expansion = expansion(model, "projector()");
    int k = model.numComponents();
    int m = expansion.support().numLandmarks();
    return new DenseMatrix(m, k, Arrays.copyOf(expansion.coefficients(), m * k));
  }
}
