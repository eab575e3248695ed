package io.github.sparkkpca.examples.reproduce;

import io.github.sparkkpca.evaluation.Mpress;
import io.github.sparkkpca.evaluation.NystromConfidenceBound;
import io.github.sparkkpca.examples.plots.Charts;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.linalg.BorderedCholesky;
import io.github.sparkkpca.linalg.SymmetricEigen;
import io.github.sparkkpca.ml.KernelPCA;
import io.github.sparkkpca.ml.KernelPCAModel;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Consumer;
import org.apache.spark.ml.linalg.DenseMatrix;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Experiments of Hallgren, <i>Kernel PCA and the Nyström method</i> (PhD thesis, UCL, 2021) on the
 * data available offline: MNIST (pixels / 255) and a seeded synthetic set (three Gaussian clusters
 * in a 3-D subspace of R¹⁰ plus noise, standardised). The thesis' UCI sets are not used (they
 * cannot be downloaded here). Every kernel is the rbf exp(−γ‖x − y‖²) with γ from the library's
 * median heuristic, except the polynomial (⟨x, y⟩ + 1)⁵ of Table 5.1.
 *
 * <ol>
 *   <li><b>Residual curve</b> (§3.5.3, Fig. 3.5): over R random orders of n rows, the residual
 *       k(x,x) − uᵀK_mm⁻¹u of the (m+1)-th row against the first m (bordered Cholesky), averaged;
 *       next to it, the curve of the library's residual growth ({@code landmarkSampling =
 *       residual}): the mean residual of its held-out probe rows after each landmark admitted.
 *   <li><b>Selected k</b> (§5.3, Table 5.1): the argmin of MPRESS ({@link Mpress}, uncentred,
 *       divisor n(n − k)) on the first 10, 50 and 100 rows, k ≤ 9, 49, 89 as in the thesis' code,
 *       capped by the rank.
 *   <li><b>Bound</b> (§6.6.2, Figs 6.1–6.3): n rows, m = 100 uniform landmarks, uncentred,
 *       confidence 0.9: Theorem 4's bound, the Nyström excess Σ_{j≤d}λ̂ⁿ_j − Σ_{j≤d}λ̃_j and the
 *       subset-PCA excess Σ_{j≤d}λ̂ⁿ_j − Σ_{j≤d}λ̂^{m,n}_j, λ̂^{m,n}_j = u_jᵀK_mnK_nm u_j / (n
 *       λ_j(K_mm)) (Theorem 3 uncentred), averaged over R landmark draws.
 *   <li><b>Held-out variance</b> (§6.6.1, Table 6.1): a random half split; centred Nyström (m =
 *       100), exact kernel PCA of the training half, and subset PCA (exact kernel PCA of the m
 *       landmark rows only) are fitted on one half; on the other, the fraction Σ_{j≤d} Var(score_j)
 *       / ((1/n)Tr K'_test).
 * </ol>
 */
public final class HallgrenReproduction {

  /** The experiments, by name. */
  public static final List<String> EXPERIMENTS =
      List.of("residual", "select-k", "bound", "variance");

  /**
   * @param out output directory
   * @param mnistDir MNIST IDX directory
   * @param experiments which of {@link #EXPERIMENTS}
   * @param n rows per data set for residual, bound and variance
   * @param reps repetitions (orders, landmark draws, splits)
   * @param m landmarks of the bound and variance experiments
   */
  public record Config(Path out, Path mnistDir, List<String> experiments, int n, int reps, int m) {}

  private HallgrenReproduction() {}

  /** Runs the experiments and writes their CSV files, charts and {@code summary.txt}. */
  public static List<Path> run(SparkSession spark, Config config, Consumer<String> progress)
      throws IOException {
    Files.createDirectories(config.out());
    RunClock clock = RunClock.start();
    List<HallgrenData> sets =
        List.of(
            HallgrenData.mnist(config.mnistDir(), Math.max(config.n(), 100)),
            HallgrenData.synthetic(Math.max(config.n(), 100)));
    List<Path> written = new ArrayList<>();
    StringBuilder summary = new StringBuilder();
    for (String experiment : config.experiments()) {
      long start = System.nanoTime();
      progress.accept("experiment " + experiment + "...");
      switch (experiment) {
        case "residual" -> written.addAll(residualCurves(spark, config, sets));
        case "select-k" -> written.addAll(selectK(config, sets));
        case "bound" -> written.addAll(bounds(spark, config, sets));
        case "variance" -> written.addAll(heldOutVariance(spark, config, sets));
        default ->
            throw new IllegalArgumentException(
                "unknown experiment '" + experiment + "'; expected one of " + EXPERIMENTS);
      }
      String line =
          String.format(Locale.ROOT, "%s: %.1f s%n", experiment, (System.nanoTime() - start) / 1e9);
      summary.append(line);
      progress.accept(line.strip());
    }
    summary.append(clock.environment());
    Path file = config.out().resolve("summary.txt");
    Files.writeString(file, summary.toString());
    written.add(file);
    return written;
  }

  // ---- 1. residual curve
  // --------------------------------------------------------------------------

  static List<Path> residualCurves(SparkSession spark, Config config, List<HallgrenData> sets) {
    List<String> csv = new ArrayList<>();
    List<Path> written = new ArrayList<>();
    int steps = Math.min(300, config.n());
    for (HallgrenData data : sets) {
      HallgrenData rows = data.first(config.n());
      Kernel kernel = rows.rbf();
      double[] mean = new double[steps];
      for (int r = 0; r < config.reps(); r++) {
        int[] order = permutation(rows.n(), 100 + r);
        BorderedCholesky factor = new BorderedCholesky();
        double[] landmarks = new double[steps * rows.d()];
        for (int j = 0; j < steps; j++) {
          double[] x = rows.row(order[j]);
          double[] u = new double[factor.size()];
          for (int i = 0; i < u.length; i++) {
            u[i] = kernel.apply(Arrays.copyOfRange(landmarks, i * rows.d(), (i + 1) * rows.d()), x);
          }
          double[] w = factor.forward(u);
          double s = BorderedCholesky.schur(kernel.apply(x, x), w);
          mean[j] += Math.max(0, s) / config.reps();
          if (s > 1e-12) {
            System.arraycopy(x, 0, landmarks, factor.size() * rows.d(), rows.d());
            factor.append(w, s);
          }
        }
      }
      NystromKernelPCAModel auto =
          new NystromKernelPCA()
              .setK(1)
              .setGamma(kernel.gamma())
              .setCentered(false)
              .setSeed(1)
              .setNumLandmarksAuto(0.01)
              .setMaxLandmarks(steps)
              .fit(rows.frame(spark));
      double[] probe = auto.getLandmarkResidualCurve();
      double[] x = new double[steps];
      for (int j = 0; j < steps; j++) {
        x[j] = j;
        csv.add(
            Csv.row(
                data.name(),
                j,
                Csv.num(mean[j]),
                j == 0 ? "1" : j <= probe.length ? Csv.num(probe[j - 1]) : ""));
      }
      double[] px = new double[probe.length + 1];
      double[] py = new double[probe.length + 1];
      py[0] = 1;
      for (int j = 0; j < probe.length; j++) {
        px[j + 1] = j + 1;
        py[j + 1] = probe[j];
      }
      written.add(
          Charts.lineChart(
              config.out().resolve("residual_curve_" + data.name() + ".png"),
              new Charts.Axes(
                  "Residual of the next row vs subset size m ("
                      + data.name()
                      + ", n = "
                      + rows.n()
                      + ", rbf gamma = "
                      + String.format(Locale.ROOT, "%.3g", kernel.gamma())
                      + ")",
                  "m",
                  "residual / mean k(x,x)",
                  true),
              List.of(
                  Charts.Line.of("next row, mean of " + config.reps() + " random orders", x, mean),
                  Charts.Line.of("held-out probe mean (residual growth, tau = 0.01)", px, py))));
    }
    written.add(
        Csv.write(
            config.out().resolve("residual_curve.csv"),
            "dataset,m,next_row_residual," + "probe_mean_residual",
            csv));
    return written;
  }

  static int[] permutation(int n, long seed) {
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    java.util.Collections.shuffle(Arrays.asList(order), new Random(seed));
    return Arrays.stream(order).mapToInt(Integer::intValue).toArray();
  }

  // ---- 2. selected k (Table 5.1)
  // ------------------------------------------------------------------

  static List<Path> selectK(Config config, List<HallgrenData> sets) {
    List<String> table = new ArrayList<>();
    List<String> curves = new ArrayList<>();
    int[] sizes = {10, 50, 100};
    int[] thesisMaxK = {9, 49, 89};
    List<Charts.Line> lines = new ArrayList<>();
    for (HallgrenData data : sets) {
      for (String kernelName : List.of("rbf", "polynomial")) {
        for (int s = 0; s < sizes.length; s++) {
          HallgrenData rows = data.first(sizes[s]);
          Kernel kernel =
              kernelName.equals("rbf")
                  ? rows.rbf()
                  : new Kernel(KernelType.POLYNOMIAL, 1.0, 5, 1.0);
          int rank =
              SymmetricEigen.of(
                      new LandmarkKernel(kernel, rows.points(), rows.n(), rows.d()).gram(),
                      rows.n())
                  .rank(Mpress.RCOND);
          int maxK = Math.min(thesisMaxK[s], rank - 1);
          Mpress.Curve curve = Mpress.compute(kernel, rows.points(), rows.n(), rows.d(), maxK);
          table.add(Csv.row(data.name(), kernelName, rows.n(), maxK, curve.k()));
          double[] k = new double[maxK];
          for (int j = 0; j < maxK; j++) {
            k[j] = j + 1;
            curves.add(
                Csv.row(data.name(), kernelName, rows.n(), j + 1, Csv.num(curve.mpress()[j])));
          }
          if (sizes[s] == 100) {
            lines.add(Charts.Line.of(data.name() + ", " + kernelName, k, curve.mpress()));
          }
        }
      }
    }
    List<Path> written = new ArrayList<>();
    written.add(
        Csv.write(
            config.out().resolve("select_k.csv"), "dataset,kernel,n,max_k,selected_k", table));
    written.add(
        Csv.write(config.out().resolve("mpress_curves.csv"), "dataset,kernel,n,k,mpress", curves));
    written.add(
        Charts.lineChart(
            config.out().resolve("mpress_n100.png"),
            new Charts.Axes(
                "MPRESS (leave-one-out, uncentred) on the first 100 rows", "k", "MPRESS", true),
            lines));
    return written;
  }

  // ---- 3. bound vs measured (Figs 6.1-6.3)
  // --------------------------------------------------------

  static List<Path> bounds(SparkSession spark, Config config, List<HallgrenData> sets) {
    int dMax = 10;
    List<String> csv = new ArrayList<>();
    List<Path> written = new ArrayList<>();
    for (HallgrenData data : sets) {
      HallgrenData rows = data.first(config.n());
      Kernel kernel = rows.rbf();
      int n = rows.n();
      double[] exact =
          SymmetricEigen.leading(
                  new LandmarkKernel(kernel, rows.points(), n, rows.d()).gram(), n, dMax)
              .values();
      Dataset<Row> df = rows.frame(spark).cache();
      double[] bound = new double[dMax];
      double[] nystrom = new double[dMax];
      double[] subset = new double[dMax];
      for (int r = 0; r < config.reps(); r++) {
        NystromKernelPCAModel model =
            nystromEstimator(config, kernel, dMax, r + 1).setCentered(false).fit(df);
        double[] b = NystromConfidenceBound.compute(model, 0.9).reconstructionErrorBound();
        double[] tilde = model.explainedVariance().toArray();
        double[] subsetValues =
            subsetPcaVariances(
                kernel, rows, rowMajor(model.landmarks().toDense()), config.m(), dMax);
        double cumExact = 0;
        double cumTilde = 0;
        double cumSubset = 0;
        for (int j = 0; j < dMax; j++) {
          cumExact += exact[j] / n;
          cumTilde += tilde[j];
          cumSubset += subsetValues[j];
          bound[j] += b[j] / config.reps();
          nystrom[j] += (cumExact - cumTilde) / config.reps();
          subset[j] += (cumExact - cumSubset) / config.reps();
        }
      }
      df.unpersist();
      double[] d = perDimension(csv, data.name(), bound, nystrom, subset);
      written.add(
          Charts.lineChart(
              config.out().resolve("bound_" + data.name() + ".png"),
              new Charts.Axes(
                  "Theorem 4 bound (confidence 0.9) vs measured excess error ("
                      + data.name()
                      + ", n = "
                      + n
                      + ", m = "
                      + config.m()
                      + ", mean of "
                      + config.reps()
                      + " draws)",
                  "d",
                  "excess reconstruction error",
                  true),
              List.of(
                  Charts.Line.of("confidence bound", d, bound),
                  Charts.Line.of("Nystrom diff.", d, nystrom),
                  Charts.Line.of("subset diff.", d, subset))));
    }
    written.add(
        Csv.write(
            config.out().resolve("bound.csv"), "dataset,d,bound,nystrom_diff,subset_diff", csv));
    return written;
  }

  /** The Nyström estimator of sections 3 and 4: dMax components, m landmarks, the data's γ. */
  private static NystromKernelPCA nystromEstimator(
      Config config, Kernel kernel, int dMax, long seed) {
    return new NystromKernelPCA()
        .setK(dMax)
        .setNumLandmarks(config.m())
        .setGamma(kernel.gamma())
        .setSeed(seed);
  }

  /**
   * Adds one CSV row per d = 1..dMax (the data set, d and the d-th value of each curve) and returns
   * the d values, the x of the curves' chart.
   */
  private static double[] perDimension(List<String> csv, String dataset, double[]... curves) {
    double[] d = new double[curves[0].length];
    for (int j = 0; j < d.length; j++) {
      d[j] = j + 1;
      List<Object> cells = new ArrayList<>(List.of(dataset, j + 1));
      for (double[] curve : curves) {
        cells.add(Csv.num(curve[j]));
      }
      csv.add(Csv.row(cells.toArray()));
    }
    return d;
  }

  /**
   * λ̂^{m,n}_j = u_jᵀK_mnK_nm u_j / (n λ_j(K_mm)) for the top d eigenpairs (λ_j, u_j) of K_mm: the
   * training variance along the uncentred subset-PCA axes (Theorem 3 without centring).
   */
  static double[] subsetPcaVariances(
      Kernel kernel, HallgrenData rows, double[] landmarks, int m, int dMax) {
    SymmetricEigen eig =
        SymmetricEigen.leading(new LandmarkKernel(kernel, landmarks, m, rows.d()).gram(), m, dMax);
    double[] out = new double[dMax];
    double[] z = new double[rows.d()];
    for (int i = 0; i < rows.n(); i++) {
      double[] x = rows.row(i);
      double[] u = new double[m];
      for (int a = 0; a < m; a++) {
        System.arraycopy(landmarks, a * rows.d(), z, 0, rows.d());
        u[a] = kernel.apply(z, x);
      }
      for (int j = 0; j < dMax; j++) {
        double dot = 0;
        for (int a = 0; a < m; a++) {
          dot += eig.vectors()[a + j * m] * u[a];
        }
        out[j] += dot * dot / (rows.n() * eig.values()[j]);
      }
    }
    return out;
  }

  static double[] rowMajor(DenseMatrix matrix) {
    double[] out = new double[matrix.numRows() * matrix.numCols()];
    for (int i = 0; i < matrix.numRows(); i++) {
      for (int t = 0; t < matrix.numCols(); t++) {
        out[i * matrix.numCols() + t] = matrix.apply(i, t);
      }
    }
    return out;
  }

  // ---- 4. held-out variance (Table 6.1)
  // -----------------------------------------------------------

  static List<Path> heldOutVariance(SparkSession spark, Config config, List<HallgrenData> sets) {
    int dMax = 10;
    List<String> csv = new ArrayList<>();
    List<Path> written = new ArrayList<>();
    for (HallgrenData data : sets) {
      HallgrenData all = data.first(config.n());
      Kernel kernel = all.rbf();
      double[][] fractions = new double[3][dMax];
      for (int r = 0; r < config.reps(); r++) {
        int[] order = permutation(all.n(), 200 + r);
        int half = all.n() / 2;
        HallgrenData train = all.subset(Arrays.copyOfRange(order, 0, half));
        HallgrenData test = all.subset(Arrays.copyOfRange(order, half, all.n()));
        Dataset<Row> testFrame = test.frame(spark).cache();
        double total = centredTrace(kernel, test);
        NystromKernelPCAModel nystrom =
            nystromEstimator(config, kernel, dMax, r + 1)
                .setOutputCol("scores")
                .fit(train.frame(spark));
        HallgrenData landmarkRows =
            new HallgrenData(
                data.name(),
                rowMajor(nystrom.landmarks().toDense()),
                nystrom.numSupportPoints(),
                all.d());
        KernelPCAModel subset =
            new KernelPCA()
                .setK(dMax)
                .setKernel("rbf")
                .setGamma(kernel.gamma())
                .setOutputCol("scores")
                .fit(landmarkRows.frame(spark));
        KernelPCAModel exact =
            new KernelPCA()
                .setK(dMax)
                .setKernel("rbf")
                .setGamma(kernel.gamma())
                .setOutputCol("scores")
                .fit(train.frame(spark));
        double[][] variances = {
          scoreVariances(subset.transform(testFrame), dMax),
          scoreVariances(nystrom.transform(testFrame), dMax),
          scoreVariances(exact.transform(testFrame), dMax)
        };
        for (int method = 0; method < 3; method++) {
          double cum = 0;
          for (int j = 0; j < dMax; j++) {
            cum += variances[method][j];
            fractions[method][j] += cum / total / config.reps();
          }
        }
        testFrame.unpersist();
      }
      double[] d = perDimension(csv, data.name(), fractions[0], fractions[1], fractions[2]);
      written.add(
          Charts.lineChart(
              config.out().resolve("heldout_variance_" + data.name() + ".png"),
              new Charts.Axes(
                  "Fraction of held-out variance captured ("
                      + data.name()
                      + ", "
                      + all.n() / 2
                      + " train / "
                      + (all.n() - all.n() / 2)
                      + " test, m = "
                      + config.m()
                      + ", mean of "
                      + config.reps()
                      + " splits)",
                  "d",
                  "fraction",
                  false),
              List.of(
                  Charts.Line.of("subset PCA", d, fractions[0]),
                  Charts.Line.of("Nystrom KPCA", d, fractions[1]),
                  Charts.Line.of("exact KPCA", d, fractions[2]))));
    }
    written.add(
        Csv.write(
            config.out().resolve("heldout_variance.csv"),
            "dataset,d,subset_pca,nystrom,exact_kpca",
            csv));
    return written;
  }

  /** (1/n) Tr K' = mean k(x,x) − (1/n²) Σ K_ij: the test rows' total variance in feature space. */
  static double centredTrace(Kernel kernel, HallgrenData test) {
    double[] gram = new LandmarkKernel(kernel, test.points(), test.n(), test.d()).gram();
    double diagonal = 0;
    double sum = 0;
    int n = test.n();
    for (int i = 0; i < n; i++) {
      diagonal += gram[i + i * n];
      for (int j = 0; j < n; j++) {
        sum += gram[i + j * n];
      }
    }
    return diagonal / n - sum / ((double) n * n);
  }

  /** The population variance of each of the first d score columns. */
  static double[] scoreVariances(Dataset<Row> scored, int d) {
    List<Row> rows = scored.select("scores").collectAsList();
    double[] sum = new double[d];
    double[] sq = new double[d];
    for (Row row : rows) {
      Vector v = (Vector) row.get(0);
      for (int j = 0; j < d; j++) {
        sum[j] += v.apply(j);
        sq[j] += v.apply(j) * v.apply(j);
      }
    }
    double[] out = new double[d];
    int n = rows.size();
    for (int j = 0; j < d; j++) {
      out[j] = sq[j] / n - (sum[j] / n) * (sum[j] / n);
    }
    return out;
  }
}
