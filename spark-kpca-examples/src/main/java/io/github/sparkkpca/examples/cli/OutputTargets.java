package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.persistence.SafeOutput;
import io.github.sparkkpca.streaming.CheckpointLock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Path;

/**
 * The files and directories one command writes, checked together when the command starts, before
 * any Spark job: each against {@link SafeOutput}'s rules (an existing target is replaced only when
 * it is an earlier result of its kind and {@code --overwrite} is given; never one that is or
 * contains an input), and all of them against each other (no output inside another, which the
 * other's swap would delete). A refusal is a one-line error naming the option, exit code 2.
 */
final class OutputTargets {

  private final Configuration conf;
  private final boolean overwrite;
  private final List<OutputRules.Named> inputs;
  private final List<String> options = new ArrayList<>();
  private final List<SafeOutput> outputs = new ArrayList<>();

  /**
   * @param conf the Hadoop configuration of the session (file systems of the paths)
   * @param overwrite whether {@code --overwrite} was given
   * @param inputs the paths the command reads (files, directories, globs, the model), with the
   *     options that name them; no output may be, contain or lie inside one ({@link OutputRules})
   */
  OutputTargets(Configuration conf, boolean overwrite, List<OutputRules.Named> inputs) {
    this.conf = conf;
    this.overwrite = overwrite;
    this.inputs = inputs.stream().filter(java.util.Objects::nonNull).toList();
  }

  /** Checks the output {@code target} of {@code option} (a path on any Hadoop file system). */
  SafeOutput add(String option, String target, SafeOutput.Kind kind) {
    return add(option, target, target, kind);
  }

  /** Checks a local output (charts, the summary), which the driver writes with java.nio. */
  SafeOutput addLocal(String option, java.nio.file.Path target, SafeOutput.Kind kind) {
    return add(option, target.toString(), hadoopPath(target), kind);
  }

  private SafeOutput add(String option, String shown, String target, SafeOutput.Kind kind) {
    String name = option + " " + shown;
    OutputRules.checkAgainstInputs(
        new OutputRules.Named(option, shown), OutputRules.qualify(target, conf), inputs, conf);
    SafeOutput output;
    try {
      output =
          SafeOutput.to(target, kind)
              .overwrite(overwrite)
              .named(name, "add --overwrite")
              .prepare(conf);
    } catch (FileAlreadyExistsException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(name + ": " + e.getMessage(), e);
    }
    for (int i = 0; i < outputs.size(); i++) {
      Path other = outputs.get(i).target();
      if (OutputRules.isAncestorOrSelf(other, output.target())
          || OutputRules.isAncestorOrSelf(output.target(), other)) {
        throw new IllegalArgumentException(
            name + ": it overlaps " + options.get(i) + "; give the outputs " + "separate paths");
      }
    }
    options.add(name);
    outputs.add(output);
    return output;
  }

  /**
   * A local path option (java.nio) as the string of the Hadoop path of the same file: the one place
   * where a {@code Path} option meets Hadoop. Not its URI's string: Hadoop reads a string as a
   * path, not a URI, so "a b.json" given as "file:/…/a%20b.json" would be written to a file named
   * "a%20b.json" (and "ü" to "%C3%BC").
   */
  static String hadoopPath(java.nio.file.Path path) {
    return new Path(path.toAbsolutePath().normalize().toUri()).toString();
  }

  /**
   * A local path of the Hadoop local file system (a {@code file:} path or URI) as a java.nio path.
   */
  static java.nio.file.Path local(String path) {
    return CheckpointLock.localPath(new Path(path));
  }
}
