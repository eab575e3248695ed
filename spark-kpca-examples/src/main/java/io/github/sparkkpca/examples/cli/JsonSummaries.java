package io.github.sparkkpca.examples.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.sparkkpca.persistence.SafeOutput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;

/**
 * The {@code --summary-out} JSON documents of the commands: how one is written ({@link #write}),
 * and how an earlier one is recognised, so that {@code --overwrite} replaces only a summary
 * spark-kpca wrote ({@link #earlier}).
 */
final class JsonSummaries {

  private JsonSummaries() {}

  /** Files larger than this are not summaries (k numbers in three arrays). */
  private static final long MAX_SUMMARY_BYTES = 1 << 24;

  /**
   * An earlier JSON summary of the command {@code command}, which {@code --overwrite} may replace:
   * a file (of at most 16 MiB) holding a JSON object with exactly {@code keys}, in order.
   */
  static SafeOutput.Kind earlier(String command, List<String> keys) {
    return earlier(command, keys, List.of());
  }

  /**
   * As {@link #earlier(String, List)}, the object's keys being {@code keys} followed by a
   * subsequence of {@code optional}.
   */
  static SafeOutput.Kind earlier(String command, List<String> keys, List<String> optional) {
    return earlier(command, keys, optional, List.of());
  }

  /**
   * As {@link #earlier(String, List, List)}, the object ending with exactly {@code trailing} after
   * the optional keys (e.g. fit's summary with a command's own section appended).
   */
  static SafeOutput.Kind earlier(
      String command, List<String> keys, List<String> optional, List<String> trailing) {
    return new SafeOutput.Kind() {
      @Override
      public String description() {
        return "a summary written by spark-kpca " + command;
      }

      @Override
      public String whyNotEarlier(FileSystem fs, org.apache.hadoop.fs.Path path)
          throws IOException {
        FileStatus status = fs.getFileStatus(path);
        if (status.isDirectory()) {
          return "is a directory";
        }
        String notOurs = "is not a summary written by spark-kpca " + command;
        if (status.getLen() > MAX_SUMMARY_BYTES) {
          return notOurs;
        }
        List<String> found = new ArrayList<>();
        try (var in = fs.open(path)) {
          new ObjectMapper().readTree(in).fieldNames().forEachRemaining(found::add);
        } catch (IOException e) {
          return notOurs;
        }
        int end = found.size() - trailing.size();
        boolean ours =
            end >= keys.size()
                && found.subList(0, keys.size()).equals(keys)
                && found.subList(end, found.size()).equals(trailing)
                && isSubsequence(found.subList(keys.size(), end), optional);
        return ours ? null : notOurs;
      }
    };
  }

  private static boolean isSubsequence(List<String> part, List<String> whole) {
    int at = 0;
    for (String key : part) {
      int found = whole.subList(at, whole.size()).indexOf(key);
      if (found < 0) {
        return false;
      }
      at += found + 1;
    }
    return true;
  }

  /** Writes {@code json} (indented) through {@code output}, which swaps it into place. */
  static void write(SafeOutput output, Map<String, Object> json) throws IOException {
    output.write(staging -> writeJson(OutputTargets.local(staging), json));
  }

  /** Writes a JSON document (indented) to a local file, creating its parent directories. */
  static void writeJson(Path file, Map<String, Object> json) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json);
  }
}
