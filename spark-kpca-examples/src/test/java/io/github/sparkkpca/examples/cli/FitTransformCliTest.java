package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.ml.RandomFeatureKernelPCAModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** fit and transform on a generated CSV file, end to end through the command line. */
class FitTransformCliTest {

  static final int N = 300;
  static final int D = 4;
  static final int K = 3;
  static final int M = 40;
  static final String LABEL = "row.id";

  @TempDir static Path dir;
  static Path csv;
  static double[][] rows;

  @BeforeAll
  static void writeCsv() throws IOException {
    TestSpark.session();
    rows = new double[N][D];
    Random random = new Random(11);
    // A dotted label name: columns must be referenced literally, not as struct fields.
    StringBuilder text = new StringBuilder("x1,x2,x3,x4,row.id\n");
    for (int i = 0; i < N; i++) {
      double centre = (i % 3) * 2.0;
      for (int j = 0; j < D; j++) {
        rows[i][j] = centre + (j == 0 ? 1.0 : 0.3) * random.nextGaussian();
        text.append(String.format(Locale.ROOT, "%.6f,", rows[i][j]));
        rows[i][j] = Double.parseDouble(String.format(Locale.ROOT, "%.6f", rows[i][j]));
      }
      text.append("row").append(i).append('\n');
    }
    csv = dir.resolve("data.csv");
    Files.writeString(csv, text.toString(), StandardCharsets.UTF_8);
  }

  /** --partitions keeps the rows' order, so the landmarks, and the model, do not depend on it. */
  @Test
  void partitionCountDoesNotChangeTheModel() throws IOException {
    double[][] eigenvalues = new double[2][];
    String[] routes = new String[2];
    int[] counts = {1, 4};
    for (int c = 0; c < 2; c++) {
      Path summary = dir.resolve("partitions-" + counts[c] + ".json");
      TestSpark.Result fit =
          TestSpark.cli(
              "fit",
              "--input",
              csv.toString(),
              "--label-col",
              LABEL,
              "--k",
              String.valueOf(K),
              "--landmarks",
              "15",
              "--seed",
              "8",
              "--partitions",
              String.valueOf(counts[c]),
              "--model-out",
              dir.resolve("partitions-model-" + counts[c]).toString(),
              "--summary-out",
              summary.toString());
      assertEquals(0, fit.code(), fit::toString);
      JsonNode json = CliFixture.json(summary);
      eigenvalues[c] = new double[K];
      for (int i = 0; i < K; i++) {
        eigenvalues[c][i] = json.get("eigenvalues").get(i).asDouble();
      }
      // The statistics route is decided from n, m, the block size and cond(K_mm), and when checked
      // a posteriori
      // from estimates far from their limits here: not from the partitioning.
      routes[c] = json.get("statisticsRoute").asText();
      assertTrue(
          json.get("statisticsRouteCheck")
              .asText()
              .matches("requested|a-priori bound|a-posteriori check .*|cost: .*"),
          json::toString);
      assertTrue(json.get("landmarkConditionEstimate").asDouble() >= 1, json::toString);
      assertTrue(fit.out().contains("statistics route " + routes[c]), fit::toString);
    }
    assertTrue(routes[0].equals("whitened") || routes[0].equals("gram"), routes[0]);
    assertEquals(routes[0], routes[1]);
    for (int i = 0; i < K; i++) {
      assertEquals(
          eigenvalues[0][i], eigenvalues[1][i], 1e-9 * eigenvalues[0][0], "eigenvalue " + i);
    }
  }

  /**
   * --statistics-route gram-checked: the summary names the check's outcome and its two estimates.
   */
  @Test
  void gramCheckedRouteReportsTheCheck() throws IOException {
    Path summary = dir.resolve("gram-checked.json");
    TestSpark.Result fit =
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--label-col",
            LABEL,
            "--k",
            String.valueOf(K),
            "--landmarks",
            "15",
            "--seed",
            "8",
            "--statistics-route",
            "gram-checked",
            "--model-out",
            dir.resolve("gram-checked-model").toString(),
            "--summary-out",
            summary.toString());
    assertEquals(0, fit.code(), fit::toString);
    JsonNode json = CliFixture.json(summary);
    String check = json.get("statisticsRouteCheck").asText();
    assertTrue(
        check.matches(
            "a-posteriori check (passed|failed: whitened pass) \\(eigenvalue error .*, RMS score "
                + "error .*\\)"),
        check);
    assertEquals(
        check.contains("passed") ? "gram" : "whitened", json.get("statisticsRoute").asText());
    assertTrue(fit.out().contains(check), fit::toString);
  }

  /**
   * A γ 10⁴ times the median heuristic: the kernel is the identity on the landmarks, and the
   * summary (JSON and console) says so with the heuristic's value, which is the γ fitted when
   * --gamma is not given.
   */
  @Test
  void degenerateGammaIsInTheSummary() throws IOException {
    double[] gammas = new double[2];
    JsonNode json = null;
    TestSpark.Result fit = null;
    for (int run = 0; run < 2; run++) {
      Path summary = dir.resolve("degenerate-" + run + ".json");
      List<String> args =
          new ArrayList<>(
              List.of(
                  "fit",
                  "--input",
                  csv.toString(),
                  "--label-col",
                  LABEL,
                  "--k",
                  String.valueOf(K),
                  "--landmarks",
                  String.valueOf(M),
                  "--seed",
                  "3",
                  "--model-out",
                  dir.resolve("degenerate-model-" + run).toString(),
                  "--summary-out",
                  summary.toString()));
      if (run == 1) {
        args.addAll(List.of("--gamma", String.valueOf(1e4 * gammas[0])));
      }
      fit = TestSpark.cli(args.toArray(new String[0]));
      assertEquals(0, fit.code(), fit::toString);
      json = CliFixture.json(summary);
      gammas[run] = json.get("gamma").asDouble();
    }
    assertEquals("identity", json.get("kernelDegenerate").asText(), json::toString);
    String warning = json.get("kernelWarning").asText();
    assertTrue(
        warning.contains(
            String.format(
                java.util.Locale.ROOT, "the median heuristic gives gamma = %.4g", gammas[0])),
        warning);
    assertTrue(fit.out().contains("warning: the kernel is degenerate: " + warning), fit::toString);
  }

  @Test
  void fitWritesModelAndSummaryAndTransformKeepsRowOrder() throws IOException {
    Path model = dir.resolve("model");
    Path summary = dir.resolve("out/summary.json");
    TestSpark.Result fit =
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--label-col",
            LABEL,
            "--k",
            String.valueOf(K),
            "--landmarks",
            String.valueOf(M),
            "--seed",
            "3",
            "--partitions",
            "3",
            "--model-out",
            model.toString(),
            "--summary-out",
            summary.toString());
    assertEquals(0, fit.code(), fit::toString);
    assertTrue(fit.out().contains("cumulative explained variance ratio (k = 3)"), fit::toString);
    assertTrue(fit.out().contains("spark-kpca: fitting"), fit::toString);

    JsonNode json = CliFixture.json(summary);
    Set<String> keys = new LinkedHashSet<>();
    json.fieldNames().forEachRemaining(keys::add);
    assertEquals(
        List.of(
            "n",
            "d",
            "m",
            "rank",
            "k",
            "gamma",
            "centered",
            "eigenvalues",
            "explainedVariance",
            "explainedVarianceRatio",
            "totalVariance",
            "reconstructionError",
            "fitSeconds",
            "statisticsRoute",
            "landmarkConditionEstimate",
            "statisticsRouteCheck",
            "kernelBlockPath",
            "kernelDegenerate"),
        List.copyOf(keys));
    assertTrue(json.get("kernelBlockPath").asText().startsWith("dense: "), json::toString);
    assertEquals("none", json.get("kernelDegenerate").asText(), json::toString);
    assertEquals(N, json.get("n").asLong());
    assertEquals(D, json.get("d").asInt());
    assertEquals(M, json.get("m").asInt());
    assertEquals(K, json.get("k").asInt());
    assertTrue(json.get("rank").asInt() >= K && json.get("rank").asInt() <= M);
    assertTrue(json.get("gamma").asDouble() > 0, "median-heuristic gamma");
    assertTrue(json.get("centered").asBoolean());
    assertTrue(json.get("fitSeconds").asDouble() > 0);
    assertEquals(K, json.get("eigenvalues").size());
    assertEquals(json.get("eigenvalues"), json.get("explainedVariance"));
    double sum = 0;
    for (JsonNode r : json.get("explainedVarianceRatio")) {
      assertTrue(r.asDouble() > 0 && r.asDouble() <= 1, "ratio in (0,1]: " + r);
      sum += r.asDouble();
    }
    assertTrue(sum <= 1 + 1e-9, "ratios sum to " + sum);
    JsonNode errors = json.get("reconstructionError");
    assertEquals(K, errors.size());
    for (int i = 1; i < K; i++) {
      assertTrue(
          errors.get(i).asDouble() <= errors.get(i - 1).asDouble(), "non-increasing: " + errors);
    }
    assertEquals(
        json.get("totalVariance").asDouble() - json.get("eigenvalues").get(0).asDouble(),
        errors.get(0).asDouble(),
        1e-9 * json.get("totalVariance").asDouble());

    // Transform with a repartition (a shuffle that scrambles the rows) and several output part
    // files.
    Path output = dir.resolve("scores");
    TestSpark.Result transform =
        TestSpark.cli(
            "transform",
            "--model",
            model.toString(),
            "--input",
            csv.toString(),
            "--label-col",
            LABEL,
            "--output",
            output.toString(),
            "--residual",
            "--partitions",
            "4");
    assertEquals(0, transform.code(), transform::toString);

    List<Path> parts;
    try (Stream<Path> files = Files.list(output)) {
      parts = files.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList();
    }
    assertTrue(parts.size() > 1, "several part files expected, got " + parts);
    List<String[]> lines = new ArrayList<>();
    for (Path part : parts) {
      Iterator<String> it = Files.readAllLines(part).iterator();
      assertEquals("pc_1,pc_2,pc_3,residual," + LABEL, it.next(), "header of " + part);
      it.forEachRemaining(l -> lines.add(l.split(",")));
    }
    assertEquals(N, lines.size());

    // Re-score the same vectors with the saved model and compare row by row.
    SparkSession spark = TestSpark.session();
    NystromKernelPCAModel loaded =
        NystromKernelPCAModel.load(model.toString()).setResidualCol("residual");
    List<Row> input = new ArrayList<>();
    for (double[] r : rows) {
      input.add(RowFactory.create(new DenseVector(r)));
    }
    Dataset<Row> df =
        spark
            .createDataFrame(input, new StructType().add("features", SQLDataTypes.VectorType()))
            .coalesce(1);
    List<Row> expected = loaded.transform(df).collectAsList();
    for (int i = 0; i < N; i++) {
      String[] line = lines.get(i);
      assertEquals("row" + i, line[K + 1], "row order");
      double[] scores = ((Vector) expected.get(i).getAs("kpca")).toArray();
      for (int c = 0; c < K; c++) {
        assertEquals(
            scores[c],
            Double.parseDouble(line[c]),
            1e-9 * (1 + Math.abs(scores[c])),
            "row " + i + " pc_" + (c + 1));
      }
      double residual = expected.get(i).getAs("residual");
      assertEquals(
          residual, Double.parseDouble(line[K]), 1e-9 * (1 + Math.abs(residual)), "residual " + i);
    }
  }

  @Test
  void randomFeatureFitIsTransformedByTheSameCommand() throws IOException {
    Path model = dir.resolve("model-rff");
    Path summary = dir.resolve("out/summary-rff.json");
    TestSpark.Result fit =
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--label-col",
            LABEL,
            "--k",
            String.valueOf(K),
            "--feature-map",
            "rff",
            "--features",
            "60",
            "--seed",
            "5",
            "--model-out",
            model.toString(),
            "--summary-out",
            summary.toString());
    assertEquals(0, fit.code(), fit::toString);
    assertTrue(fit.out().contains("D = 60"), fit::toString);
    JsonNode json = CliFixture.json(summary);
    assertEquals(60, json.get("m").asInt());
    assertEquals(60, json.get("rank").asInt());
    assertEquals(N, json.get("n").asLong());
    RandomFeatureKernelPCAModel loaded = RandomFeatureKernelPCAModel.load(model.toString());
    assertEquals(60, loaded.getNumRandomFeatures());
    assertEquals(5, loaded.getSeed());

    Path output = dir.resolve("scores-rff");
    TestSpark.Result transform =
        TestSpark.cli(
            "transform",
            "--model",
            model.toString(),
            "--input",
            csv.toString(),
            "--label-col",
            LABEL,
            "--output",
            output.toString(),
            "--partitions",
            "1");
    assertEquals(0, transform.code(), transform::toString);
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(output)) {
      for (Path part :
          files.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList()) {
        List<String> all = Files.readAllLines(part);
        lines.addAll(all.subList(1, all.size()));
      }
    }
    assertEquals(N, lines.size());
    List<Row> input = new ArrayList<>();
    for (double[] r : rows) {
      input.add(RowFactory.create(new DenseVector(r)));
    }
    List<Row> expected =
        loaded
            .transform(
                TestSpark.session()
                    .createDataFrame(
                        input, new StructType().add("features", SQLDataTypes.VectorType()))
                    .coalesce(1))
            .collectAsList();
    for (int i = 0; i < N; i += 37) {
      String[] line = lines.get(i).split(",");
      double[] scores = ((Vector) expected.get(i).getAs("kpca")).toArray();
      for (int c = 0; c < K; c++) {
        assertEquals(
            scores[c], Double.parseDouble(line[c]), 1e-9 * (1 + Math.abs(scores[c])), "row " + i);
      }
    }

    // D from the rate: ceil(0.5 · sqrt(300) · ln 300) = ceil(49.40) = 50.
    Path scaled = dir.resolve("out/summary-rff-scale.json");
    TestSpark.Result byScale =
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--label-col",
            LABEL,
            "--k",
            "2",
            "--feature-map",
            "rff",
            "--feature-scale",
            "0.5",
            "--kernel",
            "laplacian",
            "--model-out",
            dir.resolve("model-rff-scale").toString(),
            "--summary-out",
            scaled.toString());
    assertEquals(0, byScale.code(), byScale::toString);
    assertEquals(50, CliFixture.json(scaled).get("m").asInt());
  }

  @Test
  void parquetOutputHoldsTheScoreVectors() {
    Path model = dir.resolve("model-pq");
    assertEquals(
        0,
        TestSpark.cli(
                "fit",
                "--input",
                csv.toString(),
                "--format",
                "CSV",
                "--label-col",
                LABEL,
                "--k",
                "2",
                "--landmarks",
                "30",
                "--kernel",
                "laplacian",
                "--model-out",
                model.toString())
            .code());
    Path output = dir.resolve("scores-pq");
    TestSpark.Result r =
        TestSpark.cli(
            "transform",
            "--model",
            model.toString(),
            "--input",
            csv.toString(),
            "--label-col",
            LABEL,
            "--output",
            output.toString(),
            "--output-format",
            "parquet");
    assertEquals(0, r.code(), r::toString);
    List<Row> back = TestSpark.session().read().parquet(output.toString()).collectAsList();
    assertEquals(N, back.size());
    assertEquals(
        List.of(LABEL, "kpca"),
        List.of(TestSpark.session().read().parquet(output.toString()).columns()));
    for (Row row : back) {
      assertEquals(2, ((Vector) row.getAs("kpca")).size());
    }
  }

  /**
   * The issue's reproduction: 100 rows N(0, 1) in 3 columns plus an offset of 1e8, {@code fit --k 3
   * --landmarks 30 --seed 2 --gamma 0.5}, then {@code transform --preimage-error --reconstruction}:
   * each row's preimage_error equals the squared distance to its written pre-image, to the rounding
   * of coordinates of 1e8 (printed mean 72.64 against 0.4295 before).
   */
  @Test
  void preimageErrorOfRowsOffsetFromTheOrigin() throws IOException {
    double offset = 1e8;
    Random random = new Random(49);
    double[][] x = new double[100][3];
    StringBuilder text = new StringBuilder("x1,x2,x3,row.id\n");
    for (int i = 0; i < x.length; i++) {
      for (int j = 0; j < 3; j++) {
        String cell = String.format(Locale.ROOT, "%.6f", offset + random.nextGaussian());
        x[i][j] = Double.parseDouble(cell);
        text.append(cell).append(',');
      }
      text.append("row").append(i).append('\n');
    }
    Path data = dir.resolve("offset.csv");
    Files.writeString(data, text.toString(), StandardCharsets.UTF_8);
    Path model = dir.resolve("model-offset");
    TestSpark.Result r =
        TestSpark.cli(
            "fit",
            "--input",
            data.toString(),
            "--label-col",
            LABEL,
            "--k",
            "3",
            "--landmarks",
            "30",
            "--seed",
            "2",
            "--gamma",
            "0.5",
            "--model-out",
            model.toString());
    assertEquals(0, r.code(), r::toString);
    Path out = dir.resolve("scores-offset");
    r =
        TestSpark.cli(
            "transform",
            "--model",
            model.toString(),
            "--input",
            data.toString(),
            "--label-col",
            LABEL,
            "--output",
            out.toString(),
            "--reconstruction",
            "--preimage-error");
    assertEquals(0, r.code(), r::toString);
    List<String> lines = csvLines(out);
    assertEquals(x.length + 1, lines.size());
    double sum = 0;
    for (int i = 0; i < x.length; i++) {
      String[] cells = lines.get(i + 1).split(",");
      assertEquals("row" + i, cells[3 + 1 + 3], "row order");
      double distance = 0;
      for (int j = 0; j < 3; j++) {
        double diff = Double.parseDouble(cells[3 + 1 + j]) - x[i][j];
        distance += diff * diff;
      }
      assertEquals(
          distance,
          Double.parseDouble(cells[3]),
          1e-9 * (1 + distance) + 1e-14 * offset * (1 + Math.sqrt(distance)),
          "row " + i + ": preimage_error against the written pre-image");
      sum += distance;
    }
    assertTrue(sum / x.length > 1e-2 && sum / x.length < 3, "mean " + sum / x.length);
  }

  /** CSV output lines (header included) of a transform, part files in name order. */
  static List<String> csvLines(Path output) throws IOException {
    List<Path> parts;
    try (Stream<Path> files = Files.list(output)) {
      parts = files.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList();
    }
    List<String> lines = new ArrayList<>();
    for (Path part : parts) {
      List<String> partLines = Files.readAllLines(part);
      lines.addAll(lines.isEmpty() ? partLines : partLines.subList(1, partLines.size()));
    }
    return lines;
  }

  /** The training rows as a DataFrame of "features" vectors, in file order. */
  static Dataset<Row> trainingVectors() {
    List<Row> input = new ArrayList<>();
    for (double[] r : rows) {
      input.add(RowFactory.create(new DenseVector(r)));
    }
    return TestSpark.session()
        .createDataFrame(input, new StructType().add("features", SQLDataTypes.VectorType()))
        .coalesce(1);
  }

  /**
   * {@code transform --reconstruction} writes the library's pre-images, fixed-point (the default
   * for rbf) and ridge, with the iteration count and ridge given on the command line: kernel PCA
   * denoising from spark-submit. With {@code --preimage-error}, each row's ‖x − x̂‖² (computed in
   * the span of the landmarks, without the pre-image) equals the squared distance between the row
   * and the written pre-image, and the printed mean is the column's.
   */
  @Test
  void reconstructionWritesTheLibrarysPreimages() throws IOException {
    Path model = dir.resolve("model-rec");
    assertEquals(
        0,
        TestSpark.cli(
                "fit",
                "--input",
                csv.toString(),
                "--label-col",
                LABEL,
                "--k",
                "3",
                "--landmarks",
                "40",
                "--seed",
                "5",
                "--model-out",
                model.toString())
            .code());
    NystromKernelPCAModel loaded =
        NystromKernelPCAModel.load(model.toString()).setReconstructionCol("rec");

    Path fixedPoint = dir.resolve("scores-fixed-point");
    TestSpark.Result r =
        TestSpark.cli(
            "transform",
            "--model",
            model.toString(),
            "--input",
            csv.toString(),
            "--label-col",
            LABEL,
            "--output",
            fixedPoint.toString(),
            "--reconstruction",
            "--preimage-error",
            "--preimage-max-iter",
            "7");
    assertEquals(0, r.code(), r::toString);
    assertTrue(r.out().contains("fixed-point pre-images"), r::toString);
    List<String> lines = csvLines(fixedPoint);
    assertEquals("pc_1,pc_2,pc_3,preimage_error,rec_1,rec_2,rec_3,rec_4," + LABEL, lines.get(0));
    List<Row> expected =
        loaded
            .setPreimageMethod("fixed-point")
            .setPreimageMaxIter(7)
            .transform(trainingVectors())
            .collectAsList();
    assertEquals(N + 1, lines.size());
    double squaredDistance = 0;
    for (int i = 0; i < N; i++) {
      String[] cells = lines.get(i + 1).split(",");
      assertEquals("row" + i, cells[K + 1 + D], "row order");
      double[] rec = ((Vector) expected.get(i).getAs("rec")).toArray();
      double rowDistance = 0;
      for (int j = 0; j < D; j++) {
        double written = Double.parseDouble(cells[K + 1 + j]);
        assertEquals(
            rec[j], written, 1e-9 * (1 + Math.abs(rec[j])), "row " + i + " rec_" + (j + 1));
        rowDistance += (written - rows[i][j]) * (written - rows[i][j]);
      }
      assertEquals(
          rowDistance,
          Double.parseDouble(cells[K]),
          1e-9 * (1 + rowDistance),
          "row " + i + ": preimage_error against the written pre-image");
      squaredDistance += rowDistance;
    }
    java.util.regex.Matcher printed =
        java.util.regex.Pattern.compile("input-space error\\) over " + N + " rows: (\\S+)")
            .matcher(r.out());
    assertTrue(printed.find(), r::toString);
    assertEquals(
        squaredDistance / N,
        Double.parseDouble(printed.group(1)),
        1e-8 * squaredDistance / N,
        "the printed mean");
    // Three well separated clusters: the pre-images stay near the rows (per-coordinate spread 0.3
    // to 1).
    assertTrue(
        squaredDistance / N < 2.0, "mean squared distance to the input " + squaredDistance / N);

    Path ridge = dir.resolve("scores-ridge");
    r =
        TestSpark.cli(
            "transform",
            "--model",
            model.toString(),
            "--input",
            csv.toString(),
            "--label-col",
            LABEL,
            "--output",
            ridge.toString(),
            "--output-format",
            "parquet",
            "--reconstruction",
            "--preimage-method",
            "ridge",
            "--preimage-ridge",
            "0.05");
    assertEquals(0, r.code(), r::toString);
    Dataset<Row> parquet = TestSpark.session().read().parquet(ridge.toString());
    assertEquals(List.of(LABEL, "kpca", "reconstruction"), List.of(parquet.columns()));
    expected =
        loaded
            .setPreimageMethod("ridge")
            .setPreimageRidge(0.05)
            .transform(trainingVectors())
            .collectAsList();
    for (Row row : parquet.collectAsList()) {
      int i = Integer.parseInt(row.getString(0).substring(3));
      assertArrayEquals(
          ((Vector) expected.get(i).getAs("rec")).toArray(),
          ((Vector) row.get(2)).toArray(),
          1e-9,
          "row " + i);
    }
  }

  /** {@code fit --landmark-sampling} and its parameters reach the estimator and the saved model. */
  @Test
  void landmarkSamplingOptionsReachTheModel() {
    Path kmeans = dir.resolve("model-kmeans");
    TestSpark.Result r =
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--label-col",
            LABEL,
            "--k",
            "2",
            "--landmarks",
            "12",
            "--landmark-sampling",
            "kmeans",
            "--kmeans-max-iter",
            "3",
            "--model-out",
            kmeans.toString());
    assertEquals(0, r.code(), r::toString);
    NystromKernelPCAModel model = NystromKernelPCAModel.load(kmeans.toString());
    assertEquals("kmeans", model.getLandmarkSampling());
    assertEquals(3, model.getKmeansMaxIter());
    assertTrue(
        model.landmarkSelection().startsWith("kmeans: ")
            && model.landmarkSelection().contains("maxIter = 3"),
        model.landmarkSelection());
    assertTrue(r.out().contains("spark-kpca: landmarks: kmeans: "), r::toString);

    Path leverage = dir.resolve("model-leverage");
    r =
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--label-col",
            LABEL,
            "--k",
            "2",
            "--landmarks",
            "12",
            "--landmark-sampling",
            "LEVERAGE",
            "--leverage-regularization",
            "0.01",
            "--model-out",
            leverage.toString());
    assertEquals(0, r.code(), r::toString);
    model = NystromKernelPCAModel.load(leverage.toString());
    assertEquals("leverage", model.getLandmarkSampling());
    assertEquals(0.01, model.getLeverageRegularization(), 0.0);
    assertTrue(
        model.landmarkSelection().startsWith("leverage: ")
            && model.landmarkSelection().contains("lambda = 0.01"),
        model.landmarkSelection());
  }

  /**
   * With a short --progress-interval every job longer than it prints running and done lines (phase,
   * tasks, seconds); the charts of --plots come from the held-out rows on transform.
   */
  @Test
  void progressLinesAndChartsOnTransform() throws IOException {
    Path model = dir.resolve("model-progress");
    TestSpark.Result fit =
        TestSpark.cli(
            "fit",
            "--input",
            csv.toString(),
            "--label-col",
            LABEL,
            "--k",
            "2",
            "--landmarks",
            "30",
            "--model-out",
            model.toString(),
            "--progress-interval",
            "0.001");
    assertEquals(0, fit.code(), fit::toString);
    java.util.regex.Pattern line =
        java.util.regex.Pattern.compile(
            "spark-kpca: \\[(running|done) \\d+ s\\] (.+): (\\d+)/(\\d+) tasks \\(\\d+%\\)");
    List<String> done = new ArrayList<>();
    for (String l : fit.out().split("\\R")) {
      java.util.regex.Matcher m = line.matcher(l);
      if (m.matches() && m.group(1).equals("done")) {
        done.add(m.group(2));
        assertTrue(Integer.parseInt(m.group(3)) <= Integer.parseInt(m.group(4)), l);
      }
    }
    assertTrue(
        done.stream().anyMatch(d -> d.contains("accumulate the")),
        "no progress of the statistics pass:\n" + fit.out());

    TestSpark.Result quiet =
        TestSpark.cli(
            "transform",
            "--model",
            model.toString(),
            "--input",
            csv.toString(),
            "--label-col",
            LABEL,
            "--output",
            dir.resolve("scores-progress").toString(),
            "--progress-interval",
            "0",
            "--plots",
            dir.resolve("charts").toString(),
            "--plot-points",
            "100");
    assertEquals(0, quiet.code(), quiet::toString);
    assertTrue(
        !quiet.out().contains("tasks ("),
        "--progress-interval 0 prints no progress:\n" + quiet.out());
    for (String png : List.of("scree.png", "reconstruction-error.png", "embedding.png")) {
      assertTrue(Files.size(dir.resolve("charts").resolve(png)) > 1000, png);
    }
  }
}
