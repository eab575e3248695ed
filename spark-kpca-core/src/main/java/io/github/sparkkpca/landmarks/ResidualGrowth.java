package io.github.sparkkpca.landmarks;

import io.github.sparkkpca.execution.DistributedPass;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.BorderedCholesky;
import io.github.sparkkpca.linalg.RowSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.distribution.FDistribution;
import org.apache.spark.ml.linalg.Vector;

/**
 * Landmarks chosen by growing the set until it explains the data: the number m is an outcome, not
 * an input (Hallgren, <i>Kernel PCA and the Nyström method</i>, UCL thesis 2021, §3.4 and ch. 4).
 *
 * <p><b>Residual.</b> The feature-space residual of x against landmarks z_1..z_m is the squared
 * distance of φ(x) from their span, r_m(x) = k(x,x) − uᵀK_mm⁻¹u with u = (k(z_j,x))_j (thesis Lemma
 * 1, uncentred). With the Cholesky factor of K_mm it is k(x,x) − ‖L⁻¹u‖², and admitting a landmark
 * borders the factor ({@link BorderedCholesky}, O(m²)); r never increases as landmarks are added.
 *
 * <p><b>Procedure.</b> The distinct rows are put in a seeded random order ({@link CandidateBatch}).
 * The first P rows (at most a quarter of the n rows, at least 2) are a held-out <em>probe</em>
 * sample and never become landmarks; k̄ is their mean k(x,x). The following rows are candidates,
 * taken in order in batches: one distributed pass ({@link DistributedPass}) finds the next batch
 * and scores each candidate against the current landmarks on the executors. On the driver, a
 * candidate whose residual against the landmarks grown so far is above the level ℓ is admitted;
 * after each admission the probe residuals are updated in O(P·m) (the new Cholesky column) and
 * their mean, relative to k̄, is one point of the residual curve. Batches double (256, 512, …,
 * bounded by 2²⁰ numbers per batch) so the number of passes is logarithmic in the rows scanned.
 * Growth stops at the first of:
 *
 * <ul>
 *   <li>{@link Test#TOLERANCE}: the mean probe residual is ≤ τ·k̄ (ℓ = τ·k̄);
 *   <li>{@link Test#F} (experimental): the F-test of thesis §4.2 does not reject H₀: m = d. For the
 *       candidate c about to be admitted, with the probe split into disjoint halves I (even places)
 *       and I' (odd places) of size N, F = Σ_{i∈I} r_m(x_i) / Σ_{j∈I'} r_{m+1}(x_j), r_{m+1}
 *       against the landmarks and c; H₀ is rejected, and c admitted, when F exceeds the 1 − α
 *       quantile of F(N(n−m), N(n−m)) (n the training rows). Here ℓ = 10⁻¹⁰·k̄, only to keep K_mm
 *       positive definite. The thesis derives the test under a Gaussian noise model and evaluates
 *       it neither in experiments nor for repeated use (no sequential correction);
 *   <li>m reaches the maximum M, or every row has been scanned.
 * </ul>
 *
 * Everything depends on the seed and the rows' values only: the same landmarks for every
 * partitioning. Cost: one pass to draw the probe, then one pass per batch (hashing n rows, scoring
 * B·m² per partition), O(m²) per candidate and O(P·m) per landmark on the driver.
 */
public final class ResidualGrowth implements LandmarkSampler {

  /** Numbers (rows × dimension) a batch may hold: it is merged on the executors and collected. */
  static final int BATCH_NUMBERS = 1 << 20;

  /** The first batch size. */
  static final int FIRST_BATCH = 256;

  /**
   * Residuals at or below this fraction of k̄ are never admitted: K_mm stays numerically positive
   * definite.
   */
  static final double PIVOT_FLOOR = 1e-10;

  /** The stopping rule. */
  public enum Test {
    /** Mean probe residual ≤ τ·k̄. */
    TOLERANCE,
    /** The F-test of thesis ch. 4 (experimental). */
    F;

    /** The parameter values, lower case. */
    public static final String[] NAMES =
        Arrays.stream(values()).map(Test::paramName).toArray(String[]::new);

    public String paramName() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Test parse(String name) {
      for (Test t : values()) {
        if (t.name().equalsIgnoreCase(name)) {
          return t;
        }
      }
      throw new IllegalArgumentException(
          "Unknown landmarkTest '" + name + "'; expected one of " + Arrays.toString(NAMES));
    }
  }

  /**
   * @param tolerance τ ∈ (0, 1): the target mean probe residual relative to k̄ (TOLERANCE)
   * @param maxLandmarks M ≥ 1
   * @param probeSize P ≥ 2, the held-out probe rows
   * @param test the stopping rule
   * @param alpha the level of the F-test ∈ (0, 1)
   */
  public record Settings(
      double tolerance, int maxLandmarks, int probeSize, Test test, double alpha) {
    public Settings {
      if (!(tolerance > 0 && tolerance < 1)) {
        throw new IllegalArgumentException("landmarkTolerance must be in (0, 1), got " + tolerance);
      }
      if (maxLandmarks < 1) {
        throw new IllegalArgumentException("maxLandmarks must be >= 1, got " + maxLandmarks);
      }
      if (probeSize < 2) {
        throw new IllegalArgumentException("landmarkProbeSize must be >= 2, got " + probeSize);
      }
      if (!(alpha > 0 && alpha < 1)) {
        throw new IllegalArgumentException("landmarkAlpha must be in (0, 1), got " + alpha);
      }
    }
  }

  private final Settings settings;

  public ResidualGrowth(Settings settings) {
    this.settings = settings;
  }

  @Override
  public Landmarks select(Input input) {
    Kernel kernel = input.kernel();
    int d = input.d();
    int batchCap =
        (int) Math.max(FIRST_BATCH, BATCH_NUMBERS / Math.max(1, storedEntriesPerRow(input)));
    // At most a quarter of the rows are held out, so that candidates remain on small data.
    int probeSize = (int) Math.max(2, Math.min(settings.probeSize(), input.n() / 4));
    List<CandidateBatch.Candidate> probeRows =
        pass(
                input,
                new CandidateBatch.Scan(
                    input.seed(), null, probeSize, kernel, null, new BorderedCholesky()),
                "draw the probe rows of residual " + "growth")
            .candidates();
    int p = probeRows.size();
    if (p < 2) {
      throw new IllegalArgumentException(
          "residual growth needs at least 2 distinct rows for its probe sample; "
              + "the data have "
              + p);
    }
    Growth growth = new Growth(kernel, d, probeRows, input.n());
    if (!(growth.meanDiagonal > 0)) {
      throw new IllegalArgumentException(
          "residual growth: k(x,x) is 0 on every probe row (kernel "
              + kernel.type().paramName()
              + "); no landmark can explain anything");
    }
    double level =
        (settings.test() == Test.TOLERANCE ? settings.tolerance() : PIVOT_FLOOR)
            * growth.meanDiagonal;
    double floor = Math.max(level, PIVOT_FLOOR * growth.meanDiagonal);
    CandidateBatch.Candidate cursor = probeRows.get(p - 1);
    int batch = FIRST_BATCH;
    int passes = 1;
    long scanned = 0;
    String reason = null;
    while (reason == null) {
      reason = growth.stopReason();
      if (reason != null) {
        break;
      }
      CandidateBatch next =
          pass(
              input,
              new CandidateBatch.Scan(
                  input.seed(), cursor, batch, kernel, growth.landmarkKernel(), growth.factor),
              "residual growth: score "
                  + batch
                  + " candidates against "
                  + growth.m()
                  + " landmarks");
      passes++;
      List<CandidateBatch.Candidate> candidates = next.candidates();
      scanned += candidates.size();
      for (CandidateBatch.Candidate c : candidates) {
        reason = growth.stopReason();
        if (reason != null) {
          break;
        }
        // The executors' residual is against fewer landmarks: an upper bound on the current one.
        if (c.residual() > floor) {
          reason = growth.consider(c.row(), floor);
          if (reason != null) {
            break;
          }
        }
      }
      if (reason == null && candidates.size() < batch) {
        reason = "every row was scanned";
      }
      if (!candidates.isEmpty()) {
        cursor = candidates.get(candidates.size() - 1);
      }
      batch = Math.min(batchCap, 2 * batch);
    }
    int m = growth.m();
    if (m == 0) {
      throw new IllegalArgumentException(noLandmarkMessage(reason, p, scanned, level));
    }
    String description =
        String.format(
            Locale.ROOT,
            "residual growth: %d landmarks (%s); mean residual of %d "
                + "held-out probe rows %.4g of mean k(x,x) = %.4g; %s; %d candidates scanned in %d passes",
            m,
            settings.test() == Test.TOLERANCE
                ? "tolerance " + settings.tolerance()
                : "F-test, alpha = " + settings.alpha() + ", experimental",
            p,
            growth.relativeResidual(),
            growth.meanDiagonal,
            reason,
            scanned,
            passes);
    return new Landmarks(growth.landmarkRows(), description, growth.curve());
  }

  /**
   * The mean stored entries of a row (Σ nnz for sparse rows, d for dense ones, over the scanned
   * rows; d when the scan did not count): what a candidate holds, so a batch of wide sparse rows is
   * bounded by their non-zeros, not by d.
   */
  private static long storedEntriesPerRow(Input input) {
    long stored = input.scan() == null ? 0 : input.scan().storedEntries();
    long n = input.n();
    return stored > 0 && n > 0 ? Math.max(1, (stored + n - 1) / n) : Math.max(1, input.d());
  }

  /**
   * Why growth admitted no landmark, with the advice that fits the cause: no candidate left after
   * the probe (the data have only that many distinct rows: lowering the tolerance cannot help), the
   * F-test accepting m = 0, or every candidate's k(x,x) at or below the level.
   */
  private String noLandmarkMessage(String reason, int p, long scanned, double level) {
    if (scanned == 0) {
      return "residual growth admitted no landmark: the data have only "
          + p
          + " distinct rows and all of them were drawn as held-out probe rows, which never become "
          + "landmarks, so no candidate was left; set a number of landmarks (numLandmarks <= "
          + p
          + ") instead of growing them";
    }
    if (settings.test() == Test.F) {
      return "residual growth admitted no landmark ("
          + reason
          + "): the F-test did not reject m = 0 for the first candidate; raise landmarkAlpha or "
          + "use landmarkTest tolerance";
    }
    return String.format(
        Locale.ROOT,
        "residual growth admitted no landmark (%s): each of the %d candidate rows has k(x,x) <= "
            + "%.4g, the level landmarkTolerance x mean k(x,x) of the probe rows; lower "
            + "landmarkTolerance",
        reason,
        scanned,
        level);
  }

  private static CandidateBatch pass(Input input, CandidateBatch.Scan scan, String what) {
    int capacity = scan.capacity();
    return DistributedPass.run(
        input.vectors().context(),
        input.jobPrefix() + what,
        input.vectors(),
        scan,
        CandidateBatch.Scan.class,
        (shared, partition, rows) -> CandidateBatch.of(shared, rows),
        (a, b) -> CandidateBatch.merge(a, b, capacity));
  }

  /**
   * The driver's state: landmarks, their factor, the probe's Cholesky coordinates and residuals.
   */
  private final class Growth {
    final Kernel kernel;
    final int d;
    final long n;
    final BorderedCholesky factor = new BorderedCholesky();
    final Vector[] probe;

    /** The kernel bound to the probe rows: k(x, probe_i) for all i in one block. */
    final LandmarkKernel probeKernel;

    /** Coordinates of each probe row on the orthonormalised landmarks: row i is L⁻¹u(x_i). */
    final List<double[]> probeCoordinates = new ArrayList<>();

    final double[] probeResidual;
    final double meanDiagonal;
    final List<Vector> landmarks = new ArrayList<>();

    /** The kernel bound to the current landmarks (rebuilt after an admission), or null. */
    LandmarkKernel landmarkKernel;

    final List<Double> curve = new ArrayList<>();
    String fStop;

    Growth(Kernel kernel, int d, List<CandidateBatch.Candidate> probeRows, long n) {
      this.kernel = kernel;
      this.d = d;
      this.n = n;
      int p = probeRows.size();
      probe = new Vector[p];
      probeResidual = new double[p];
      double sum = 0;
      for (int i = 0; i < p; i++) {
        probe[i] = probeRows.get(i).row();
        probeResidual[i] = CandidateBatch.diagonal(kernel, probe[i]);
        sum += probeResidual[i];
        probeCoordinates.add(new double[0]);
      }
      meanDiagonal = sum / p;
      probeKernel = new LandmarkKernel(kernel, RowSet.of(probe, d));
    }

    int m() {
      return factor.size();
    }

    RowSet landmarkRows() {
      return RowSet.of(landmarks.toArray(new Vector[0]), d);
    }

    /** The kernel bound to the landmarks admitted so far, on their block path; null when none. */
    LandmarkKernel landmarkKernel() {
      if (landmarks.isEmpty()) {
        return null;
      }
      if (landmarkKernel == null || landmarkKernel.numLandmarks() != landmarks.size()) {
        landmarkKernel = new LandmarkKernel(kernel, landmarkRows());
      }
      return landmarkKernel;
    }

    double[] curve() {
      return curve.stream().mapToDouble(Double::doubleValue).toArray();
    }

    double relativeResidual() {
      double sum = 0;
      for (double r : probeResidual) {
        sum += r;
      }
      return sum / probeResidual.length / meanDiagonal;
    }

    String stopReason() {
      if (fStop != null) {
        return fStop;
      }
      if (settings.test() == Test.TOLERANCE && relativeResidual() <= settings.tolerance()) {
        return "tolerance reached";
      }
      if (m() >= settings.maxLandmarks()) {
        return "maxLandmarks = " + settings.maxLandmarks() + " reached";
      }
      return null;
    }

    /**
     * Admits x when its residual is above {@code floor} (and the F-test rejects); a stop reason or
     * null.
     */
    String consider(Vector x, double floor) {
      int m = m();
      double[] w = factor.forward(CandidateBatch.kernelColumn(landmarkKernel(), x, null));
      double s = BorderedCholesky.schur(CandidateBatch.diagonal(kernel, x), w);
      if (!(s > floor)) {
        return null;
      }
      double root = Math.sqrt(s);
      int p = probe.length;
      double[] column = new double[p];
      double[] atProbe = CandidateBatch.kernelColumn(probeKernel, x, null);
      for (int i = 0; i < p; i++) {
        double[] coordinates = probeCoordinates.get(i);
        double dot = 0;
        for (int j = 0; j < m; j++) {
          dot += coordinates[j] * w[j];
        }
        column[i] = (atProbe[i] - dot) / root;
      }
      if (settings.test() == Test.F) {
        double[] now = probeResidual.clone();
        double[] after = new double[p];
        for (int i = 0; i < p; i++) {
          after[i] = Math.max(0, probeResidual[i] - column[i] * column[i]);
        }
        double f = fStatistic(now, after);
        double critical = fCritical(p / 2, n, m, settings.alpha());
        if (!(f > critical)) {
          fStop =
              String.format(
                  Locale.ROOT,
                  "F-test: F = %.4g <= F(%d(n-m), %d(n-m)) quantile %.6g at m = %d, "
                      + "H0 not rejected",
                  f,
                  p / 2,
                  p / 2,
                  critical,
                  m);
          return fStop;
        }
      }
      factor.append(w, s);
      landmarks.add(x);
      for (int i = 0; i < p; i++) {
        double[] coordinates = Arrays.copyOf(probeCoordinates.get(i), m + 1);
        coordinates[m] = column[i];
        probeCoordinates.set(i, coordinates);
        probeResidual[i] = Math.max(0, probeResidual[i] - column[i] * column[i]);
      }
      curve.add(relativeResidual());
      return null;
    }
  }

  /**
   * The statistic of thesis §4.2: F = Σ_{i∈I} r_m(x_i) / Σ_{j∈I'} r_{m+1}(x_j), with I the even and
   * I' the odd places of the probe (N = ⌊P/2⌋ each; the last row of an odd P is unused), {@code
   * now} the probe residuals against the m landmarks and {@code after} against them and the
   * candidate. +∞ when the denominator is 0 and the numerator is not; 0 when both are.
   */
  public static double fStatistic(double[] now, double[] after) {
    int half = now.length / 2;
    double numerator = 0;
    double denominator = 0;
    for (int t = 0; t < half; t++) {
      numerator += now[2 * t];
      denominator += after[2 * t + 1];
    }
    if (denominator == 0) {
      return numerator == 0 ? 0 : Double.POSITIVE_INFINITY;
    }
    return numerator / denominator;
  }

  /**
   * The 1 − α quantile of the F distribution with N(n − m) and N(n − m) degrees of freedom, the
   * critical value of the thesis' test for N rows per half, n training rows and m landmarks.
   */
  public static double fCritical(int halfSize, long n, int m, double alpha) {
    double df = (double) halfSize * Math.max(1, n - m);
    return new FDistribution(null, df, df, FDistribution.DEFAULT_INVERSE_ABSOLUTE_ACCURACY)
        .inverseCumulativeProbability(1 - alpha);
  }
}
