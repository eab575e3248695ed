package io.github.sparkkpca.feature;

import dev.ludovic.netlib.blas.BLAS;
import io.github.sparkkpca.linalg.Blas;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;

/**
 * The sufficient statistics of linear PCA on r-dimensional features, accumulated block by block and
 * merged across partitions: the count n, the mean φ̄, the centred scatter M = Σ (φ_i − φ̄)(φ_i −
 * φ̄)ᵀ and Σ k(x_i, x_i).
 *
 * <p>The scatter is kept centred and merged with Chan, Golub and LeVeque's pairwise update M = M_a
 * + M_b + δδᵀ·n_a·n_b/n (δ = φ̄_b − φ̄_a), so no cancellation between Σφφᵀ and n·φ̄φ̄ᵀ occurs even
 * when the features have a large mean (as Gaussian-kernel features do). Each block adds its centred
 * scatter with one SYRK. Only the upper triangle of M is maintained.
 *
 * <p>The r×r arrays are allocated on first use, so an empty instance (the {@code treeAggregate}
 * zero, which Spark ships inside every task) stays a few bytes. Java serialization (Spark's default
 * for the shuffle that merges the partitions' statistics and for the result sent to the driver)
 * writes the upper triangle only, packed: 4r² instead of 8r² bytes per partition summary, as raw
 * little-endian bytes (Java serialization's own {@code double[]} encoding converts value by value,
 * about 5× slower than the pass's BLAS needs: at r = 8000 a summary is 244 MB and is written and
 * read twice per fit).
 *
 * <p>A model whose components were not solved from a scatter (RF-Oja, which keeps O(r·k) state)
 * keeps its statistics {@linkplain #withoutScatter without the scatter}: n, φ̄, Σ k(x, x) and tr M,
 * enough for the centring, the scores and the total variance, but not for merging or solving again.
 */
public final class FeatureStatistics implements Serializable {

  private final int dim;
  private long count;
  private double[] mean;
  private double[] scatter;
  private double diagonalSum;

  /** tr M when the scatter itself is not kept ({@link #withoutScatter}); NaN otherwise. */
  private double scatterTraceOnly = Double.NaN;

  public FeatureStatistics(int dim) {
    this.dim = dim;
  }

  /**
   * Adds a block of b feature vectors, stored r×b column-major in {@code features} (overwritten:
   * the block is centred in place), and the block's Σ k(x,x).
   */
  public void addBlock(double[] features, int b, double blockDiagonalSum) {
    requireScatter("absorb rows");
    if (b == 0) {
      return;
    }
    double[] blockMean = new double[dim];
    for (int i = 0; i < b; i++) {
      int o = i * dim;
      for (int c = 0; c < dim; c++) {
        blockMean[c] += features[o + c];
      }
    }
    for (int c = 0; c < dim; c++) {
      blockMean[c] /= b;
    }
    for (int i = 0; i < b; i++) {
      int o = i * dim;
      for (int c = 0; c < dim; c++) {
        features[o + c] -= blockMean[c];
      }
    }
    allocate();
    BLAS blas = Blas.blas();
    blas.dsyrk("U", "N", dim, b, 1.0, features, dim, 1.0, scatter, dim);
    combine(b, blockMean);
    diagonalSum += blockDiagonalSum;
  }

  /** Merges another partition's statistics into this one (returns this). */
  public FeatureStatistics merge(FeatureStatistics other) {
    if (other.dim != dim) {
      throw new IllegalArgumentException("feature dimensions differ: " + dim + " and " + other.dim);
    }
    requireScatter("absorb other statistics");
    other.requireScatter("be merged");
    if (other.count == 0) {
      return this;
    }
    allocate();
    for (int j = 0; j < dim; j++) {
      int o = j * dim;
      for (int i = o; i <= o + j; i++) {
        scatter[i] += other.scatter[i];
      }
    }
    combine(other.count, other.mean);
    diagonalSum += other.diagonalSum;
    return this;
  }

  private void allocate() {
    if (scatter == null) {
      mean = new double[dim];
      scatter = new double[dim * dim];
    }
  }

  /** Adds n_b rows with mean φ̄_b whose centred scatter was already added to {@link #scatter}. */
  private void combine(long nb, double[] meanB) {
    long na = count;
    long n = na + nb;
    if (na > 0) {
      double[] delta = new double[dim];
      for (int c = 0; c < dim; c++) {
        delta[c] = meanB[c] - mean[c];
      }
      Blas.blas().dsyr("U", dim, (double) na * nb / n, delta, 1, scatter, dim);
      for (int c = 0; c < dim; c++) {
        mean[c] += delta[c] * nb / n;
      }
    } else {
      System.arraycopy(meanB, 0, mean, 0, dim);
    }
    count = n;
  }

  /**
   * Statistics restored from their persisted parts.
   *
   * @param scatter the centred scatter, r×r column-major (its upper triangle is used)
   */
  public static FeatureStatistics of(
      int dim, long count, double[] mean, double[] scatter, double diagonalSum) {
    if (count < 0 || (count > 0 && (mean.length != dim || scatter.length != (long) dim * dim))) {
      throw new IllegalArgumentException(
          "feature statistics: count "
              + count
              + ", mean of "
              + mean.length
              + ", scatter of "
              + scatter.length
              + " for dimension "
              + dim);
    }
    FeatureStatistics s = new FeatureStatistics(dim);
    s.count = count;
    s.diagonalSum = diagonalSum;
    if (count > 0) {
      s.mean = mean.clone();
      s.scatter = scatter.clone();
    }
    return s;
  }

  /**
   * Statistics kept without the scatter M: O(r) instead of O(r²), for models whose components were
   * found without it (RF-Oja). They centre, score and give the total variance tr C; {@link
   * #scatter}, {@link #covariance}, {@link #merge} and {@link #addBlock} refuse.
   *
   * @param scatterTrace tr M = Σ‖φ_i − φ̄‖² (≥ 0)
   */
  public static FeatureStatistics withoutScatter(
      int dim, long count, double[] mean, double scatterTrace, double diagonalSum) {
    if (count < 1
        || mean.length != dim
        || !(scatterTrace >= 0)
        || Double.isInfinite(scatterTrace)) {
      throw new IllegalArgumentException(
          "feature statistics without scatter: count "
              + count
              + ", mean of "
              + mean.length
              + " for dimension "
              + dim
              + ", scatter trace "
              + scatterTrace);
    }
    FeatureStatistics s = new FeatureStatistics(dim);
    s.count = count;
    s.diagonalSum = diagonalSum;
    s.mean = mean.clone();
    s.scatterTraceOnly = scatterTrace;
    return s;
  }

  /** Whether the scatter M is kept (false for {@link #withoutScatter}). */
  public boolean hasScatter() {
    return Double.isNaN(scatterTraceOnly);
  }

  /** tr M = Σ‖φ_i − φ̄‖², from the scatter's diagonal or as kept without it. */
  public double scatterTrace() {
    if (!hasScatter()) {
      return scatterTraceOnly;
    }
    double t = 0;
    for (double v : scatterDiagonal()) {
      t += v;
    }
    return t;
  }

  private void requireScatter(String action) {
    if (!hasScatter()) {
      throw new IllegalStateException(
          "feature statistics kept without their scatter (r = "
              + dim
              + ", n = "
              + count
              + ") cannot "
              + action
              + " (a model found by RF-Oja keeps only n, the mean and the traces)");
    }
  }

  /** A deep copy (merging mutates the receiver). */
  public FeatureStatistics copy() {
    if (!hasScatter()) {
      return withoutScatter(dim, count, mean, scatterTraceOnly, diagonalSum);
    }
    return of(
        dim,
        count,
        mean == null ? new double[dim] : mean,
        scatter == null ? new double[dim * dim] : scatter,
        diagonalSum);
  }

  /** The centred scatter M, r×r column-major, upper triangle only (a copy; zeros when empty). */
  public double[] scatter() {
    requireScatter("give the scatter");
    return scatter == null ? new double[dim * dim] : scatter.clone();
  }

  /** The diagonal of the centred scatter M (zeros when empty). */
  public double[] scatterDiagonal() {
    requireScatter("give the scatter diagonal");
    double[] diagonal = new double[dim];
    if (scatter != null) {
      for (int j = 0; j < dim; j++) {
        diagonal[j] = scatter[j + j * dim];
      }
    }
    return diagonal;
  }

  /** The diagonal of the covariance M/n: each feature's variance (zeros when empty). */
  public double[] variances() {
    double[] variances = scatterDiagonal();
    for (int j = 0; j < dim; j++) {
      variances[j] /= Math.max(1, count);
    }
    return variances;
  }

  public long count() {
    return count;
  }

  public int dim() {
    return dim;
  }

  /** φ̄ (a copy). */
  public double[] mean() {
    return mean == null ? new double[dim] : mean.clone();
  }

  /** Σ k(x_i, x_i). */
  public double diagonalSum() {
    return diagonalSum;
  }

  /**
   * tr C, C the covariance (centred: M/n) or second moment (uncentred: M/n + φ̄φ̄ᵀ): the sum of all
   * r eigenvalues of C, from the diagonal in O(r). 0 when empty.
   */
  public double trace(boolean centered) {
    if (count == 0) {
      return 0;
    }
    double t = scatterTrace() / count;
    if (!centered) {
      for (double v : mean) {
        t += v * v;
      }
    }
    return t;
  }

  /**
   * The covariance (centred: M/n) or second-moment (uncentred: M/n + φ̄φ̄ᵀ) matrix, full r×r
   * column-major.
   */
  public double[] covariance(boolean centered) {
    requireScatter("give the covariance");
    allocate();
    double[] c = new double[dim * dim];
    for (int j = 0; j < dim; j++) {
      for (int i = 0; i <= j; i++) {
        double v = scatter[i + j * dim] / count;
        if (!centered) {
          v += mean[i] * mean[j];
        }
        c[i + j * dim] = v;
        c[j + i * dim] = v;
      }
    }
    return c;
  }

  /** Java serialization writes {@link Packed} instead: the upper triangle only. */
  private Object writeReplace() {
    return new Packed(this);
  }

  /**
   * An upper bound of the serialized size of the statistics of dimension r: the packed upper
   * triangle, the mean and a few hundred bytes of fields and class descriptors.
   */
  public static long serializedBytes(int r) {
    return 4L * r * (r + 1) + 8L * r + 1024;
  }

  /** The serialized form: the scatter's upper triangle column by column, r(r+1)/2 doubles. */
  private static final class Packed implements Serializable {
    private static final long serialVersionUID = 2L;

    /** Doubles converted to bytes per write: 512 KB of buffer. */
    private static final int CHUNK = 1 << 16;

    private final int dim;
    private final long count;
    private final double[] mean;
    private final double diagonalSum;
    private final double scatterTraceOnly;

    /** Written by {@link #writeObject} in bulk, not by the default field encoding. */
    private transient double[] upper;

    Packed(FeatureStatistics s) {
      dim = s.dim;
      count = s.count;
      mean = s.mean;
      diagonalSum = s.diagonalSum;
      scatterTraceOnly = s.scatterTraceOnly;
      if (s.scatter == null) {
        upper = null;
      } else {
        upper = new double[Math.toIntExact((long) dim * (dim + 1) / 2)];
        for (int j = 0, p = 0; j < dim; j++) {
          System.arraycopy(s.scatter, j * dim, upper, p, j + 1);
          p += j + 1;
        }
      }
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      out.writeInt(upper == null ? -1 : upper.length);
      if (upper == null) {
        return;
      }
      ByteBuffer bytes =
          ByteBuffer.allocate(Math.min(CHUNK, upper.length) * Double.BYTES)
              .order(ByteOrder.LITTLE_ENDIAN);
      DoubleBuffer doubles = bytes.asDoubleBuffer();
      for (int off = 0; off < upper.length; off += CHUNK) {
        int len = Math.min(CHUNK, upper.length - off);
        doubles.clear();
        doubles.put(upper, off, len);
        out.write(bytes.array(), 0, len * Double.BYTES);
      }
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      int length = in.readInt();
      if (length < -1 || (length >= 0 && length != (long) dim * (dim + 1) / 2)) {
        throw new IOException(
            "feature statistics: " + length + " packed scatter entries for dimension " + dim);
      }
      if (length < 0) {
        upper = null;
        return;
      }
      upper = new double[length];
      ByteBuffer bytes =
          ByteBuffer.allocate(Math.min(CHUNK, length) * Double.BYTES)
              .order(ByteOrder.LITTLE_ENDIAN);
      DoubleBuffer doubles = bytes.asDoubleBuffer();
      for (int off = 0; off < length; off += CHUNK) {
        int len = Math.min(CHUNK, length - off);
        in.readFully(bytes.array(), 0, len * Double.BYTES);
        doubles.clear();
        doubles.get(upper, off, len);
      }
    }

    private Object readResolve() {
      FeatureStatistics s = new FeatureStatistics(dim);
      s.count = count;
      s.diagonalSum = diagonalSum;
      s.scatterTraceOnly = scatterTraceOnly;
      if (!s.hasScatter()) {
        s.mean = mean;
      }
      if (upper != null) {
        s.mean = mean;
        s.scatter = new double[dim * dim];
        for (int j = 0, p = 0; j < dim; j++) {
          System.arraycopy(upper, p, s.scatter, j * dim, j + 1);
          p += j + 1;
        }
      }
      return s;
    }
  }
}
