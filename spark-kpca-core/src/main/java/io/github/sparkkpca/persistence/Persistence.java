package io.github.sparkkpca.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.ParamPair;
import org.apache.spark.ml.param.Params;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;

/**
 * The on-disk format of stages and models: {@code metadata/} holds one JSON line (class, uid, Spark
 * version, format version, explicitly set params and defaults, the layout Spark's own {@code
 * DefaultParamsWriter} uses, so Pipelines can read it) and {@code data/} holds Parquet tables.
 * Never Java serialization.
 */
public final class Persistence {

  /**
   * Bumped whenever the layout changes; readers accept every version up to it. Format 1 (spark-kpca
   * 0.1): a model is its projector over the support points. Format 2: the fitted kernel in the
   * metadata, and a model is a feature map (one codec per kind) plus its statistics and linear PCA
   * ({@link ModelData}).
   */
  static final int FORMAT_VERSION = 2;

  public static final ObjectMapper JSON = new ObjectMapper();

  private Persistence() {}

  /**
   * The file system that writes no {@code .crc} files beside the ones it creates: the raw one under
   * Hadoop's local (checksummed) file system, {@code fs} itself elsewhere. For files whose
   * integrity something else proves (a manifest) or that leave Spark (an export bundle).
   */
  static org.apache.hadoop.fs.FileSystem withoutChecksums(org.apache.hadoop.fs.FileSystem fs) {
    return fs instanceof org.apache.hadoop.fs.ChecksumFileSystem checksummed
        ? checksummed.getRawFileSystem()
        : fs;
  }

  /** Writes {@code path/metadata}. */
  public static void saveMetadata(Params instance, String path, SparkSession spark) {
    saveMetadata(instance, path, spark, null);
  }

  /** Writes {@code path/metadata} with the fields of {@code extra} added to the JSON object. */
  public static void saveMetadata(
      Params instance, String path, SparkSession spark, ObjectNode extra) {
    saveMetadata(instance, path, spark, extra, ParamMap.empty());
  }

  /**
   * Writes {@code path/metadata}; the values of {@code fitted} (chosen by a fit, not set on the
   * instance) are written among the explicitly set params.
   */
  public static void saveMetadata(
      Params instance, String path, SparkSession spark, ObjectNode extra, ParamMap fitted) {
    ObjectNode root = JSON.createObjectNode();
    root.put("class", instance.getClass().getName());
    root.put("timestamp", System.currentTimeMillis());
    root.put("sparkVersion", spark.version());
    root.put("formatVersion", FORMAT_VERSION);
    root.put("uid", instance.uid());
    // Every stage is saved through StageWriter, which writes the manifest after this.
    root.put(Manifest.METADATA_FIELD, Manifest.FORMAT);
    List<ParamPair<?>> pairs = instance.extractParamMap(fitted).toList();
    root.set("paramMap", encode(pairs, instance, fitted, false));
    root.set("defaultParamMap", encode(pairs, instance, fitted, true));
    if (extra != null) {
      root.setAll(extra);
    }
    String json = root.toString();
    spark
        .createDataset(List.of(json), Encoders.STRING())
        .coalesce(1)
        .write()
        .text(path + "/metadata");
  }

  private static ObjectNode encode(
      List<ParamPair<?>> pairs, Params instance, ParamMap fitted, boolean defaults) {
    ObjectNode node = JSON.createObjectNode();
    for (ParamPair<?> raw : pairs) {
      @SuppressWarnings("unchecked")
      ParamPair<Object> pair = (ParamPair<Object>) raw;
      Param<Object> param = pair.param();
      boolean isSet = instance.isSet(param) || fitted.contains(param);
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
   * Checks the stage at {@code path} against its {@link Manifest} and, with a signing key
   * configured, its {@link ModelSignature}, then reads {@code path/metadata} and checks that it
   * describes an instance of {@code expected}.
   *
   * @throws IllegalArgumentException naming the path when a file differs from the manifest, or the
   *     metadata is missing, unreadable, of another class or of a newer format
   */
  public static JsonNode loadMetadata(String path, SparkSession spark, Class<?> expected) {
    String what = "Cannot load " + expected.getSimpleName() + " from '" + path + "': ";
    boolean manifested = verifyStage(path, spark, what);
    JsonNode root = readMetadata(path, spark, what);
    if (!manifested) {
      Manifest.missing(path, root, what);
    }
    String cls = root.path("class").asText("");
    if (!expected.getName().equals(cls)) {
      throw new IllegalArgumentException(
          what + "the directory holds a '" + cls + "', not a " + expected.getName());
    }
    int version = root.path("formatVersion").asInt(-1);
    if (version < 1 || version > FORMAT_VERSION) {
      throw new IllegalArgumentException(
          what
              + "format version "
              + version
              + " is not supported (this "
              + "library reads 1.."
              + FORMAT_VERSION
              + ")");
    }
    if (!root.hasNonNull("uid")) {
      throw new IllegalArgumentException(what + "the metadata has no uid");
    }
    return root;
  }

  /**
   * The class name recorded in {@code path/metadata}. A class whose reader checks the stage itself
   * before parsing anything else ({@code checkedByReader}: this library's models, whose readers
   * start with {@link #loadMetadata}) is returned as read, so a load hashes the stage's files once,
   * not twice; any other class, and metadata that cannot be read, only once the stage matches its
   * {@link Manifest} and signature, so that a changed file is reported as such rather than as the
   * class or the unreadable metadata it caused.
   *
   * @throws IllegalArgumentException naming the path when a file differs from the manifest or the
   *     metadata is missing or unreadable
   */
  public static String savedClassName(
      String path, SparkSession spark, java.util.function.Predicate<String> checkedByReader) {
    String what = "Cannot load a model from '" + path + "': ";
    String saved;
    try {
      saved = readMetadata(path, spark, what).path("class").asText("");
    } catch (IllegalArgumentException e) {
      verifyStage(path, spark, what);
      throw e;
    }
    if (!checkedByReader.test(saved)) {
      verifyStage(path, spark, what);
    }
    return saved;
  }

  /**
   * The manifest and signature checks of a stage; whether it has a manifest (the caller decides
   * what a missing one means: {@link Manifest#missing}).
   */
  private static boolean verifyStage(String path, SparkSession spark, String what) {
    boolean manifested =
        Manifest.verify(path, spark.sparkContext().hadoopConfiguration(), what, false);
    ModelSignature.verify(path, spark, what);
    return manifested;
  }

  private static JsonNode readMetadata(String path, SparkSession spark, String what) {
    JsonNode root;
    try {
      String line =
          firstLine(new Path(path, "metadata"), spark.sparkContext().hadoopConfiguration());
      if (line == null) {
        throw new IllegalArgumentException(what + "its metadata is empty");
      }
      root = JSON.readTree(line);
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (Exception e) {
      Configuration conf = spark.sparkContext().hadoopConfiguration();
      String replacing = beingReplaced(path, conf);
      if (replacing == null && e instanceof java.io.FileNotFoundException && !exists(path, conf)) {
        // One line, no cause: the path itself is what is wrong.
        throw new IllegalArgumentException(what + "path does not exist");
      }
      throw new IllegalArgumentException(
          what + (replacing != null ? replacing : "no readable metadata (" + firstLine(e) + ")"),
          e);
    }
    return root;
  }

  private static boolean exists(String path, Configuration conf) {
    try {
      Path p = new Path(path);
      return p.getFileSystem(conf).exists(p);
    } catch (IOException e) {
      return true; // unknown: the caller's message about the metadata stands
    }
  }

  /**
   * The first line of the text table {@code dir} (its data files in name order, decompressed by
   * their extension), or null when it has none: what {@code spark.read().text(dir)} gives first,
   * read on the driver without a Spark job, which in a fresh JVM costs more than the rest of a
   * small model's load.
   *
   * @throws java.io.FileNotFoundException when {@code dir} does not exist
   */
  private static String firstLine(Path dir, Configuration conf) throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    CompressionCodecFactory codecs = new CompressionCodecFactory(conf);
    for (FileStatus file : ParquetRows.dataFiles(dir, conf)) {
      CompressionCodec codec = codecs.getCodec(file.getPath());
      InputStream raw = fs.open(file.getPath());
      try (BufferedReader in =
          new BufferedReader(
              new InputStreamReader(
                  codec == null ? raw : codec.createInputStream(raw), StandardCharsets.UTF_8))) {
        String line = in.readLine();
        if (line != null) {
          return line;
        }
      }
    }
    return null;
  }

  /** Sets the saved defaults, then the saved explicit params, on {@code instance}. */
  public static void applyParams(Params instance, JsonNode metadata, String path) {
    applyParams(instance, metadata, path, ParamMap.empty());
  }

  /**
   * Sets the saved defaults, then the saved explicit params, on {@code instance}, except the params
   * of {@code fitted}: values a fit chose, which a model reads from its fitted state.
   *
   * @throws IllegalArgumentException naming the path, the param and both values when the metadata
   *     (format 2) records a fitted param other than the model's fitted state holds (an edited
   *     size)
   */
  @SuppressWarnings("unchecked")
  public static void applyParams(Params instance, JsonNode metadata, String path, ParamMap fitted) {
    for (String section : new String[] {"defaultParamMap", "paramMap"}) {
      for (Map.Entry<String, JsonNode> e : metadata.path(section).properties()) {
        if (!instance.hasParam(e.getKey())) {
          throw new IllegalArgumentException(
              "Cannot load "
                  + instance.getClass().getSimpleName()
                  + " from '"
                  + path
                  + "': unknown param '"
                  + e.getKey()
                  + "' in its metadata");
        }
        Param<Object> param = instance.getParam(e.getKey());
        Object value = param.jsonDecode(e.getValue().toString());
        if (fitted.contains(param)) {
          Object held = fitted.apply(param);
          // Format 2 writes the fitted values themselves: another value was edited in.
          if (section.equals("paramMap")
              && metadata.path("formatVersion").asInt() >= 2
              && !java.util.Objects.equals(value, held)) {
            throw new IllegalArgumentException(
                "Cannot load "
                    + instance.getClass().getSimpleName()
                    + " from '"
                    + path
                    + "': its metadata records "
                    + param.name()
                    + " = "
                    + e.getValue()
                    + " but the model holds "
                    + held);
          }
          continue;
        }
        if (section.equals("paramMap")) {
          instance.set(param, value);
        } else {
          instance.setDefault(param, value);
        }
      }
    }
  }

  /**
   * Why a saved stage cannot be read when another writer is replacing it ({@link SafeOutput}'s
   * swap: the old directory moved aside as {@code .NAME.spark-kpca-ID.replaced}, or the new one
   * written as {@code .NAME.spark-kpca-ID.writing}), naming the sibling found; null when there is
   * none. {@code path} is the stage or any directory inside it (its data tables).
   */
  public static String beingReplaced(String path, Configuration conf) {
    try {
      // The stage, or one of its tables up to two levels down (data/NAME).
      Path dir = new Path(path);
      for (int level = 0; level < 3 && dir.getParent() != null; level++, dir = dir.getParent()) {
        FileSystem fs = dir.getFileSystem(conf);
        if (fs.exists(dir.getParent())) {
          for (FileStatus sibling : fs.listStatus(dir.getParent())) {
            String name = sibling.getPath().getName();
            if (name.startsWith("." + dir.getName() + ".")
                && SafeOutput.isLeftover(name)
                && !name.endsWith(".owner")) {
              return "it is being replaced by another writer ("
                  + name
                  + " beside it; a leftover of a killed write if it stays); retry";
            }
          }
        }
        if (fs.exists(new Path(dir, "metadata"))) {
          return null; // the stage itself, in place
        }
      }
    } catch (IOException e) {
      return null; // the caller's own message stands
    }
    return null;
  }

  static String firstLine(Exception e) {
    String msg = String.valueOf(e.getMessage());
    int nl = msg.indexOf('\n');
    return nl < 0 ? msg : msg.substring(0, nl);
  }
}
