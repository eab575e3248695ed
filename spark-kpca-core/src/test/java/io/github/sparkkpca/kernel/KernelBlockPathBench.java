package io.github.sparkkpca.kernel;

import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.linalg.RowSet;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;

/**
 * The measurement behind {@link KernelBlockPath#MAX_SPARSE_DENSITY}: nanoseconds per row of a
 * kernel block (m landmarks, blocks of 64 rows) on the dense path (rows scattered, one GEMM) and on
 * the sparse path (non-zeros against the landmarks transposed by feature), for random sparse rows
 * and landmarks of the same density, at several d and densities. A plain timing loop (best of 5
 * repetitions after a warm-up), not a test: run it as in docs/design.md, "Kernel blocks".
 */
public final class KernelBlockPathBench {

  private KernelBlockPathBench() {}

  public static void main(String[] args) {
    int m = args.length > 0 ? Integer.parseInt(args[0]) : 500;
    String kernelName = args.length > 1 ? args[1] : "rbf";
    Kernel kernel = Kernel.of(KernelFamilies.parse(kernelName), 0.1, 3, 1.0);
    int b = 64;
    System.out.println("kernel " + kernelName + ", m = " + m + ", b = " + b);
    System.out.println("d\tdensity\tdense ns/row\tsparse ns/row\tsparse/dense");
    for (int d : new int[] {256, 1024, 4096, 16384}) {
      for (double density : new double[] {0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.4}) {
        if (8L * m * d > 512L << 20) {
          continue;
        }
        SplittableRandom random = new SplittableRandom(d * 31L + (long) (density * 1e4));
        Vector[] landmarkRows = new Vector[m];
        for (int j = 0; j < m; j++) {
          landmarkRows[j] = randomRow(d, density, random);
        }
        RowSet points = RowSet.of(landmarkRows, d).toSparse();
        Vector[] rows = new Vector[b * 8];
        for (int i = 0; i < rows.length; i++) {
          rows[i] = randomRow(d, density, random);
        }
        LandmarkKernel dense =
            new LandmarkKernel(kernel, points, new KernelBlockPath(false, "measured"));
        LandmarkKernel sparse =
            new LandmarkKernel(kernel, points, new KernelBlockPath(true, "measured"));
        double denseNs = time(dense, rows, b, m);
        double sparseNs = time(sparse, rows, b, m);
        System.out.printf(
            Locale.ROOT,
            "%d\t%.3f\t%.0f\t%.0f\t%.2f%n",
            d,
            density,
            denseNs,
            sparseNs,
            sparseNs / denseNs);
      }
    }
  }

  private static Vector randomRow(int d, double density, SplittableRandom random) {
    int nnz = Math.max(1, (int) Math.round(density * d));
    java.util.TreeSet<Integer> chosen = new java.util.TreeSet<>();
    while (chosen.size() < nnz) {
      chosen.add(random.nextInt(d));
    }
    int[] idx = chosen.stream().mapToInt(Integer::intValue).toArray();
    double[] val = new double[nnz];
    for (int i = 0; i < nnz; i++) {
      val[i] = random.nextDouble();
    }
    return Vectors.sparse(d, idx, val);
  }

  /** Best of 5 repetitions of the rows in blocks of b, ns per row (block filling included). */
  private static double time(LandmarkKernel kernel, Vector[] rows, int b, int m) {
    RowBlock block = kernel.newBlock(b);
    double[] out = new double[m * b];
    double best = Double.POSITIVE_INFINITY;
    for (int rep = 0; rep < 8; rep++) {
      long start = System.nanoTime();
      for (int r = 0; r < 20; r++) {
        for (int i = 0; i < rows.length; i += b) {
          block.clear();
          for (int q = i; q < i + b; q++) {
            block.add(rows[q], "x");
          }
          kernel.compute(block, out);
        }
      }
      double ns = (System.nanoTime() - start) / (20.0 * rows.length);
      if (rep >= 3) {
        best = Math.min(best, ns);
      }
    }
    return best;
  }
}
