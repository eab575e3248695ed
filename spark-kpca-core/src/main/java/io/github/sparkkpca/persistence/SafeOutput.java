package io.github.sparkkpca.persistence;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;

/**
 * Writes a result (a saved stage, a command's output directory or file) so that it replaces only an
 * earlier result of the same kind, only when asked to, and never loses the old one on a failed
 * write. Paths go through the Hadoop {@link FileSystem} API, so the same rules hold on local disks,
 * HDFS, DBFS and object stores.
 *
 * <p><b>Rules.</b>
 *
 * <ol>
 *   <li>A target that does not exist is written.
 *   <li>A target that equals or contains one of the inputs ({@link Builder#protecting}) is refused,
 *       with or without overwrite: replacing it would delete the data being read.
 *   <li>An existing target is replaced only when overwrite is requested <i>and</i> it is an empty
 *       directory or an earlier result of the expected {@link Kind}. Anything else is refused, so a
 *       mistyped path (the working directory, a data directory) is never deleted.
 *   <li>The new result is written into a hidden sibling, {@code .NAME.spark-kpca-ID.writing}, then
 *       swapped in: the old result is renamed to {@code .NAME.spark-kpca-ID.replaced}, the new one
 *       renamed to {@code NAME}, and only then the old one is deleted. A failed write deletes the
 *       sibling and leaves the old result as it was; a failed swap renames the old result back.
 *       Renames are atomic on HDFS and local disks; on object stores (S3, GCS) a rename copies, so
 *       the swap takes longer there but keeps the same order.
 *   <li>Beside the sibling, {@code .NAME.spark-kpca-ID.owner} records the writing process (pid,
 *       host, start time) until the write ends. A write killed before it ended leaves both; the
 *       next request to write {@code NAME} removes them, with a log line, when that process is gone
 *       (same host) or, when it cannot be asked, after {@value #STALE_AFTER_MINUTES} minutes.
 * </ol>
 *
 * <p><b>Earlier results.</b> {@link #SAVED_STAGE}: a directory holding only {@code metadata},
 * {@code data} and its {@link Manifest}, whose {@code metadata} JSON names a class of this library
 * (what every spark-kpca {@code MLWriter} writes; the manifest is written last, as its mark).
 * {@link #MARKED_DIRECTORY}: a directory holding the marker file {@value #MARKER}, which lists the
 * entries written with it, and no other entries; the leading underscore hides the marker from
 * Spark's and Hadoop's file readers, so a CSV or Parquet output reads back as before. A directory
 * into which something else was put later is therefore refused too.
 *
 * <p>The check ({@link Builder#prepare}) reads only file metadata and runs no Spark job, so a
 * command can refuse its outputs before its first pass over the data. The hidden siblings, the
 * owner records and the renames of rules 4 and 5 are {@link StagingSwap}'s.
 */
public final class SafeOutput {

  /** The marker file of a {@link #MARKED_DIRECTORY}. */
  public static final String MARKER = "_SPARK_KPCA_OUTPUT";

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * How old a staging directory must be to be removed when its owner cannot be asked: written by a
   * process on another host, or left without an owner record (by an older release).
   */
  public static final long STALE_AFTER_MINUTES = 24 * 60;

  private static final String PACKAGE_PREFIX = "io.github.sparkkpca.";
  private static final Set<String> STAGE_ENTRIES = Set.of("metadata", "data", Manifest.NAME);

  /** What an existing target must be to be replaced: an earlier result of the same kind. */
  public interface Kind {

    /** What this kind is, for messages, e.g. "a stage saved by spark-kpca". */
    String description();

    /**
     * Why the existing, non-empty {@code path} is not an earlier result of this kind (a phrase
     * completing "it ..."), or null when it is one.
     */
    String whyNotEarlier(FileSystem fs, Path path) throws IOException;

    /**
     * Marks a freshly written result, before it is swapped in, so that a later run recognises it.
     */
    default void mark(FileSystem fs, Path written) throws IOException {}
  }

  /**
   * A directory written by a spark-kpca {@code MLWriter}: {@code metadata} naming a class of this
   * library.
   */
  public static final Kind SAVED_STAGE =
      new Kind() {
        @Override
        public String description() {
          return "a stage saved by spark-kpca";
        }

        @Override
        public String whyNotEarlier(FileSystem fs, Path path) throws IOException {
          if (!fs.getFileStatus(path).isDirectory()) {
            return "is a file, not a saved model";
          }
          for (FileStatus entry : fs.listStatus(path)) {
            String name = entry.getPath().getName();
            if (!STAGE_ENTRIES.contains(name) && !Manifest.ignored(name)) {
              return "holds '"
                  + entry.getPath().getName()
                  + "', which is not part of a saved model";
            }
          }
          Path metadata = new Path(path, "metadata");
          if (!fs.exists(metadata)) {
            return "has no metadata directory, so it is not a saved model";
          }
          String cls;
          try {
            cls = JSON.readTree(firstLine(fs, metadata)).path("class").asText("");
          } catch (IOException e) {
            return "has unreadable metadata, so it is not a saved model";
          }
          return cls.startsWith(PACKAGE_PREFIX)
              ? null
              : "holds a saved '" + cls + "', not a spark-kpca stage";
        }

        /** The stage's {@link Manifest}, written after every other file. */
        @Override
        public void mark(FileSystem fs, Path written) throws IOException {
          Manifest.write(fs, written);
        }
      };

  /**
   * A directory written through {@link SafeOutput} with this kind: it holds {@value #MARKER}
   * listing its entries.
   */
  public static final Kind MARKED_DIRECTORY =
      new Kind() {
        @Override
        public String description() {
          return "an output of spark-kpca";
        }

        @Override
        public String whyNotEarlier(FileSystem fs, Path path) throws IOException {
          if (!fs.getFileStatus(path).isDirectory()) {
            return "is a file, not an output directory of spark-kpca";
          }
          Path marker = new Path(path, MARKER);
          if (!fs.exists(marker)) {
            return "has no " + MARKER + " file, so spark-kpca did not write it";
          }
          Set<String> written = new HashSet<>();
          try (var in = fs.open(marker)) {
            JSON.readTree(in).path("entries").forEach(e -> written.add(e.asText()));
          } catch (IOException e) {
            return "has an unreadable " + MARKER + " file";
          }
          for (FileStatus entry : fs.listStatus(path)) {
            String name = entry.getPath().getName();
            if (!name.equals(MARKER) && !written.contains(name)) {
              return "holds '" + name + "', which spark-kpca did not write there";
            }
          }
          return null;
        }

        @Override
        public void mark(FileSystem fs, Path written) throws IOException {
          ObjectNode marker = JSON.createObjectNode();
          marker.put("writer", "spark-kpca");
          ArrayNode entries = marker.putArray("entries");
          FileStatus[] statuses = fs.listStatus(written);
          Arrays.sort(statuses);
          for (FileStatus entry : statuses) {
            entries.add(entry.getPath().getName());
          }
          try (OutputStream out = fs.create(new Path(written, MARKER), false)) {
            out.write(JSON.writeValueAsBytes(marker));
          }
        }
      };

  /** Writes a result to the path it is given (the hidden sibling). */
  @FunctionalInterface
  public interface Writer {
    void writeTo(String path) throws IOException;
  }

  private final FileSystem fs;
  private final Path target;
  private final StagingSwap swap;
  private final Path staging;
  private final String display;
  private final Kind kind;
  private final boolean overwrite;

  /** What the refusal of an existing result says after "... already exists there". */
  private final String existing;

  private SafeOutput(
      FileSystem fs, Path target, String display, Kind kind, boolean overwrite, String existing) {
    this.fs = fs;
    this.target = target;
    this.display = display;
    this.kind = kind;
    this.overwrite = overwrite;
    this.existing = existing;
    this.swap = new StagingSwap(fs, target, display);
    this.staging = swap.staging();
  }

  /**
   * Starts the request to write {@code target}, which may replace only an earlier result of {@code
   * kind}.
   */
  public static Builder to(String target, Kind kind) {
    return new Builder(target, kind);
  }

  /**
   * The {@code MLWriter.save} of this library's stages: Spark's own {@code save} deletes an
   * existing path when overwrite was requested, whatever it holds; this one refuses a path that is
   * not a stage saved by spark-kpca (or an empty directory) and swaps the new stage in. Without
   * overwrite an existing path is refused, as in Spark.
   *
   * @param saveImpl the writer's {@code saveImpl}, called with the hidden sibling path
   * @throws FileAlreadyExistsException when the path may not be written
   */
  public static void saveStage(
      String path, boolean overwrite, SparkSession spark, Consumer<String> saveImpl)
      throws IOException {
    to(path, SAVED_STAGE)
        .overwrite(overwrite)
        .named("Path " + path, "use write().overwrite().save(path)")
        .prepare(spark.sparkContext().hadoopConfiguration())
        .write(saveImpl::accept);
  }

  /** How a {@link SafeOutput} is requested. */
  public static final class Builder {
    private final String target;
    private final Kind kind;
    private boolean overwrite;
    private String display;
    private String overwriteHint = "request overwrite";
    private String neverReplacedAdvice;
    private final List<String> inputs = new ArrayList<>();

    private Builder(String target, Kind kind) {
      if (target == null || target.isBlank()) {
        throw new IllegalArgumentException("an output path is needed");
      }
      this.target = target;
      this.kind = kind;
    }

    /** Whether an earlier result of the kind may be replaced. */
    public Builder overwrite(boolean value) {
      this.overwrite = value;
      return this;
    }

    /**
     * Names the target in messages, e.g. ("--model-out model/", "add --overwrite"); default ("Path
     * " + target, "request overwrite").
     *
     * @param name the target as the user gave it, starting each message
     * @param hint how to request overwrite, completing "to replace it, ..."
     */
    public Builder named(String name, String hint) {
      this.display = name;
      this.overwriteHint = hint;
      return this;
    }

    /**
     * Names a target that is never replaced, whatever the options (a stream's model version): an
     * existing one was created by another writer, which the refusal says, with {@code advice} (what
     * to do) after it.
     */
    public Builder namedNeverReplaced(String name, String advice) {
      this.display = name;
      this.neverReplacedAdvice = advice;
      return this;
    }

    /** Inputs (paths or globs) that the target must neither equal nor contain. */
    public Builder protecting(Collection<String> paths) {
      inputs.addAll(paths);
      return this;
    }

    /**
     * Checks the target against the rules, reading only file metadata.
     *
     * @throws FileAlreadyExistsException naming the target and the reason when it may not be
     *     written
     */
    public SafeOutput prepare(Configuration conf) throws IOException {
      Path path = new Path(target);
      FileSystem fs = path.getFileSystem(conf);
      Path qualified = fs.makeQualified(path);
      String display = this.display != null ? this.display : "Path " + target;
      if (qualified.getParent() == null) {
        throw new FileAlreadyExistsException(
            display + ": the root of a file system is never written to");
      }
      for (String input : inputs) {
        for (Path read : expand(input, conf)) {
          if (isAncestorOrSelf(qualified, read)) {
            throw new FileAlreadyExistsException(
                display
                    + ": it "
                    + (qualified.equals(read) ? "is" : "contains")
                    + " the input "
                    + input
                    + "; choose another path");
          }
        }
      }
      StagingSwap.removeStale(fs, qualified, System.currentTimeMillis());
      String existing =
          neverReplacedAdvice != null
              ? ", created by another writer; it is never replaced: " + neverReplacedAdvice
              : "; to replace it, " + overwriteHint;
      SafeOutput output =
          new SafeOutput(
              fs, qualified, display, kind, overwrite && neverReplacedAdvice == null, existing);
      output.checkReplaceable();
      return output;
    }
  }

  /** The target, qualified. */
  public Path target() {
    return target;
  }

  /** The hidden sibling the result is written to before it is swapped in. */
  public Path staging() {
    return staging;
  }

  /**
   * Writes the result into {@link #staging()}, marks it ({@link Kind#mark}) and swaps it in; on any
   * failure deletes the sibling and rethrows, leaving the target as it was.
   */
  public void write(Writer writer) throws IOException {
    Path owner = StagingSwap.ownerOf(staging);
    try {
      StagingSwap.writeOwner(fs, owner);
      writer.writeTo(staging.toString());
      if (!fs.exists(staging)) {
        throw new IOException(display + ": nothing was written");
      }
      kind.mark(fs, staging);
      swap.commit(this::checkReplaceable);
    } catch (IOException | RuntimeException | Error e) {
      swap.abort();
      throw e;
    } finally {
      try {
        fs.delete(owner, false);
      } catch (IOException ignored) {
        // A leftover record names a finished process: the next run removes it.
      }
    }
  }

  /** Refuses a target that may not be replaced (checked again right before the swap). */
  private void checkReplaceable() throws IOException {
    if (!fs.exists(target)) {
      return;
    }
    FileStatus status = fs.getFileStatus(target);
    boolean empty = status.isDirectory() && fs.listStatus(target).length == 0;
    String why = empty ? null : kind.whyNotEarlier(fs, target);
    if (why != null) {
      throw new FileAlreadyExistsException(
          display + ": it exists and " + why + "; it is never replaced, " + "choose a new path");
    }
    if (!overwrite) {
      throw new FileAlreadyExistsException(
          display
              + ": "
              + (empty ? "an empty directory" : kind.description())
              + " already exists there"
              + existing);
    }
  }

  /**
   * Whether a directory entry is a hidden sibling this class left behind: a write or a swap killed
   * before it finished ({@code .NAME.spark-kpca-ID.writing}, {@code .replaced} or {@code .owner}).
   * Such an entry never holds the only copy of a committed result.
   */
  public static boolean isLeftover(String name) {
    return StagingSwap.isLeftover(name);
  }

  /** The qualified paths an input names: the matches of a glob, else the path itself. */
  private static List<Path> expand(String input, Configuration conf) throws IOException {
    Path path = new Path(input);
    FileSystem fs = path.getFileSystem(conf);
    FileStatus[] matches = fs.globStatus(path);
    List<Path> paths = new ArrayList<>();
    paths.add(fs.makeQualified(path));
    if (matches != null) {
      for (FileStatus match : matches) {
        paths.add(fs.makeQualified(match.getPath()));
      }
    }
    return paths;
  }

  private static boolean isAncestorOrSelf(Path ancestor, Path path) {
    for (Path p = path; p != null; p = p.getParent()) {
      if (p.equals(ancestor)) {
        return true;
      }
    }
    return false;
  }

  /** The first line of the first part file under {@code dir}. */
  private static String firstLine(FileSystem fs, Path dir) throws IOException {
    FileStatus[] parts = fs.listStatus(dir, p -> p.getName().startsWith("part-"));
    if (parts.length == 0) {
      throw new IOException("no part file in " + dir);
    }
    Arrays.sort(parts);
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(fs.open(parts[0].getPath()), StandardCharsets.UTF_8))) {
      String line = in.readLine();
      if (line == null) {
        throw new IOException("empty " + parts[0].getPath());
      }
      return line;
    }
  }

  @Override
  public String toString() {
    return display;
  }
}
