package io.github.sparkkpca.streaming;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkkpca.persistence.Manifest;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The record of one entry of a stream's model directory, a version or a pending micro-batch, that
 * lets the entry be checked against its own identity: the batch id it was committed as, the batch
 * held before it ({@code previous}, -1 for the first), its rows (a version: every row folded in; a
 * pending batch: its own), the query that wrote it, and a SHA-256 digest of its files. A version is
 * a saved model whose {@link Manifest} already lists every file with its SHA-256, so its digest is
 * taken over that list (path, size and SHA-256 of each file but the record), read from the
 * manifest, and checking it checks the files against the manifest: the files are hashed once, by
 * the manifest. A pending batch has no manifest: its digest is taken over its files (paths and
 * contents; the record itself, Hadoop's {@code .crc} files and the list of entries {@link
 * SafeOutput} adds when it commits the entry aside). A directory renamed, swapped with another, or
 * filled with another batch's rows no longer matches its record, and {@link #check} refuses it with
 * one line naming the file. Records of earlier builds, without {@code previous} or {@code digest},
 * are checked for what they hold.
 *
 * <p>The record travels with its entry: a version copied from another stream's directory carries a
 * record that matches its own files. So the directory keeps its own history too, outside the
 * entries: {@value #HISTORY}{@code /<entry name>.<digest>} records the digest of the entry
 * committed under that name ({@link #recordHistory}, written before the entry's rename commits it),
 * and {@link #check} refuses an entry whose digest its directory's history does not hold for its
 * name. A directory of an earlier build has no history; its entries are checked against their
 * records only.
 */
record BatchRecord(
    long batchId,
    String algorithm,
    long previous,
    long rows,
    long ojaSteps,
    String queryId,
    String digest) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Previous, rows or digest not recorded (a record of an earlier build). */
  static final long UNKNOWN = Long.MIN_VALUE;

  /**
   * The directory's own history, in the stream directory: one empty file per committed entry, named
   * by the entry and its digest (hidden from Spark's readers by its underscore).
   */
  static final String HISTORY = "_SPARK_KPCA_HISTORY";

  /** Writes the record, computing the digest of the entry's files written so far. */
  static BatchRecord write(
      Path entry,
      String recordPath,
      long batchId,
      String algorithm,
      long previous,
      long rows,
      long ojaSteps,
      String queryId,
      Configuration conf)
      throws IOException {
    FileSystem fs = entry.getFileSystem(conf);
    BatchRecord record =
        new BatchRecord(
            batchId, algorithm, previous, rows, ojaSteps, queryId, digest(fs, entry, recordPath));
    ObjectNode json = JSON.createObjectNode();
    json.put("batchId", batchId);
    json.put("algorithm", algorithm);
    json.put("previous", previous);
    json.put("rows", rows);
    json.put("ojaSteps", ojaSteps);
    if (queryId != null) {
      json.put("queryId", queryId);
    }
    json.put("digest", record.digest());
    try (OutputStream out = fs.create(new Path(entry, recordPath), false)) {
      out.write(JSON.writeValueAsBytes(json));
    }
    return record;
  }

  /**
   * Reads the record of an entry.
   *
   * @throws IllegalArgumentException naming the file when it is missing or not a record
   */
  static BatchRecord read(Path entry, String recordPath, Configuration conf) throws IOException {
    Path file = new Path(entry, recordPath);
    FileSystem fs = file.getFileSystem(conf);
    if (!fs.exists(file)) {
      throw new IllegalArgumentException(
          file + ": missing; the stream's record of " + entry.getName() + " is gone");
    }
    JsonNode json;
    try (InputStream in = fs.open(file)) {
      json = JSON.readTree(in);
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": not a stream record (" + e.getMessage() + ")");
    }
    if (json == null || !json.path("batchId").canConvertToLong()) {
      throw new IllegalArgumentException(file + ": not a stream record (no batchId)");
    }
    return new BatchRecord(
        json.path("batchId").asLong(),
        json.path("algorithm").asText(null),
        json.has("previous") ? json.path("previous").asLong() : UNKNOWN,
        json.has("rows") && json.path("rows").asLong() >= 0 ? json.path("rows").asLong() : UNKNOWN,
        json.path("ojaSteps").asLong(0),
        json.path("queryId").asText(null),
        json.path("digest").asText(null));
  }

  /**
   * Checks an entry against its record: the batch id of its name, the digest of its files, and,
   * when given, its rows and the batch held before it.
   *
   * @param rows the rows found (a version's model count, a pending batch's Parquet count), or
   *     {@link #UNKNOWN} when not counted
   * @param previous the batch id held before this entry, or {@link #UNKNOWN} when not known
   * @throws IllegalArgumentException with one line naming the record file and what differs
   */
  void check(
      Path entry, String recordPath, long nameBatchId, long rows, long previous, Configuration conf)
      throws IOException {
    Path file = new Path(entry, recordPath);
    String how = null;
    if (batchId != nameBatchId) {
      how =
          "it records batch "
              + batchId
              + ", the directory's name batch "
              + nameBatchId
              + " (renamed or swapped with another)";
    } else if (digest != null && !matchesDigest(entry, recordPath, conf)) {
      how =
          "the files of " + entry.getName() + " differ from the ones recorded (edited or replaced)";
    } else if (rows != UNKNOWN && this.rows != UNKNOWN && rows != this.rows) {
      how = "it records " + this.rows + " rows, " + entry.getName() + " holds " + rows;
    } else if (previous != UNKNOWN && this.previous != UNKNOWN && previous != this.previous) {
      how =
          "it follows batch "
              + this.previous
              + ", but the batch before it in the directory is "
              + (previous < 0 ? "none" : Long.toString(previous))
              + " (a version or pending batch is missing or was added)";
    } else if (digest != null) {
      how = againstHistory(entry, conf);
    }
    if (how != null) {
      throw new IllegalArgumentException(
          file
              + ": "
              + how
              + "; the stream's history does not hold together, restore the directory or give a "
              + "new model directory and checkpoint");
    }
  }

  /**
   * Records in the directory's history that the entry to be committed as {@code target} has the
   * digest of {@code record}: the empty file {@code <entry name>.<digest>}. Called before the
   * rename that commits the entry, so a committed entry always has its history; a name per digest,
   * so an attempt that never commits (killed, or beaten to the name) leaves the history of the
   * entry that holds the name intact.
   */
  static void recordHistory(Path target, BatchRecord record, Configuration conf)
      throws IOException {
    Path file =
        new Path(new Path(target.getParent(), HISTORY), historyName(target, record.digest()));
    FileSystem fs = file.getFileSystem(conf);
    fs.mkdirs(file.getParent());
    fs.create(file, true).close();
  }

  /** Deletes the history of the entries of {@code dir} deleted before {@code batchId}. */
  static void pruneHistory(Path dir, long batchId, Configuration conf) throws IOException {
    Path history = new Path(dir, HISTORY);
    FileSystem fs = history.getFileSystem(conf);
    if (!fs.exists(history)) {
      return;
    }
    for (FileStatus file : fs.listStatus(history)) {
      String entry = file.getPath().getName().replaceFirst("\\..*", "");
      for (Pattern kind : List.of(ModelDirectory.VERSION, ModelDirectory.PENDING)) {
        Matcher m = kind.matcher(entry);
        if (m.matches()
            && Long.parseLong(m.group(1)) < batchId
            && !fs.exists(new Path(dir, entry))) {
          fs.delete(file.getPath(), false);
        }
      }
    }
  }

  private static String historyName(Path entry, String digest) {
    return entry.getName() + "." + digest;
  }

  /**
   * Why the entry is not one its directory's history holds under its name (copied from another
   * stream's directory), or null when it is, or when the directory keeps no history (an earlier
   * build's).
   */
  private String againstHistory(Path entry, Configuration conf) throws IOException {
    Path history = new Path(entry.getParent(), HISTORY);
    FileSystem fs = history.getFileSystem(conf);
    if (!fs.exists(history) || fs.exists(new Path(history, historyName(entry, digest)))) {
      return null;
    }
    boolean another =
        fs.listStatus(history, p -> p.getName().startsWith(entry.getName() + ".")).length > 0;
    return "the directory "
        + entry.getParent()
        + (another
            ? " committed another " + entry.getName() + " (its " + HISTORY + " holds other digests)"
            : " never committed " + entry.getName() + " (not in its " + HISTORY + ")")
        + ": copied from another stream's directory?";
  }

  /**
   * Whether the entry's files are those recorded: a version's against its manifest, then the
   * manifest's list against the digest; a pending batch's by digesting its files.
   */
  private boolean matchesDigest(Path entry, String recordPath, Configuration conf)
      throws IOException {
    FileSystem fs = entry.getFileSystem(conf);
    if (!fs.exists(new Path(entry, Manifest.NAME))) {
      return digest.equals(digest(fs, entry, recordPath));
    }
    try {
      Manifest.verify(entry.toString(), conf, entry + ": ");
    } catch (IllegalArgumentException e) {
      return false;
    }
    return digest.equals(manifestDigest(fs, entry, recordPath));
  }

  /**
   * The digest of an entry: over its {@link Manifest}'s list when it has one (a saved model), else
   * over its files.
   */
  static String digest(FileSystem fs, Path entry, String recordPath) throws IOException {
    return fs.exists(new Path(entry, Manifest.NAME))
        ? manifestDigest(fs, entry, recordPath)
        : filesDigest(fs, entry, recordPath);
  }

  /**
   * SHA-256 over the files a saved model's {@link Manifest} lists (relative path, size and SHA-256
   * as listed), in path order, but the record (which the manifest lists once the entry is
   * committed). The files themselves are not read: {@link Manifest#verify} checks them.
   */
  private static String manifestDigest(FileSystem fs, Path entry, String recordPath)
      throws IOException {
    JsonNode manifest;
    try (InputStream in = fs.open(new Path(entry, Manifest.NAME))) {
      manifest = JSON.readTree(in);
    } catch (IOException e) {
      return ""; // unreadable: matches no recorded digest
    }
    java.util.TreeMap<String, String> listed = new java.util.TreeMap<>();
    for (JsonNode file : manifest.path("files")) {
      String path = file.path("path").asText("");
      if (!path.equals(recordPath)) {
        listed.put(path, file.path("size").asLong(-1) + "\0" + file.path("sha256").asText(""));
      }
    }
    MessageDigest sha = sha256();
    listed.forEach(
        (path, sizeAndHash) -> {
          sha.update((path + "\0" + sizeAndHash + "\0").getBytes(StandardCharsets.UTF_8));
        });
    return HexFormat.of().formatHex(sha.digest());
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** SHA-256 over the entry's files (relative path and content), in path order. */
  private static String filesDigest(FileSystem fs, Path entry, String recordPath)
      throws IOException {
    MessageDigest sha = sha256();
    List<String> files = new ArrayList<>();
    collect(fs, entry, "", files);
    files.sort(null);
    byte[] buffer = new byte[1 << 16];
    for (String relative : files) {
      // The stage's manifest is rewritten after the record (SafeOutput writes it last, over every
      // file); it holds only digests of the files digested here.
      if (relative.equals(recordPath)
          || relative.equals(SafeOutput.MARKER)
          || relative.equals(Manifest.NAME)) {
        continue;
      }
      sha.update(relative.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      try (InputStream in = fs.open(new Path(entry, relative))) {
        for (int n; (n = in.read(buffer)) > 0; ) {
          sha.update(buffer, 0, n);
        }
      }
      sha.update((byte) 0);
    }
    return HexFormat.of().formatHex(sha.digest());
  }

  private static void collect(FileSystem fs, Path dir, String prefix, List<String> out)
      throws IOException {
    for (FileStatus status : fs.listStatus(dir)) {
      String name = status.getPath().getName();
      if (name.endsWith(".crc")) {
        continue;
      }
      if (status.isDirectory()) {
        collect(fs, status.getPath(), prefix + name + "/", out);
      } else {
        out.add(prefix + name);
      }
    }
  }
}
