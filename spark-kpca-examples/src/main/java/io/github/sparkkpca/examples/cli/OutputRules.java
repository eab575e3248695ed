package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.streaming.CheckpointLock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The rules that place a command's outputs relative to its inputs, checked in one place when the
 * command starts, before any Spark job: an output may not be an input, contain one (writing it
 * would replace the input) or lie inside one (the model, data or landmark file being read: the
 * output would become part of the input, and block a later {@code --overwrite} of it); and no two
 * outputs may overlap. A violation is an {@link IllegalArgumentException} whose one-line message
 * names both options and both paths (exit code 2).
 *
 * <p>{@link OutputTargets} applies them to every output it claims; a command that writes outside
 * {@link OutputTargets} (a streaming query's checkpoint) calls {@link #check} itself.
 *
 * <p>Paths go through the Hadoop {@link FileSystem} API (relative paths against the working
 * directory, globs expanded), so the rules hold on every file system.
 */
public final class OutputRules {

  private OutputRules() {}

  /**
   * A path as the user gave it to an option.
   *
   * @param option the option, e.g. {@code --model}; null when unknown (then only the path is named)
   * @param path a path or glob
   */
  public record Named(String option, String path) {

    public Named {
      Objects.requireNonNull(path, "path");
    }

    /** "--model DIR", or the path alone. */
    String shown() {
      return option == null ? path : option + " " + path;
    }
  }

  /** The path of {@code option}; null when {@code path} is null (an option not given). */
  public static Named named(String option, String path) {
    return path == null ? null : new Named(option, path);
  }

  /**
   * A broken rule: {@code output} {@code relation} {@code other} ("is", "contains" or "lies
   * inside"), an input when {@code otherIsInput}, else an output given before it.
   */
  public record Violation(
      Named output, String relation, Named other, boolean otherIsInput, String resolved) {

    public Violation(Named output, String relation, Named other, boolean otherIsInput) {
      this(output, relation, other, otherIsInput, null);
    }

    /**
     * The standard one-line message, naming both options and both paths, and where symbolic links
     * lead when they make the relation ({@code resolved}: the output's real path, or null).
     */
    public String message() {
      if (!otherIsInput) {
        return output.shown()
            + ": it overlaps "
            + other.shown()
            + "; give the outputs separate paths";
      }
      return output.shown()
          + ": it "
          + relation
          + " the input "
          + other.path()
          + (other.option() == null ? "" : " (" + other.option() + ")")
          + (resolved == null
              ? ""
              : " through symbolic links: " + output.path() + " resolves to " + resolved)
          + "; choose "
          + (relation.equals("lies inside") ? "a path outside it" : "another path");
    }
  }

  /**
   * The rules for one command.
   *
   * @param conf the Hadoop configuration (the file systems of the paths)
   * @param inputs what the command reads (null entries are skipped)
   * @param outputs what the command writes (null entries are skipped)
   * @throws IllegalArgumentException naming both options and paths when an output equals, contains
   *     or lies inside an input, or overlaps another output
   */
  public static void check(Configuration conf, List<Named> inputs, List<Named> outputs) {
    Violation violation = firstViolation(conf, inputs, outputs);
    if (violation != null) {
      throw new IllegalArgumentException(violation.message());
    }
  }

  /**
   * The first rule {@link #check} would find broken, for a command that phrases its own message;
   * null when none is. The outputs are taken in order, each against the inputs and then against the
   * outputs before it.
   */
  public static Violation firstViolation(
      Configuration conf, List<Named> inputs, List<Named> outputs) {
    List<Named> checked = new ArrayList<>();
    List<Path> checkedPaths = new ArrayList<>();
    for (Named output : outputs) {
      if (output == null) {
        continue;
      }
      Path target = qualify(output.path(), conf);
      Violation violation = againstInputs(output, target, inputs, conf);
      if (violation != null) {
        return violation;
      }
      for (int i = 0; i < checked.size(); i++) {
        String relation = relation(target, checkedPaths.get(i));
        if (relation != null) {
          return new Violation(output, relation, checked.get(i), false);
        }
      }
      checked.add(output);
      checkedPaths.add(target);
    }
    return null;
  }

  /** {@link #check} for one output against the inputs. */
  static void checkAgainstInputs(
      Named output, Path target, List<Named> inputs, Configuration conf) {
    Violation violation = againstInputs(output, target, inputs, conf);
    if (violation != null) {
      throw new IllegalArgumentException(violation.message());
    }
  }

  private static Violation againstInputs(
      Named output, Path target, List<Named> inputs, Configuration conf) {
    Path real = real(target);
    for (Named input : inputs) {
      if (input == null) {
        continue;
      }
      for (Path read : expand(input.path(), conf)) {
        String relation = relation(target, read);
        if (relation != null) {
          return new Violation(output, relation, input, true);
        }
        // A symbolic link on the way (the output's or the input's) can make them the same files.
        relation = relation(real, real(read));
        if (relation != null) {
          return new Violation(output, relation, input, true, real.toUri().getPath());
        }
      }
    }
    return null;
  }

  /**
   * A local path with its symbolic links resolved: its deepest existing ancestor's real path, then
   * the rest; a dangling link is followed to where it points. Other file systems have no links
   * here: their paths are returned as they are, as is a local path that cannot be resolved.
   */
  static Path real(Path qualified) {
    if (!"file".equals(qualified.toUri().getScheme())) {
      return qualified;
    }
    try {
      java.nio.file.Path path = CheckpointLock.localPath(qualified);
      java.nio.file.Path existing = path;
      java.util.Deque<String> rest = new java.util.ArrayDeque<>();
      while (existing != null
          && !java.nio.file.Files.exists(existing, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        rest.push(existing.getFileName().toString());
        existing = existing.getParent();
      }
      if (existing == null) {
        return qualified;
      }
      java.nio.file.Path resolved =
          java.nio.file.Files.exists(existing)
              ? existing.toRealPath()
              : existing
                  .getParent()
                  .toRealPath()
                  .resolve(java.nio.file.Files.readSymbolicLink(existing))
                  .normalize();
      for (String name : rest) {
        resolved = resolved.resolve(name);
      }
      return new Path("file", null, resolved.toString());
    } catch (IOException | RuntimeException e) {
      return qualified;
    }
  }

  /** How {@code target} relates to {@code other}: "is", "contains", "lies inside" or null. */
  private static String relation(Path target, Path other) {
    return target.equals(other)
        ? "is"
        : isAncestorOrSelf(target, other)
            ? "contains"
            : isAncestorOrSelf(other, target) ? "lies inside" : null;
  }

  /** {@code path} qualified on its file system. */
  static Path qualify(String path, Configuration conf) {
    Path p = new Path(path);
    try {
      return p.getFileSystem(conf).makeQualified(p);
    } catch (IOException e) {
      throw new UncheckedIOException(path + ": " + e.getMessage(), e);
    }
  }

  /** The qualified paths an input names: the path itself and, for a glob, its matches. */
  private static List<Path> expand(String input, Configuration conf) {
    Path path = new Path(input);
    try {
      FileSystem fs = path.getFileSystem(conf);
      List<Path> paths = new ArrayList<>();
      paths.add(fs.makeQualified(path));
      FileStatus[] matches = fs.globStatus(path);
      if (matches != null) {
        Arrays.stream(matches).map(m -> fs.makeQualified(m.getPath())).forEach(paths::add);
      }
      return paths;
    } catch (IOException e) {
      throw new UncheckedIOException(input + ": " + e.getMessage(), e);
    }
  }

  /** Whether {@code path} is {@code ancestor} or lies below it. */
  static boolean isAncestorOrSelf(Path ancestor, Path path) {
    for (Path p = path; p != null; p = p.getParent()) {
      if (p.equals(ancestor)) {
        return true;
      }
    }
    return false;
  }
}
