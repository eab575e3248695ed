package io.github.sparkkpca.execution;

import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;

/**
 * Seeded hashes for reproducible sampling: {@link #hash} of a row's content (the same for any
 * partitioning and row order, and for dense and sparse encodings of a vector; identical rows hash
 * alike), and {@link #uniform(long, long)}, a row's pseudo-random draw u ∈ (0, 1) from its position
 * in the data, which differs between identical rows so that each row, not each distinct value, is
 * one draw.
 */
public final class RowHash {

  private RowHash() {}

  /** The 64-bit hash of the seed and the row's non-zero entries. */
  public static long hash(Vector v, long seed) {
    long h = mix(seed ^ 0x9E3779B97F4A7C15L);
    if (v instanceof SparseVector sv) {
      int[] idx = sv.indices();
      double[] val = sv.values();
      for (int i = 0; i < idx.length; i++) {
        h = absorb(h, idx[i], val[i]);
      }
    } else {
      double[] val = v instanceof DenseVector dv ? dv.values() : v.toArray();
      for (int i = 0; i < val.length; i++) {
        h = absorb(h, i, val[i]);
      }
    }
    return mix(h);
  }

  /**
   * The draw u ∈ (0, 1) of the row at 0-based position {@code row} of the data, from the top 53
   * bits of a hash of the seed and the position. For a seed, distinct positions hash to distinct
   * 64-bit values (the mixer is a bijection), and the draws behave as i.i.d. uniforms.
   */
  public static double uniform(long seed, long row) {
    long h =
        mix(mix(seed ^ 0x9E3779B97F4A7C15L) ^ (row * 0xD1B54A32D192ED03L + 0x632BE59BD9B4E019L));
    return ((h >>> 11) + 0.5) * 0x1.0p-53;
  }

  private static long absorb(long h, int index, double value) {
    if (value == 0.0) {
      return h; // zeros (and -0.0) are skipped so dense and sparse encodings hash alike
    }
    return mix(h ^ (Double.doubleToLongBits(value) + 0x632BE59BD9B4E019L * (index + 1L)));
  }

  /** SplitMix64's finaliser: a bijective 64-bit mixer with full avalanche. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
