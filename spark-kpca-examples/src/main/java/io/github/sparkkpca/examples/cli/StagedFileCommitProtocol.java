package io.github.sparkkpca.examples.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.spark.internal.io.FileCommitProtocol.TaskCommitMessage;
import org.apache.spark.internal.io.FileNameSpec;
import org.apache.spark.sql.execution.streaming.ManifestFileCommitProtocol;
import scala.Option;
import scala.Product;

/**
 * The commit protocol of {@code score-stream}'s file sink: Spark's ({@link
 * ManifestFileCommitProtocol}, whose log {@code _spark_metadata} lists the files of each committed
 * micro-batch, which is what Spark's readers read), except that the tasks write their part files
 * under the hidden directory {@value #STAGING} of the output, and the files are renamed to their
 * final names only once the log lists them. Spark's protocol writes the part files under their
 * final names: those of a micro-batch that fails to commit or is killed stay there, unlisted, and
 * readers that list the directory instead of reading the log (pyarrow, pandas, DuckDB, Spark given
 * the files) read them: rows twice, or a 0-byte file they cannot open. Those readers skip names
 * starting with {@code _} or {@code .}, so an uncommitted part file is never visible to them.
 *
 * <p>A kill between the log entry and the renames leaves listed files staged: {@link #recover}, run
 * before a restart's query starts, renames them into place and deletes the staged files the log
 * does not list (a micro-batch that never committed, which Spark runs again).
 *
 * <p>The log's file entries (Spark's {@code SinkFileStatus}, whose package differs between Spark
 * 3.5 and 4.1) are handled as the Scala products they are, and {@code commitJob}, whose Scala
 * {@code Seq} parameter differs between Scala 2.12 and 2.13, is declared for both: this class
 * compiles and runs against every Spark line the build supports.
 */
public final class StagedFileCommitProtocol extends ManifestFileCommitProtocol {

  private static final long serialVersionUID = 1L;

  /** The staging directory in the output (hidden from readers by its underscore). */
  static final String STAGING = "_SPARK_KPCA_STAGING";

  /** The Spark setting that names the file sink's commit protocol. */
  static final String SETTING = "spark.sql.streaming.commitProtocolClass";

  private final String output;

  /** The final names of the files of the micro-batch's committed tasks (driver side). */
  private transient List<String> committed;

  /** Whether the log lists the micro-batch's files (driver side). */
  private transient boolean logged;

  public StagedFileCommitProtocol(String jobId, String output) {
    super(jobId, output);
    this.output = output;
  }

  /** Spark's name for the file, under the staging directory. */
  @Override
  public String newTaskTempFile(
      TaskAttemptContext taskContext, Option<String> dir, FileNameSpec spec) {
    return super.newTaskTempFile(
        taskContext, Option.apply(dir.isDefined() ? STAGING + "/" + dir.get() : STAGING), spec);
  }

  /** Spark's message of the task's staged files, naming each by its final name. */
  @Override
  public TaskCommitMessage commitTask(TaskAttemptContext taskContext) {
    TaskCommitMessage staged = super.commitTask(taskContext);
    List<Object> files = new ArrayList<>();
    try {
      for (Object status : statuses(staged)) {
        Path path = new Path(pathOf(status));
        files.add(withPath(status, finalName(path, taskContext.getConfiguration()).toString()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    scala.collection.immutable.List<Object> seq = scala.collection.immutable.List$.MODULE$.empty();
    for (int i = files.size() - 1; i >= 0; i--) {
      seq = seq.$colon$colon(files.get(i));
    }
    return new TaskCommitMessage(seq);
  }

  @Override
  public void setupJob(JobContext jobContext) {
    super.setupJob(jobContext);
    committed = new ArrayList<>();
    logged = false;
  }

  @Override
  public void onTaskCommit(TaskCommitMessage taskCommit) {
    super.onTaskCommit(taskCommit);
    for (Object status : statuses(taskCommit)) {
      committed.add(pathOf(status));
    }
  }

  /** Spark's commit (the log lists the files), then the renames (Scala 2.13's signature). */
  public void commitJob(
      JobContext jobContext, scala.collection.immutable.Seq<TaskCommitMessage> taskCommits) {
    super.commitJob(jobContext, taskCommits);
    placeCommitted(jobContext.getConfiguration());
  }

  /** Spark's commit (the log lists the files), then the renames (Scala 2.12's signature). */
  public void commitJob(
      JobContext jobContext, scala.collection.Seq<TaskCommitMessage> taskCommits) {
    super.commitJob(jobContext, (scala.collection.immutable.Seq<TaskCommitMessage>) taskCommits);
    placeCommitted(jobContext.getConfiguration());
  }

  private void placeCommitted(Configuration conf) {
    logged = true;
    try {
      for (String file : committed) {
        Path path = new Path(file);
        moveIntoPlace(path.getFileSystem(conf), staged(path, conf), path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Deletes the staged files of a micro-batch that did not commit (Spark's would delete their final
   * names, where nothing is); a committed one's stay for {@link #recover}.
   */
  @Override
  public void abortJob(JobContext jobContext) {
    super.abortJob(jobContext);
    if (logged || committed == null) {
      return;
    }
    Configuration conf = jobContext.getConfiguration();
    for (String file : committed) {
      try {
        Path path = new Path(file);
        path.getFileSystem(conf).delete(staged(path, conf), false);
      } catch (IOException e) {
        // best effort: recover deletes what is left
      }
    }
  }

  private static List<Object> statuses(TaskCommitMessage message) {
    List<Object> out = new ArrayList<>();
    scala.collection.Iterator<?> it = ((scala.collection.Iterable<?>) message.obj()).iterator();
    while (it.hasNext()) {
      out.add(it.next());
    }
    return out;
  }

  /** The path of a log entry (Spark's {@code SinkFileStatus}: path, size, ..., action). */
  private static String pathOf(Object status) {
    return (String) ((Product) status).productElement(0);
  }

  /** A log entry with another path: the case class built again from its fields. */
  private static Object withPath(Object status, String path) {
    Product product = (Product) status;
    Object[] fields = new Object[product.productArity()];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = product.productElement(i);
    }
    fields[0] = path;
    for (Constructor<?> constructor : status.getClass().getConstructors()) {
      if (constructor.getParameterCount() == fields.length) {
        try {
          return constructor.newInstance(fields);
        } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
          throw new IllegalStateException("cannot rebuild " + status, e);
        }
      }
    }
    throw new IllegalStateException("cannot rebuild " + status);
  }

  /** The output, qualified. */
  private Path out(Configuration conf) throws IOException {
    Path out = new Path(output);
    return out.getFileSystem(conf).makeQualified(out);
  }

  /** The final name of a staged file. */
  private Path finalName(Path staged, Configuration conf) throws IOException {
    Path out = out(conf);
    Path stagingDir = new Path(out, STAGING);
    String relative =
        stagingDir
            .toUri()
            .relativize(staged.getFileSystem(conf).makeQualified(staged).toUri())
            .getPath();
    return new Path(out, relative);
  }

  /** The staged name of a file of the output. */
  private Path staged(Path file, Configuration conf) throws IOException {
    Path out = out(conf);
    String relative =
        out.toUri().relativize(file.getFileSystem(conf).makeQualified(file).toUri()).getPath();
    return new Path(new Path(out, STAGING), relative);
  }

  /** Renames {@code staged} to {@code file}, unless it is gone or {@code file} is there. */
  private static void moveIntoPlace(FileSystem fs, Path staged, Path file) throws IOException {
    if (fs.exists(staged) && !fs.exists(file)) {
      fs.mkdirs(file.getParent());
      if (!fs.rename(staged, file)) {
        throw new IOException("could not rename " + staged + " to " + file);
      }
    }
  }

  /**
   * Completes the renames of the micro-batches the log lists (a kill after the commit) and deletes
   * the staged files it does not list (a kill or a failure before it), before a query starts on
   * {@code output}; the checkpoint's lock is held, so no query of it writes meanwhile.
   */
  static void recover(String output, Configuration conf) throws IOException {
    Path out = new Path(output);
    FileSystem fs = out.getFileSystem(conf);
    out = fs.makeQualified(out);
    Path staging = new Path(out, STAGING);
    if (!fs.exists(staging)) {
      return;
    }
    Set<String> listed = listedFiles(fs, new Path(out, "_spark_metadata"));
    List<Path> stagedFiles = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(staging, true);
    while (files.hasNext()) {
      stagedFiles.add(files.next().getPath());
    }
    String prefix = staging.toUri().getPath() + "/";
    for (Path staged : stagedFiles) {
      Path file = new Path(out, staged.toUri().getPath().substring(prefix.length()));
      if (listed.contains(file.toString()) && !fs.exists(file)) {
        moveIntoPlace(fs, staged, file);
      } else {
        fs.delete(staged, false);
      }
    }
  }

  /**
   * Every file the sink's log lists (its batch and compaction files: a version line, then one JSON
   * entry per file), qualified.
   */
  private static Set<String> listedFiles(FileSystem fs, Path log) throws IOException {
    Set<String> listed = new HashSet<>();
    if (!fs.exists(log)) {
      return listed;
    }
    ObjectMapper json = new ObjectMapper();
    for (FileStatus entry : fs.listStatus(log)) {
      if (!entry.getPath().getName().matches("\\d+(\\.compact)?")) {
        continue;
      }
      try (BufferedReader in =
          new BufferedReader(
              new InputStreamReader(fs.open(entry.getPath()), StandardCharsets.UTF_8))) {
        in.readLine(); // the log's version, v1
        for (String line; (line = in.readLine()) != null; ) {
          JsonNode file = json.readTree(line);
          if (file != null && file.hasNonNull("path")) {
            listed.add(fs.makeQualified(new Path(file.get("path").asText())).toString());
          }
        }
      }
    }
    return listed;
  }
}
