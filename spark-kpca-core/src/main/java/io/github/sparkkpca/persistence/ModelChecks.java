package io.github.sparkkpca.persistence;

import io.github.sparkkpca.feature.FeatureMap;
import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.feature.NystromFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.pca.FeaturePCA;
import io.github.sparkkpca.pca.KernelPCASolution;
import java.util.List;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;

/**
 * The checks a model's fitted state passes when it is written and when it is read: the sizes a
 * summary records ({@link Sizes}), finiteness ({@link Finite}), and for a feature-map model the
 * stored numbers against each other ({@link StoredNumbers}, {@link Plausibility}), made by the
 * writer before anything is written ({@link #requireLoadable}) and by the loader ({@link
 * ModelData#load}).
 */
public final class ModelChecks {

  private ModelChecks() {}

  /**
   * Refuses, before anything is written, a model whose {@code k} param is not its number of
   * components, as its loader would ({@link StoredNumbers#components}).
   *
   * @param k the model's k param when set, else null
   * @throws IllegalArgumentException naming the path and the param
   */
  public static void requireParams(KernelPCASolution solution, Integer k, String path) {
    int components = solution.projector().numComponents();
    if (k != null && k != components) {
      throw new IllegalArgumentException(
          "Cannot save the model to '"
              + path
              + "': its k param is "
              + k
              + " but it scores "
              + components
              + " components; a fitted model cannot change k: fit a new one");
    }
  }

  /**
   * What a feature-map model must satisfy ({@link StoredNumbers}, {@link Plausibility}): the
   * statistics' count and total variance against the summary's, the spectrum within its bound,
   * non-negative and sorted, the components orthonormal eigenvectors of the stored covariance, and
   * for a Nyström map the landmark kernel and the whitening. The loader checks what it read; {@link
   * ModelData#save} checks the fitted model before it writes anything, so a model its own loader
   * would refuse is never written (the refusal then says which check a fit failed, instead of every
   * later load failing). Bounded work, independent of n (see each check).
   *
   * @param numRows n as the summary records it
   * @param storedTotal the total variance as the summary records it
   * @param spectrum the eigenvalues as the summary records them
   */
  static void checkFeatureModel(
      FeaturePCA fit,
      Kernel kernel,
      long numRows,
      double storedTotal,
      double[] spectrum,
      int numComponents,
      String what) {
    FeatureStatistics stats = fit.statistics();
    FeatureMap map = fit.map();
    int r = map.outputDim();
    boolean centered = fit.centered();
    double diagonalMean = stats.diagonalSum() / stats.count();
    double meanSqNorm = 0;
    for (double v : stats.mean()) {
      meanSqNorm += v * v;
    }
    boolean definite = kernel.isPositiveDefinite();
    StoredNumbers.featureModel(
        stats.count(),
        numRows,
        storedTotal,
        fit.totalVariance(),
        spectrum,
        definite ? (centered ? diagonalMean - meanSqNorm : diagonalMean) : stats.trace(centered),
        Math.abs(diagonalMean) + meanSqNorm + (definite ? 0 : stats.trace(false)),
        what);
    StoredNumbers.landmarkKernel(map, kernel, what);
    Plausibility.spectrum(spectrum, r, true, what);
    Plausibility.components(
        fit.components(),
        r,
        numComponents,
        stats.hasScatter() ? stats.scatter() : null,
        stats.count(),
        stats.mean(),
        centered,
        spectrum,
        what);
    if (map instanceof NystromFeatureMap nystrom) {
      Plausibility.whitening(nystrom, what);
    }
  }

  /**
   * Refuses, before anything is written, a fitted model that its loader would refuse ({@link
   * #checkFeatureModel}; a model without a feature map has nothing more to check than {@link
   * ModelData#save}'s finiteness): one line naming the check, instead of a model that no later load
   * accepts.
   *
   * @throws IllegalArgumentException naming the path and the failed check
   */
  public static void requireLoadable(KernelPCASolution solution, String path) {
    if (solution.isUpdatable()) {
      checkFeatureModel(
          solution.featurePCA(),
          solution.projector().kernel(),
          solution.numRows(),
          solution.totalVariance(),
          solution.spectrum(),
          solution.projector().numComponents(),
          "Cannot save the model to '"
              + path
              + "': the fitted model fails a check its loader makes (a numerical breakdown of the"
              + " fit, not an edit; columns of very different scales, such as one of large"
              + " values, are the usual cause: scale or centre them and fit again): ");
    }
  }

  /**
   * The checks of the sizes a model's summary records against each other and against the tables
   * that hold the data, made before anything of a recorded size is allocated: a hand-edited or
   * corrupted size (numFeatures = 10⁹) is refused naming the field and both values instead of
   * exhausting the heap. The messages complete "Cannot load X from 'path': ".
   */
  public static final class Sizes {
    private Sizes() {}

    /** Refuses a recorded size below 1. */
    public static void positive(int value, String field) {
      if (value < 1) {
        throw new IllegalArgumentException(
            "data/summary records " + field + " = " + value + ", expected at least 1");
      }
    }

    /** Refuses a recorded size that differs from what the data hold. */
    public static void equal(int recorded, String field, int held, String what) {
      if (recorded != held) {
        throw new IllegalArgumentException(
            "data/summary records "
                + field
                + " = "
                + recorded
                + " but the model holds "
                + held
                + " "
                + what);
      }
    }

    /** Refuses a recorded size above what the data hold. */
    public static void atMost(int recorded, String field, int held, String what) {
      if (recorded > held) {
        throw new IllegalArgumentException(
            "data/summary records "
                + field
                + " = "
                + recorded
                + " but the model holds only "
                + held
                + " "
                + what);
      }
    }

    /**
     * Refuses a table whose vector column {@code column} has, in some row, another size than the
     * {@code expected} one recorded as {@code field} in {@code data/summary}.
     */
    public static void vectors(
        List<Row> rows, int column, int expected, String field, String table, String what) {
      sized(rows, column, expected, "data/summary records " + field, table, what);
    }

    /**
     * As {@link #vectors(List, int, int, String, String, String)}, {@code recorded} saying where
     * the expected size comes from (e.g. "data/summary records numFeatures").
     */
    public static void sized(
        List<Row> rows, int column, int expected, String recorded, String table, String what) {
      for (Row row : rows) {
        int size = ((Vector) row.get(column)).size();
        if (size != expected) {
          throw new IllegalArgumentException(
              recorded
                  + " = "
                  + expected
                  + " but "
                  + table
                  + " row "
                  + row.getInt(0)
                  + " holds "
                  + size
                  + " "
                  + what);
        }
      }
    }
  }

  /** The finiteness check of everything written and read. */
  public static final class Finite {
    private Finite() {}

    /**
     * Returns {@code v}, or throws naming {@code what} and the first non-finite stored value (a
     * sparse vector's non-zeros, never its d values).
     */
    public static Vector require(Vector v, String what) {
      require(v instanceof SparseVector sv ? sv.values() : v.toArray(), what);
      return v;
    }

    /** Returns {@code values}, or throws naming {@code what} and the first non-finite entry. */
    public static double[] require(double[] values, String what) {
      for (int i = 0; i < values.length; i++) {
        if (!Double.isFinite(values[i])) {
          throw new IllegalArgumentException(
              what
                  + " holds a non-finite value ("
                  + values[i]
                  + " at entry "
                  + i
                  + "): the model is corrupt");
        }
      }
      return values;
    }
  }
}
