package io.github.sparkkpca.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkkpca.feature.FeatureMap;
import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.feature.KernelExpansion;
import io.github.sparkkpca.feature.NystromFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelFamilies;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.pca.FeaturePCA;
import io.github.sparkkpca.pca.KernelPCASolution;
import io.github.sparkkpca.pca.Projector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The fitted state of a model on disk, under {@code path/data}, with the fields it adds to the
 * metadata.
 *
 * <p><b>Format 2.</b> The metadata carries {@code kernel} (type, gamma, degree, coef0: the fitted
 * kernel, the one source of truth) and {@code featureMap} (the map kind, or {@code expansion} for a
 * model that is only a projector over support points, such as exact kernel PCA). {@code
 * data/summary} holds one row: sizes, spectrum, n, total variance and how it was obtained, dropped
 * rank, landmark selection, centring, offset and ‖φ̄‖². Then either
 *
 * <ul>
 *   <li>a feature map: its codec's tables ({@link FeatureMapCodec}), {@code data/statistics} (n,
 *       φ̄, Σ‖φ_full‖²), {@code data/scatter} (the r×r centred scatter, one column per row) and
 *       {@code data/components} (U_k, one row of it per row), from which the projector is rebuilt.
 *       A model whose statistics are kept without the scatter (RF-Oja) has the metadata field
 *       {@code "statistics": "withoutScatter"}, no {@code data/scatter}, and tr M as a fourth
 *       column of {@code data/statistics}: O(r·k) on disk; or
 *   <li>{@code data/support}: the support points with their expansion coefficients (k, or k + 1
 *       with the mean weights).
 * </ul>
 *
 * <p><b>Format 1</b> (spark-kpca 0.1, read only): {@code data/support} (point, projection,
 * meanWeight) and {@code data/summary}; the kernel comes from the params. Such a model scores as it
 * did but keeps no statistics.
 *
 * <p>Every matrix is checked for NaN and infinite values when it is written and when it is read: a
 * model holding them is never written, and one found on disk is refused, naming the table and row.
 */
public final class ModelData {

  private static final StructType SUMMARY =
      new StructType()
          .add("numFeatures", DataTypes.IntegerType, false)
          .add("numComponents", DataTypes.IntegerType, false)
          .add("spectrum", SQLDataTypes.VectorType(), false)
          .add("numRows", DataTypes.LongType, false)
          .add("totalVariance", DataTypes.DoubleType, false)
          .add("totalVarianceMethod", DataTypes.StringType, false)
          .add("droppedRank", DataTypes.IntegerType, false)
          .add("landmarkSelection", DataTypes.StringType, false)
          .add("centered", DataTypes.BooleanType, false)
          .add("offset", SQLDataTypes.VectorType(), false)
          .add("meanSqNorm", DataTypes.DoubleType, false);

  private static final StructType STATISTICS =
      new StructType()
          .add("count", DataTypes.LongType, false)
          .add("mean", SQLDataTypes.VectorType(), false)
          .add("diagonalSum", DataTypes.DoubleType, false);

  /** {@link #STATISTICS} of statistics kept without the scatter, plus tr M. */
  private static final StructType STATISTICS_WITHOUT_SCATTER =
      STATISTICS.add("scatterTrace", DataTypes.DoubleType, false);

  private static final String WITHOUT_SCATTER = "withoutScatter";

  /** A matrix stored one row (or column) per table row. */
  static final StructType INDEXED =
      new StructType()
          .add("index", DataTypes.IntegerType, false)
          .add("values", SQLDataTypes.VectorType(), false);

  private static final StructType SUPPORT_V1 =
      new StructType()
          .add("index", DataTypes.IntegerType, false)
          .add("point", SQLDataTypes.VectorType(), false)
          .add("projection", SQLDataTypes.VectorType(), false)
          .add("meanWeight", DataTypes.DoubleType, false);

  private static final StructType SUMMARY_V1 =
      new StructType()
          .add("numSupport", DataTypes.IntegerType, false)
          .add("numFeatures", DataTypes.IntegerType, false)
          .add("numComponents", DataTypes.IntegerType, false)
          .add("offset", SQLDataTypes.VectorType(), false)
          .add("spectrum", SQLDataTypes.VectorType(), false)
          .add("numRows", DataTypes.LongType, false)
          .add("totalVariance", DataTypes.DoubleType, false)
          .add("totalVarianceMethod", DataTypes.StringType, false)
          .add("meanSqNorm", DataTypes.DoubleType, false)
          .add("droppedRank", DataTypes.IntegerType, false)
          .add("landmarkSelection", DataTypes.StringType, false);

  private ModelData() {}

  /** The metadata fields of a solution: the fitted kernel and the map kind. */
  public static ObjectNode metadataFields(KernelPCASolution solution) {
    ObjectNode extra = Persistence.JSON.createObjectNode();
    Kernel kernel = solution.projector().kernel();
    ObjectNode k = extra.putObject("kernel");
    k.put("type", kernel.type().paramName());
    k.put("gamma", kernel.gamma());
    k.put("degree", kernel.degree());
    k.put("coef0", kernel.coef0());
    extra.put(
        "featureMap",
        solution.isUpdatable() ? solution.featurePCA().map().kind() : ModelKind.EXPANSION);
    if (solution.isUpdatable() && !solution.featurePCA().statistics().hasScatter()) {
      extra.put("statistics", WITHOUT_SCATTER);
    }
    return extra;
  }

  /**
   * What a feature-map model must satisfy ({@link StoredNumbers}, {@link Plausibility}): the
   * statistics' count and total variance against the summary's, the spectrum within its bound,
   * non-negative and sorted, the components orthonormal eigenvectors of the stored covariance, and
   * for a Nyström map the landmark kernel and the whitening. The loader checks what it read; {@link
   * #save} checks the fitted model before it writes anything, so a model its own loader would
   * refuse is never written (the refusal then says which check a fit failed, instead of every later
   * load failing). Bounded work, independent of n (see each check).
   *
   * @param numRows n as the summary records it
   * @param storedTotal the total variance as the summary records it
   * @param spectrum the eigenvalues as the summary records them
   */
  static void checkFeatureModel(
      FeaturePCA fit,
      Kernel kernel,
      long numRows,
      double storedTotal,
      double[] spectrum,
      int numComponents,
      String what) {
    FeatureStatistics stats = fit.statistics();
    FeatureMap map = fit.map();
    int r = map.outputDim();
    boolean centered = fit.centered();
    double diagonalMean = stats.diagonalSum() / stats.count();
    double meanSqNorm = 0;
    for (double v : stats.mean()) {
      meanSqNorm += v * v;
    }
    boolean definite = kernel.isPositiveDefinite();
    StoredNumbers.featureModel(
        stats.count(),
        numRows,
        storedTotal,
        fit.totalVariance(),
        spectrum,
        definite ? (centered ? diagonalMean - meanSqNorm : diagonalMean) : stats.trace(centered),
        Math.abs(diagonalMean) + meanSqNorm + (definite ? 0 : stats.trace(false)),
        what);
    StoredNumbers.landmarkKernel(map, kernel, what);
    Plausibility.spectrum(spectrum, r, true, what);
    Plausibility.components(
        fit.components(),
        r,
        numComponents,
        stats.hasScatter() ? stats.scatter() : null,
        stats.count(),
        stats.mean(),
        centered,
        spectrum,
        what);
    if (map instanceof NystromFeatureMap nystrom) {
      Plausibility.whitening(nystrom, what);
    }
  }

  /**
   * Refuses, before anything is written, a fitted model that its loader would refuse ({@link
   * #checkFeatureModel}; a model without a feature map has nothing more to check than {@link
   * #save}'s finiteness): one line naming the check, instead of a model that no later load accepts.
   *
   * @throws IllegalArgumentException naming the path and the failed check
   */
  public static void requireLoadable(KernelPCASolution solution, String path) {
    if (solution.isUpdatable()) {
      checkFeatureModel(
          solution.featurePCA(),
          solution.projector().kernel(),
          solution.numRows(),
          solution.totalVariance(),
          solution.spectrum(),
          solution.projector().numComponents(),
          "Cannot save the model to '"
              + path
              + "': the fitted model fails a check its loader makes (a numerical breakdown of the"
              + " fit, not an input error): ");
    }
  }

  /** Writes the solution under {@code path/data} (format 2). */
  public static void save(KernelPCASolution solution, String path, SparkSession spark) {
    Projector projector = solution.projector();
    int k = projector.numComponents();
    boolean centered =
        solution.isUpdatable() ? solution.featurePCA().centered() : projector.hasMeanColumn();
    Finite.require(solution.spectrum(), "the spectrum");
    Finite.require(projector.offset(), "the score offset");
    Finite.require(
        new double[] {solution.totalVariance(), projector.meanSqNorm()}, "the total variance");
    Row summary =
        RowFactory.create(
            projector.inputDim(),
            k,
            new DenseVector(solution.spectrum()),
            solution.numRows(),
            solution.totalVariance(),
            solution.totalVarianceMethod(),
            solution.droppedRank(),
            solution.landmarkSelection(),
            centered,
            new DenseVector(projector.offset()),
            projector.meanSqNorm());
    writeRow(summary, SUMMARY, path + "/data/summary", spark);
    if (solution.isUpdatable()) {
      FeaturePCA fit = solution.featurePCA();
      ModelKind.ofFeatureMap(fit.map().kind()).codec().write(fit.map(), path + "/data", spark);
      FeatureStatistics stats = fit.statistics();
      int r = stats.dim();
      Finite.require(stats.mean(), "the feature mean");
      Finite.require(new double[] {stats.diagonalSum()}, "the feature norm sum");
      Row statistics =
          stats.hasScatter()
              ? RowFactory.create(stats.count(), new DenseVector(stats.mean()), stats.diagonalSum())
              : RowFactory.create(
                  stats.count(),
                  new DenseVector(stats.mean()),
                  stats.diagonalSum(),
                  finite(stats.scatterTrace(), "the scatter trace"));
      writeRow(
          statistics,
          stats.hasScatter() ? STATISTICS : STATISTICS_WITHOUT_SCATTER,
          path + "/data/statistics",
          spark);
      if (stats.hasScatter()) {
        writeColumns(stats.scatter(), r, r, "the scatter", path + "/data/scatter", spark);
      }
      writeRows(fit.components(), r, k, "the components", path + "/data/components", spark);
    } else {
      ExpansionTable.write(projector.kernelExpansion(), path + "/data/support", spark);
    }
  }

  /**
   * Reads the solution of a model saved in format 1 or 2.
   *
   * @param paramsKernel the kernel the params describe (format 1 keeps no other)
   * @throws IllegalArgumentException naming the path and the problem when data are missing,
   *     inconsistent or not finite
   */
  public static KernelPCASolution load(
      String path, SparkSession spark, JsonNode metadata, Kernel paramsKernel, String className) {
    String what = "Cannot load " + className + " from '" + path + "': ";
    int version = metadata.path("formatVersion").asInt();
    try {
      return version == 1
          ? loadV1(path, spark, paramsKernel, what)
          : loadV2(
              path,
              spark,
              metadata,
              ModelKind.EXACT.modelClassName().endsWith("." + className),
              what);
    } catch (IllegalArgumentException e) {
      throw e.getMessage() != null && e.getMessage().startsWith(what)
          ? e
          : new IllegalArgumentException(what + e.getMessage(), e);
    }
  }

  /**
   * @param exact whether the model is exact kernel PCA (its expansion then has the normalisation
   *     {@link Plausibility#exactExpansion} checks)
   */
  private static KernelPCASolution loadV2(
      String path, SparkSession spark, JsonNode metadata, boolean exact, String what) {
    JsonNode k = metadata.path("kernel");
    if (!k.isObject()) {
      throw new IllegalArgumentException(what + "its metadata has no fitted kernel");
    }
    Kernel kernel =
        new Kernel(
            KernelFamilies.parse(k.path("type").asText()),
            k.path("gamma").asDouble(),
            k.path("degree").asInt(),
            k.path("coef0").asDouble());
    String kind = metadata.path("featureMap").asText(ModelKind.EXPANSION);
    if (!kind.equals(ModelKind.EXPANSION)) {
      boolean withoutScatter = metadata.path("statistics").asText("").equals(WITHOUT_SCATTER);
      java.util.Map<String, StructType> tables = new java.util.LinkedHashMap<>();
      tables.put(
          path + "/data/statistics", withoutScatter ? STATISTICS_WITHOUT_SCATTER : STATISTICS);
      tables.put(path + "/data/components", INDEXED);
      if (!withoutScatter) {
        tables.put(path + "/data/scatter", INDEXED);
      }
      PREFETCHED.set(prefetch(spark, tables, what));
    }
    try {
      return loadV2(path, spark, metadata, exact, kernel, kind, what);
    } finally {
      PREFETCHED.remove();
    }
  }

  /**
   * Tables of the model being loaded on this thread whose reads were started together ({@link
   * #prefetch}); {@link #read} takes a table from here when it is one of them.
   */
  private static final ThreadLocal<java.util.Map<String, Prefetched>> PREFETCHED =
      new ThreadLocal<>();

  /** A read started ahead, with the schema it reads. */
  private record Prefetched(StructType schema, CompletableFuture<List<Row>> rows) {}

  /**
   * Starts the reads of these tables at once, each a small Spark job on a thread of its own (which
   * inherits the caller's job group and description): a feature-map model's statistics, scatter and
   * components are then read while the summary and the map's tables are, instead of one job after
   * the other (in a fresh JVM each small job costs tenths of a second of scheduling, most of a
   * small model's load). Errors surface where the table is used, with the message {@link #read}
   * gives, so they come in the same order as without prefetching.
   */
  private static java.util.Map<String, Prefetched> prefetch(
      SparkSession spark, java.util.Map<String, StructType> tables, String what) {
    java.util.Map<String, Prefetched> started = new java.util.HashMap<>();
    tables.forEach(
        (dir, schema) -> {
          CompletableFuture<List<Row>> rows = new CompletableFuture<>();
          Thread reader =
              new Thread(
                  () -> {
                    try {
                      rows.complete(readNow(spark, dir, schema, what));
                    } catch (Throwable e) {
                      rows.completeExceptionally(e);
                    }
                  },
                  "spark-kpca model load: " + dir);
          reader.setDaemon(true);
          reader.start();
          started.put(dir, new Prefetched(schema, rows));
        });
    return started;
  }

  private static KernelPCASolution loadV2(
      String path,
      SparkSession spark,
      JsonNode metadata,
      boolean exact,
      Kernel kernel,
      String kind,
      String what) {
    Row s = single(read(spark, path + "/data/summary", SUMMARY, what), "summary", what);
    int d = s.getInt(0);
    int numComponents = s.getInt(1);
    double[] spectrum = Finite.require(((Vector) s.get(2)).toArray(), "data/summary: the spectrum");
    boolean centered = s.getBoolean(8);
    Sizes.positive(d, "numFeatures");
    Sizes.positive(numComponents, "numComponents");
    Sizes.atMost(numComponents, "numComponents", spectrum.length, "eigenvalues in its spectrum");
    if (!kind.equals(ModelKind.EXPANSION)) {
      FeatureMap map = ModelKind.ofFeatureMap(kind).codec().read(path + "/data", spark, kernel, d);
      int r = map.outputDim();
      boolean withoutScatter = metadata.path("statistics").asText("").equals(WITHOUT_SCATTER);
      Row st =
          single(
              read(
                  spark,
                  path + "/data/statistics",
                  withoutScatter ? STATISTICS_WITHOUT_SCATTER : STATISTICS,
                  what),
              "statistics",
              what);
      double[] mean = Finite.require(((Vector) st.get(1)).toArray(), "data/statistics: the mean");
      double diagonalSum =
          Finite.require(new double[] {st.getDouble(2)}, "data/statistics: the norm sum")[0];
      double[] components =
          readIndexed(
              spark,
              path + "/data/components",
              r,
              numComponents,
              "data/components",
              "data/summary records numComponents",
              what);
      // Rows of U were written one per table row: transpose back to column-major r×k.
      double[] u = new double[r * numComponents];
      for (int i = 0; i < r; i++) {
        for (int c = 0; c < numComponents; c++) {
          u[i + c * r] = components[c + i * numComponents];
        }
      }
      double[] scatter =
          withoutScatter
              ? null
              : readIndexed(
                  spark,
                  path + "/data/scatter",
                  r,
                  r,
                  "data/scatter",
                  "the feature map's dimension is r",
                  what);
      FeatureStatistics stats =
          withoutScatter
              ? FeatureStatistics.withoutScatter(
                  r,
                  st.getLong(0),
                  mean,
                  finite(st.getDouble(3), "data/statistics: the scatter trace"),
                  diagonalSum)
              : FeatureStatistics.of(r, st.getLong(0), mean, scatter, diagonalSum);
      FeaturePCA fit = FeaturePCA.restore(map, stats, centered, spectrum, u, numComponents);
      StoredNumbers.centering(metadata, centered, what);
      checkFeatureModel(fit, kernel, s.getLong(3), s.getDouble(4), spectrum, numComponents, what);
      return KernelPCASolution.of(fit, s.getInt(6), s.getString(7));
    }
    double[] offset = Finite.require(((Vector) s.get(9)).toArray(), "data/summary: the offset");
    Sizes.equal(numComponents, "numComponents", offset.length, "entries in its offset");
    StoredNumbers.centering(metadata, centered, what);
    StoredNumbers.uncentredOffset(centered, offset, s.getDouble(10), what);
    double storedTotal = finite(s.getDouble(4), "the total variance");
    if (kernel.isPositiveDefinite()) {
      StoredNumbers.spectrum(spectrum, storedTotal, Math.abs(storedTotal), what);
    }
    int columns = centered ? numComponents + 1 : numComponents;
    KernelExpansion expansion =
        ExpansionTable.expansion(
            ExpansionTable.read(spark, path + "/data/support", what),
            kernel,
            d,
            columns,
            "data/summary records " + (centered ? "numComponents + 1 (centred)" : "numComponents"));
    Plausibility.spectrum(spectrum, expansion.support().numLandmarks(), true, what);
    if (exact && expansion.support().numLandmarks() == s.getLong(3)) {
      Plausibility.exactExpansion(expansion, numComponents, spectrum, what);
    }
    Projector projector = new Projector(expansion, numComponents, offset, s.getDouble(10));
    return new KernelPCASolution(
        projector,
        spectrum,
        finite(s.getDouble(4), "the total variance"),
        s.getString(5),
        s.getLong(3),
        s.getInt(6),
        s.getString(7),
        null);
  }

  private static KernelPCASolution loadV1(
      String path, SparkSession spark, Kernel kernel, String what) {
    Row s = single(read(spark, path + "/data/summary", SUMMARY_V1, what), "summary", what);
    List<Row> support = read(spark, path + "/data/support", SUPPORT_V1, what);
    int m = s.getInt(0);
    int d = s.getInt(1);
    int k = s.getInt(2);
    if (support.size() != m) {
      throw new IllegalArgumentException(
          what
              + "the summary records "
              + m
              + " support points but the data "
              + "hold "
              + support.size());
    }
    Sizes.positive(d, "numFeatures");
    Sizes.positive(k, "numComponents");
    Sizes.vectors(support, 1, d, "numFeatures", "data/support", "values in its point");
    Sizes.vectors(support, 2, k, "numComponents", "data/support", "values in its projection");
    double[] points = new double[Math.multiplyExact(m, d)];
    double[] coefficients = new double[m * (k + 1)];
    boolean[] seen = new boolean[m];
    for (Row row : support) {
      int j = row.getInt(0);
      Vector point = (Vector) row.get(1);
      Vector projection = (Vector) row.get(2);
      if (j < 0 || j >= m || seen[j] || point.size() != d || projection.size() != k) {
        throw new IllegalArgumentException(
            what
                + "support row "
                + j
                + " is inconsistent with m = "
                + m
                + ", d = "
                + d
                + ", k = "
                + k);
      }
      seen[j] = true;
      System.arraycopy(
          Finite.require(point.toArray(), "data/support row " + j + ": the point"),
          0,
          points,
          j * d,
          d);
      double[] pr =
          Finite.require(projection.toArray(), "data/support row " + j + ": the projection");
      for (int c = 0; c < k; c++) {
        coefficients[j + c * m] = pr[c];
      }
      coefficients[j + k * m] =
          finite(row.getDouble(3), "data/support row " + j + ": the mean weight");
    }
    double[] offset = Finite.require(((Vector) s.get(3)).toArray(), "data/summary: the offset");
    double[] spectrum = Finite.require(((Vector) s.get(4)).toArray(), "data/summary: the spectrum");
    if (offset.length != k || spectrum.length < k) {
      throw new IllegalArgumentException(
          what
              + "offset has "
              + offset.length
              + " entries and the spectrum "
              + spectrum.length
              + ", expected "
              + k
              + " and >= "
              + k);
    }
    Plausibility.spectrum(spectrum, m, kernel.isPositiveDefinite(), what);
    // The mean weights are the (k+1)-th expansion column: zero for uncentred models, whose residual
    // then
    // reduces to k(x,x) − ‖y‖² as in format 1.
    Projector projector =
        new Projector(
            new KernelExpansion(new LandmarkKernel(kernel, points, m, d), coefficients, k + 1),
            k,
            offset,
            finite(s.getDouble(8), "data/summary: ||mean||^2"));
    return new KernelPCASolution(
        projector,
        spectrum,
        finite(s.getDouble(6), "the total variance"),
        s.getString(7),
        s.getLong(5),
        s.getInt(9),
        s.getString(10),
        null);
  }

  /** Writes an r×c column-major matrix one column per row (index = column). */
  static void writeColumns(
      double[] matrix, int rows, int columns, String what, String dir, SparkSession spark) {
    Finite.require(matrix, what);
    List<Row> out = new ArrayList<>(columns);
    for (int c = 0; c < columns; c++) {
      out.add(
          RowFactory.create(
              c, new DenseVector(java.util.Arrays.copyOfRange(matrix, c * rows, (c + 1) * rows))));
    }
    spark.createDataFrame(out, INDEXED).write().parquet(dir);
  }

  /** Writes an r×c column-major matrix one row per table row (index = row). */
  static void writeRows(
      double[] matrix, int rows, int columns, String what, String dir, SparkSession spark) {
    Finite.require(matrix, what);
    List<Row> out = new ArrayList<>(rows);
    for (int i = 0; i < rows; i++) {
      double[] row = new double[columns];
      for (int c = 0; c < columns; c++) {
        row[c] = matrix[i + c * rows];
      }
      out.add(RowFactory.create(i, new DenseVector(row)));
    }
    spark.createDataFrame(out, INDEXED).write().parquet(dir);
  }

  /**
   * Reads a table written by {@link #writeColumns} or {@link #writeRows} as count × width entries,
   * table row i at offset i·width (for {@code writeColumns} that is the column-major matrix).
   */
  static double[] readIndexed(
      SparkSession spark,
      String dir,
      int count,
      int width,
      String table,
      String widthField,
      String what) {
    List<Row> rows = read(spark, dir, INDEXED, what);
    if (rows.size() != count) {
      throw new IllegalArgumentException(
          what + table + " has " + rows.size() + " rows, expected " + count);
    }
    Sizes.sized(rows, 1, width, widthField, table, "values");
    double[] out = new double[Math.multiplyExact(count, width)];
    boolean[] seen = new boolean[count];
    for (Row row : rows) {
      int i = row.getInt(0);
      Vector v = (Vector) row.get(1);
      if (i < 0 || i >= count || seen[i] || v.size() != width) {
        throw new IllegalArgumentException(
            what
                + table
                + " row "
                + i
                + " is inconsistent with "
                + count
                + " rows of "
                + width
                + " values");
      }
      seen[i] = true;
      System.arraycopy(Finite.require(v.toArray(), table + " row " + i), 0, out, i * width, width);
    }
    return out;
  }

  public static List<Row> read(SparkSession spark, String dir, StructType schema, String what) {
    java.util.Map<String, Prefetched> prefetched = PREFETCHED.get();
    Prefetched ahead = prefetched == null ? null : prefetched.remove(dir);
    if (ahead != null && ahead.schema().equals(schema)) {
      try {
        return ahead.rows().join();
      } catch (java.util.concurrent.CompletionException e) {
        if (e.getCause() instanceof RuntimeException cause) {
          throw cause;
        }
        throw e;
      }
    }
    return readNow(spark, dir, schema, what);
  }

  private static List<Row> readNow(SparkSession spark, String dir, StructType schema, String what) {
    try {
      return spark.read().schema(schema).parquet(dir).collectAsList();
    } catch (Exception e) {
      String replacing = Persistence.beingReplaced(dir, spark.sparkContext().hadoopConfiguration());
      throw new IllegalArgumentException(
          what
              + (replacing != null
                  ? replacing
                  : "missing or unreadable model data "
                      + dir
                      + " ("
                      + Persistence.firstLine(e)
                      + ")"),
          e);
    }
  }

  /** Writes a one-row table (a summary, the statistics) as one file. */
  public static void writeRow(Row row, StructType schema, String dir, SparkSession spark) {
    spark.createDataFrame(List.of(row), schema).coalesce(1).write().parquet(dir);
  }

  /** The one row of a table that must hold exactly one, else a refusal naming the table. */
  public static Row single(List<Row> rows, String table, String what) {
    if (rows.size() != 1) {
      throw new IllegalArgumentException(
          what + "expected one " + table + " row, found " + rows.size());
    }
    return rows.get(0);
  }

  private static double finite(double value, String what) {
    return Finite.require(new double[] {value}, what)[0];
  }

  /**
   * The checks of the sizes a model's summary records against each other and against the tables
   * that hold the data, made before anything of a recorded size is allocated: a hand-edited or
   * corrupted size (numFeatures = 10⁹) is refused naming the field and both values instead of
   * exhausting the heap. The messages complete "Cannot load X from 'path': ".
   */
  public static final class Sizes {
    private Sizes() {}

    /** Refuses a recorded size below 1. */
    public static void positive(int value, String field) {
      if (value < 1) {
        throw new IllegalArgumentException(
            "data/summary records " + field + " = " + value + ", expected at least 1");
      }
    }

    /** Refuses a recorded size that differs from what the data hold. */
    public static void equal(int recorded, String field, int held, String what) {
      if (recorded != held) {
        throw new IllegalArgumentException(
            "data/summary records "
                + field
                + " = "
                + recorded
                + " but the model holds "
                + held
                + " "
                + what);
      }
    }

    /** Refuses a recorded size above what the data hold. */
    public static void atMost(int recorded, String field, int held, String what) {
      if (recorded > held) {
        throw new IllegalArgumentException(
            "data/summary records "
                + field
                + " = "
                + recorded
                + " but the model holds only "
                + held
                + " "
                + what);
      }
    }

    /**
     * Refuses a table whose vector column {@code column} has, in some row, another size than the
     * {@code expected} one recorded as {@code field} in {@code data/summary}.
     */
    public static void vectors(
        List<Row> rows, int column, int expected, String field, String table, String what) {
      sized(rows, column, expected, "data/summary records " + field, table, what);
    }

    /**
     * As {@link #vectors(List, int, int, String, String, String)}, {@code recorded} saying where
     * the expected size comes from (e.g. "data/summary records numFeatures").
     */
    public static void sized(
        List<Row> rows, int column, int expected, String recorded, String table, String what) {
      for (Row row : rows) {
        int size = ((Vector) row.get(column)).size();
        if (size != expected) {
          throw new IllegalArgumentException(
              recorded
                  + " = "
                  + expected
                  + " but "
                  + table
                  + " row "
                  + row.getInt(0)
                  + " holds "
                  + size
                  + " "
                  + what);
        }
      }
    }
  }

  /** The finiteness check of everything written and read. */
  public static final class Finite {
    private Finite() {}

    /**
     * Returns {@code v}, or throws naming {@code what} and the first non-finite stored value (a
     * sparse vector's non-zeros, never its d values).
     */
    public static Vector require(Vector v, String what) {
      require(v instanceof SparseVector sv ? sv.values() : v.toArray(), what);
      return v;
    }

    /** Returns {@code values}, or throws naming {@code what} and the first non-finite entry. */
    public static double[] require(double[] values, String what) {
      for (int i = 0; i < values.length; i++) {
        if (!Double.isFinite(values[i])) {
          throw new IllegalArgumentException(
              what
                  + " holds a non-finite value ("
                  + values[i]
                  + " at entry "
                  + i
                  + "): the model is corrupt");
        }
      }
      return values;
    }
  }
}
