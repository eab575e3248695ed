package io.github.sparkkpca.streaming;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryListener;

/**
 * One running query per checkpoint: a lock on the file {@value #FILE} in the checkpoint, held while
 * the query runs. Two queries on one checkpoint would both write its micro-batches (Spark's
 * checkpoint is not a lock): one fails when it commits, after its files are written. The lock is
 * the operating system's ({@link FileChannel#tryLock}), so it dies with its process: a restart
 * after {@code kill -9} is never blocked by a stale lock, while a second command on the checkpoint
 * of a running one is refused before it writes anything, with one line naming the holder (pid,
 * host, start time: written into the file by the holder). Within one JVM (where a second lock of
 * the file throws, and closing any channel on the file would drop the JVM's lock) the holders are
 * kept in a map, and a file the JVM holds is never opened twice. Where the checkpoint is not on the
 * local file system (HDFS, object stores) no lock is taken: those have no lock that dies with its
 * process.
 *
 * <p>It differs from the {@link OutputClaim} of an output, which ties the output to one checkpoint
 * for good and is kept across runs; this lock ties a checkpoint to one running process.
 */
public final class CheckpointLock implements AutoCloseable {

  /** The lock file in the checkpoint (Spark ignores unknown files there). */
  public static final String FILE = "spark-kpca-writer.lock";

  /** A checkpoint in use by another running query. */
  public static final class Held extends IllegalArgumentException {
    private final String checkpoint;
    private final String holder;

    Held(String checkpoint, String holder) {
      super(
          "The checkpoint "
              + checkpoint
              + " is in use by another running query ("
              + holder
              + "): wait for it to end or stop it, or give another checkpoint");
      this.checkpoint = checkpoint;
      this.holder = holder;
    }

    /** The checkpoint as given. */
    public String checkpoint() {
      return checkpoint;
    }

    /** Who holds it, e.g. {@code pid 4242 on host h, since 2025-01-01T10:00:00Z}. */
    public String holder() {
      return holder;
    }
  }

  /** The locks this JVM holds, by lock file (absolute); guarded by itself. */
  private static final Map<java.nio.file.Path, CheckpointLock> HELD = new HashMap<>();

  private final java.nio.file.Path file;
  private final String holder;
  private final FileChannel channel;
  private final FileLock lock;
  private volatile BooleanSupplier running = () -> true;

  private CheckpointLock(
      java.nio.file.Path file, String holder, FileChannel channel, FileLock lock) {
    this.file = file;
    this.holder = holder;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Locks {@code checkpoint} for this process until {@link #close} (or the process ends), creating
   * the checkpoint directory if needed.
   *
   * @throws Held when another query (of this or another process) holds it, naming the holder
   */
  public static CheckpointLock acquire(String checkpoint, Configuration conf) throws IOException {
    Path dir = new Path(checkpoint);
    FileSystem fs = dir.getFileSystem(conf);
    if (!"file".equals(fs.getUri().getScheme())) {
      return new CheckpointLock(null, null, null, null);
    }
    java.nio.file.Path local = localPath(fs.makeQualified(dir)).toAbsolutePath();
    java.nio.file.Path file = local.resolve(FILE);
    String me =
        "pid "
            + ProcessHandle.current().pid()
            + " on host "
            + hostName()
            + ", since "
            + Instant.now().truncatedTo(ChronoUnit.SECONDS);
    synchronized (HELD) {
      CheckpointLock other = HELD.get(file);
      if (other != null) {
        if (other.running.getAsBoolean()) {
          throw new Held(checkpoint, other.holder);
        }
        other.close(); // its query has ended; the listener that releases it has not run yet
      }
      Files.createDirectories(local);
      // Opened without truncating: the holder's description stays readable to the refused.
      FileChannel channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      try {
        FileLock lock = channel.tryLock();
        if (lock == null) {
          ByteBuffer buffer = ByteBuffer.allocate(512);
          channel.read(buffer, 0);
          String holder =
              new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8).strip();
          throw new Held(checkpoint, holder.isEmpty() ? "another process" : holder);
        }
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(me.getBytes(StandardCharsets.UTF_8)), 0);
        channel.force(false);
        CheckpointLock mine = new CheckpointLock(file, me, channel, lock);
        HELD.put(file, mine);
        return mine;
      } catch (IOException | RuntimeException e) {
        channel.close();
        throw e;
      }
    }
  }

  /**
   * Holds the lock while {@code query} runs, releasing it when the query ends (a library caller's
   * query outlives the call that started it): another query of this JVM on the checkpoint takes the
   * lock of an ended one, and a listener releases it for other processes.
   */
  public void whileRunning(StreamingQuery query) {
    if (channel == null) {
      return;
    }
    running = query::isActive;
    SparkSession spark = query.sparkSession();
    StreamingQueryListener release =
        new StreamingQueryListener() {
          @Override
          public void onQueryStarted(QueryStartedEvent event) {}

          @Override
          public void onQueryProgress(QueryProgressEvent event) {}

          @Override
          public void onQueryTerminated(QueryTerminatedEvent event) {
            if (event.id().equals(query.id())) {
              closeQuietly();
              spark.streams().removeListener(this);
            }
          }
        };
    spark.streams().addListener(release);
    if (!query.isActive()) { // ended before the listener was added
      closeQuietly();
      spark.streams().removeListener(release);
    }
  }

  private void closeQuietly() {
    try {
      close();
    } catch (IOException e) {
      // the channel is closed by the process's end at the latest
    }
  }

  /**
   * The java.nio path of a path of Hadoop's local file system: its URI's decoded path, the file
   * Hadoop's local file system reads and writes. Not {@code Paths.get(path.toUri())}: Hadoop leaves
   * non-ASCII characters unescaped in its URIs, which {@code Paths.get} refuses ("Bad escape").
   */
  public static java.nio.file.Path localPath(Path path) {
    return new java.io.File(path.toUri().getPath()).toPath();
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }

  /**
   * Releases the lock; the file stays (deleting it would let a process that opened it before the
   * deletion lock a file no one else sees).
   */
  @Override
  public void close() throws IOException {
    if (channel == null) {
      return;
    }
    synchronized (HELD) {
      if (HELD.get(file) != this) {
        return; // released before
      }
      HELD.remove(file);
      try {
        lock.release();
      } finally {
        channel.close();
      }
    }
  }
}
