package io.github.sparkkpca.landmarks;

import io.github.sparkkpca.execution.DataScan;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.linalg.RowSet;
import java.util.function.IntUnaryOperator;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.SparkSession;

/**
 * A way of choosing the m landmarks of a Nyström fit. Every sampler is reproducible for a seed and
 * independent of the partitioning of the data; it may run passes of its own over the validated
 * rows.
 */
public interface LandmarkSampler {

  /**
   * What a sampler may use: the validated rows, the validating scan (count and uniform sample), the
   * kernel (γ resolved), sizes, seed and the prefix of its Spark job descriptions; {@code
   * blockSizes} gives the rows per block of a pass over the rows for block rows of a given width in
   * doubles ({@link io.github.sparkkpca.linalg.RowBlock#width}).
   */
  record Input(
      SparkSession spark,
      JavaRDD<Vector> vectors,
      DataScan scan,
      Kernel kernel,
      long n,
      int d,
      int m,
      long seed,
      String column,
      IntUnaryOperator blockSizes,
      String jobPrefix) {}

  /**
   * Landmarks as chosen: the rows (sparse rows kept as their non-zeros), their count (fewer than
   * asked when the data have fewer distinct candidates), how they were obtained, in words, and, for
   * {@link ResidualGrowth}, the mean residual of its held-out probe rows relative to their mean
   * k(x,x) after each landmark (else null).
   */
  record Landmarks(RowSet points, String description, double[] residualCurve) {
    public Landmarks(RowSet points, String description) {
      this(points, description, null);
    }

    /** m. */
    public int count() {
      return points.count();
    }

    /** m×d row-major (a new array when the rows are held sparse). */
    public double[] rows() {
      return points.toDense();
    }
  }

  Landmarks select(Input input);

  /** The sampler a {@code landmarkSampling} value names. */
  static LandmarkSampler of(
      LandmarkSampling selection,
      double leverageRegularization,
      int kmeansMaxIter,
      ResidualGrowth.Settings growth) {
    return switch (selection) {
      case UNIFORM -> new UniformSampler();
      case LEVERAGE -> new LeverageSampler(leverageRegularization);
      case KMEANS -> new KMeansSampler(kmeansMaxIter);
      case RESIDUAL -> new ResidualGrowth(growth);
    };
  }

  /**
   * Why there are fewer landmarks than requested when the scan found fewer distinct rows than m,
   * else "".
   */
  static String fewerNote(Input input) {
    int found = input.scan().sampleSize();
    return found < input.m()
        ? "; "
            + found
            + " landmarks instead of the "
            + input.m()
            + " requested: the data have "
            + "only "
            + found
            + " distinct rows"
        : "";
  }
}
