package io.github.sparkkpca.kernel;

import io.github.sparkkpca.linalg.RowSet;
import java.util.Arrays;

/**
 * The median pairwise distance of up to {@code maxPoints} points, for the median heuristic of a
 * kernel's γ. Distances are summed from coordinate differences, never expanded through norms, so
 * they are exact up to rounding of the differences themselves wherever the points lie.
 */
public final class PairwiseMedian {

  private PairwiseMedian() {}

  /**
   * The median of ‖x−y‖² ({@code squaredEuclidean}) or ‖x−y‖₁ over the pairs of the first min(m,
   * maxPoints) points (row-major, m×d).
   *
   * @throws IllegalArgumentException when there are fewer than 2 points, or the median is 0 (at
   *     least half of the pairs coincide) or overflows a double
   */
  public static double of(double[] points, int m, int d, int maxPoints, boolean squaredEuclidean) {
    int p = Math.min(m, maxPoints);
    return median(
        pairs(
            p,
            (i, j) -> {
              double s = 0;
              for (int t = 0; t < d; t++) {
                double diff = points[i * d + t] - points[j * d + t];
                s += squaredEuclidean ? diff * diff : Math.abs(diff);
              }
              return s;
            }),
        p,
        squaredEuclidean);
  }

  /**
   * The same for a set that may be sparse: dense points as above; sparse ones by merging their
   * non-zeros (the coordinates where both are 0 add nothing), which sums the same differences in
   * the same order, so the median is the same as on the dense points.
   */
  public static double of(RowSet points, int maxPoints, boolean squaredEuclidean) {
    if (!points.isSparse()) {
      return of(points.values(), points.count(), points.dim(), maxPoints, squaredEuclidean);
    }
    int p = Math.min(points.count(), maxPoints);
    int[] off = points.offsets();
    int[] idx = points.indices();
    double[] val = points.values();
    return median(
        pairs(
            p,
            (i, j) -> {
              double s = 0;
              int a = off[i];
              int b = off[j];
              while (a < off[i + 1] || b < off[j + 1]) {
                int ta = a < off[i + 1] ? idx[a] : Integer.MAX_VALUE;
                int tb = b < off[j + 1] ? idx[b] : Integer.MAX_VALUE;
                double diff;
                if (ta == tb) {
                  diff = val[a++] - val[b++];
                } else if (ta < tb) {
                  diff = val[a++];
                } else {
                  diff = -val[b++];
                }
                s += squaredEuclidean ? diff * diff : Math.abs(diff);
              }
              return s;
            }),
        p,
        squaredEuclidean);
  }

  /** The distance of points i and j (i < j). */
  @FunctionalInterface
  private interface PairDistance {
    double between(int i, int j);
  }

  /** The distances of the p(p − 1)/2 pairs i < j of the first p points, pair by pair in order. */
  private static double[] pairs(int p, PairDistance distance) {
    double[] distances = new double[p * (p - 1) / 2];
    int c = 0;
    for (int i = 0; i < p; i++) {
      for (int j = i + 1; j < p; j++) {
        distances[c++] = distance.between(i, j);
      }
    }
    return distances;
  }

  private static double median(double[] distances, int p, boolean squaredEuclidean) {
    Arrays.sort(distances);
    double median =
        distances.length == 0
            ? 0.0
            : distances.length % 2 == 1
                ? distances[distances.length / 2]
                : 0.5 * (distances[distances.length / 2 - 1] + distances[distances.length / 2]);
    if (median == Double.POSITIVE_INFINITY) {
      throw new IllegalArgumentException(
          "Cannot choose gamma by the median heuristic: the median pairwise "
              + (squaredEuclidean ? "squared " : "")
              + "distance among "
              + p
              + " landmarks overflows a "
              + "double; rescale the data");
    }
    if (p < 2) {
      throw new IllegalArgumentException(
          "Cannot choose gamma by the median heuristic: it needs the distances between at least 2 "
              + "landmarks, and there is "
              + p
              + "; set gamma explicitly or use more landmarks");
    }
    if (!(median > 0)) {
      throw new IllegalArgumentException(
          "Cannot choose gamma by the median heuristic: the median pairwise "
              + "distance among "
              + p
              + " landmarks is 0 (at least half of their pairs are equal points); set gamma "
              + "explicitly");
    }
    return median;
  }
}
