package io.github.sparkkpca.regression;

import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.linalg.Blas;
import java.io.Serializable;

/**
 * {@link FeatureStatistics} of the features φ(x_i) ∈ R^r together with the label statistics a
 * regression on them needs, for c label columns y_i ∈ R^c: the label mean ȳ, the centred label sums
 * of squares Σ(y_ic − ȳ_c)² and the centred cross-moment C_φy = Σ(φ_i − φ̄)(y_i − ȳ)ᵀ (r×c).
 *
 * <p>For the Nyström map φ(x) = Wᵀk_x (W = K_mm^{-1/2} on its range) the raw cross-moment is Σφ_i
 * y_iᵀ = Wᵀ K_mn Y = C_φy + n φ̄ ȳᵀ: the one r-vector per label column that Braun, Buhmann and
 * Müller's coefficients s_i = u_iᵀY need besides the kernel PCA itself ({@link
 * ComponentRegression}).
 *
 * <p>Everything is kept centred and merged with Chan, Golub and LeVeque's pairwise update (as the
 * feature scatter is): C = C_a + C_b + (n_a n_b / n) δ_φ δ_yᵀ with δ_φ = φ̄_b − φ̄_a, δ_y = ȳ_b −
 * ȳ_a, so the large mean of Gaussian-kernel features causes no cancellation.
 */
public final class LabelledStatistics implements Serializable {

  private final FeatureStatistics features;
  private final int labels;
  private double[] labelMean;
  private double[] labelSquares;
  private double[] cross;

  public LabelledStatistics(int dim, int labels) {
    if (labels < 1) {
      throw new IllegalArgumentException("at least one label column is needed, got " + labels);
    }
    this.features = new FeatureStatistics(dim);
    this.labels = labels;
  }

  /**
   * Adds a block of b rows: features r×b column-major (overwritten: centred in place), labels c×b
   * column-major (overwritten: centred in place) and the block's Σk(x,x).
   */
  public void addBlock(
      double[] blockFeatures, double[] blockLabels, int b, double blockDiagonalSum) {
    if (b == 0) {
      return;
    }
    int r = features.dim();
    double[] featureMean = columnMean(blockFeatures, r, b);
    double[] meanOfLabels = columnMean(blockLabels, labels, b);
    double[] squares = new double[labels];
    for (int i = 0; i < b; i++) {
      for (int c = 0; c < labels; c++) {
        double v = blockLabels[i * labels + c] - meanOfLabels[c];
        blockLabels[i * labels + c] = v;
        squares[c] += v * v;
      }
    }
    double[] previousFeatureMean = features.mean();
    long previous = features.count();
    features.addBlock(blockFeatures, b, blockDiagonalSum);
    allocate();
    double[] blockCross = new double[r * labels];
    Blas.blas()
        .dgemm(
            "N", "T", r, labels, b, 1.0, blockFeatures, r, blockLabels, labels, 0.0, blockCross, r);
    combine(previous, previousFeatureMean, b, featureMean, meanOfLabels, squares, blockCross);
  }

  /** Merges another partition's statistics into this one (returns this). */
  public LabelledStatistics merge(LabelledStatistics other) {
    if (other.labels != labels || other.features.dim() != features.dim()) {
      throw new IllegalArgumentException(
          "labelled statistics of different shapes: "
              + features.dim()
              + "x"
              + labels
              + " and "
              + other.features.dim()
              + "x"
              + other.labels);
    }
    if (other.features.count() == 0) {
      return this;
    }
    double[] previousFeatureMean = features.mean();
    long previous = features.count();
    features.merge(other.features);
    allocate();
    combine(
        previous,
        previousFeatureMean,
        other.features.count(),
        other.features.mean(),
        other.labelMean,
        other.labelSquares,
        other.cross);
    return this;
  }

  private void combine(
      long na,
      double[] featureMeanA,
      long nb,
      double[] featureMeanB,
      double[] labelMeanB,
      double[] squaresB,
      double[] crossB) {
    int r = features.dim();
    long n = na + nb;
    for (int i = 0; i < cross.length; i++) {
      cross[i] += crossB[i];
    }
    for (int c = 0; c < labels; c++) {
      labelSquares[c] += squaresB[c];
    }
    if (na > 0) {
      double weight = (double) na * nb / n;
      double[] deltaFeatures = new double[r];
      for (int i = 0; i < r; i++) {
        deltaFeatures[i] = featureMeanB[i] - featureMeanA[i];
      }
      double[] deltaLabels = new double[labels];
      for (int c = 0; c < labels; c++) {
        deltaLabels[c] = labelMeanB[c] - labelMean[c];
        labelSquares[c] += weight * deltaLabels[c] * deltaLabels[c];
      }
      Blas.blas().dger(r, labels, weight, deltaFeatures, 1, deltaLabels, 1, cross, r);
      for (int c = 0; c < labels; c++) {
        labelMean[c] += deltaLabels[c] * nb / n;
      }
    } else {
      System.arraycopy(labelMeanB, 0, labelMean, 0, labels);
    }
  }

  private void allocate() {
    if (cross == null) {
      labelMean = new double[labels];
      labelSquares = new double[labels];
      cross = new double[features.dim() * labels];
    }
  }

  private static double[] columnMean(double[] values, int rows, int b) {
    double[] mean = new double[rows];
    for (int i = 0; i < b; i++) {
      for (int c = 0; c < rows; c++) {
        mean[c] += values[i * rows + c];
      }
    }
    for (int c = 0; c < rows; c++) {
      mean[c] /= b;
    }
    return mean;
  }

  /** The feature statistics (n, φ̄, the centred scatter, Σk(x,x)). */
  public FeatureStatistics features() {
    return features;
  }

  /** c, the number of label columns. */
  public int labels() {
    return labels;
  }

  public long count() {
    return features.count();
  }

  /** ȳ (a copy). */
  public double[] labelMean() {
    return labelMean == null ? new double[labels] : labelMean.clone();
  }

  /** Σ(y_ic − ȳ_c)² per label column (a copy). */
  public double[] centredLabelSquares() {
    return labelSquares == null ? new double[labels] : labelSquares.clone();
  }

  /**
   * The cross-moment, r×c column-major (a copy): centred Σ(φ_i − φ̄)(y_i − ȳ)ᵀ, or the raw Σφ_i
   * y_iᵀ = that + n φ̄ ȳᵀ.
   */
  public double[] cross(boolean centred) {
    int r = features.dim();
    double[] out = cross == null ? new double[r * labels] : cross.clone();
    if (!centred && cross != null) {
      Blas.blas().dger(r, labels, (double) count(), features.mean(), 1, labelMean, 1, out, r);
    }
    return out;
  }

  /** ‖Y − ȳ‖² (centred) or ‖Y‖² = that + nȳ² (raw), per label column. */
  public double[] labelSquares(boolean centred) {
    double[] out = centredLabelSquares();
    if (!centred) {
      double[] mean = labelMean();
      for (int c = 0; c < labels; c++) {
        out[c] += count() * mean[c] * mean[c];
      }
    }
    return out;
  }
}
