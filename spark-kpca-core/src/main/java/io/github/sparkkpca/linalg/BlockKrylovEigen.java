package io.github.sparkkpca.linalg;

import dev.ludovic.netlib.blas.BLAS;
import java.util.Random;

/**
 * The k leading eigenpairs of a symmetric positive semi-definite n×n matrix A (column-major, both
 * triangles) by a thick-restarted block Krylov method with Rayleigh–Ritz, falling back to the dense
 * {@link SymmetricEigen#leading} where that is cheaper or the iteration does not converge.
 *
 * <p><b>Why.</b> The dense solver reduces A to tridiagonal form: 4n³/3 flops, half of them in
 * memory-bound matrix–vector products, whatever k is. A block Krylov method touches A only through
 * products A·X with an n×b block (2n²b flops in one GEMM, compute-bound) and needs about a dozen of
 * them when the spectrum decays as kernel covariance spectra do, so for k ≪ n it does a fraction of
 * the work at a higher flop rate. (ARPACK's Lanczos, which Spark uses for its truncated SVD,
 * multiplies one vector at a time, at matrix–vector speed.)
 *
 * <p><b>Method.</b> The basis V (n×c, orthonormal) starts from a seeded Gaussian n×b block, b = k
 * plus an oversampling p (default {@value #DEFAULT_OVERSAMPLING}), and grows by one block per
 * product: the next block is A·X_last orthogonalised against V (classical Gram–Schmidt twice, then
 * Householder QR, {@code dgeqrf}/{@code dorgqr}), so span V is the block Krylov space span{X_0, A
 * X_0, …, A^{s−1} X_0}. The products AV are kept, so the Rayleigh quotient H = Vᵀ(AV) costs one c×b
 * GEMM per block, and its eigenpairs (θ_i, y_i) give the Ritz pairs (θ_i, u_i = V y_i) with A u_i =
 * (AV) y_i and no further product. When V reaches its capacity (default {@value
 * #DEFAULT_BASIS_BLOCKS} blocks) it is restarted thickly (Krylov–Schur): V becomes the leading Ritz
 * vectors, AV their products and H = diag θ, which keeps what has converged; expansion continues
 * with the block computed from the last product, which is orthogonal to the old basis. A block size
 * of at least k + 1 matters: a Krylov space holds at most b directions of an eigenspace, so smaller
 * blocks (which would need fewer products) can miss copies of a repeated eigenvalue without any
 * residual showing it.
 *
 * <p><b>Stopping rule.</b> With (I − VVᵀ)A X_last = Q R (the next block and its QR factor) every
 * other column of AV lies in span V, so the residual of a Ritz pair is ‖A u_i − θ_i u_i‖ = ‖R ŷ_i‖,
 * ŷ_i the last b entries of y_i: a b×b product per pair. When every one of the k leading pairs has
 * ‖R ŷ_i‖ ≤ tol·θ_1 (tol = {@value #DEFAULT_TOLERANCE} by default) the residuals are recomputed
 * from the vectors themselves, (AV)y_i − θ_i V y_i, and the pairs are accepted if these satisfy the
 * same bound. For a symmetric matrix a residual ρ puts an eigenvalue within ρ of θ_i, and within
 * ρ²/δ_i when θ_i is separated from the rest of the spectrum by δ_i (Kato–Temple); the angle
 * between span{u_1..u_k} and the leading eigenspace is at most ‖[ρ_1..ρ_k]‖_F / (θ_k − λ_{k+1})
 * (Davis–Kahan). A Krylov method can miss an eigenvector nearly orthogonal to the random start;
 * with a Gaussian start this has probability zero in exact arithmetic and the oversampling guards
 * against near-misses.
 *
 * <p><b>Fallback.</b> The dense solver is used when b exceeds a fraction (default {@value
 * #DEFAULT_DENSE_CROSSOVER}) of n: measured with single-threaded OpenBLAS on centred Gaussian
 * kernel matrices of MNIST images, the iteration needs about a dozen blocks, and at b = n/25 it
 * took 0.88 and 0.74 of the dense solver's time at n = 2000 and 4000 (at n = 2000 with b = n/18 it
 * had not converged when the budget below ran out). It is also used when the iteration has
 * multiplied more than a fraction (default {@value #DEFAULT_MAX_PRODUCT_FRACTION}) of n columns by
 * A without converging, so the worst case costs a bounded multiple of the dense solve. The result
 * says which method answered.
 *
 * <p>The level-3 products are split by columns over the driver's threads ({@link DriverThreads}):
 * with a single-threaded BLAS the driver's cores otherwise sit idle while the executors wait. For a
 * given seed, configuration, BLAS and number of driver threads the result is deterministic.
 */
public final class BlockKrylovEigen {

  /** Default relative residual tolerance: ‖A u − θ u‖ ≤ tol·θ_1. */
  public static final double DEFAULT_TOLERANCE = 1e-12;

  /** Default seed of the Gaussian start block. */
  public static final long DEFAULT_SEED = 42L;

  /** Default oversampling: the block size is b = k + this. */
  public static final int DEFAULT_OVERSAMPLING = 10;

  /** Default capacity of the basis, in blocks, before a thick restart. */
  public static final int DEFAULT_BASIS_BLOCKS = 5;

  /** Default crossover: the dense solver is used when the block size exceeds this fraction of n. */
  public static final double DEFAULT_DENSE_CROSSOVER = 0.04;

  /** Default budget: at most this fraction of n columns multiplied by A before falling back. */
  public static final double DEFAULT_MAX_PRODUCT_FRACTION = 0.5;

  /** How a {@link Result} was obtained. */
  public enum Method {
    /** Block Krylov iteration converged. */
    BLOCK_KRYLOV,
    /**
     * Dense {@link SymmetricEigen#leading}: the block size is too large a fraction of n, or n is
     * small.
     */
    DENSE,
    /**
     * Dense {@link SymmetricEigen#leading} after the iteration did not converge within its budget.
     */
    DENSE_AFTER_NO_CONVERGENCE
  }

  /**
   * The k leading eigenpairs found.
   *
   * @param eigen values λ_1 ≥ … ≥ λ_k (k entries) and vectors n×k column-major
   * @param method how they were found
   * @param products number of n×n by n×1 products spent by the iteration (the columns of all blocks
   *     multiplied by A); 0 for {@link Method#DENSE}
   * @param residual max_i ‖A u_i − λ_i u_i‖ / λ_1 of the Krylov answer (or of the last iterate
   *     before a fallback); NaN for {@link Method#DENSE}
   */
  public record Result(SymmetricEigen eigen, Method method, long products, double residual) {}

  /** Smallest n for which the iteration is tried; below it the dense solver takes milliseconds. */
  static final int MIN_ORDER = 200;

  private final long seed;
  private final double tolerance;
  private final int oversampling;
  private final int basisBlocks;
  private final double maxProductFraction;
  private final double denseCrossover;

  private BlockKrylovEigen(
      long seed,
      double tolerance,
      int oversampling,
      int basisBlocks,
      double maxProductFraction,
      double denseCrossover) {
    this.seed = seed;
    this.tolerance = tolerance;
    this.oversampling = oversampling;
    this.basisBlocks = basisBlocks;
    this.maxProductFraction = maxProductFraction;
    this.denseCrossover = denseCrossover;
  }

  /** The default configuration (seed {@value #DEFAULT_SEED}). */
  public static BlockKrylovEigen defaults() {
    return new BlockKrylovEigen(
        DEFAULT_SEED,
        DEFAULT_TOLERANCE,
        DEFAULT_OVERSAMPLING,
        DEFAULT_BASIS_BLOCKS,
        DEFAULT_MAX_PRODUCT_FRACTION,
        DEFAULT_DENSE_CROSSOVER);
  }

  /** The k leading eigenpairs of A with the default configuration. */
  public static Result leading(double[] a, int n, int k) {
    return defaults().solve(a, n, k);
  }

  /** The seed of the Gaussian start block. */
  public BlockKrylovEigen withSeed(long value) {
    return new BlockKrylovEigen(
        value, tolerance, oversampling, basisBlocks, maxProductFraction, denseCrossover);
  }

  /** The relative residual tolerance, in (0, 1). */
  public BlockKrylovEigen withTolerance(double value) {
    if (!(value > 0 && value < 1)) {
      throw new IllegalArgumentException("tolerance must be in (0, 1), got " + value);
    }
    return new BlockKrylovEigen(
        seed, value, oversampling, basisBlocks, maxProductFraction, denseCrossover);
  }

  /** Block size b = k + {@code value}, {@code value} ≥ 1. */
  public BlockKrylovEigen withOversampling(int value) {
    if (value < 1) {
      throw new IllegalArgumentException("oversampling must be >= 1, got " + value);
    }
    return new BlockKrylovEigen(
        seed, tolerance, value, basisBlocks, maxProductFraction, denseCrossover);
  }

  /** Capacity of the basis in blocks before a thick restart, ≥ 3. */
  public BlockKrylovEigen withBasisBlocks(int value) {
    if (value < 3) {
      throw new IllegalArgumentException("basisBlocks must be >= 3, got " + value);
    }
    return new BlockKrylovEigen(
        seed, tolerance, oversampling, value, maxProductFraction, denseCrossover);
  }

  /**
   * Budget of the iteration: at most {@code value}·n columns multiplied by A (value·2n³ flops)
   * before falling back to the dense solver. Positive.
   */
  public BlockKrylovEigen withMaxProductFraction(double value) {
    if (!(value > 0)) {
      throw new IllegalArgumentException("maxProductFraction must be > 0, got " + value);
    }
    return new BlockKrylovEigen(seed, tolerance, oversampling, basisBlocks, value, denseCrossover);
  }

  /** The dense solver is used when the block size exceeds {@code value}·n; in [0, 1]. */
  public BlockKrylovEigen withDenseCrossover(double value) {
    if (!(value >= 0 && value <= 1)) {
      throw new IllegalArgumentException("denseCrossover must be in [0, 1], got " + value);
    }
    return new BlockKrylovEigen(
        seed, tolerance, oversampling, basisBlocks, maxProductFraction, value);
  }

  /** The block size used for k wanted pairs of an order-n matrix. */
  int blockSize(int n, int k) {
    return Math.min(n, k + oversampling);
  }

  /**
   * The k leading eigenpairs of the symmetric positive semi-definite matrix {@code a} (n×n
   * column-major, both triangles; not modified). A matrix symmetric up to rounding is treated as (A
   * + Aᵀ)/2 up to that rounding.
   *
   * @param k number of leading pairs, 0 ≤ k ≤ n
   * @throws ArithmeticException when {@code a} has a non-finite entry or LAPACK fails
   */
  public Result solve(double[] a, int n, int k) {
    if (n < 0) {
      throw new IllegalArgumentException("n must be >= 0, got " + n);
    }
    if (k < 0 || k > n) {
      throw new IllegalArgumentException("k must be in [0, " + n + "], got " + k);
    }
    if (a.length < (long) n * n) {
      throw new IllegalArgumentException(
          "matrix array has " + a.length + " entries, need " + n + "×" + n);
    }
    int b = blockSize(n, k);
    int capacity = Math.min(n - b, Math.max(basisBlocks * b, 2 * k + 2 * b));
    if (k == 0
        || n < MIN_ORDER
        || b > denseCrossover * n
        || capacity < 3 * b
        || !(trace(a, n) > 0)) {
      return dense(a, n, k, Method.DENSE, 0, Double.NaN);
    }
    return iterate(a, n, k, b, capacity);
  }

  private Result iterate(double[] a, int n, int k, int b, int capacity) {
    try (DriverThreads.Team team = DriverThreads.team(DriverThreads.count())) {
      return iterate(a, n, k, b, capacity, team);
    }
  }

  /**
   * The iteration, its level-3 products (A·X, 2n²b flops per block; the new columns of H; the
   * restarts' V·Y and (AV)·Y) split by columns over the driver's threads.
   */
  private Result iterate(double[] a, int n, int k, int b, int capacity, DriverThreads.Team team) {
    BLAS blas = Blas.blas();
    Random random = new Random(seed);
    double[] v = new double[n * capacity];
    double[] av = new double[n * capacity];
    double[] h = new double[capacity * capacity];
    double[] block = new double[n * b];
    for (int i = 0; i < block.length; i++) {
      block[i] = random.nextGaussian();
    }
    double[] next = new double[n * b];
    double[] r = new double[b * b];
    orthonormalise(block, n, b, v, 0, null, random, r);
    int keep = capacity - 2 * b;
    long budget = (long) Math.ceil(maxProductFraction * n);
    long products = 0;
    int c = 0;
    double residual = Double.NaN;
    while (true) {
      // Append X and A·X, and the new columns of H = Vᵀ(AV).
      System.arraycopy(block, 0, v, c * n, n * b);
      gemmByColumns(team, "N", n, b, n, a, 0, n, block, 0, n, av, c * n, n);
      products += b;
      int cols = c + b;
      double[] hNew = new double[cols * b];
      gemmByColumns(team, "T", cols, b, n, v, 0, n, av, c * n, n, hNew, 0, cols);
      for (int j = 0; j < b; j++) {
        for (int i = 0; i < cols; i++) {
          double value = hNew[i + j * cols];
          if (!Double.isFinite(value)) {
            throw nonFinite(a, n);
          }
          h[i + (c + j) * capacity] = value;
          h[(c + j) + i * capacity] = value;
        }
      }
      c = cols;
      // The next block, (I − VVᵀ)A·X_last = Q R, and with it the residuals ‖R ŷ_i‖ of the Ritz
      // pairs.
      System.arraycopy(av, (c - b) * n, next, 0, n * b);
      orthonormalise(next, n, b, v, c, hNew, random, r);
      double[] hc = new double[c * c];
      for (int j = 0; j < c; j++) {
        System.arraycopy(h, j * capacity, hc, j * c, c);
      }
      // The Ritz vectors a restart keeps are needed only when it comes; until then the k wanted.
      boolean restart = c + b > capacity;
      SymmetricEigen ritz =
          SymmetricEigen.leading(hc, c, Math.min(c, restart ? Math.max(k, keep) : k));
      double[] theta = ritz.values();
      double[] y = ritz.vectors();
      double top = Math.max(theta[0], 0.0);
      double estimate = 0;
      double[] ry = new double[b];
      for (int i = 0; i < k; i++) {
        blas.dgemv("N", b, b, 1.0, r, 0, b, y, i * c + c - b, 1, 0.0, ry, 0, 1);
        estimate = Math.max(estimate, blas.dnrm2(b, ry, 1));
      }
      estimate = top > 0 ? estimate / top : Double.POSITIVE_INFINITY;
      if (estimate <= tolerance) {
        // Verify on the vectors themselves: ‖A u_i − θ_i u_i‖ with A u_i = (AV) y_i.
        double[] u = new double[n * k];
        double[] au = new double[n * k];
        blas.dgemm("N", "N", n, k, c, 1.0, v, n, y, c, 0.0, u, n);
        blas.dgemm("N", "N", n, k, c, 1.0, av, n, y, c, 0.0, au, n);
        residual = 0;
        for (int i = 0; i < k; i++) {
          blas.daxpy(n, -theta[i], u, i * n, 1, au, i * n, 1);
          residual = Math.max(residual, blas.dnrm2(n, au, i * n, 1));
        }
        residual /= top;
        if (residual <= tolerance) {
          double[] values = new double[k];
          System.arraycopy(theta, 0, values, 0, k);
          return new Result(
              new SymmetricEigen(values, u, n), Method.BLOCK_KRYLOV, products, residual);
        }
      } else {
        residual = estimate;
      }
      if (products + b > budget) {
        return dense(a, n, k, Method.DENSE_AFTER_NO_CONVERGENCE, products, residual);
      }
      if (restart) {
        // Thick restart: keep the leading Ritz vectors, their products and H = diag θ. The next
        // block is orthogonal to the old basis, hence to the vectors kept.
        double[] kept = new double[n * keep];
        gemmByColumns(team, "N", n, keep, c, v, 0, n, y, 0, c, kept, 0, n);
        System.arraycopy(kept, 0, v, 0, n * keep);
        gemmByColumns(team, "N", n, keep, c, av, 0, n, y, 0, c, kept, 0, n);
        System.arraycopy(kept, 0, av, 0, n * keep);
        java.util.Arrays.fill(h, 0.0);
        for (int i = 0; i < keep; i++) {
          h[i + i * capacity] = theta[i];
        }
        c = keep;
      }
      double[] swap = block;
      block = next;
      next = swap;
    }
  }

  /**
   * C = op(A)·B (op(A) rows×inner, B inner×cols; column-major with the given offsets and leading
   * dimensions) as one GEMM per part of C's columns, the parts on the team's threads. The split may
   * change the rounding (a BLAS chooses its kernels by shape), not the accuracy; for a given number
   * of driver threads the result is deterministic.
   */
  private static void gemmByColumns(
      DriverThreads.Team team,
      String transA,
      int rows,
      int cols,
      int inner,
      double[] a,
      int aOffset,
      int lda,
      double[] b,
      int bOffset,
      int ldb,
      double[] c,
      int cOffset,
      int ldc) {
    int[] parts = DriverThreads.split(0, cols, team.threads(), false);
    team.forEach(
        parts.length - 1,
        part ->
            Blas.blas()
                .dgemm(
                    transA,
                    "N",
                    rows,
                    parts[part + 1] - parts[part],
                    inner,
                    1.0,
                    a,
                    aOffset,
                    lda,
                    b,
                    bOffset + parts[part] * ldb,
                    ldb,
                    0.0,
                    c,
                    cOffset + parts[part] * ldc,
                    ldc));
  }

  /**
   * Makes the n×b block X orthonormal and orthogonal to the first c columns of V and returns in
   * {@code r} (b×b, column-major, upper triangular) the R of X_proj = Q R, X_proj = (I − VVᵀ)X.
   *
   * <p>Classical Gram–Schmidt against V twice ("twice is enough": the second pass removes what
   * rounding left of V in the first), then Householder QR ({@code dgeqrf}, {@code dorgqr}). Another
   * pass follows only when the numbers say orthogonality may be lost: the second projection still
   * removed a large part of a column, or a column was nearly dependent on the earlier ones of the
   * block (R_jj small against the column's norm, which lets QR amplify what is left of V). Columns
   * at rounding level (X numerically inside span V, e.g. when A is rank-deficient) are replaced by
   * Gaussian vectors from {@code random}.
   *
   * @param known VᵀX when the caller has it (c×b; the iteration does, as the new columns of H),
   *     which saves the first pass its coefficient product; or null
   * @return the number of projection passes done
   */
  public static int orthonormalise(
      double[] x, int n, int b, double[] v, int c, double[] known, Random random, double[] r) {
    return orthonormalise(
        x, n, b, new double[][] {v}, new int[] {c}, c > 0 ? 1 : 0, known, random, r);
  }

  /**
   * {@link #orthonormalise(double[], int, int, double[], int, double[], Random, double[])} against
   * a basis V held as {@code count} column blocks, block i n×{@code widths[i]} column-major (c = Σ
   * widths columns in all, in block order): no array of V's n·c values, which at n = 50,000 and a
   * few thousand columns would be one object of about a gigabyte. One block is the contiguous V.
   */
  public static int orthonormalise(
      double[] x,
      int n,
      int b,
      double[][] v,
      int[] widths,
      int count,
      double[] known,
      Random random,
      double[] r) {
    int c = 0;
    for (int i = 0; i < count; i++) {
      c += widths[i];
    }
    BLAS blas = Blas.blas();
    double[] coefficients = new double[Math.max(1, c * b)];
    double[] tau = new double[b];
    double[] before = new double[b];
    double[] after = new double[b];
    java.util.Arrays.fill(r, 0.0);
    for (int j = 0; j < b; j++) {
      r[j + j * b] = 1.0;
    }
    double[] passR = new double[b * b];
    int passes = 0;
    for (int attempt = 0; attempt < 5; attempt++) {
      boolean suspect = false;
      if (c > 0) {
        for (int repeat = 0; repeat < (attempt == 0 ? 2 : 1); repeat++) {
          for (int j = 0; j < b; j++) {
            before[j] = blas.dnrm2(n, x, j * n, 1);
          }
          if (attempt == 0 && repeat == 0 && known != null) {
            times(v, widths, count, known, c, n, b, -1.0, 1.0, x);
          } else {
            transposeTimes(v, widths, count, x, n, b, coefficients, c);
            times(v, widths, count, coefficients, c, n, b, -1.0, 1.0, x);
          }
          passes++;
        }
        for (int j = 0; j < b; j++) {
          after[j] = blas.dnrm2(n, x, j * n, 1);
          if (after[j] < 0.5 * before[j]) {
            suspect = true;
          }
        }
      } else {
        for (int j = 0; j < b; j++) {
          after[j] = blas.dnrm2(n, x, j * n, 1);
        }
      }
      double largest = 0;
      for (double norm : after) {
        largest = Math.max(largest, norm);
      }
      HouseholderQr.orthonormalize(x, n, b, tau, passR);
      // R ← R_pass · R: the factors of successive passes compose.
      double[] product = new double[b * b];
      for (int j = 0; j < b; j++) {
        for (int i = 0; i <= j; i++) {
          double sum = 0;
          for (int t = i; t <= j; t++) {
            sum += passR[i + t * b] * r[t + j * b];
          }
          product[i + j * b] = sum;
        }
      }
      System.arraycopy(product, 0, r, 0, b * b);
      boolean replaced = false;
      for (int j = 0; j < b; j++) {
        double diagonal = Math.abs(passR[j + j * b]);
        if (!(diagonal > 1e-12 * largest)) {
          // No direction left in this column: a Gaussian vector takes its place.
          for (int i = 0; i < n; i++) {
            x[i + j * n] = random.nextGaussian();
          }
          replaced = true;
        } else if (diagonal < 1e-3 * after[j]) {
          suspect = true;
        }
      }
      if (!replaced && (!suspect || c == 0)) {
        return passes;
      }
    }
    throw new ArithmeticException(
        "could not orthonormalise a block of "
            + b
            + " vectors against "
            + c
            + " basis vectors in R^"
            + n);
  }

  /**
   * Out = Vᵀ·X (c×b, leading dimension c, c = Σ widths) for the basis V held as {@code count}
   * column blocks (block i n×widths[i]) and X n×b, one product per block.
   */
  public static void transposeTimes(
      double[][] v, int[] widths, int count, double[] x, int n, int b, double[] out, int c) {
    int start = 0;
    for (int i = 0; i < count; i++) {
      double[] part = new double[widths[i] * b];
      Blas.blas().dgemm("T", "N", widths[i], b, n, 1.0, v[i], n, x, n, 0.0, part, widths[i]);
      rows(part, widths[i], b, out, c, start, false);
      start += widths[i];
    }
  }

  /**
   * Out = alpha·V·A + beta·Out (n×b) for the same blocked V and A c×b (leading dimension c), one
   * product per block (beta applies to the first).
   */
  public static void times(
      double[][] v,
      int[] widths,
      int count,
      double[] a,
      int c,
      int n,
      int b,
      double alpha,
      double beta,
      double[] out) {
    int start = 0;
    for (int i = 0; i < count; i++) {
      double[] part = new double[widths[i] * b];
      rows(part, widths[i], b, a, c, start, true);
      Blas.blas()
          .dgemm(
              "N",
              "N",
              n,
              b,
              widths[i],
              alpha,
              v[i],
              n,
              part,
              widths[i],
              i == 0 ? beta : 1.0,
              out,
              n);
      start += widths[i];
    }
  }

  /**
   * Copies rows [start, start + w) of the c×b column-major {@code whole} into the w×b {@code part}
   * ({@code fromWhole}), or back. Blocks go to BLAS as arrays of their own, never as a row offset
   * into a larger matrix, which the bounds checks of older netlib versions (Spark 3.5's) refuse.
   */
  private static void rows(
      double[] part, int w, int b, double[] whole, int c, int start, boolean fromWhole) {
    for (int j = 0; j < b; j++) {
      if (fromWhole) {
        System.arraycopy(whole, start + j * c, part, j * w, w);
      } else {
        System.arraycopy(part, j * w, whole, start + j * c, w);
      }
    }
  }

  private static Result dense(
      double[] a, int n, int k, Method method, long products, double residual) {
    SymmetricEigen all = SymmetricEigen.leading(a, n, k);
    double[] values = java.util.Arrays.copyOf(all.values(), k);
    return new Result(new SymmetricEigen(values, all.vectors(), n), method, products, residual);
  }

  private static ArithmeticException nonFinite(double[] a, int n) {
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < n; i++) {
        double value = a[i + j * n];
        if (!Double.isFinite(value)) {
          return new ArithmeticException(
              "matrix entry (" + i + "," + j + ") is not finite: " + value);
        }
      }
    }
    return new ArithmeticException(
        "the Krylov iteration produced a non-finite value from a finite matrix");
  }

  /** The trace Σ a_ii of an n×n column-major matrix: the sum of all its eigenvalues. */
  public static double trace(double[] a, int n) {
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += a[i + i * n];
    }
    return sum;
  }
}
