package io.github.sparkkpca.streaming;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The versioned model directory of a stream: {@code version-<batchId>} directories, each a saved
 * model with its state file, and the marker {@value #MARKER} (JSON: writer, algorithm). A version
 * is written into a hidden sibling and renamed into place ({@link SafeOutput}): the rename is the
 * commit, so a reader that takes the highest committed version never sees a partial model. Hidden
 * leftovers of a killed write ({@link SafeOutput#isLeftover}) are removed when the directory is
 * opened; the oldest versions beyond the number kept are deleted after each commit.
 */
public final class ModelDirectory {

  /** The marker file of a streaming model directory (JSON: writer, algorithm). */
  public static final String MARKER = "_SPARK_KPCA_STREAM";

  private static final Pattern VERSION = Pattern.compile("version-(\\d{12})");
  private static final String STATE_FILE = "data/streaming.json";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A committed version: its batch id, its model and the RF-Oja steps taken (0 for exact). */
  public record Version(long batchId, AbstractKernelPCAModel<?> model, long ojaSteps) {}

  private final Path dir;
  private final String algorithm;

  public ModelDirectory(String dir, String algorithm) {
    this.dir = new Path(dir);
    this.algorithm = algorithm;
  }

  /**
   * Checks the directory, creates its marker, removes the hidden leftovers of a killed write, and
   * returns the newest committed version (null when there is none).
   *
   * @throws IOException when the directory is a file, another directory that is not empty, or a
   *     stream of another algorithm
   */
  public Version open(Configuration conf) throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    Path marker = new Path(dir, MARKER);
    if (fs.exists(dir)) {
      if (!fs.getFileStatus(dir).isDirectory()) {
        throw new IOException("Model directory " + dir + " is a file");
      }
      FileStatus[] entries = fs.listStatus(dir);
      if (entries.length > 0) {
        if (!fs.exists(marker)) {
          throw new IOException(
              "Model directory "
                  + dir
                  + " exists and is not a streaming model directory of "
                  + "spark-kpca (no "
                  + MARKER
                  + "); it is never written into, choose a new path");
        }
        String saved;
        try (var in = fs.open(marker)) {
          saved = JSON.readTree(in).path("algorithm").asText("");
        }
        if (!saved.equals(algorithm)) {
          throw new IOException(
              "Model directory "
                  + dir
                  + " holds a stream of algorithm "
                  + saved
                  + ", not "
                  + algorithm);
        }
        for (FileStatus entry : entries) {
          if (SafeOutput.isLeftover(entry.getPath().getName())) {
            fs.delete(entry.getPath(), true);
          }
        }
      }
    }
    if (!fs.exists(marker)) {
      fs.mkdirs(dir);
      ObjectNode json = JSON.createObjectNode();
      json.put("writer", "spark-kpca");
      json.put("algorithm", algorithm);
      try (OutputStream out = fs.create(marker, false)) {
        out.write(JSON.writeValueAsBytes(json));
      }
    }
    Long last = latestBatchId(fs, dir);
    if (last == null) {
      return null;
    }
    Path path = versionPath(dir, last);
    AbstractKernelPCAModel<?> model = AbstractKernelPCAModel.loadAny(path.toString());
    long steps;
    try (var in = fs.open(new Path(path, STATE_FILE))) {
      steps = JSON.readTree(in).path("ojaSteps").asLong(0);
    }
    return new Version(last, model, steps);
  }

  /** The path of the version of a batch. */
  public Path versionPath(long batchId) {
    return versionPath(dir, batchId);
  }

  private static Path versionPath(Path dir, long batchId) {
    return new Path(dir, String.format(Locale.ROOT, "version-%012d", batchId));
  }

  /** The committed batch ids, ascending. */
  private static List<Long> batchIds(FileSystem fs, Path dir) throws IOException {
    List<Long> ids = new ArrayList<>();
    if (!fs.exists(dir)) {
      return ids;
    }
    for (FileStatus entry : fs.listStatus(dir)) {
      Matcher m = VERSION.matcher(entry.getPath().getName());
      if (entry.isDirectory() && m.matches()) {
        ids.add(Long.parseLong(m.group(1)));
      }
    }
    ids.sort(null);
    return ids;
  }

  private static Long latestBatchId(FileSystem fs, Path dir) throws IOException {
    List<Long> ids = batchIds(fs, dir);
    return ids.isEmpty() ? null : ids.get(ids.size() - 1);
  }

  /**
   * Writes the version beside its final name and renames it into place: the commit of the
   * micro-batch.
   *
   * @param beforeRename runs on the hidden sibling once it is written, before the rename
   */
  public void commit(
      AbstractKernelPCAModel<?> model,
      long batchId,
      long ojaSteps,
      Configuration conf,
      Consumer<String> beforeRename)
      throws IOException {
    Path target = versionPath(batchId);
    SafeOutput.to(target.toString(), SafeOutput.SAVED_STAGE)
        .named("Model version " + target, "never")
        .prepare(conf)
        .write(
            staging -> {
              model.write().save(staging);
              Path state = new Path(staging, STATE_FILE);
              ObjectNode json = JSON.createObjectNode();
              json.put("batchId", batchId);
              json.put("algorithm", algorithm);
              json.put("rows", model.numRows());
              json.put("ojaSteps", ojaSteps);
              try (OutputStream out = state.getFileSystem(conf).create(state, false)) {
                out.write(JSON.writeValueAsBytes(json));
              }
              beforeRename.accept(staging);
            });
  }

  /** Deletes the oldest versions beyond the newest {@code keep}. */
  public void prune(int keep, Configuration conf) throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    List<Long> ids = batchIds(fs, dir);
    for (int i = 0; i < ids.size() - keep; i++) {
      fs.delete(versionPath(ids.get(i)), true);
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
    return last == null ? null : versionPath(path, last).toString();
  }

  /** The state file of a version (batch id, algorithm, rows, Oja steps), for tools. */
  public static JsonNode versionState(String version, Configuration conf) throws IOException {
    Path state = new Path(version, STATE_FILE);
    try (var in = state.getFileSystem(conf).open(state)) {
      return JSON.readTree(in);
    }
  }
}
