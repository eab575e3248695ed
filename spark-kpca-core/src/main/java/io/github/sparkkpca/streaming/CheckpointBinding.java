package io.github.sparkkpca.streaming;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Binding a stream's model directory to its query's checkpoint, before the query starts: the two
 * are separate paths; a directory already bound (its marker) goes only with its own checkpoint,
 * query and model options, and holds every micro-batch the checkpoint committed; a new directory is
 * claimed ({@link OutputClaim}, the same claim {@code score-stream}'s output takes) and its marker
 * written with the checkpoint and options. Reads only small files (the marker, the records, the
 * checkpoint's {@code metadata} and {@code commits}); runs no Spark job.
 */
final class CheckpointBinding {

  private final ModelDirectory directory;

  CheckpointBinding(ModelDirectory directory) {
    this.directory = directory;
  }

  /**
   * Refuses a model directory and a checkpoint that are the same directory or one inside the other
   * (the query's checkpoint files would land among the versions, or the versions in the
   * checkpoint). Reads no file.
   *
   * @throws IllegalArgumentException naming both paths
   */
  static void requireSeparate(String modelDir, String checkpoint, Configuration conf)
      throws IOException {
    Path model = qualify(modelDir, conf);
    Path ckpt = qualify(checkpoint, conf);
    String how =
        model.equals(ckpt)
            ? "are the same directory"
            : isAncestor(model, ckpt)
                ? "overlap: the checkpoint is inside the model directory"
                : isAncestor(ckpt, model)
                    ? "overlap: the model directory is inside the checkpoint"
                    : null;
    if (how != null) {
      throw new IllegalArgumentException(
          "The model directory "
              + modelDir
              + " and the checkpoint "
              + checkpoint
              + " "
              + how
              + "; give them separate paths");
    }
  }

  private static boolean isAncestor(Path ancestor, Path path) {
    for (Path p = path.getParent(); p != null; p = p.getParent()) {
      if (p.equals(ancestor)) {
        return true;
      }
    }
    return false;
  }

  private static Path qualify(String path, Configuration conf) throws IOException {
    Path p = new Path(path);
    return p.getFileSystem(conf).makeQualified(p);
  }

  /**
   * Ties the directory to the query's checkpoint before the query starts: refuses a checkpoint that
   * overlaps the directory, a directory that is not a streaming model directory, a directory bound
   * to another checkpoint or written by another query (its first micro-batches would be taken for
   * replays and their rows dropped), a checkpoint that has committed micro-batches the directory
   * does not hold, and model options that differ from the recorded ones. Then writes the marker of
   * a new directory (checkpoint and options recorded). Reads only small files; runs no Spark job.
   *
   * @throws IllegalArgumentException with one line naming the paths or the option
   */
  void bind(String checkpoint, Configuration conf) throws IOException {
    requireSeparate(directory.dir.toString(), checkpoint, conf);
    FileSystem fs = directory.dir.getFileSystem(conf);
    String ckpt = qualify(checkpoint, conf).toString();
    String checkpointQuery = checkpointQueryId(checkpoint, conf);
    JsonNode marker = directory.readMarker(fs);
    String recorded = marker == null ? null : marker.path("checkpoint").asText(null);
    if (marker != null) {
      if (recorded != null && !recorded.equals(ckpt)) {
        throw new IllegalArgumentException(
            "Model directory "
                + directory.dir
                + " belongs to the checkpoint "
                + recorded
                + ", not "
                + checkpoint
                + ": another checkpoint would take its first micro-batches for replays and drop "
                + "their rows; restart with the same checkpoint, or give a new model directory");
      }
      compareOptions(marker);
      List<Long> held =
          new ArrayList<>(ModelDirectory.batchIds(fs, directory.dir, ModelDirectory.VERSION));
      held.addAll(ModelDirectory.batchIds(fs, directory.dir, ModelDirectory.PENDING));
      if (!held.isEmpty()) {
        long last = held.stream().mapToLong(Long::longValue).max().getAsLong();
        String writer = directory.queryIdOf(fs, last);
        if (checkpointQuery == null) {
          throw new IllegalArgumentException(
              "Model directory "
                  + directory.dir
                  + " holds micro-batches up to "
                  + last
                  + (writer == null ? "" : " of query " + writer)
                  + " but the checkpoint "
                  + checkpoint
                  + " is new: its first micro-batches would be taken for replays and their rows "
                  + "dropped; restart with the checkpoint of that query, or give a new model directory");
        }
        if (writer != null && !writer.equals(checkpointQuery)) {
          throw new IllegalArgumentException(
              "Model directory "
                  + directory.dir
                  + " was written by query "
                  + writer
                  + ", the checkpoint "
                  + checkpoint
                  + " holds query "
                  + checkpointQuery
                  + ": restart with the checkpoint of that query, or give a new model directory");
        }
        new DirectoryRecovery(directory).checkHistory(fs, conf);
        checkCommitted(fs, checkpoint, last, conf);
        return;
      }
    } else if (fs.exists(directory.dir) && !fs.getFileStatus(directory.dir).isDirectory()) {
      throw new IllegalArgumentException("Model directory " + directory.dir + " is a file");
    } else if (fs.exists(directory.dir) && !holdsOnlyClaims(fs)) {
      throw new IllegalArgumentException(directory.notStreaming());
    }
    // A directory bound to this checkpoint may lack its committed micro-batches when they were
    // empty.
    Long committed = recorded == null ? lastCommittedBatch(checkpoint, conf) : null;
    if (committed != null) {
      throw new IllegalArgumentException(
          "The checkpoint "
              + checkpoint
              + " has committed micro-batches up to "
              + committed
              + " but the model directory "
              + directory.dir
              + " holds none of them: the query would go on without their rows; give a new "
              + "checkpoint, or the model directory of that query");
    }
    if (marker == null) {
      // The claim first, atomically: of two streams started together on this directory, one
      // writes the marker and runs; the other is refused here, before writing anything.
      OutputClaim.Owner owner = OutputClaim.take(directory.dir.toString(), checkpoint, conf);
      if (!owner.checkpoint().equals(ckpt)) {
        throw new IllegalArgumentException(
            "Model directory "
                + directory.dir
                + " is claimed by the checkpoint "
                + owner.checkpoint()
                + ", not "
                + checkpoint
                + " (a stream started on it at the same time); restart with that checkpoint, or "
                + "give a new model directory");
      }
      directory.writeMarker(fs, ckpt);
    }
  }

  /** Whether the directory holds nothing but claims (its own, or a racing stream's) and marker. */
  private boolean holdsOnlyClaims(FileSystem fs) throws IOException {
    for (FileStatus entry : fs.listStatus(directory.dir)) {
      String name = entry.getPath().getName();
      if (!name.equals(OutputClaim.FILE)
          && !name.equals(ModelDirectory.MARKER)
          && !name.startsWith("." + OutputClaim.FILE)
          && !name.startsWith("." + ModelDirectory.MARKER)
          && !name.endsWith(".crc")) {
        return false;
      }
    }
    return true;
  }

  private void compareOptions(JsonNode marker) {
    String savedAlgorithm = marker.path("algorithm").asText("");
    if (!savedAlgorithm.equals(directory.algorithm)) {
      throw new ModelDirectory.OptionMismatch(
          directory.dir.toString(), "algorithm", savedAlgorithm, directory.algorithm);
    }
    JsonNode saved = marker.path("options");
    if (!saved.isObject()) {
      return; // a directory of spark-kpca 0.1 records no options
    }
    Iterator<Map.Entry<String, JsonNode>> fields = saved.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      String given = directory.options.get(field.getKey());
      String stored = field.getValue().asText();
      if (given != null && !given.equals(stored)) {
        throw new ModelDirectory.OptionMismatch(
            directory.dir.toString(), field.getKey(), stored, given);
      }
    }
    for (Map.Entry<String, String> option : directory.options.entrySet()) {
      if (!saved.has(option.getKey()) && !option.getKey().equals("algorithm")) {
        throw new ModelDirectory.OptionMismatch(
            directory.dir.toString(), option.getKey(), "unset", option.getValue());
      }
    }
  }

  /** The id Spark recorded in the checkpoint's {@code metadata} file, or null for a new one. */
  static String checkpointQueryId(String checkpoint, Configuration conf) throws IOException {
    Path metadata = new Path(checkpoint, "metadata");
    FileSystem fs = metadata.getFileSystem(conf);
    if (!fs.exists(metadata)) {
      return null;
    }
    try (var in = fs.open(metadata)) {
      String first =
          new java.io.BufferedReader(
                  new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8))
              .readLine();
      return first == null ? null : ModelDirectory.JSON.readTree(first).path("id").asText(null);
    } catch (IOException e) {
      return null;
    }
  }

  /** The highest batch id the checkpoint's {@code commits} log holds, or null. */
  private static Long lastCommittedBatch(String checkpoint, Configuration conf) throws IOException {
    Path commits = new Path(checkpoint, "commits");
    FileSystem fs = commits.getFileSystem(conf);
    if (!fs.exists(commits)) {
      return null;
    }
    Long last = null;
    for (FileStatus entry : fs.listStatus(commits)) {
      String name = entry.getPath().getName();
      if (name.matches("\\d+")) {
        long id = Long.parseLong(name);
        last = last == null ? id : Math.max(last, id);
      }
    }
    return last;
  }

  /**
   * Refuses a checkpoint that has committed micro-batches after the newest entry the directory
   * holds: every micro-batch the sink saw is recorded (a version, or a pending batch, empty ones
   * too) before Spark commits it, so the entries of those batches were deleted. Directories whose
   * newest record has no digest (written before empty micro-batches were recorded) are not checked.
   */
  private void checkCommitted(FileSystem fs, String checkpoint, long last, Configuration conf)
      throws IOException {
    Long committed = lastCommittedBatch(checkpoint, conf);
    if (committed == null || committed <= last) {
      return;
    }
    Path newest =
        fs.exists(directory.pendingPath(last))
            ? directory.pendingPath(last)
            : directory.versionPath(last);
    String recordPath =
        fs.exists(directory.pendingPath(last))
            ? ModelDirectory.PENDING_STATE
            : ModelDirectory.STATE_FILE;
    if (BatchRecord.read(newest, recordPath, conf).digest() == null) {
      return;
    }
    throw new IllegalArgumentException(
        "Model directory "
            + directory.dir
            + ": the checkpoint "
            + checkpoint
            + " has committed micro-batches up to "
            + committed
            + ", but the newest entry here is "
            + newest.getName()
            + ": the versions or pending batches after it are missing (deleted?); restore them, or "
            + "give a new model directory and checkpoint");
  }
}
