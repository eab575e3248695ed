package io.github.sparkkpca.ml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkkpca.feature.NystromProjector;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.LandmarkKernel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamPair;
import org.apache.spark.ml.param.Params;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The on-disk format of stages and models: {@code metadata/} holds one JSON line (class, uid, Spark
 * version, format version, explicitly set params and defaults, the layout Spark's own
 * {@code DefaultParamsWriter} uses, so Pipelines can read it) and {@code data/} holds Parquet tables.
 * Never Java serialization.
 */
final class Persistence {

  /** Bumped whenever the layout changes; readers accept every version up to it. */
  static final int FORMAT_VERSION = 1;

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final StructType SUPPORT_SCHEMA = new StructType()
      .add("index", DataTypes.IntegerType, false)
      .add("point", SQLDataTypes.VectorType(), false)
      .add("projection", SQLDataTypes.VectorType(), false)
      .add("meanWeight", DataTypes.DoubleType, false);

  private static final StructType SUMMARY_SCHEMA = new StructType()
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

  private Persistence() {
  }

  /** Writes {@code path/metadata}. */
  static void saveMetadata(Params instance, String path, SparkSession spark) {
    ObjectNode root = JSON.createObjectNode();
    root.put("class", instance.getClass().getName());
    root.put("timestamp", System.currentTimeMillis());
    root.put("sparkVersion", spark.version());
    root.put("formatVersion", FORMAT_VERSION);
    root.put("uid", instance.uid());
    root.set("paramMap", encode(instance.extractParamMap().toList(), instance, false));
    root.set("defaultParamMap", encode(instance.extractParamMap().toList(), instance, true));
    String json = root.toString();
    spark.createDataset(List.of(json), Encoders.STRING()).coalesce(1).write().text(path + "/metadata");
  }

  private static ObjectNode encode(List<ParamPair<?>> pairs, Params instance, boolean defaults) {
    ObjectNode node = JSON.createObjectNode();
    for (ParamPair<?> raw : pairs) {
      @SuppressWarnings("unchecked")
      ParamPair<Object> pair = (ParamPair<Object>) raw;
      Param<Object> param = pair.param();
      boolean isSet = instance.isSet(param);
      if (defaults ? !instance.hasDefault(param) : !isSet) {
        continue;
      }
      Object value = defaults ? instance.getDefault(param).get() : pair.value();
      try {
        node.set(param.name(), JSON.readTree(param.jsonEncode(value)));
      } catch (java.io.IOException e) {
        throw new IllegalStateException("cannot encode param " + param.name(), e);
      }
    }
    return node;
  }

  /**
   * Reads {@code path/metadata} and checks that it describes an instance of {@code expected}.
   *
   * @throws IllegalArgumentException naming the path when the metadata is missing, unreadable, of another
   *                                  class or of a newer format
   */
  static JsonNode loadMetadata(String path, SparkSession spark, Class<?> expected) {
    String what = "Cannot load " + expected.getSimpleName() + " from '" + path + "': ";
    JsonNode root;
    try {
      List<String> lines = spark.read().text(path + "/metadata").as(Encoders.STRING()).collectAsList();
      if (lines.isEmpty()) {
        throw new IllegalArgumentException(what + "its metadata is empty");
      }
      root = JSON.readTree(lines.get(0));
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalArgumentException(what + "no readable metadata (" + firstLine(e) + ")", e);
    }
    String cls = root.path("class").asText("");
    if (!expected.getName().equals(cls)) {
      throw new IllegalArgumentException(what + "the directory holds a '" + cls + "', not a "
          + expected.getName());
    }
    int version = root.path("formatVersion").asInt(-1);
    if (version < 1 || version > FORMAT_VERSION) {
      throw new IllegalArgumentException(what + "format version " + version + " is not supported (this "
          + "library reads 1.." + FORMAT_VERSION + ")");
    }
    if (!root.hasNonNull("uid")) {
      throw new IllegalArgumentException(what + "the metadata has no uid");
    }
    return root;
  }

  /** Sets the saved defaults, then the saved explicit params, on {@code instance}. */
  @SuppressWarnings("unchecked")
  static void applyParams(Params instance, JsonNode metadata, String path) {
    for (String section : new String[] {"defaultParamMap", "paramMap"}) {
      for (Map.Entry<String, JsonNode> e : metadata.path(section).properties()) {
        if (!instance.hasParam(e.getKey())) {
          throw new IllegalArgumentException("Cannot load " + instance.getClass().getSimpleName() + " from '"
              + path + "': unknown param '" + e.getKey() + "' in its metadata");
        }
        Param<Object> param = instance.getParam(e.getKey());
        Object value = param.jsonDecode(e.getValue().toString());
        if (section.equals("paramMap")) {
          instance.set(param, value);
        } else {
          instance.setDefault(param, value);
        }
      }
    }
  }

  /** Writes the solution under {@code path/data}. */
  static void saveSolution(KernelPCASolution solution, String path, SparkSession spark) {
    NystromProjector p = solution.projector();
    LandmarkKernel lk = p.landmarkKernel();
    int m = lk.numLandmarks();
    int d = lk.dim();
    int k = p.numComponents();
    List<Row> support = new ArrayList<>(m);
    double[] points = lk.landmarks();
    double[] projector = p.projector();
    for (int j = 0; j < m; j++) {
      double[] point = java.util.Arrays.copyOfRange(points, j * d, (j + 1) * d);
      double[] projection = new double[k];
      for (int c = 0; c < k; c++) {
        projection[c] = projector[j + c * m];
      }
      support.add(RowFactory.create(j, new DenseVector(point), new DenseVector(projection),
          p.meanWeights()[j]));
    }
    spark.createDataFrame(support, SUPPORT_SCHEMA).write().parquet(path + "/data/support");
    Row summary = RowFactory.create(m, d, k, new DenseVector(p.offset()), new DenseVector(solution.spectrum()),
        solution.numRows(), solution.totalVariance(), solution.totalVarianceMethod(), p.meanSqNorm(),
        solution.droppedRank(), solution.landmarkSelection());
    spark.createDataFrame(List.of(summary), SUMMARY_SCHEMA).coalesce(1).write().parquet(path + "/data/summary");
  }

  /**
   * Reads a solution written by {@link #saveSolution}.
   *
   * @throws IllegalArgumentException naming the path and the inconsistency when the data are missing or
   *                                  do not fit together
   */
  static KernelPCASolution loadSolution(String path, SparkSession spark, Kernel kernel, String className) {
    String what = "Cannot load " + className + " from '" + path + "': ";
    List<Row> summaries;
    List<Row> support;
    try {
      summaries = spark.read().schema(SUMMARY_SCHEMA).parquet(path + "/data/summary").collectAsList();
      support = spark.read().schema(SUPPORT_SCHEMA).parquet(path + "/data/support").collectAsList();
    } catch (Exception e) {
      throw new IllegalArgumentException(what + "missing or unreadable model data (" + firstLine(e) + ")", e);
    }
    if (summaries.size() != 1) {
      throw new IllegalArgumentException(what + "expected one summary row, found " + summaries.size());
    }
    Row s = summaries.get(0);
    int m = s.getInt(0);
    int d = s.getInt(1);
    int k = s.getInt(2);
    if (support.size() != m) {
      throw new IllegalArgumentException(what + "the summary records " + m + " support points but the data "
          + "hold " + support.size());
    }
    double[] points = new double[m * d];
    double[] projector = new double[m * k];
    double[] meanWeights = new double[m];
    boolean[] seen = new boolean[m];
    for (Row row : support) {
      int j = row.getInt(0);
      Vector point = (Vector) row.get(1);
      Vector projection = (Vector) row.get(2);
      if (j < 0 || j >= m || seen[j] || point.size() != d || projection.size() != k) {
        throw new IllegalArgumentException(what + "support row " + j + " is inconsistent with m = " + m
            + ", d = " + d + ", k = " + k);
      }
      seen[j] = true;
      System.arraycopy(point.toArray(), 0, points, j * d, d);
      double[] pr = projection.toArray();
      for (int c = 0; c < k; c++) {
        projector[j + c * m] = pr[c];
      }
      meanWeights[j] = row.getDouble(3);
    }
    double[] offset = ((Vector) s.get(3)).toArray();
    double[] spectrum = ((Vector) s.get(4)).toArray();
    if (offset.length != k || spectrum.length < k) {
      throw new IllegalArgumentException(what + "offset has " + offset.length + " entries and the spectrum "
          + spectrum.length + ", expected " + k + " and >= " + k);
    }
    NystromProjector projectorMap = new NystromProjector(new LandmarkKernel(kernel, points, m, d), projector, k,
        offset, meanWeights, s.getDouble(8));
    return new KernelPCASolution(projectorMap, spectrum, s.getDouble(6), s.getString(7), s.getLong(5),
        s.getInt(9), s.getString(10));
  }

  private static String firstLine(Exception e) {
    String msg = String.valueOf(e.getMessage());
    int nl = msg.indexOf('\n');
    return nl < 0 ? msg : msg.substring(0, nl);
  }
}
