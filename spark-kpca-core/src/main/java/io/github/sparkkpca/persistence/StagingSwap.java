package io.github.sparkkpca.persistence;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.util.UUID;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The swap of a {@link SafeOutput} (its rules 4 and 5): the hidden siblings of a target ({@code
 * .NAME.spark-kpca-ID.writing}, {@code .replaced}, {@code .owner}), the owner record of a write,
 * the removal of what a killed write left, and the renames that put a written result in place of
 * the old one without losing either.
 */
final class StagingSwap {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The hidden siblings: {@code .NAME} + tag + ID + {@code .writing} or {@code .replaced}. */
  private static final String SIBLING_TAG = ".spark-kpca-";

  private static final String WRITING = "writing";
  private static final String REPLACED = "replaced";

  /**
   * The suffix of the owner record beside a staging directory ({@code .NAME.spark-kpca-ID.owner}):
   * the writing process's pid, host and start time, deleted when the write ends.
   */
  private static final String OWNER = "owner";

  private static final Logger LOG = LoggerFactory.getLogger(SafeOutput.class);

  /** The check a target must pass again right before it is replaced. */
  @FunctionalInterface
  interface Check {
    void run() throws IOException;
  }

  private final FileSystem fs;
  private final Path target;
  private final Path staging;
  private final String display;

  StagingSwap(FileSystem fs, Path target, String display) {
    this.fs = fs;
    this.target = target;
    this.display = display;
    this.staging = sibling(target, WRITING);
  }

  /** The hidden sibling the result is written to. */
  Path staging() {
    return staging;
  }

  /** The owner record of a staging directory. */
  static Path ownerOf(Path staging) {
    String name = staging.getName();
    return new Path(
        staging.getParent(), name.substring(0, name.length() - WRITING.length()) + OWNER);
  }

  /** Records this process as the writer of a staging directory. */
  static void writeOwner(FileSystem fs, Path owner) throws IOException {
    ProcessHandle self = ProcessHandle.current();
    ObjectNode record = JSON.createObjectNode();
    record.put("writer", "spark-kpca");
    record.put("pid", self.pid());
    record.put("host", localHost());
    record.put("started", self.info().startInstant().map(i -> i.toEpochMilli()).orElse(-1L));
    try (OutputStream out = fs.create(owner, true)) {
      out.write(JSON.writeValueAsBytes(record));
    }
  }

  private static String localHost() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }

  /**
   * Removes the staging directories of {@code target} that a killed write left behind, with a log
   * line each: those whose owner record names a process of this host that is gone (or a newer
   * process with its pid), and those older than {@value SafeOutput#STALE_AFTER_MINUTES} minutes
   * whose owner cannot be asked (another host, or no record). Only hidden siblings named as this
   * class names them are looked at; a write still running keeps its directory.
   */
  static void removeStale(FileSystem fs, Path target, long now) throws IOException {
    Path parent = target.getParent();
    if (parent == null || !fs.exists(parent)) {
      return;
    }
    String prefix = "." + target.getName() + SIBLING_TAG;
    String host = localHost();
    for (FileStatus entry : fs.listStatus(parent)) {
      String name = entry.getPath().getName();
      if (!name.startsWith(prefix)) {
        continue;
      }
      boolean writing = name.endsWith("." + WRITING);
      boolean ownerRecord = name.endsWith("." + OWNER);
      if (!writing && !ownerRecord) {
        continue;
      }
      Path staging =
          writing
              ? entry.getPath()
              : new Path(parent, name.substring(0, name.length() - OWNER.length()) + WRITING);
      if (ownerRecord && fs.exists(staging)) {
        continue; // handled with its staging directory
      }
      Path owner = ownerOf(staging);
      String why = null;
      long ageMinutes = (now - entry.getModificationTime()) / 60_000;
      if (fs.exists(owner)) {
        com.fasterxml.jackson.databind.JsonNode record;
        try (var in = fs.open(owner)) {
          record = JSON.readTree(in);
        } catch (IOException e) {
          record = null;
        }
        if (record != null && host.equals(record.path("host").asText())) {
          long pid = record.path("pid").asLong(-1);
          long started = record.path("started").asLong(-1);
          boolean alive =
              ProcessHandle.of(pid)
                  .filter(ProcessHandle::isAlive)
                  .filter(
                      h ->
                          started < 0
                              || h.info()
                                  .startInstant()
                                  .map(i -> i.toEpochMilli() == started)
                                  .orElse(true))
                  .isPresent();
          if (!alive) {
            why = "its writer, process " + pid + " on " + host + ", is gone";
          }
        } else if (ageMinutes >= SafeOutput.STALE_AFTER_MINUTES) {
          why =
              "it is "
                  + ageMinutes
                  + " minutes old and its writer"
                  + (record == null ? "'s record is unreadable" : " ran on another host");
        }
      } else if (ageMinutes >= SafeOutput.STALE_AFTER_MINUTES) {
        why = "it is " + ageMinutes + " minutes old and records no writer";
      }
      if (why != null) {
        LOG.warn(
            "removing {}, a staging directory of {} that a killed write left: {}",
            staging,
            target,
            why);
        fs.delete(staging, true);
        fs.delete(owner, false);
      }
    }
  }

  /**
   * Moves the old result aside, renames the new one into place and deletes the old one. Another run
   * committing to the same target at the same moment is detected: Hadoop's rename moves a directory
   * <i>into</i> an existing one, so a rename that finds the target written meanwhile leaves the
   * staging directory inside it; it is taken back out, and the target is refused as an existing
   * result (or, with overwrite, replaced), the other run's result intact.
   */
  void commit(Check check) throws IOException {
    commit(check, true);
  }

  private void commit(Check check, boolean retry) throws IOException {
    Path replaced = null;
    if (fs.exists(target)) {
      check.run();
      replaced = sibling(target, REPLACED);
      if (!fs.rename(target, replaced)) {
        throw new IOException(display + ": could not move the old content aside to " + replaced);
      }
    }
    IOException failure = null;
    boolean renamed;
    try {
      renamed = fs.rename(staging, target);
    } catch (IOException e) {
      renamed = false;
      failure = e;
    }
    if (!renamed) {
      if (replaced != null && !fs.exists(target)) {
        fs.rename(replaced, target);
      }
      throw new IOException(display + ": could not rename " + staging + " to it", failure);
    }
    Path nested = new Path(target, staging.getName());
    if (fs.exists(nested)) {
      // Another run wrote the target between the check above and the rename.
      if (!fs.rename(nested, staging)) {
        fs.delete(nested, true);
        throw new IOException(display + ": another run wrote it at the same time");
      }
      if (replaced != null) {
        fs.delete(replaced, true);
      }
      if (retry) {
        commit(check, false);
        return;
      }
      throw new FileAlreadyExistsException(
          display + ": another run wrote it at the same time; choose another path");
    }
    if (replaced != null) {
      fs.delete(replaced, true);
    }
  }

  void abort() {
    try {
      fs.delete(staging, true);
    } catch (IOException ignored) {
      // The sibling is hidden; a leftover does not affect the target.
    }
  }

  /**
   * Whether a directory entry is a hidden sibling this class left behind: a write or a swap killed
   * before it finished ({@code .NAME.spark-kpca-ID.writing}, {@code .replaced} or {@code .owner}).
   * Such an entry never holds the only copy of a committed result.
   */
  static boolean isLeftover(String name) {
    return name.startsWith(".")
        && name.contains(SIBLING_TAG)
        && (name.endsWith("." + WRITING)
            || name.endsWith("." + REPLACED)
            || name.endsWith("." + OWNER));
  }

  static Path sibling(Path target, String suffix) {
    String id = UUID.randomUUID().toString().substring(0, 8);
    return new Path(target.getParent(), "." + target.getName() + SIBLING_TAG + id + "." + suffix);
  }
}
