package io.github.sparkkpca.streaming;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The versioned model directory of a stream: {@code version-<batchId>} directories, each a saved
 * model with its state file, {@code pending-<batchId>} directories (the rows of a micro-batch
 * folded in after the newest version, kept until a version holds them), and the marker {@value
 * #MARKER} (JSON: writer, algorithm, and, from 0.2, the checkpoint and the model options the
 * directory is bound to). Versions and pending batches are written into a hidden sibling and
 * renamed into place ({@link SafeOutput}): the rename is the commit, so a reader that takes the
 * highest committed version never sees a partial model. Each version's and pending batch's state
 * file records the id of the streaming query that wrote it, and the directory's history ({@link
 * BatchRecord#HISTORY}) the digest of each entry it committed, so that an entry copied from another
 * stream's directory is refused by every reader. Hidden leftovers of a killed write ({@link
 * SafeOutput#isLeftover}) are removed when the directory is opened; the oldest versions beyond the
 * number kept, and the pending batches a version holds, are deleted after each version.
 */
public final class ModelDirectory {

  /** The marker file of a streaming model directory (JSON: writer, algorithm, binding). */
  public static final String MARKER = "_SPARK_KPCA_STREAM";

  static final Pattern VERSION = Pattern.compile("version-(\\d{12})");
  static final Pattern PENDING = Pattern.compile("pending-(\\d{12})");
  static final String STATE_FILE = "data/streaming.json";
  static final String PENDING_STATE = "_streaming.json";

  /**
   * What a stream that finds its next version or pending batch already written is told: another
   * stream writes the same directory, and versions are never replaced.
   */
  static final String ONE_WRITER =
      "another stream writes this model directory; run one stream per model directory (stop the"
          + " other one, or give this one a model directory and checkpoint of its own)";

  static final ObjectMapper JSON = new ObjectMapper();

  /** A committed version: its batch id, its model and the RF-Oja steps taken (0 for exact). */
  public record Version(long batchId, AbstractKernelPCAModel<?> model, long ojaSteps) {}

  /**
   * What {@link #open} finds: the newest version (or null), the pending batch ids after it
   * (ascending), and the query id recorded by the newest of them (null when none is recorded).
   */
  public record Contents(Version latest, List<Long> pending, String queryId) {}

  /**
   * A model option of a restart that differs from the one the directory was streamed with; the
   * option is named by its parameter's name (e.g. {@code k}, {@code numLandmarks}, {@code
   * algorithm}).
   */
  public static final class OptionMismatch extends IllegalArgumentException {
    private final String option;
    private final String stored;
    private final String given;

    OptionMismatch(String dir, String option, String stored, String given) {
      super(
          "Model directory "
              + dir
              + " was streamed with "
              + option
              + " = "
              + stored
              + ", not "
              + given
              + ": a restart continues with the model's options; give "
              + option
              + " = "
              + stored
              + " or a new model directory and checkpoint");
      this.option = option;
      this.stored = stored;
      this.given = given;
    }

    public String option() {
      return option;
    }

    public String stored() {
      return stored;
    }

    public String given() {
      return given;
    }
  }

  final Path dir;
  final String algorithm;
  final Map<String, String> options;

  /**
   * @param options the model options the stream runs with (parameter name to value), recorded in a
   *     new directory's marker and compared with a recorded one's ({@link #bind})
   */
  public ModelDirectory(String dir, String algorithm, Map<String, String> options) {
    this.dir = new Path(dir);
    this.algorithm = algorithm;
    this.options = new LinkedHashMap<>(options);
    this.options.put("algorithm", algorithm);
  }

  public ModelDirectory(String dir, String algorithm) {
    this(dir, algorithm, Map.of());
  }

  /**
   * Refuses a model directory and a checkpoint that are the same directory or one inside the other
   * (the query's checkpoint files would land among the versions, or the versions in the
   * checkpoint). Reads no file.
   *
   * @throws IllegalArgumentException naming both paths
   */
  public static void requireSeparate(String modelDir, String checkpoint, Configuration conf)
      throws IOException {
    CheckpointBinding.requireSeparate(modelDir, checkpoint, conf);
  }

  /**
   * Ties the directory to the query's checkpoint before the query starts ({@code
   * CheckpointBinding}): refuses a checkpoint that overlaps the directory, a directory that is not
   * a streaming model directory, a directory bound to another checkpoint or written by another
   * query (its first micro-batches would be taken for replays and their rows dropped), a checkpoint
   * that has committed micro-batches the directory does not hold, and model options that differ
   * from the recorded ones. Then writes the marker of a new directory (checkpoint and options
   * recorded). Reads only small files; runs no Spark job.
   *
   * @throws IllegalArgumentException with one line naming the paths or the option
   */
  public void bind(String checkpoint, Configuration conf) throws IOException {
    new CheckpointBinding(this).bind(checkpoint, conf);
  }

  /**
   * Checks the directory, creates its marker (options recorded, no checkpoint) when it has none,
   * removes the hidden leftovers of a killed write and the pending batches a version holds, and
   * returns the newest committed version and the pending batches after it ({@code
   * DirectoryRecovery}).
   *
   * @throws IOException when the directory is a file, another directory that is not empty, or a
   *     stream of another algorithm
   */
  public Contents open(Configuration conf) throws IOException {
    return new DirectoryRecovery(this).open(conf);
  }

  /**
   * Checks the rows read back from a pending batch against its record.
   *
   * @throws IllegalArgumentException naming the record file when the counts differ
   */
  public void checkPendingRows(long batchId, long rows, Configuration conf) throws IOException {
    new DirectoryRecovery(this).checkPendingRows(batchId, rows, conf);
  }

  String notStreaming() {
    return "Model directory "
        + dir
        + " exists and is not a streaming model directory of spark-kpca (no "
        + MARKER
        + "); it is never written into, choose a new path";
  }

  JsonNode readMarker(FileSystem fs) throws IOException {
    Path marker = new Path(dir, MARKER);
    if (!fs.exists(marker)) {
      return null;
    }
    return readJson(fs, marker);
  }

  /**
   * A JSON file of the directory.
   *
   * @throws IllegalArgumentException naming the file when it is not JSON
   */
  static JsonNode readJson(FileSystem fs, Path file) throws IOException {
    try (var in = fs.open(file)) {
      return JSON.readTree(in);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(
          file + " is not readable JSON (" + e.getOriginalMessage() + "): the file is corrupt", e);
    }
  }

  /** The marker, written beside its name and renamed into place (a reader never sees half). */
  void writeMarker(FileSystem fs, String checkpoint) throws IOException {
    fs.mkdirs(dir);
    ObjectNode json = JSON.createObjectNode();
    json.put("writer", "spark-kpca");
    json.put("algorithm", algorithm);
    if (checkpoint != null) {
      json.put("checkpoint", checkpoint);
    }
    ObjectNode saved = json.putObject("options");
    options.forEach(
        (name, value) -> {
          if (!name.equals("algorithm")) {
            saved.put(name, value);
          }
        });
    Path marker = new Path(dir, MARKER);
    Path staging =
        new Path(
            dir,
            "."
                + MARKER
                + ".spark-kpca-"
                + UUID.randomUUID().toString().substring(0, 8)
                + ".writing");
    try (OutputStream out = fs.create(staging, false)) {
      out.write(JSON.writeValueAsBytes(json));
    }
    if (!fs.rename(staging, marker)) {
      fs.delete(staging, false);
      if (!fs.exists(marker)) {
        throw new IOException("Model directory " + dir + ": could not write " + MARKER);
      }
    }
  }

  /** The query id recorded by the version or pending batch of {@code batchId}, or null. */
  String queryIdOf(FileSystem fs, long batchId) throws IOException {
    Path state =
        fs.exists(pendingPath(batchId))
            ? new Path(pendingPath(batchId), PENDING_STATE)
            : new Path(versionPath(batchId), STATE_FILE);
    if (!fs.exists(state)) {
      return null;
    }
    return readJson(fs, state).path("queryId").asText(null);
  }

  /** The path of the version of a batch. */
  public Path versionPath(long batchId) {
    return versionPath(dir, batchId);
  }

  /** The path of a pending batch's rows. */
  public Path pendingPath(long batchId) {
    return new Path(dir, String.format(Locale.ROOT, "pending-%012d", batchId));
  }

  private static Path versionPath(Path dir, long batchId) {
    return new Path(dir, String.format(Locale.ROOT, "version-%012d", batchId));
  }

  /** The committed batch ids of one kind of entry, ascending. */
  static List<Long> batchIds(FileSystem fs, Path dir, Pattern kind) throws IOException {
    List<Long> ids = new ArrayList<>();
    if (!fs.exists(dir)) {
      return ids;
    }
    for (FileStatus entry : fs.listStatus(dir)) {
      Matcher m = kind.matcher(entry.getPath().getName());
      if (entry.isDirectory() && m.matches()) {
        ids.add(Long.parseLong(m.group(1)));
      }
    }
    ids.sort(null);
    return ids;
  }

  private static Long latestBatchId(FileSystem fs, Path dir) throws IOException {
    List<Long> ids = batchIds(fs, dir, VERSION);
    return ids.isEmpty() ? null : ids.get(ids.size() - 1);
  }

  /** The newest batch id held (version or pending) before {@code batchId}, or -1. */
  private long heldBefore(FileSystem fs, long batchId) throws IOException {
    long previous = -1;
    for (Pattern kind : List.of(VERSION, PENDING)) {
      for (long id : batchIds(fs, dir, kind)) {
        if (id < batchId) {
          previous = Math.max(previous, id);
        }
      }
    }
    return previous;
  }

  /**
   * Writes the version beside its final name and renames it into place: the commit of the
   * micro-batch (and of the pending ones before it).
   *
   * @param queryId the id of the streaming query that wrote it (null when unknown)
   * @param beforeRename runs on the hidden sibling once it is written, before the rename
   */
  public void commit(
      AbstractKernelPCAModel<?> model,
      long batchId,
      long ojaSteps,
      String queryId,
      Configuration conf,
      Consumer<String> beforeRename)
      throws IOException {
    Path target = versionPath(batchId);
    long previous = heldBefore(dir.getFileSystem(conf), batchId);
    SafeOutput.to(target.toString(), SafeOutput.SAVED_STAGE)
        .namedNeverReplaced("Model version " + target, ONE_WRITER)
        .prepare(conf)
        .write(
            staging -> {
              model.write().save(staging);
              // Written last: the digest is that of the list of files in the model's manifest
              // (SafeOutput writes the manifest again, the record included, when it commits).
              BatchRecord record =
                  BatchRecord.write(
                      new Path(staging),
                      STATE_FILE,
                      batchId,
                      algorithm,
                      previous,
                      model.numRows(),
                      ojaSteps,
                      queryId,
                      conf);
              BatchRecord.recordHistory(target, record, conf);
              beforeRename.accept(staging);
            });
  }

  /**
   * Writes the input rows of a micro-batch that no version holds yet ({@code pending-<batchId>},
   * Parquet, one file in the micro-batch's order), beside its final name and renamed into place:
   * the commit of the micro-batch until a version holds it. Its record ({@link BatchRecord}) holds
   * the batch id, the entry before it, {@code count} (its rows) and the digest of its files.
   */
  public void commitPending(
      Dataset<Row> rows, long batchId, long count, String queryId, Configuration conf)
      throws IOException {
    Path target = pendingPath(batchId);
    long previous = heldBefore(dir.getFileSystem(conf), batchId);
    SafeOutput.to(target.toString(), SafeOutput.MARKED_DIRECTORY)
        .namedNeverReplaced("Pending micro-batch " + target, ONE_WRITER)
        .prepare(conf)
        .write(
            staging -> {
              rows.coalesce(1).write().parquet(staging);
              // Written last: the digest covers the rows' files.
              BatchRecord record =
                  BatchRecord.write(
                      new Path(staging),
                      PENDING_STATE,
                      batchId,
                      algorithm,
                      previous,
                      count,
                      0,
                      queryId,
                      conf);
              BatchRecord.recordHistory(target, record, conf);
            });
  }

  /** The rows of a pending micro-batch. */
  public Dataset<Row> readPending(SparkSession spark, long batchId) {
    try {
      return spark.read().parquet(pendingPath(batchId).toString());
    } catch (Exception e) { // AnalysisException (no Parquet file to infer a schema from)
      throw new IllegalArgumentException(
          pendingPath(batchId)
              + ": the pending micro-batch has no readable Parquet file ("
              + String.valueOf(e.getMessage()).lines().findFirst().orElse("")
              + "): the directory is corrupt",
          e);
    }
  }

  /**
   * Deletes the pending batches up to the newest version and the oldest versions beyond the newest
   * {@code keep}.
   */
  public void prune(int keep, Configuration conf) throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    List<Long> ids = batchIds(fs, dir, VERSION);
    if (!ids.isEmpty()) {
      long last = ids.get(ids.size() - 1);
      for (long id : batchIds(fs, dir, PENDING)) {
        if (id <= last) {
          fs.delete(pendingPath(id), true);
        }
      }
    }
    for (int i = 0; i < ids.size() - keep; i++) {
      fs.delete(versionPath(ids.get(i)), true);
    }
    if (!ids.isEmpty()) {
      BatchRecord.pruneHistory(dir, ids.get(ids.size() - 1), conf);
    }
  }

  /**
   * The newest committed version of a streaming model directory, or null when none is committed
   * yet.
   *
   * @throws IllegalArgumentException when {@code dir} is not a streaming model directory
   */
  public static String latestVersion(String dir, Configuration conf) throws IOException {
    Path path = new Path(dir);
    FileSystem fs = path.getFileSystem(conf);
    if (!fs.exists(new Path(path, MARKER))) {
      throw new IllegalArgumentException(
          dir + " is not a streaming model directory of spark-kpca (no " + MARKER + ")");
    }
    Long last = latestBatchId(fs, path);
    if (last == null) {
      return null;
    }
    Path version = versionPath(path, last);
    BatchRecord.read(version, STATE_FILE, conf)
        .check(version, STATE_FILE, last, BatchRecord.UNKNOWN, BatchRecord.UNKNOWN, conf);
    return version.toString();
  }

  /** The state file of a version (batch id, algorithm, rows, Oja steps, query id), for tools. */
  public static JsonNode versionState(String version, Configuration conf) throws IOException {
    Path state = new Path(version, STATE_FILE);
    return readJson(state.getFileSystem(conf), state);
  }
}
