package io.github.sparkkpca.kernel;

import io.github.sparkkpca.linalg.RowSet;
import java.io.Serializable;
import java.util.Locale;

/**
 * Which way {@link LandmarkKernel} computes kernel blocks, and why: one rule, a function of the
 * kernel family and the landmarks' m, d and non-zeros only (not of how they are stored), so a model
 * rebuilt from its saved landmarks takes the path its fit took and scores bit-identically.
 *
 * <ul>
 *   <li><b>dense</b>: rows scattered into a b×d block, one GEMM against the m×d landmarks: 2·m·d
 *       flops and 8·d bytes per row, 8·m·d bytes of landmarks;
 *   <li><b>sparse</b>: rows kept as their non-zeros and the landmarks transposed by feature ({@link
 *       SparseLandmarks}): at most 2·m·nnz(x) flops and 12·nnz(x) bytes per row, 12·nnz(Z) bytes of
 *       landmarks.
 * </ul>
 *
 * The sparse path runs when the family has a sparse form ({@link KernelFamily#hasSparseForm}) and
 * either the landmarks' density nnz(Z)/(m·d) is at most {@link #MAX_SPARSE_DENSITY} (below it the
 * sparse block was measured faster, docs/design.md "Kernel blocks") or dense landmarks would take
 * more than {@link #MAX_DENSE_LANDMARK_BYTES} (wide data: the dense path would then need more
 * memory than the fit is allowed to assume, whatever its speed).
 *
 * @param sparse whether the sparse path runs
 * @param reason why, in words, for the fit summary and the log
 */
public record KernelBlockPath(boolean sparse, String reason) implements Serializable {

  /**
   * The landmark density at or below which the sparse block runs. Measured ({@code
   * KernelBlockPathBench}, docs/design.md): at this density the sparse block took 0.13–0.16 of the
   * dense one's time (m = 500, d = 256 and 1024), and the two cost the same between 0.2 and 0.4;
   * the margin leaves the dense path to data a faster native BLAS would favour.
   */
  public static final double MAX_SPARSE_DENSITY = 0.1;

  /** Dense landmarks above this size (256 MiB) take the sparse path when the kernel allows it. */
  public static final long MAX_DENSE_LANDMARK_BYTES = 256L << 20;

  /** The path for these landmarks. */
  public static KernelBlockPath choose(KernelFamily family, RowSet landmarks) {
    int m = landmarks.count();
    int d = landmarks.dim();
    double density = landmarks.density();
    long denseBytes = 8L * m * d;
    String measured =
        String.format(
            Locale.ROOT,
            "landmark density %.3g (nnz %d of m = %d × d = %d)",
            density,
            landmarks.nnz(),
            m,
            d);
    if (!family.hasSparseForm()) {
      return new KernelBlockPath(
          false, "dense: kernel " + family.paramName() + " has no sparse form; " + measured);
    }
    if (m > 0 && density <= MAX_SPARSE_DENSITY) {
      return new KernelBlockPath(
          true, "sparse: " + measured + " <= " + MAX_SPARSE_DENSITY + " (measured crossover)");
    }
    if (denseBytes > MAX_DENSE_LANDMARK_BYTES) {
      return new KernelBlockPath(
          true,
          "sparse: dense landmarks would take "
              + (denseBytes >> 20)
              + " MiB > "
              + (MAX_DENSE_LANDMARK_BYTES >> 20)
              + " MiB; "
              + measured);
    }
    return new KernelBlockPath(
        false, "dense: " + measured + " > " + MAX_SPARSE_DENSITY + " (measured crossover)");
  }

  /** "sparse" or "dense". */
  public String name() {
    return sparse ? "sparse" : "dense";
  }
}
