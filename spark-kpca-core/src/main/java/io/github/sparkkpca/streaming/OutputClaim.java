package io.github.sparkkpca.streaming;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardCopyOption;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The claim of a streaming output (a stream's model directory, {@code score-stream}'s file sink
 * output) by one checkpoint: the file {@value #FILE} in the output, holding a token and the
 * qualified checkpoint, created only if absent, atomically, so that of two queries started together
 * on one output exactly one wins and the other is refused before it writes anything. The file is
 * written whole beside its name and then put in place by an operation that fails when the name
 * exists: a hard link on the local file system (whose Hadoop {@code create(path, false)} and {@code
 * rename} are not exclusive), a rename elsewhere (HDFS refuses to rename onto an existing file);
 * the claim is read back, so a file system whose rename replaces would still see one owner. An
 * output whose writer records nothing of this library per micro-batch also keeps the claim's token
 * in its checkpoint ({@link #recordTokenIn}), so that a restart finds the pair.
 */
public final class OutputClaim {

  /** The claim file in the output (hidden from Spark's readers by its underscore). */
  public static final String FILE = "_SPARK_KPCA_CLAIM";

  /** Who holds an output: its checkpoint (qualified path) and the token of the claim. */
  public record Owner(String checkpoint, String token) {}

  private OutputClaim() {}

  /** The qualified form of a checkpoint path, as claims record it. */
  public static String qualified(String checkpoint, Configuration conf) throws IOException {
    Path p = new Path(checkpoint);
    return p.getFileSystem(conf).makeQualified(p).toString();
  }

  /** The owner of {@code output}, or null when it is not claimed. */
  public static Owner read(String output, Configuration conf) throws IOException {
    Path file = new Path(output, FILE);
    Owner owner = readFile(file, conf);
    if (owner == null && file.getFileSystem(conf).exists(file)) {
      owner = readFile(file, conf); // it may have been put back by a racing replacer meanwhile
      if (owner == null && file.getFileSystem(conf).exists(file)) {
        throw new IOException(file + " is not a claim of spark-kpca (no token and checkpoint)");
      }
    }
    return owner;
  }

  /**
   * Claims {@code output} for {@code checkpoint} when it is not claimed (creating the output
   * directory if needed).
   *
   * @return the owner after the attempt: this checkpoint with a fresh token when the claim was
   *     free, else the owner found (the caller compares its checkpoint with its own)
   */
  public static Owner take(String output, String checkpoint, Configuration conf)
      throws IOException {
    Owner found = read(output, conf);
    if (found != null) {
      return found;
    }
    Owner mine = new Owner(qualified(checkpoint, conf), UUID.randomUUID().toString());
    Path dir = new Path(output);
    FileSystem fs = dir.getFileSystem(conf);
    fs.mkdirs(dir);
    Path staging = new Path(dir, "." + FILE + "." + mine.token() + ".writing");
    Path file = new Path(dir, FILE);
    try {
      if (isLocal(fs)) {
        java.nio.file.Path local = CheckpointLock.localPath(fs.makeQualified(staging));
        Files.writeString(local, mine.token() + "\n" + mine.checkpoint() + "\n");
        try {
          Files.createLink(CheckpointLock.localPath(fs.makeQualified(file)), local);
          return mine; // the link is exclusive: this claim is the one
        } catch (FileAlreadyExistsException e) {
          // another query claimed it first: its claim is read below
        }
      } else {
        try (OutputStream out = fs.create(staging, false)) {
          out.write(
              (mine.token() + "\n" + mine.checkpoint() + "\n").getBytes(StandardCharsets.UTF_8));
        }
        fs.rename(staging, file);
      }
    } finally {
      fs.delete(staging, false);
    }
    return awaitOwner(output, conf);
  }

  /**
   * The owner of a claim another query holds; waits a moment when the claim is between two names
   * (moved aside by a replacer that puts it back, or about to be created by the winner).
   */
  private static Owner awaitOwner(String output, Configuration conf) throws IOException {
    for (int attempt = 0; attempt < 100; attempt++) {
      Owner owner = read(output, conf);
      if (owner != null) {
        return owner;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    throw new IOException("could not claim " + output + ": its " + FILE + " disappeared");
  }

  /**
   * Replaces the claim {@code expected} (an earlier query's, which the caller was asked to replace)
   * by one of {@code checkpoint}: the expected claim is moved aside first, which only one of
   * several racing replacers achieves, and put back when it was not the expected one.
   *
   * @return the owner after the attempt, as {@link #take}
   */
  public static Owner replace(String output, Owner expected, String checkpoint, Configuration conf)
      throws IOException {
    Path dir = new Path(output);
    FileSystem fs = dir.getFileSystem(conf);
    Path file = new Path(dir, FILE);
    Path aside = new Path(dir, "." + FILE + "." + UUID.randomUUID() + ".replaced");
    boolean moved;
    if (isLocal(fs)) {
      try {
        Files.move(
            CheckpointLock.localPath(fs.makeQualified(file)),
            CheckpointLock.localPath(fs.makeQualified(aside)),
            StandardCopyOption.ATOMIC_MOVE);
        moved = true;
      } catch (NoSuchFileException e) {
        moved = false;
      }
    } else {
      moved = fs.rename(file, aside);
    }
    if (!moved) {
      return awaitOwner(output, conf); // another replacer moved it first: that one claims it
    }
    Owner was = readFile(aside, conf);
    if (was == null || !was.token().equals(expected.token())) {
      // Not the claim the caller was asked to replace (another query claimed the output
      // meanwhile): it goes back.
      if (isLocal(fs)) {
        try {
          Files.createLink(
              CheckpointLock.localPath(fs.makeQualified(file)),
              CheckpointLock.localPath(fs.makeQualified(aside)));
        } catch (FileAlreadyExistsException e) {
          // a newer claim holds the name
        }
      } else {
        fs.rename(aside, file);
      }
      fs.delete(aside, false);
      return awaitOwner(output, conf);
    }
    fs.delete(aside, false);
    return take(output, checkpoint, conf);
  }

  /**
   * Copies the token of {@code owner}'s claim into the checkpoint as {@code file} (replacing an
   * earlier copy): the tie of an output whose writer records nothing of this library per
   * micro-batch (Spark's file sink, {@code score-stream}), checked on a restart with {@link
   * #tokenIn}. A stream's model directory needs none: each of its entries records the query id
   * Spark keeps in the checkpoint.
   */
  public static void recordTokenIn(String checkpoint, String file, Owner owner, Configuration conf)
      throws IOException {
    Path path = new Path(checkpoint, file);
    FileSystem fs = path.getFileSystem(conf);
    fs.mkdirs(path.getParent());
    try (OutputStream o = fs.create(path, true)) {
      o.write((owner.token() + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }

  /**
   * The claim token copied into the checkpoint as {@code file} ({@link #recordTokenIn}), or null.
   */
  public static String tokenIn(String checkpoint, String file, Configuration conf)
      throws IOException {
    Path path = new Path(checkpoint, file);
    FileSystem fs = path.getFileSystem(conf);
    if (!fs.exists(path)) {
      return null;
    }
    try (InputStream in = fs.open(path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    }
  }

  /**
   * The claim in {@code file}, or null when it is missing (also when a racing replacer moves it
   * aside while it is read) or not a claim.
   */
  private static Owner readFile(Path file, Configuration conf) throws IOException {
    FileSystem fs = file.getFileSystem(conf);
    try (InputStream in = fs.open(file)) {
      String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
      return lines.length < 2 ? null : new Owner(lines[1].strip(), lines[0].strip());
    } catch (FileNotFoundException e) {
      return null;
    }
  }

  private static boolean isLocal(FileSystem fs) {
    return "file".equals(fs.getUri().getScheme());
  }
}
