package io.github.sparkkpca.pca;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.linalg.SymmetricEigen;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Oja's rule on a stream with a planted spectrum: it finds the planted top-k subspace, it is
 * deterministic for a seed, and its Rayleigh–Ritz step reports the covariance restricted to the
 * span it found.
 */
class OjaSubspaceTest {

  private static final int DIM = 30;
  private static final int K = 3;
  private static final double[] TOP = {4.0, 3.0, 2.0};
  private static final double NOISE = 0.5;

  /** A random orthonormal D×k basis U (Gram–Schmidt in plain loops). */
  private static double[] plantedBasis(long seed) {
    Random random = new Random(seed);
    double[] u = new double[DIM * K];
    for (int c = 0; c < K; c++) {
      for (int i = 0; i < DIM; i++) {
        u[i + c * DIM] = random.nextGaussian();
      }
      for (int p = 0; p < c; p++) {
        double dot = 0;
        for (int i = 0; i < DIM; i++) {
          dot += u[i + c * DIM] * u[i + p * DIM];
        }
        for (int i = 0; i < DIM; i++) {
          u[i + c * DIM] -= dot * u[i + p * DIM];
        }
      }
      double norm = 0;
      for (int i = 0; i < DIM; i++) {
        norm += u[i + c * DIM] * u[i + c * DIM];
      }
      for (int i = 0; i < DIM; i++) {
        u[i + c * DIM] /= Math.sqrt(norm);
      }
    }
    return u;
  }

  /**
   * n rows z = Σ_c √(λ_c − σ²)·g_c·u_c + σ·g' (column-major D×n): covariance UΛUᵀ + σ²(I − UUᵀ)…
   * plus σ² on the span, i.e. eigenvalues λ_c on span U and σ² elsewhere; the top-k subspace is
   * span U.
   */
  private static double[] sample(double[] u, int n, long seed) {
    Random random = new Random(seed);
    double[] z = new double[DIM * n];
    for (int r = 0; r < n; r++) {
      for (int i = 0; i < DIM; i++) {
        z[i + r * DIM] = NOISE * random.nextGaussian();
      }
      for (int c = 0; c < K; c++) {
        double g = Math.sqrt(TOP[c] - NOISE * NOISE) * random.nextGaussian();
        for (int i = 0; i < DIM; i++) {
          z[i + r * DIM] += g * u[i + c * DIM];
        }
      }
    }
    return z;
  }

  /**
   * sin of the largest principal angle, ‖(I − UUᵀ)Q‖₂ = √(1 − σ_min(UᵀQ)²), for orthonormal U and
   * Q.
   */
  static double sinTheta(double[] u, double[] q, int dim, int k) {
    double[] m = new double[k * k];
    for (int a = 0; a < k; a++) {
      for (int b = 0; b < k; b++) {
        double s = 0;
        for (int i = 0; i < dim; i++) {
          s += u[i + a * dim] * q[i + b * dim];
        }
        m[a + b * k] = s;
      }
    }
    double[] mtm = new double[k * k];
    for (int a = 0; a < k; a++) {
      for (int b = 0; b < k; b++) {
        double s = 0;
        for (int i = 0; i < k; i++) {
          s += m[i + a * k] * m[i + b * k];
        }
        mtm[a + b * k] = s;
      }
    }
    double smallest = SymmetricEigen.of(mtm, k).values()[k - 1];
    return Math.sqrt(Math.max(0.0, 1.0 - smallest));
  }

  private static OjaSubspace run(double[] z, int n, long seed, int miniBatch) {
    OjaSubspace oja = OjaSubspace.random(DIM, K, false, StepSchedule.inverse(4.0, 50), 8, seed);
    for (int s = 0; s < n; s += miniBatch) {
      int b = Math.min(miniBatch, n - s);
      oja.step(java.util.Arrays.copyOfRange(z, s * DIM, (s + b) * DIM), b);
    }
    return oja;
  }

  @Test
  void findsThePlantedSubspaceDeterministically() {
    double[] u = plantedBasis(1);
    int n = 20000;
    double[] z = sample(u, n, 2);
    OjaSubspace first = run(z, n, 3, 4);
    first.orthonormalize();
    double start =
        sinTheta(
            u, OjaSubspace.random(DIM, K, false, StepSchedule.constant(1), 1, 3).basis(), DIM, K);
    double distance = sinTheta(u, first.basis(), DIM, K);
    assertTrue(start > 0.5, "a random start is far from the planted subspace: " + start);
    assertTrue(distance < 0.05, "sin theta to the planted top-3 subspace: " + distance);
    assertEquals(n / 4, first.steps());
    assertEquals(n, first.count());

    OjaSubspace again = run(z, n, 3, 4);
    again.orthonormalize();
    assertArrayEquals(first.basis(), again.basis(), 0.0, "same seed, same stream: same basis");
    OjaSubspace other = run(z, n, 4, 4);
    other.orthonormalize();
    assertTrue(sinTheta(u, other.basis(), DIM, K) < 0.05, "another seed converges too");

    // Per-sample steps (the paper's b = 1) converge as well.
    OjaSubspace single = run(z, n, 3, 1);
    single.orthonormalize();
    assertTrue(sinTheta(u, single.basis(), DIM, K) < 0.05, "b = 1");
  }

  @Test
  void rayleighRitzGivesTheCovarianceRestrictedToTheSpan() {
    double[] u = plantedBasis(5);
    int n = 3000;
    double[] z = sample(u, n, 6);
    OjaSubspace oja = run(z, 1000, 7, 10);
    oja.orthonormalize();
    double[] before = oja.basis();
    double[] s = new double[K * K];
    oja.accumulateRitz(java.util.Arrays.copyOfRange(z, 0, 1700 * DIM), 1700, s);
    oja.accumulateRitz(java.util.Arrays.copyOfRange(z, 1700 * DIM, n * DIM), n - 1700, s);
    double[] values = oja.finishRitz(s, n);
    double[] q = oja.basis();
    // sin θ = √(1 − σ_min²) turns rounding of 1e-16 in σ² into 1e-8.
    assertTrue(sinTheta(before, q, DIM, K) < 1e-6, "Rayleigh-Ritz keeps the span");
    // Directly: C = (1/n) Σ z zᵀ (uncentred), then q_aᵀ C q_b in plain loops.
    double[] c = new double[DIM * DIM];
    for (int r = 0; r < n; r++) {
      for (int i = 0; i < DIM; i++) {
        for (int j = 0; j < DIM; j++) {
          c[i + j * DIM] += z[i + r * DIM] * z[j + r * DIM] / n;
        }
      }
    }
    for (int a = 0; a < K; a++) {
      for (int b = 0; b < K; b++) {
        double quad = 0;
        for (int i = 0; i < DIM; i++) {
          for (int j = 0; j < DIM; j++) {
            quad += q[i + a * DIM] * c[i + j * DIM] * q[j + b * DIM];
          }
        }
        assertEquals(a == b ? values[a] : 0.0, quad, 1e-10, "q_" + a + "ᵀ C q_" + b);
      }
    }
    assertTrue(values[0] >= values[1] && values[1] >= values[2], "descending");
  }

  /**
   * Carrying the Rayleigh–Ritz sum of earlier rows into a new basis of the same span equals one
   * Rayleigh–Ritz step over all the rows (exact while the span does not move); into another span it
   * keeps RᵀS R, checked against its formula.
   */
  @Test
  void carriedRayleighRitzEqualsOneStepOverAllRows() {
    double[] u = plantedBasis(8);
    int n = 2000;
    int first = 700;
    double[] z = sample(u, n, 9);
    OjaSubspace all = run(z, 500, 10, 10);
    all.orthonormalize();
    double[] start = all.basis();
    double[] s = new double[K * K];
    all.accumulateRitz(z, n, s);
    double[] expected = all.finishRitz(s, n);

    OjaSubspace part =
        OjaSubspace.of(DIM, K, false, StepSchedule.constant(1), 1, start, new double[DIM], 0, 0, 0);
    double[] s1 = new double[K * K];
    part.accumulateRitz(java.util.Arrays.copyOfRange(z, 0, first * DIM), first, s1);
    double[] values1 = part.finishRitz(s1, first);
    double[] basis1 = part.basis();
    // Another basis of the same span (columns mixed by a rotation), as Oja's QR would leave it.
    double c = Math.cos(0.7);
    double sn = Math.sin(0.7);
    double[] mixed = basis1.clone();
    for (int i = 0; i < DIM; i++) {
      mixed[i] = c * basis1[i] - sn * basis1[i + DIM];
      mixed[i + DIM] = sn * basis1[i] + c * basis1[i + DIM];
    }
    OjaSubspace next =
        OjaSubspace.of(DIM, K, false, StepSchedule.constant(1), 1, mixed, new double[DIM], 0, 0, 0);
    double[] carried = next.carriedRitz(basis1, values1, first);
    next.accumulateRitz(java.util.Arrays.copyOfRange(z, first * DIM, n * DIM), n - first, carried);
    double[] values = next.finishRitz(carried, n);
    assertArrayEquals(expected, values, 1e-10 * expected[0], "carried = one step over all rows");
    assertTrue(sinTheta(all.basis(), next.basis(), DIM, K) < 1e-6, "the same eigenvectors");

    // Into an unrelated span: the formula R diag(n Λ) Rᵀ, R = QᵀQ_prev, in plain loops.
    OjaSubspace other = OjaSubspace.random(DIM, K, false, StepSchedule.constant(1), 1, 77);
    double[] q = other.basis();
    double[] got = other.carriedRitz(basis1, values1, first);
    for (int a = 0; a < K; a++) {
      for (int b = 0; b < K; b++) {
        double want = 0;
        for (int t = 0; t < K; t++) {
          double ra = 0;
          double rb = 0;
          for (int i = 0; i < DIM; i++) {
            ra += q[i + a * DIM] * basis1[i + t * DIM];
            rb += q[i + b * DIM] * basis1[i + t * DIM];
          }
          want += ra * first * values1[t] * rb;
        }
        assertEquals(want, got[a + b * K], 1e-10 * first * values1[0], "S[" + a + "," + b + "]");
      }
    }
  }

  @Test
  void schedulesFollowTheirFormulas() {
    assertEquals(0.25, StepSchedule.parse("constant:0.25").eta(1000), 0.0);
    assertEquals(2.0 / (7 + 3), StepSchedule.parse("inverse:2:3").eta(7), 1e-15);
    StepSchedule three = StepSchedule.parse("three-phase:0.5:100:40");
    assertEquals(1 / (0.5 * 100), three.eta(1), 1e-15);
    assertEquals(1 / (0.5 * 100), three.eta(100), 1e-15);
    assertEquals(1 / (0.5 * 40), three.eta(101), 1e-15);
    assertEquals(1 / (0.5 * 40), three.eta(140), 1e-15, "continuous at T0 + T1");
    assertEquals(1 / (0.5 * 41), three.eta(141), 1e-15);
    assertThrows(IllegalArgumentException.class, () -> StepSchedule.parse("inverse:-1:3"));
    assertThrows(IllegalArgumentException.class, () -> StepSchedule.parse("linear:1"));
  }
}
