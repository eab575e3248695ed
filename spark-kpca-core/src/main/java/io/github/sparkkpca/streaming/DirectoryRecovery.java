package io.github.sparkkpca.streaming;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Recovery of a stream's model directory: what a restart resumes from. Opening the directory
 * removes the leftovers of a killed write and the pending batches a version already holds, checks
 * the newest version and the pending batches after it against their records ({@link BatchRecord}:
 * batch id, files, rows, order) and loads that version; the sink then folds the pending rows in
 * again, each checked against its recorded count.
 */
final class DirectoryRecovery {

  private final ModelDirectory directory;

  DirectoryRecovery(ModelDirectory directory) {
    this.directory = directory;
  }

  /**
   * Checks the directory, creates its marker (options recorded, no checkpoint) when it has none,
   * removes the hidden leftovers of a killed write and the pending batches a version holds, and
   * returns the newest committed version and the pending batches after it.
   *
   * @throws IOException when the directory is a file, another directory that is not empty, or a
   *     stream of another algorithm
   */
  ModelDirectory.Contents open(Configuration conf) throws IOException {
    FileSystem fs = directory.dir.getFileSystem(conf);
    if (fs.exists(directory.dir)) {
      if (!fs.getFileStatus(directory.dir).isDirectory()) {
        throw new IOException("Model directory " + directory.dir + " is a file");
      }
      FileStatus[] entries = fs.listStatus(directory.dir);
      if (entries.length > 0) {
        JsonNode marker = directory.readMarker(fs);
        if (marker == null) {
          throw new IOException(directory.notStreaming());
        }
        String saved = marker.path("algorithm").asText("");
        if (!saved.equals(directory.algorithm)) {
          throw new IOException(
              "Model directory "
                  + directory.dir
                  + " holds a stream of algorithm "
                  + saved
                  + ", not "
                  + directory.algorithm);
        }
        for (FileStatus entry : entries) {
          if (SafeOutput.isLeftover(entry.getPath().getName())) {
            fs.delete(entry.getPath(), true);
          }
        }
      }
    }
    if (!fs.exists(new Path(directory.dir, ModelDirectory.MARKER))) {
      directory.writeMarker(fs, null);
    }
    List<Long> versions = ModelDirectory.batchIds(fs, directory.dir, ModelDirectory.VERSION);
    Long last = versions.isEmpty() ? null : versions.get(versions.size() - 1);
    List<Long> pending = new ArrayList<>();
    for (long id : ModelDirectory.batchIds(fs, directory.dir, ModelDirectory.PENDING)) {
      if (last != null && id <= last) {
        fs.delete(
            directory.pendingPath(id), true); // a version holds it (killed before the clean-up)
      } else {
        pending.add(id);
      }
    }
    ModelDirectory.Version version = null;
    if (last != null) {
      Path path = directory.versionPath(last);
      BatchRecord record = BatchRecord.read(path, ModelDirectory.STATE_FILE, conf);
      record.check(
          path, ModelDirectory.STATE_FILE, last, BatchRecord.UNKNOWN, BatchRecord.UNKNOWN, conf);
      AbstractKernelPCAModel<?> model = AbstractKernelPCAModel.loadAny(path.toString());
      record.check(
          path, ModelDirectory.STATE_FILE, last, model.numRows(), BatchRecord.UNKNOWN, conf);
      version = new ModelDirectory.Version(last, model, record.ojaSteps());
    }
    checkPending(pending, last, conf);
    String queryId =
        !pending.isEmpty()
            ? directory.queryIdOf(fs, pending.get(pending.size() - 1))
            : last != null ? directory.queryIdOf(fs, last) : null;
    return new ModelDirectory.Contents(version, pending, queryId);
  }

  /**
   * Checks the history a restart resumes from, before the query starts: the newest version's and
   * the pending batches' records against their directories (batch id, files, order).
   *
   * @throws IllegalArgumentException with one line naming the record file that does not match
   */
  void checkHistory(FileSystem fs, Configuration conf) throws IOException {
    List<Long> versions = ModelDirectory.batchIds(fs, directory.dir, ModelDirectory.VERSION);
    Long last = versions.isEmpty() ? null : versions.get(versions.size() - 1);
    if (last != null) {
      BatchRecord.read(directory.versionPath(last), ModelDirectory.STATE_FILE, conf)
          .check(
              directory.versionPath(last),
              ModelDirectory.STATE_FILE,
              last,
              BatchRecord.UNKNOWN,
              BatchRecord.UNKNOWN,
              conf);
    }
    List<Long> pending = new ArrayList<>();
    for (long id : ModelDirectory.batchIds(fs, directory.dir, ModelDirectory.PENDING)) {
      if (last == null || id > last) {
        pending.add(id);
      }
    }
    checkPending(pending, last, conf);
  }

  /**
   * Checks the pending batches after the newest version against their records: batch id, files, and
   * that each follows the entry before it (none missing between them).
   */
  private void checkPending(List<Long> pending, Long last, Configuration conf) throws IOException {
    long previous = last == null ? -1 : last;
    for (long id : pending) {
      BatchRecord.read(directory.pendingPath(id), ModelDirectory.PENDING_STATE, conf)
          .check(
              directory.pendingPath(id),
              ModelDirectory.PENDING_STATE,
              id,
              BatchRecord.UNKNOWN,
              previous,
              conf);
      previous = id;
    }
  }

  /**
   * Checks the rows read back from a pending batch against its record.
   *
   * @throws IllegalArgumentException naming the record file when the counts differ
   */
  void checkPendingRows(long batchId, long rows, Configuration conf) throws IOException {
    BatchRecord.read(directory.pendingPath(batchId), ModelDirectory.PENDING_STATE, conf)
        .check(
            directory.pendingPath(batchId),
            ModelDirectory.PENDING_STATE,
            batchId,
            rows,
            BatchRecord.UNKNOWN,
            conf);
  }
}
