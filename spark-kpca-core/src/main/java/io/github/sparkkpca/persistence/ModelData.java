package io.github.sparkkpca.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkkpca.feature.FeatureMap;
import io.github.sparkkpca.feature.FeatureStatistics;
import io.github.sparkkpca.feature.KernelExpansion;
import io.github.sparkkpca.feature.RandomFourierFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelFamilies;
import io.github.sparkkpca.kernel.LandmarkKernel;
import io.github.sparkkpca.pca.FeaturePCA;
import io.github.sparkkpca.pca.KernelPCASolution;
import io.github.sparkkpca.pca.Projector;
import io.github.sparkkpca.persistence.ModelChecks.Finite;
import io.github.sparkkpca.persistence.ModelChecks.Sizes;
import java.util.List;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SQLDataTypes;
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
 * How a table is written and read is {@link ModelTables}'s; the checks of what was read (and of a
 * fitted model before it is written) are {@link ModelChecks}'s.
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
    if (solution.isUpdatable()
        && solution.featurePCA().map() instanceof RandomFourierFeatureMap map
        && map.drawSeed().isPresent()) {
      extra.put(StoredNumbers.DRAW_SEED, map.drawSeed().getAsLong());
    }
    if (solution.isUpdatable() && !solution.featurePCA().statistics().hasScatter()) {
      extra.put("statistics", WITHOUT_SCATTER);
    }
    return extra;
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
    ModelTables.writeRow(summary, SUMMARY, path + "/data/summary", spark);
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
      ModelTables.writeRow(
          statistics,
          stats.hasScatter() ? STATISTICS : STATISTICS_WITHOUT_SCATTER,
          path + "/data/statistics",
          spark);
      if (stats.hasScatter()) {
        ModelTables.writeColumns(
            stats.scatter(), r, r, "the scatter", path + "/data/scatter", spark);
      }
      ModelTables.writeRows(
          fit.components(), r, k, "the components", path + "/data/components", spark);
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
    Row s =
        ModelTables.single(
            ModelTables.read(spark, path + "/data/summary", SUMMARY, what), "summary", what);
    int d = s.getInt(0);
    int numComponents = s.getInt(1);
    double[] spectrum = Finite.require(((Vector) s.get(2)).toArray(), "data/summary: the spectrum");
    boolean centered = s.getBoolean(8);
    Sizes.positive(d, "numFeatures");
    Sizes.positive(numComponents, "numComponents");
    Sizes.atMost(numComponents, "numComponents", spectrum.length, "eigenvalues in its spectrum");
    if (!kind.equals(ModelKind.EXPANSION)) {
      FeatureMap map =
          StoredNumbers.randomFeatures(
              ModelKind.ofFeatureMap(kind).codec().read(path + "/data", spark, kernel, d),
              metadata,
              what);
      int r = map.outputDim();
      boolean withoutScatter = metadata.path("statistics").asText("").equals(WITHOUT_SCATTER);
      Row st =
          ModelTables.single(
              ModelTables.read(
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
          ModelTables.readIndexed(
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
              : ModelTables.readIndexed(
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
      StoredNumbers.components(metadata, numComponents, what);
      ModelChecks.checkFeatureModel(
          fit, kernel, s.getLong(3), s.getDouble(4), spectrum, numComponents, what);
      StoredNumbers.offset(
          Finite.require(((Vector) s.get(9)).toArray(), "data/summary: the offset"),
          finite(s.getDouble(10), "data/summary: ||mean||^2"),
          fit.projector(),
          r,
          what);
      return KernelPCASolution.of(fit, s.getInt(6), s.getString(7));
    }
    double[] offset = Finite.require(((Vector) s.get(9)).toArray(), "data/summary: the offset");
    Sizes.equal(numComponents, "numComponents", offset.length, "entries in its offset");
    StoredNumbers.centering(metadata, centered, what);
    StoredNumbers.components(metadata, numComponents, what);
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
    Row s =
        ModelTables.single(
            ModelTables.read(spark, path + "/data/summary", SUMMARY_V1, what), "summary", what);
    List<Row> support = ModelTables.read(spark, path + "/data/support", SUPPORT_V1, what);
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

  private static double finite(double value, String what) {
    return Finite.require(new double[] {value}, what)[0];
  }
}
