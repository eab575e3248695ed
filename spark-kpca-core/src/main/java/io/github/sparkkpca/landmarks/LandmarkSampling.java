package io.github.sparkkpca.landmarks;

import java.util.Arrays;
import java.util.Locale;

/**
 * How the m landmarks are chosen. Every strategy is reproducible for a seed and the same rows in
 * the same order, however they are split into partitions (k-means also for any order). Repeated
 * rows count once per copy in the draw and are merged afterwards: a landmark repeated adds nothing
 * to span{k(·,z_j)}. The draw continues until m distinct rows are found, so fewer than m landmarks
 * mean the data have fewer distinct rows.
 *
 * <ul>
 *   <li>{@link #UNIFORM}: m distinct rows: rows uniformly without replacement, drawn in the
 *       validating pass (no extra pass). Sterge et al. (2020) §3.2, plain Nyström.
 *   <li>{@link #LEVERAGE}: m distinct rows: rows sampled without replacement with probability
 *       proportional to approximate ridge leverage scores l̃_i(λ) from a uniform pilot of m rows
 *       (Sterge et al. §3.2.1, "approximate leverage score" Nyström). One extra pass over the data:
 *       2·n·m·d + n·m² flops.
 *   <li>{@link #KMEANS}: the centres of Spark ML's {@code KMeans} with k = m (k-means||
 *       initialisation) run on a canonically partitioned copy of the data. One shuffle plus maxIter
 *       passes of n·m·d.
 *   <li>{@link #RESIDUAL}: m is chosen: rows in a seeded random order are admitted while their
 *       feature-space residual against the landmarks so far is large, until a held-out probe sample
 *       is explained to a tolerance, an F-test stops, or a maximum is reached ({@link
 *       ResidualGrowth}; Hallgren 2021, §3.4 and ch. 4). About log₂ of the rows scanned passes.
 * </ul>
 */
public enum LandmarkSampling {
  UNIFORM,
  LEVERAGE,
  KMEANS,
  RESIDUAL;

  /** The parameter values, lower case. */
  public static final String[] NAMES =
      Arrays.stream(values()).map(LandmarkSampling::paramName).toArray(String[]::new);

  public String paramName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static LandmarkSampling parse(String name) {
    for (LandmarkSampling s : values()) {
      if (s.paramName().equalsIgnoreCase(name)) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "Unknown landmarkSampling '" + name + "'; expected one of " + Arrays.toString(NAMES));
  }
}
