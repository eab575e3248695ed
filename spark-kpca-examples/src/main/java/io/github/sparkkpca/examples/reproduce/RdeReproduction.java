package io.github.sparkkpca.examples.reproduce;

import io.github.sparkkpca.examples.data.BreimanData;
import io.github.sparkkpca.ml.KernelPCARegressionModel;
import io.github.sparkkpca.ml.KernelPCARegressionParams;
import io.github.sparkkpca.ml.RelevantDimensionEstimator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Braun, Buhmann and Müller's table (NIPS 2006, Figure 3) for the IDA sets that have generators:
 * twonorm, ringnorm and waveform. Per resample r: 400 training rows (seed 1000·r + 1) and a test
 * set (7000, 7000, 4600 rows, seed 1000·r + 2), the relevant dimension over the paper's 20 widths
 * with every training row as a landmark (exact), its leave-one-out dimension, the estimated error
 * rate on the training set, the kPCR test error, and exact kernel ridge regression with γ (the same
 * grid) and λ chosen by leave-one-out.
 */
public final class RdeReproduction {

  /** The paper's rows: dim, dim (cv), est. error, kPCR (± sd), KRR (± sd), SVM, in %. */
  static final String[][] PAPER = {
    {"twonorm", "2", "2", "2.3 ± 0.7", "2.4 ± 0.1", "2.8 ± 0.2", "3.0 ± 0.2"},
    {"ringnorm", "36", "37", "1.9 ± 0.7", "4.4 ± 1.2", "4.7 ± 0.8", "1.7 ± 0.1"},
    {"waveform", "14", "23", "8.4 ± 1.5", "10.8 ± 0.9", "9.7 ± 0.4", "9.9 ± 0.4"}
  };

  static final int TRAIN = 400;

  /**
   * @param problems which problems
   * @param resamples R
   * @param maxDimension the largest d evaluated (ℓ(d) and LOO)
   */
  public record Config(
      List<BreimanData.Problem> problems, int resamples, int maxDimension, Path out) {}

  /** One resample's results. */
  record Result(
      String problem,
      int resample,
      int dim,
      int dimCv,
      double gamma,
      double estimatedError,
      double kpcrError,
      double krrError,
      double krrGamma,
      double krrLambda,
      double seconds) {}

  private RdeReproduction() {}

  public static Path run(SparkSession spark, Config config, Consumer<String> progress)
      throws java.io.IOException {
    Files.createDirectories(config.out());
    RunClock clock = RunClock.start();
    List<Result> results = new ArrayList<>();
    for (BreimanData.Problem problem : config.problems()) {
      int testSize = problem == BreimanData.Problem.WAVEFORM ? 4600 : 7000;
      for (int r = 1; r <= config.resamples(); r++) {
        long t0 = System.nanoTime();
        double[] y = new double[TRAIN];
        double[][] x = rows(new BreimanData.Spec(problem, TRAIN, 1000L * r + 1, null), y);
        double[] yTest = new double[testSize];
        double[][] xTest =
            rows(new BreimanData.Spec(problem, testSize, 1000L * r + 2, null), yTest);
        KernelPCARegressionModel model =
            new RelevantDimensionEstimator()
                .setNumLandmarks(TRAIN)
                .setMaxDimension(config.maxDimension())
                .setSeed(r)
                .fit(frame(spark, x, y));
        int errors = 0;
        for (int i = 0; i < testSize; i++) {
          errors += sign(model.predict(new DenseVector(xTest[i]))) == yTest[i] ? 0 : 1;
        }
        KernelRidgeLoo krr = KernelRidgeLoo.fit(x, y, KernelPCARegressionParams.paperGammaGrid());
        int krrErrors = 0;
        for (int i = 0; i < testSize; i++) {
          krrErrors += sign(krr.predict(xTest[i])) == yTest[i] ? 0 : 1;
        }
        Result result =
            new Result(
                problem.sourceName(),
                r,
                model.getDimension(),
                model.dimensionCv(),
                model.getGamma(),
                model.trainingError(),
                errors / (double) testSize,
                krrErrors / (double) testSize,
                krr.gamma(),
                krr.lambda(),
                (System.nanoTime() - t0) / 1e9);
        results.add(result);
        progress.accept(
            String.format(
                Locale.ROOT,
                "%s resample %d: dim %d, dim (cv) %d, gamma %.4g, est. error "
                    + "%.2f %%, kPCR %.2f %%, KRR %.2f %% (%.1f s)",
                problem.sourceName(),
                r,
                result.dim(),
                result.dimCv(),
                result.gamma(),
                100 * result.estimatedError(),
                100 * result.kpcrError(),
                100 * result.krrError(),
                result.seconds()));
      }
    }
    List<String> lines = new ArrayList<>();
    for (Result r : results) {
      lines.add(
          Csv.row(
              r.problem(),
              r.resample(),
              r.dim(),
              r.dimCv(),
              Csv.num(r.gamma()),
              Csv.num(r.estimatedError()),
              Csv.num(r.kpcrError()),
              Csv.num(r.krrError()),
              Csv.num(r.krrGamma()),
              Csv.num(r.krrLambda()),
              Csv.num(r.seconds())));
    }
    Csv.write(
        config.out().resolve("resamples.csv"),
        "dataset,resample,dim,dim_cv,gamma,estimated_error,kpcr_error,"
            + "krr_error,krr_gamma,krr_lambda,seconds",
        lines);
    List<String> table = new ArrayList<>();
    StringBuilder md =
        new StringBuilder(
            "| data set | | dim | dim (cv) | est. error rate | kPCR | KRR | SVM |\n"
                + "|---|---|---|---|---|---|---|---|\n");
    for (BreimanData.Problem problem : config.problems()) {
      List<Result> mine =
          results.stream().filter(r -> r.problem().equals(problem.sourceName())).toList();
      double[] dims = mine.stream().mapToDouble(Result::dim).toArray();
      double[] dimsCv = mine.stream().mapToDouble(Result::dimCv).toArray();
      double[] est = mine.stream().mapToDouble(r -> 100 * r.estimatedError()).toArray();
      double[] kpcr = mine.stream().mapToDouble(r -> 100 * r.kpcrError()).toArray();
      double[] krr = mine.stream().mapToDouble(r -> 100 * r.krrError()).toArray();
      String[] paper =
          Arrays.stream(PAPER)
              .filter(p -> p[0].equals(problem.sourceName()))
              .findFirst()
              .orElseThrow();
      table.add(
          Csv.row(
              problem.sourceName(),
              "spark-kpca",
              Csv.num(median(dims)),
              Csv.num(median(dimsCv)),
              pm(est),
              pm(kpcr),
              pm(krr),
              ""));
      table.add(
          Csv.row(
              problem.sourceName(),
              "paper",
              paper[1],
              paper[2],
              paper[3],
              paper[4],
              paper[5],
              paper[6]));
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | spark-kpca (%d resamples) | %s | %s | %s | %s | %s | |%n",
              problem.sourceName(),
              mine.size(),
              fmt(median(dims)),
              fmt(median(dimsCv)),
              pm(est),
              pm(kpcr),
              pm(krr)));
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | paper | %s | %s | %s | %s | %s | %s |%n",
              problem.sourceName(),
              paper[1],
              paper[2],
              paper[3],
              paper[4],
              paper[5],
              paper[6]));
    }
    Csv.write(
        config.out().resolve("table.csv"),
        "dataset,source,dim,dim_cv,estimated_error_percent,"
            + "kpcr_error_percent,krr_error_percent,svm_error_percent",
        table);
    md.append(
        String.format(
            Locale.ROOT, "%nWall time %.1f s; %s.%n", clock.seconds(), clock.environment()));
    Path tableMd = config.out().resolve("table.md");
    Files.writeString(tableMd, md.toString());
    return tableMd;
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v);
  }

  private static String pm(double[] values) {
    return String.format(Locale.ROOT, "%.1f ± %.1f", Stats.mean(values), Stats.sd(values));
  }

  static double median(double[] values) {
    double[] s = values.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  private static double sign(double v) {
    return v >= 0 ? 1 : -1;
  }

  static double[][] rows(BreimanData.Spec spec, double[] labels) {
    double[][] x = new double[(int) spec.n()][];
    int[] label = new int[1];
    for (int i = 0; i < x.length; i++) {
      x[i] = BreimanData.row(spec, i, label);
      labels[i] = label[0];
    }
    return x;
  }

  static Dataset<Row> frame(SparkSession spark, double[][] x, double[] y) {
    List<Row> rows = new ArrayList<>(x.length);
    for (int i = 0; i < x.length; i++) {
      rows.add(RowFactory.create((long) i, new DenseVector(x[i]), y[i]));
    }
    StructType schema =
        new StructType()
            .add("id", DataTypes.LongType, false)
            .add(new AttributeGroup("features", x[0].length).toStructField())
            .add("label", DataTypes.DoubleType, false);
    return spark.createDataFrame(rows, schema).repartition(2);
  }
}
