package io.github.sparkkpca.execution;

import io.github.sparkkpca.feature.FeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelBlockPath;
import io.github.sparkkpca.kernel.KernelFamily;
import io.github.sparkkpca.linalg.RowBlock;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;

/**
 * The fit every kernel PCA on Spark shares, written once: input dimension → memory check →
 * validating scan → γ (set, or the median heuristic) → kernel → support (landmarks or random
 * features) → rank check → statistics and solve. What differs between Nyström, random features,
 * RF-Oja and the regression fit is a {@link Steps} strategy; the stage then wraps the result into
 * its model.
 */
public final class KernelPcaFit {

  private KernelPcaFit() {}

  /** Rows per block for m support points in dimension d with k values per row. */
  @FunctionalInterface
  public interface BlockSizes {
    int of(int m, int d, int k);
  }

  /**
   * What a fit reads from its stage's params.
   *
   * @param log the stage's logger: the fit logs under the stage's name
   * @param stage the stage and its uid, the prefix of logs and Spark job descriptions
   * @param gamma γ, or NaN for the median heuristic
   */
  public record Settings(
      Logger log,
      String stage,
      String column,
      int k,
      KernelFamily family,
      double gamma,
      int degree,
      double coef0,
      long seed,
      boolean centered,
      BlockSizes blockSizes) {

    /** The prefix of the fit's Spark job descriptions. */
    public String jobs() {
      return stage + ": ";
    }
  }

  /**
   * A memory need: {@code size} support points (m or D) named {@code what} in the refusal, for
   * {@code maps} feature maps at once; with {@code topK} set, the top-k route's (l = {@code panel}
   * columns of its m×l panels, at most {@code topK.maxPasses()} passes), whose memory has no m×m
   * term on the executors ({@link FitMemory#checkTopK}); {@code squareFirst} for {@code
   * statisticsRoute = auto}: the m×m routes' bounds when they fit, else the top-k route's.
   */
  public record Need(
      int size, String what, int maps, int panel, TopKFit.Settings topK, boolean squareFirst) {
    public Need(int size, String what) {
      this(size, what, 1);
    }

    public Need(int size, String what, int maps) {
      this(size, what, maps, 0, null, false);
    }
  }

  /**
   * The rank of the fitted support, for the check k ≤ rank (and ≤ n − 1 when centred).
   *
   * @param what the support and its rank, in words ("D = 100 random features")
   * @param verb "allow" or "allows", to agree with {@code what}
   * @param remedy the advice closing the message ("; lower k")
   */
  public record Rank(int rank, String what, String verb, String remedy) {}

  /**
   * The steps that differ between fits.
   *
   * @param <S> the support: the feature map(s) and what the fit chose
   * @param <R> the result the stage wraps
   */
  public interface Steps<S, R> {

    /** d when the stage knows it already (a model being continued), else 0: read from the data. */
    default int knownDimension() {
      return 0;
    }

    /** Checks the input dimension against the stage's own data (e.g. supplied landmarks). */
    default void checkDimension(int d) {}

    /** The need to check before any pass, or null when it depends on n. */
    Need memoryBeforeScan(int d);

    /** The need to check once n is known (when {@link #memoryBeforeScan} was null), or null. */
    default Need memoryForRows(long n, int d) {
      return null;
    }

    /**
     * Whether the support's kernel blocks may run on the sparse path ({@link
     * io.github.sparkkpca.kernel.KernelBlockPath}): then memory is checked from the rows' stored
     * entries after the scan, not from d before it, when the rows are sparse or d is wide.
     */
    default boolean sparseKernelBlocks() {
      return false;
    }

    /**
     * Columns besides the input column that the steps read in passes of their own (the regression's
     * labels): an uncached input is then persisted with them for all the fit's passes.
     */
    default java.util.List<String> otherColumns() {
      return java.util.List.of();
    }

    /** Runs before the validating scan (e.g. another column's own scan). */
    default void beforeScan(Dataset<?> dataset) {}

    /** Rows the validating scan keeps as a uniform sample (landmarks, or the γ sample). */
    int sampleCapacity(boolean gammaSet);

    /** Checks n against the support asked for. */
    default void checkRows(long n) {}

    /** The points the median heuristic reads: the scan's sample unless the stage has its own. */
    default io.github.sparkkpca.linalg.RowSet gammaPoints(DataScan scan) {
      return scan.sampleRows();
    }

    /** Builds the support (landmarks and feature map, or random features). */
    S support(Context context);

    /** The rank to check k against, or null when {@link #solve} checks it. */
    Rank rank(S support, Context context);

    /** The statistics pass(es) and the solve. */
    R solve(S support, Context context);
  }

  /** What the steps see once the data are scanned. */
  public static final class Context {
    private final Dataset<?> dataset;
    private final Settings settings;
    private final int d;
    private final FeaturePasses.Scanned scanned;
    private final Steps<?, ?> steps;
    private double gamma = Double.NaN;
    private Kernel kernel;

    private Context(
        Dataset<?> dataset,
        Settings settings,
        int d,
        FeaturePasses.Scanned scanned,
        Steps<?, ?> steps) {
      this.dataset = dataset;
      this.settings = settings;
      this.d = d;
      this.scanned = scanned;
      this.steps = steps;
    }

    public Dataset<?> dataset() {
      return dataset;
    }

    public SparkContext sparkContext() {
      return dataset.sparkSession().sparkContext();
    }

    public Settings settings() {
      return settings;
    }

    public int d() {
      return d;
    }

    public long n() {
      return scanned.count();
    }

    /** The validated rows and the scan. */
    public FeaturePasses.Scanned scanned() {
      return scanned;
    }

    /**
     * γ: the setting, or the median heuristic over {@link Steps#gammaPoints} (computed once); 1 for
     * a family without γ.
     */
    public double gamma() {
      if (Double.isNaN(gamma)) {
        KernelFamily family = settings.family();
        if (!family.usesGamma()) {
          gamma = 1.0;
        } else if (!Double.isNaN(settings.gamma())) {
          gamma = settings.gamma();
        } else {
          gamma = Kernel.medianHeuristicGamma(family, steps.gammaPoints(scanned.scan()));
        }
      }
      return gamma;
    }

    /**
     * The median heuristic's γ for the fit's rows ({@link Steps#gammaPoints}), computed when asked
     * (γ is then set); NaN for a family without γ or when the sampled rows all coincide.
     */
    public double medianHeuristicGamma() {
      KernelFamily family = settings.family();
      if (!family.usesGamma()) {
        return Double.NaN;
      }
      if (Double.isNaN(settings.gamma())) {
        return gamma();
      }
      try {
        return Kernel.medianHeuristicGamma(family, steps.gammaPoints(scanned.scan()));
      } catch (IllegalArgumentException e) {
        return Double.NaN;
      }
    }

    /** The kernel with γ resolved; warns once when it is not positive definite. */
    public Kernel kernel() {
      if (kernel == null) {
        kernel = kernelWithGamma(gamma());
        if (!kernel.isPositiveDefinite()) {
          settings
              .log()
              .warn(
                  "{}: the kernel {} is not positive definite: negative eigenvalues of K_mm are "
                      + "dropped and the result is the PCA of the positive part only",
                  settings.stage(),
                  kernel);
        }
      }
      return kernel;
    }

    /** Rows per block of a pass of {@code map} over the scanned rows, by the settings' sizes. */
    public int blockSize(FeatureMap map) {
      return scanned.blockSize(map, settings.blockSizes());
    }

    /**
     * Rows per block of a pass over the scanned rows that computes kernel blocks against these
     * landmarks and keeps {@code outputs} values per row: {@link #blockSize(FeatureMap)} for a
     * Nyström map of rank {@code outputs}, without the map.
     */
    public int blockSize(io.github.sparkkpca.kernel.LandmarkKernel landmarks, int outputs) {
      return settings
          .blockSizes()
          .of(
              landmarks.numLandmarks(),
              landmarks.blockWidth(scanned.scan().maxStoredEntries()),
              outputs);
    }

    /**
     * The degeneracy test ({@link io.github.sparkkpca.kernel.KernelDegeneracy}) on {@code gram},
     * {@code kernel} on m points, with its WARN line (naming γ, the median heuristic's γ for the
     * fit's rows and what to do) when the kernel is numerically the identity or a constant there.
     *
     * @param points the points, for the message ("the m = 20 landmarks", "256 sampled rows")
     * @return the message, or {@code "none"}
     */
    public String degeneracy(double[] gram, int m, Kernel kernel, String points) {
      String message =
          io.github.sparkkpca.kernel.KernelDegeneracy.warning(
              gram, m, kernel, points, this::medianHeuristicGamma);
      if (!message.equals(io.github.sparkkpca.kernel.KernelDegeneracy.NONE)) {
        settings.log().warn("{}: {}", settings.stage(), message);
      }
      return message;
    }

    /** The settings' kernel with another γ (a scale of a grid). */
    public Kernel kernelWithGamma(double value) {
      return Kernel.of(settings.family(), value, settings.degree(), settings.coef0());
    }
  }

  /**
   * Runs the fit.
   *
   * @throws IllegalArgumentException naming the parameter or the data at the first step that fails
   */
  public static <S, R> R run(Dataset<?> dataset, Settings settings, Steps<S, R> steps) {
    java.util.List<String> others = steps.otherColumns();
    if (others.isEmpty() || !dataset.storageLevel().equals(StorageLevel.NONE())) {
      // The input column alone: the validating scan persists an uncached one (FeaturePasses.scan).
      return runOn(dataset, settings, steps);
    }
    // Passes over other columns too (labels): persisting the columns read computes an uncached
    // input (a Pipeline's featurizers) once for all of them; the scan then finds it cached.
    java.util.List<org.apache.spark.sql.Column> read = new java.util.ArrayList<>();
    read.add(QuotedColumns.column(dataset, settings.column()));
    for (String column : others) {
      read.add(QuotedColumns.column(dataset, column));
    }
    Dataset<?> persisted =
        dataset
            .select(read.toArray(new org.apache.spark.sql.Column[0]))
            .persist(StorageLevel.MEMORY_AND_DISK());
    settings
        .log()
        .info(
            "{}: the input is not cached: its columns '{}' and {} are persisted MEMORY_AND_DISK for"
                + " the fit's passes and released after",
            settings.stage(),
            settings.column(),
            others);
    try {
      return runOn(persisted, settings, steps);
    } finally {
      persisted.unpersist(false);
    }
  }

  private static <S, R> R runOn(Dataset<?> dataset, Settings settings, Steps<S, R> steps) {
    SparkContext sc = dataset.sparkSession().sparkContext();
    int d =
        steps.knownDimension() > 0
            ? steps.knownDimension()
            : FeaturePasses.inputDimension(dataset, settings.column());
    steps.checkDimension(d);
    Need before = steps.memoryBeforeScan(d);
    // Dense landmarks too large for the dense path mean the sparse one: the scan measures the rows.
    boolean wide =
        steps.sparseKernelBlocks()
            && before != null
            && 8.0 * before.size() * d > KernelBlockPath.MAX_DENSE_LANDMARK_BYTES;
    if (!wide) {
      checkMemory(sc, before, d, settings);
    } else {
      // The rows' bytes are known only after the scan, but the m×m matrices are not: m above the
      // array limit, or m² beyond the heap, is refused before the scan samples m rows.
      int b = settings.blockSizes().of(before.size(), RowBlock.width(d, true, 0), before.size());
      FitMemory.checkRowBytes(
          sc, before.size(), FitMemory.sparseRowBytes(0), b, before.what(), before);
    }
    steps.beforeScan(dataset);
    int sample = steps.sampleCapacity(!Double.isNaN(settings.gamma()));
    try (FeaturePasses.Scanned scanned =
        FeaturePasses.scan(
            dataset, settings.column(), d, sample, settings.seed(), false, settings.jobs())) {
      long n = scanned.count();
      checkMemory(sc, steps.memoryForRows(n, d), d, settings);
      if (steps.sparseKernelBlocks() && before != null) {
        DataScan scan = scanned.scan();
        double density = n == 0 ? 1.0 : scan.storedEntries() / ((double) n * d);
        if (wide || density <= KernelBlockPath.MAX_SPARSE_DENSITY) {
          int b =
              settings
                  .blockSizes()
                  .of(
                      before.size(),
                      RowBlock.width(d, true, scan.maxStoredEntries()),
                      before.size());
          FitMemory.checkRowBytes(
              sc,
              before.size(),
              Math.min(8L * d, FitMemory.sparseRowBytes(scan.maxStoredEntries())),
              b,
              before.what(),
              before);
        }
      }
      steps.checkRows(n);
      Context context = new Context(dataset, settings, d, scanned, steps);
      S support = steps.support(context);
      checkRank(settings, steps.rank(support, context), n);
      return steps.solve(support, context);
    }
  }

  private static void checkMemory(SparkContext sc, Need need, int d, Settings settings) {
    if (need != null) {
      int b = settings.blockSizes().of(need.size(), d, need.size());
      FitMemory.checkRowBytes(sc, need.size(), 8L * d, b, need.what(), need);
    }
  }

  /** k ≤ rank, and k ≤ n − 1 when centred. */
  private static void checkRank(Settings settings, Rank rank, long n) {
    if (rank == null) {
      return;
    }
    int k = settings.k();
    long max = settings.centered() ? Math.min(rank.rank(), n - 1) : rank.rank();
    if (k > max) {
      throw new IllegalArgumentException(
          "k = "
              + k
              + " exceeds the rank of the problem: "
              + rank.what()
              + (settings.centered()
                  ? " and centring on n = " + n + " rows " + rank.verb() + " at most " + max
                  : "")
              + rank.remedy());
    }
  }
}
