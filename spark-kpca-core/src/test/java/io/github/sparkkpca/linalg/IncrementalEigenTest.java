package io.github.sparkkpca.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Incremental and decremental eigendecompositions against the batch {@link SymmetricEigen} of the
 * same matrix.
 */
class IncrementalEigenTest {

  private static final double TOL = 1e-8;

  /**
   * Eigenvalues within TOL·scale, every incremental eigenpair a TOL·scale eigenpair of A (which
   * covers repeated eigenvalues, where vectors are not unique), Q orthogonal to TOL, and for
   * eigenvalues separated from their neighbours by more than 1e-3·scale, the vectors equal to the
   * batch ones up to sign.
   */
  static void assertMatchesBatch(SymmetricEigen inc, double[] a, int n) {
    SymmetricEigen batch = SymmetricEigen.of(a, n);
    double scale =
        Math.max(1e-300, Math.max(Math.abs(batch.values()[0]), Math.abs(batch.values()[n - 1])));
    double[] q = inc.vectors();
    for (int j = 0; j < n; j++) {
      assertEquals(batch.values()[j], inc.values()[j], TOL * scale, "eigenvalue " + j);
      double residual = 0;
      for (int r = 0; r < n; r++) {
        double s = -inc.values()[j] * q[r + j * n];
        for (int t = 0; t < n; t++) {
          s += a[r + t * n] * q[t + j * n];
        }
        residual += s * s;
      }
      assertTrue(
          Math.sqrt(residual) <= TOL * scale,
          "residual of eigenpair " + j + ": " + Math.sqrt(residual));
      boolean separated =
          (j == 0 || batch.values()[j - 1] - batch.values()[j] > 1e-3 * scale)
              && (j == n - 1 || batch.values()[j] - batch.values()[j + 1] > 1e-3 * scale);
      if (separated) {
        double dot = 0;
        for (int r = 0; r < n; r++) {
          dot += q[r + j * n] * batch.vectors()[r + j * n];
        }
        assertEquals(1.0, Math.abs(dot), TOL, "eigenvector " + j + " against batch");
      }
      for (int i = 0; i <= j; i++) {
        double dot = 0;
        for (int r = 0; r < n; r++) {
          dot += q[r + i * n] * q[r + j * n];
        }
        assertEquals(i == j ? 1.0 : 0.0, dot, TOL, "orthogonality " + i + "," + j);
      }
    }
  }

  private static double[] randomSymmetric(Random random, int n) {
    double[] a = new double[n * n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        double v = random.nextGaussian();
        a[i + j * n] = v;
        a[j + i * n] = v;
      }
    }
    return a;
  }

  private static void addOuter(double[] a, int n, double rho, double[] v) {
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        a[i + j * n] += rho * v[i] * v[j];
      }
    }
  }

  @Test
  void twoHundredRandomUpdatesAndDowndatesMatchBatch() {
    int n = 30;
    Random random = new Random(11);
    double[] a = randomSymmetric(random, n);
    IncrementalEigen inc = IncrementalEigen.of(a, n, IncrementalEigen.Monitoring.defaults());
    for (int step = 0; step < 200; step++) {
      double[] v = new double[n];
      for (int i = 0; i < n; i++) {
        v[i] = random.nextGaussian();
      }
      double rho = (step % 2 == 0 ? 1 : -1) * (0.01 + random.nextDouble());
      inc.rankOne(rho, v);
      addOuter(a, n, rho, v);
      if (step % 50 == 49) {
        assertMatchesBatch(inc.toSymmetricEigen(), a, n);
      }
    }
    IncrementalEigen.Stats stats = inc.stats();
    assertEquals(200, stats.rankOneUpdates());
    assertTrue(
        stats.maxOrthogonalityError() < 1e-12, "orthogonality " + stats.maxOrthogonalityError());
    assertEquals(0, stats.recomputations(), "Gu-Eisenstat vectors need no recomputation here");
  }

  @Test
  void deflatesZeroComponentsAndRepeatedEigenvalues() {
    // A = diag(1, 1, 1, 2, 2, 3, 4, 5) in a random orthogonal basis; v touches the repeated
    // eigenvalues and
    // misses the last two eigenvectors (zero components).
    int n = 8;
    double[] d = {1, 1, 1, 2, 2, 3, 4, 5};
    Random random = new Random(5);
    SymmetricEigen basis = SymmetricEigen.of(randomSymmetric(random, n), n);
    double[] a = new double[n * n];
    for (int c = 0; c < n; c++) {
      double[] col = new double[n];
      System.arraycopy(basis.vectors(), c * n, col, 0, n);
      addOuter(a, n, d[c], col);
    }
    IncrementalEigen inc = IncrementalEigen.of(a, n, IncrementalEigen.Monitoring.defaults());
    for (int step = 0; step < 200; step++) {
      double[] v = new double[n];
      double[] coefficients = {1, 0.5, -0.25, 1, 2, 0.75, 0, 0};
      for (int c = 0; c < n; c++) {
        double w = coefficients[c] * (step % 3 == 0 ? 1 : random.nextDouble());
        for (int r = 0; r < n; r++) {
          v[r] += w * basis.vectors()[r + c * n];
        }
      }
      double rho = step % 2 == 0 ? 0.3 : -0.3;
      inc.rankOne(rho, v);
      addOuter(a, n, rho, v);
    }
    assertMatchesBatch(inc.toSymmetricEigen(), a, n);
    IncrementalEigen.Stats stats = inc.stats();
    assertTrue(
        stats.rotations() > 0, "repeated eigenvalues must be deflated by rotations: " + stats);
    assertTrue(stats.deflated() >= 2 * 200, "two zero components in every update: " + stats);
    // The untouched eigenvalues 4 and 5 (their eigenvectors are orthogonal to every v) are exact.
    double[] values = inc.toSymmetricEigen().values();
    assertTrue(containsValue(values, 4, 1e-12) && containsValue(values, 5, 1e-12));
  }

  private static boolean containsValue(double[] values, double target, double tol) {
    for (double v : values) {
      if (Math.abs(v - target) <= tol) {
        return true;
      }
    }
    return false;
  }

  @Test
  void clusteredEigenvaluesStayAccurateAndOrthogonal() {
    // Adversarial: 40 eigenvalues in [1, 1 + 4e-11] (gaps 1e-12), two far ones, small updates that
    // leave the
    // cluster nearly intact, so roots sit extremely close to poles.
    int n = 42;
    Random random = new Random(17);
    SymmetricEigen basis = SymmetricEigen.of(randomSymmetric(random, n), n);
    double[] a = new double[n * n];
    for (int c = 0; c < n; c++) {
      double[] col = new double[n];
      System.arraycopy(basis.vectors(), c * n, col, 0, n);
      addOuter(a, n, c < 40 ? 1 + 1e-12 * c : 10 + c, col);
    }
    IncrementalEigen inc = IncrementalEigen.of(a, n, IncrementalEigen.Monitoring.defaults());
    for (int step = 0; step < 200; step++) {
      double[] v = new double[n];
      for (int i = 0; i < n; i++) {
        v[i] = random.nextGaussian() * (step % 4 == 0 ? 1e-7 : 1e-2);
      }
      double rho = step % 2 == 0 ? 1 : -1;
      inc.rankOne(rho, v);
      addOuter(a, n, rho, v);
    }
    assertMatchesBatch(inc.toSymmetricEigen(), a, n);
    assertTrue(inc.orthogonalityError() < 1e-12, "orthogonality " + inc.orthogonalityError());
  }

  /**
   * A kernel matrix grown point by point (Algorithm 1), with repeated points, then shrunk
   * (Algorithm 3).
   */
  @Test
  void kernelMatrixGrownAndShrunkPointByPointMatchesBatch() {
    int n = 200;
    int d = 3;
    Random random = new Random(23);
    double[] points = new double[n * d];
    for (int i = 0; i < n; i++) {
      int source = i % 10 == 9 ? random.nextInt(i) : -1;
      for (int t = 0; t < d; t++) {
        points[i * d + t] = source >= 0 ? points[source * d + t] : random.nextGaussian();
      }
    }
    Kernel kernel = Kernel.rbf(0.5);
    double[] gram = new LandmarkKernel(kernel, points, n, d).gram();
    IncrementalEigen inc = IncrementalEigen.empty(IncrementalEigen.Monitoring.defaults());
    for (int i = 0; i < n; i++) {
      double[] a = new double[i];
      for (int j = 0; j < i; j++) {
        a[j] = gram[j + i * n];
      }
      inc.expand(a, gram[i + i * n]);
      if (i == 49) {
        assertMatchesBatch(inc.toSymmetricEigen(), leading(gram, n, 50), 50);
      }
    }
    assertMatchesBatch(inc.toSymmetricEigen(), gram, n);
    assertTrue(inc.stats().deflated() > 0, "repeated points give zero weights: " + inc.stats());
    // 20 repeated points: at least 20 eigenvalues are (numerically) zero.
    double[] values = inc.toSymmetricEigen().values();
    assertTrue(Math.abs(values[n - 20]) < 1e-10, "eigenvalue " + values[n - 20]);

    // Delete 100 points, each time at an arbitrary position (the eigenpair of e_i is generally not
    // last).
    int[] alive = new int[n];
    for (int i = 0; i < n; i++) {
      alive[i] = i;
    }
    int size = n;
    for (int step = 0; step < 100; step++) {
      int pos = random.nextInt(size);
      double[] column = new double[size];
      for (int r = 0; r < size; r++) {
        column[r] = gram[alive[r] + alive[pos] * n];
      }
      double residual = inc.remove(pos, column);
      assertTrue(residual < 1e-8, "deleted eigenvector is not e_i: 1 - |Q_ij| = " + residual);
      System.arraycopy(alive, pos + 1, alive, pos, size - pos - 1);
      size--;
    }
    double[] reduced = new double[size * size];
    for (int c = 0; c < size; c++) {
      for (int r = 0; r < size; r++) {
        reduced[r + c * size] = gram[alive[r] + alive[c] * n];
      }
    }
    assertMatchesBatch(inc.toSymmetricEigen(), reduced, size);
  }

  private static double[] leading(double[] gram, int n, int m) {
    double[] out = new double[m * m];
    for (int c = 0; c < m; c++) {
      System.arraycopy(gram, c * n, out, c * m, m);
    }
    return out;
  }

  /** Algorithms 2 and 4: the centred kernel matrix grown and shrunk point by point. */
  @Test
  void centredKernelMatrixGrownAndShrunkMatchesBatch() {
    int n = 80;
    int d = 2;
    Random random = new Random(29);
    double[] points = new double[n * d];
    for (int i = 0; i < n; i++) {
      int source = i % 8 == 7 ? random.nextInt(i) : -1;
      for (int t = 0; t < d; t++) {
        points[i * d + t] = source >= 0 ? points[source * d + t] : 3 * random.nextGaussian();
      }
    }
    double[] gram = new LandmarkKernel(Kernel.rbf(0.1), points, n, d).gram();
    IncrementalCenteredEigen inc =
        new IncrementalCenteredEigen(IncrementalEigen.Monitoring.defaults());
    for (int i = 0; i < n; i++) {
      double[] a = new double[i];
      for (int j = 0; j < i; j++) {
        a[j] = gram[j + i * n];
      }
      inc.add(a, gram[i + i * n]);
    }
    assertMatchesBatch(inc.toSymmetricEigen(), centred(gram, n, allIndices(n)), n);
    int[] alive = allIndices(n);
    int size = n;
    for (int step = 0; step < 30; step++) {
      int pos = random.nextInt(size);
      double[] column = new double[size];
      for (int r = 0; r < size; r++) {
        column[r] = gram[alive[r] + alive[pos] * n];
      }
      inc.remove(pos, column);
      System.arraycopy(alive, pos + 1, alive, pos, size - pos - 1);
      size--;
    }
    assertMatchesBatch(
        inc.toSymmetricEigen(), centred(gram, n, java.util.Arrays.copyOf(alive, size)), size);
  }

  static int[] allIndices(int n) {
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = i;
    }
    return out;
  }

  /** (I − 𝟙)K(I − 𝟙) of the rows/columns {@code idx} of K (n×n). */
  static double[] centred(double[] gram, int n, int[] idx) {
    int m = idx.length;
    double[] k = new double[m * m];
    double[] rowMean = new double[m];
    double total = 0;
    for (int c = 0; c < m; c++) {
      for (int r = 0; r < m; r++) {
        double v = gram[idx[r] + idx[c] * n];
        k[r + c * m] = v;
        rowMean[r] += v / m;
        total += v / ((double) m * m);
      }
    }
    for (int c = 0; c < m; c++) {
      for (int r = 0; r < m; r++) {
        k[r + c * m] += total - rowMean[r] - rowMean[c];
      }
    }
    return k;
  }

  /**
   * The deleted row's secular equation against batch decompositions of every A₍₋ᵢ₎ (with repeated
   * rows).
   */
  @Test
  void deletedRowEigenMatchesBatchOfEveryPrincipalSubmatrix() {
    int n = 40;
    int d = 2;
    Random random = new Random(37);
    double[] points = new double[n * d];
    for (int i = 0; i < n; i++) {
      int source = i % 7 == 6 ? random.nextInt(i) : -1;
      for (int t = 0; t < d; t++) {
        points[i * d + t] = source >= 0 ? points[source * d + t] : random.nextGaussian();
      }
    }
    double[] gram = new LandmarkKernel(Kernel.rbf(0.7), points, n, d).gram();
    SymmetricEigen full = SymmetricEigen.of(gram, n);
    double[] ascending = new double[n];
    double[] q = new double[n * n];
    for (int c = 0; c < n; c++) {
      ascending[c] = full.values()[n - 1 - c];
      System.arraycopy(full.vectors(), (n - 1 - c) * n, q, c * n, n);
    }
    int count = 8;
    int m = n - 1;
    for (int i = 0; i < n; i++) {
      double[] y = new double[n];
      double[] reduced = new double[m * m];
      double[] yReduced = new double[m];
      for (int c = 0, cc = 0; c < n; c++) {
        if (c == i) {
          continue;
        }
        y[c] = gram[c + i * n];
        yReduced[cc] = y[c];
        for (int r = 0, rr = 0; r < n; r++) {
          if (r != i) {
            reduced[rr++ + cc * m] = gram[r + c * n];
          }
        }
        cc++;
      }
      double[] row = new double[n];
      double[] coordinates = new double[n];
      for (int j = 0; j < n; j++) {
        row[j] = q[i + j * n];
        for (int r = 0; r < n; r++) {
          coordinates[j] += q[r + j * n] * y[r];
        }
      }
      DeletedRowEigen.Leading leading = DeletedRowEigen.leading(ascending, row, coordinates, count);
      SymmetricEigen batch = SymmetricEigen.of(reduced, m);
      double scale = batch.values()[0];
      for (int j = 0; j < count; j++) {
        assertEquals(
            batch.values()[j],
            leading.values()[j],
            1e-10 * scale,
            "row " + i + ", eigenvalue " + j);
        double dot = 0;
        for (int r = 0; r < m; r++) {
          dot += batch.vectors()[r + j * m] * yReduced[r];
        }
        assertEquals(
            Math.abs(dot),
            Math.abs(leading.projections()[j]),
            1e-8 * scale,
            "row " + i + ", projection " + j);
      }
    }
  }

  @Test
  void monitoringRecomputesOnThresholdAndPeriodically() {
    int n = 12;
    Random random = new Random(31);
    double[] a = randomSymmetric(random, n);
    // A tolerance below any achievable orthogonality forces a recompute after every update.
    IncrementalEigen strict =
        IncrementalEigen.of(a, n, new IncrementalEigen.Monitoring(1e-300, 1, 0));
    IncrementalEigen periodic = IncrementalEigen.of(a, n, new IncrementalEigen.Monitoring(1, 0, 5));
    double[] exact = a.clone();
    for (int step = 0; step < 20; step++) {
      double[] v = new double[n];
      for (int i = 0; i < n; i++) {
        v[i] = random.nextGaussian();
      }
      strict.rankOne(0.5, v);
      periodic.rankOne(0.5, v);
      addOuter(exact, n, 0.5, v);
    }
    assertEquals(20, strict.stats().recomputations());
    assertEquals(20, strict.stats().fullChecks());
    assertEquals(4, periodic.stats().recomputations());
    assertEquals(0, periodic.stats().fullChecks());
    assertMatchesBatch(strict.toSymmetricEigen(), exact, n);
    assertMatchesBatch(periodic.toSymmetricEigen(), exact, n);
  }

  @Test
  void rejectsBadInput() {
    IncrementalEigen inc =
        IncrementalEigen.of(new double[] {2, 0, 0, 1}, 2, IncrementalEigen.Monitoring.defaults());
    assertThrows(IllegalArgumentException.class, () -> inc.rankOne(1, new double[3]));
    assertThrows(IllegalArgumentException.class, () -> inc.rankOne(Double.NaN, new double[2]));
    assertThrows(IllegalArgumentException.class, () -> inc.expand(new double[1], 1));
    assertThrows(IllegalArgumentException.class, () -> inc.remove(2, new double[2]));
    assertThrows(IllegalArgumentException.class, () -> new IncrementalEigen.Monitoring(0, 1, 1));
  }
}
