package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.persistence.SafeOutput;
import io.github.sparkkpca.streaming.CheckpointLock;
import io.github.sparkkpca.streaming.OutputClaim;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The output rules of {@code score-stream}, checked before Spark starts the query (file metadata
 * only, no Spark job). A file sink's output is written by many micro-batches and read through its
 * {@code _spark_metadata} log, so it is not swapped in at the end as {@link SafeOutput} does; its
 * exactly-once guarantee holds only while the output and the checkpoint stay a pair (a new query
 * writing into the output of another would even skip its first batches, which that log lists as
 * committed). So the pair is tied by a token written into both: the output's claim ({@link
 * OutputClaim}, which also records the checkpoint, the same claim a stream's model directory takes)
 * and its copy {@value #CHECKPOINT_MARKER} in the checkpoint ({@link OutputClaim#recordTokenIn}).
 * The claim is taken atomically right before the query starts, so of two commands started together
 * on one output with different checkpoints exactly one writes; the other is refused naming the
 * owner's checkpoint, before its query starts. And:
 *
 * <ul>
 *   <li>the output and the checkpoint are different paths, neither inside the other, the model or
 *       an input, nor containing one of them ({@link OutputRules}, in this command's words);
 *   <li>a checkpoint of an earlier query (Spark's offsets or the token) resumes only into the
 *       output holding the same token;
 *   <li>a new checkpoint starts into a missing or empty output; an earlier spark-kpca output (a
 *       {@code score-stream} or {@code transform} output) is deleted first with {@code
 *       --overwrite}, anything else is refused; so is the output of a query still running on
 *       another checkpoint, whose lock ({@link CheckpointLock}) is held from the check until the
 *       replacement is claimed and the earlier output deleted.
 * </ul>
 *
 * A refusal is an {@link IllegalArgumentException} whose one line names the option (exit code 2);
 * nothing is written or deleted before the command ties the pair, right before the query starts.
 */
final class ScoreStreamOutput {

  /** The claim file in the output (hidden from Spark's readers by its underscore). */
  static final String OUTPUT_MARKER = OutputClaim.FILE;

  /** The token file in the checkpoint (Spark ignores unknown files there). */
  static final String CHECKPOINT_MARKER = "spark-kpca-score-stream";

  private ScoreStreamOutput() {}

  /** What {@link #claim} leaves to do once the command is ready to start the query. */
  interface Claim {
    /**
     * Claims the output atomically (or replaces an earlier query's claim, with --overwrite), then
     * deletes the earlier output being replaced and writes the claim's token into the checkpoint;
     * nothing for a restart.
     *
     * @throws IllegalArgumentException when another query claimed the output meanwhile (naming its
     *     checkpoint), nothing written
     */
    void tie();
  }

  /**
   * Checks the output and the checkpoint against the rules; writes nothing until {@link
   * Claim#tie()}.
   *
   * @param inputs the input paths and the model with their options ({@link OutputRules}), never
   *     written
   */
  static Claim claim(
      Configuration conf,
      List<OutputRules.Named> inputs,
      String output,
      String checkpoint,
      boolean overwrite) {
    try {
      Path out = OutputRules.qualify(output, conf);
      Path ckpt = OutputRules.qualify(checkpoint, conf);
      FileSystem fs = out.getFileSystem(conf);
      FileSystem ckptFs = ckpt.getFileSystem(conf);
      OutputRules.Violation violation =
          OutputRules.firstViolation(
              conf,
              inputs,
              List.of(
                  new OutputRules.Named("--output", output),
                  new OutputRules.Named("--checkpoint", checkpoint)));
      if (violation != null) {
        throw new IllegalArgumentException(message(violation, output, checkpoint));
      }
      String checkpointToken = OutputClaim.tokenIn(ckpt.toString(), CHECKPOINT_MARKER, conf);
      boolean earlierQuery =
          checkpointToken != null
              || ckptFs.exists(new Path(ckpt, "offsets"))
              || ckptFs.exists(new Path(ckpt, "metadata"));
      if (!earlierQuery
          && ckptFs.exists(ckpt)
          && Arrays.stream(ckptFs.listStatus(ckpt))
              .anyMatch(f -> !f.getPath().getName().equals(CheckpointLock.FILE))) {
        throw new IllegalArgumentException(
            "--checkpoint "
                + checkpoint
                + ": it exists, is not empty and is not a streaming checkpoint; choose a new path");
      }
      OutputClaim.Owner owner = OutputClaim.read(out.toString(), conf);
      String outputToken = owner == null ? null : owner.token();
      if (earlierQuery) {
        if (checkpointToken == null || !checkpointToken.equals(outputToken)) {
          throw new IllegalArgumentException(
              "--checkpoint "
                  + checkpoint
                  + ": it holds a query whose output is not --output "
                  + output
                  + "; restart with that query's --output, or give a new --checkpoint");
        }
        return () -> {}; // a restart: the pair resumes
      }
      boolean ours = owner != null && owner.checkpoint().equals(ckpt.toString());
      if (owner != null && !ours && !overwrite) {
        throw new IllegalArgumentException(claimedBy(output, owner, checkpoint, true));
      }
      if (owner != null && !ours) {
        // Refused now, naming the process, when the owner's query runs.
        CheckpointLock probe = lockOwner(output, owner, conf);
        if (probe != null) {
          probe.close();
        }
      }
      if (!isEmpty(fs, out)) {
        boolean earlier = owner != null || fs.exists(new Path(out, SafeOutput.MARKER));
        if (!earlier) {
          throw new IllegalArgumentException(
              "--output "
                  + output
                  + ": it exists, is not empty and was not written by spark-kpca; it is never "
                  + "replaced, choose a new path");
        }
        if (!overwrite) {
          throw new IllegalArgumentException(
              "--output "
                  + output
                  + ": it holds the output of another query or command, not of --checkpoint "
                  + checkpoint
                  + "; to replace it, add --overwrite");
        }
      }
      boolean replace = !isEmpty(fs, out) || (owner != null && !ours);
      return () -> {
        // The earlier owner's checkpoint stays locked until the output is ours: its query cannot
        // start (nor run, refused here) while the output is deleted under it.
        try (CheckpointLock ownerLock =
            owner != null && !ours ? lockOwner(output, owner, conf) : null) {
          // The claim first, atomically: of two commands started together, one wins; the other
          // stops here, before writing or deleting anything.
          OutputClaim.Owner claimed =
              owner != null && !ours
                  ? OutputClaim.replace(out.toString(), owner, checkpoint, conf)
                  : OutputClaim.take(out.toString(), checkpoint, conf);
          if (!claimed.checkpoint().equals(ckpt.toString())) {
            throw new IllegalArgumentException(claimedBy(output, claimed, checkpoint, false));
          }
          if (replace) {
            for (FileStatus entry : fs.listStatus(out)) {
              if (!entry.getPath().getName().equals(OUTPUT_MARKER)
                  && !fs.delete(entry.getPath(), true)) {
                throw new IOException("could not delete the earlier output " + entry.getPath());
              }
            }
          }
          OutputClaim.recordTokenIn(ckpt.toString(), CHECKPOINT_MARKER, claimed, conf);
        } catch (IOException e) {
          throw failure(output, checkpoint, e);
        }
      };
    } catch (IOException e) {
      throw failure(output, checkpoint, e);
    }
  }

  /**
   * Locks the checkpoint of the output's earlier owner ({@link CheckpointLock}, without waiting),
   * or returns null when that checkpoint is gone (no query runs on it).
   *
   * @throws IllegalArgumentException naming the holder, when the owner's query is running: {@code
   *     --overwrite} never deletes the output of a running query
   */
  private static CheckpointLock lockOwner(
      String output, OutputClaim.Owner owner, Configuration conf) throws IOException {
    Path ownerCheckpoint = new Path(owner.checkpoint());
    if (!ownerCheckpoint.getFileSystem(conf).exists(ownerCheckpoint)) {
      return null;
    }
    try {
      return CheckpointLock.acquire(owner.checkpoint(), conf);
    } catch (CheckpointLock.Held e) {
      throw new IllegalArgumentException(
          "--output "
              + output
              + ": the query of its checkpoint "
              + owner.checkpoint()
              + " is still running ("
              + e.holder()
              + "); --overwrite replaces the output of an ended query only: stop that query first,"
              + " or give another --output");
    }
  }

  /** The refusal of an output that another checkpoint's query holds (or claimed meanwhile). */
  private static String claimedBy(
      String output, OutputClaim.Owner owner, String checkpoint, boolean before) {
    return "--output "
        + output
        + (before
            ? ": it is claimed by the query of the checkpoint "
                + owner.checkpoint()
                + ", not --checkpoint "
                + checkpoint
                + "; restart with that checkpoint, give a new --output, or add --overwrite to"
                + " replace it"
            : ": the query of the checkpoint "
                + owner.checkpoint()
                + " claimed it first (started at the same time); nothing was written, give"
                + " another --output");
  }

  private static UncheckedIOException failure(String output, String checkpoint, IOException e) {
    return new UncheckedIOException(
        "--output " + output + " / --checkpoint " + checkpoint + ": " + e.getMessage(), e);
  }

  /**
   * A broken {@link OutputRules} rule in this command's words: the output and the checkpoint are a
   * pair ("give each its own directory"), the model is named as {@code --model}.
   */
  private static String message(OutputRules.Violation violation, String output, String checkpoint) {
    String relation =
        violation.relation().equals("lies inside") ? "is inside" : violation.relation();
    if (!violation.otherIsInput()) {
      // The checkpoint against the output given before it: said from the output's side.
      if (relation.equals("is")) {
        return "--checkpoint " + checkpoint + ": it is the --output; give each its own directory";
      }
      return "--output "
          + output
          + ": it "
          + (relation.equals("contains") ? "is inside" : "contains")
          + " the --checkpoint "
          + checkpoint
          + "; give each its own directory";
    }
    OutputRules.Named input = violation.other();
    return violation.output().shown()
        + ": it "
        + relation
        + (input.option() != null && input.option().equals("--model")
            ? " the --model " + input.path()
            : " the input "
                + input.path()
                + (input.option() == null ? "" : " (" + input.option() + ")"))
        + "; choose another path";
  }

  /**
   * Missing, an empty directory, or one holding only the output's claim, model records and staged
   * files (of a run killed before its first micro-batch committed).
   */
  private static boolean isEmpty(FileSystem fs, Path dir) throws IOException {
    if (!fs.exists(dir)) {
      return true;
    }
    if (!fs.getFileStatus(dir).isDirectory()) {
      return false;
    }
    for (FileStatus entry : fs.listStatus(dir)) {
      String name = entry.getPath().getName();
      if (!name.equals(OUTPUT_MARKER)
          && !name.equals(ScoreStreamModels.DIR)
          && !name.equals(StagedFileCommitProtocol.STAGING)) {
        return false;
      }
    }
    return true;
  }
}
