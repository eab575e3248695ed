package io.github.sparkkpca.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The proof that a saved stage is whole: {@value #NAME} at the stage's root lists every file the
 * writer wrote under it (its path relative to the root, its size and its SHA-256) with the format
 * tag {@value #FORMAT}. It is written last, after every other file ({@link SafeOutput#SAVED_STAGE}
 * marks a stage with it before the stage is renamed into place), and checked when the stage is
 * loaded, before anything in it is parsed: a file missing, a file not listed, or a size or digest
 * other than listed is refused with one line naming the file.
 *
 * <p>Hadoop's own files are left out, on writing and on checking: its checksum files ({@code
 * .NAME.crc}, which copy tools drop or rewrite) and the empty {@code _SUCCESS} markers; they hold
 * none of the model. The check reads the files through the Hadoop {@link FileSystem} API, so it
 * holds on every file system a stage can be saved to, and does not rely on the {@code .crc} files.
 * A stage saved before manifests existed (0.1.0, and format 2 before 0.2.0) has none: it loads with
 * a warning, its numbers checked as before. A stage saved since records the manifest's format in
 * its metadata ({@link #METADATA_FIELD}), and without its manifest is refused ({@link #missing}).
 */
public final class Manifest {

  /** The manifest's file name at the stage root (hidden from Hadoop's and Spark's readers). */
  public static final String NAME = "_manifest.json";

  /** The format tag of the manifest; readers refuse another. */
  public static final String FORMAT = "spark-kpca-manifest-1";

  /**
   * The field of a stage's metadata JSON recording that the stage was saved with a manifest (its
   * format tag): such a stage found without one is refused, as a file of it was removed or the copy
   * is incomplete, instead of loading with the warning for stages saved before manifests.
   */
  static final String METADATA_FIELD = "manifest";

  private static final Logger LOG = LoggerFactory.getLogger(Manifest.class);

  private Manifest() {}

  /**
   * What to do with a stage found without a manifest, by its metadata: refuse it when the metadata
   * records that it was saved with one ({@link #METADATA_FIELD}), else (saved before manifests)
   * accept it with a warning.
   *
   * @throws IllegalArgumentException starting with {@code what} when the metadata records a
   *     manifest
   */
  static void missing(String path, JsonNode metadata, String what) {
    String recorded = metadata.path(METADATA_FIELD).asText("");
    if (!recorded.isEmpty()) {
      throw new IllegalArgumentException(
          what
              + NAME
              + " is missing, but its metadata records that the stage was saved with one ("
              + recorded
              + "): a file was removed or the copy is incomplete; copy the whole directory again"
              + " or save the model again");
    }
    warnMissing(path);
  }

  private static void warnMissing(String path) {
    LOG.warn(
        "{} has no {}: saved before manifests (spark-kpca 0.1.0 or an early 0.2.0), so an "
            + "edited file can go unnoticed; save it again to add one",
        path,
        NAME);
  }

  /**
   * Whether a file under a stage is left out of its manifest: Hadoop's checksums and markers, and
   * the {@link ModelSignature} of the manifest.
   */
  static boolean ignored(String name) {
    return name.equals(NAME)
        || name.equals(ModelSignature.NAME)
        || name.equals("_SUCCESS")
        || name.endsWith(".crc");
  }

  /**
   * Writes the manifest of the stage at {@code root}, listing every file under it; one written
   * before is replaced (a stage saved into a directory to which its caller then added files, as a
   * stream's version adds its state, and which the caller marks again). With a signing key
   * configured the manifest is then signed ({@link ModelSignature#sign}).
   */
  static void write(FileSystem fs, Path root) throws IOException {
    Path manifest = new Path(root, NAME);
    ObjectNode json = Persistence.JSON.createObjectNode();
    json.put("format", FORMAT);
    ArrayNode files = json.putArray("files");
    for (Map.Entry<String, FileStatus> e : files(fs, root).entrySet()) {
      ObjectNode file = files.addObject();
      file.put("path", e.getKey());
      file.put("size", e.getValue().getLen());
      file.put("sha256", sha256(fs, e.getValue().getPath()));
    }
    // No checksum file beside it (the manifest is itself what proves the stage whole).
    try (OutputStream out = Persistence.withoutChecksums(fs).create(manifest, true)) {
      out.write(Persistence.JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(json));
    }
    ModelSignature.sign(fs, root);
  }

  /**
   * Checks the stage at {@code path} against its manifest; a stage without one is accepted with a
   * warning.
   *
   * @param what the start of every message, e.g. "Cannot load X from 'path': "
   * @return whether the stage had a manifest
   * @throws IllegalArgumentException starting with {@code what} and naming the file, when a file is
   *     missing, not listed, or of another size or digest than listed, or the manifest is
   *     unreadable
   */
  public static boolean verify(String path, Configuration conf, String what) {
    return verify(path, conf, what, true);
  }

  /** As {@link #verify(String, Configuration, String)}, warning or not of a missing manifest. */
  static boolean verify(String path, Configuration conf, String what, boolean warn) {
    Path root = new Path(path);
    try {
      FileSystem fs = root.getFileSystem(conf);
      Path manifest = new Path(root, NAME);
      if (!fs.exists(manifest)) {
        if (warn && fs.exists(new Path(root, "metadata"))) {
          warnMissing(path);
        }
        return false;
      }
      JsonNode json;
      try (InputStream in = fs.open(manifest)) {
        json = Persistence.JSON.readTree(in);
      } catch (IOException e) {
        throw new IllegalArgumentException(
            what + NAME + " is not readable JSON (" + Persistence.firstLine(e) + ")", e);
      }
      if (json == null || !FORMAT.equals(json.path("format").asText())) {
        throw new IllegalArgumentException(
            what + NAME + " is not a manifest of format " + FORMAT + "; the stage is corrupt");
      }
      Map<String, FileStatus> present = files(fs, root);
      for (JsonNode file : json.path("files")) {
        String name = file.path("path").asText("");
        FileStatus status = present.remove(name);
        if (status == null) {
          throw new IllegalArgumentException(
              what + name + " is missing (" + NAME + " lists it): the stage is incomplete");
        }
        long size = file.path("size").asLong(-1);
        if (status.getLen() != size) {
          throw new IllegalArgumentException(
              what
                  + name
                  + " has "
                  + status.getLen()
                  + " bytes, "
                  + NAME
                  + " lists "
                  + size
                  + ": the file was changed after the stage was saved");
        }
        if (!sha256(fs, status.getPath()).equals(file.path("sha256").asText())) {
          throw new IllegalArgumentException(
              what
                  + name
                  + " does not match its SHA-256 in "
                  + NAME
                  + ": the file was changed after the stage was saved");
        }
      }
      if (!present.isEmpty()) {
        throw new IllegalArgumentException(
            what
                + present.keySet().iterator().next()
                + " is not listed in "
                + NAME
                + ": it was added after the stage was saved");
      }
      return true;
    } catch (IOException e) {
      throw new IllegalArgumentException(
          what + "cannot check its files (" + Persistence.firstLine(e) + ")", e);
    }
  }

  /** Every file under {@code root} but the ignored ones, by path relative to it, sorted. */
  private static Map<String, FileStatus> files(FileSystem fs, Path root) throws IOException {
    Map<String, FileStatus> files = new TreeMap<>();
    collect(fs, root, "", files);
    return files;
  }

  private static void collect(FileSystem fs, Path dir, String prefix, Map<String, FileStatus> out)
      throws IOException {
    for (FileStatus status : fs.listStatus(dir)) {
      String name = status.getPath().getName();
      if (status.isDirectory()) {
        collect(fs, status.getPath(), prefix + name + "/", out);
      } else if (!ignored(name)) {
        out.put(prefix + name, status);
      }
    }
  }

  private static String sha256(FileSystem fs, Path file) throws IOException {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
    byte[] buffer = new byte[1 << 16];
    try (InputStream in = fs.open(file)) {
      for (int read; (read = in.read(buffer)) > 0; ) {
        digest.update(buffer, 0, read);
      }
    }
    return HexFormat.of().formatHex(digest.digest());
  }
}
