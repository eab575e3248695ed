package io.github.sparkkpca.examples.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Which model scored which micro-batches of a {@code score-stream} output. A run loads its model
 * once, at start (a stream directory's newest committed version then), and keeps it; a restart
 * loads the newest again. Before the query starts, each run records in the output's {@value #DIR}
 * directory (hidden from Spark's readers by its underscore) the first micro-batch it scores and the
 * model it scores with: {@code from-batch-<id>.json} with {@code fromBatch}, {@code model} (the
 * {@code --model} given), {@code loaded} (the saved model read) and {@code streamVersion} (the
 * batch id of a stream directory's version, or null). A micro-batch was scored by the record with
 * the highest {@code fromBatch} not above its id.
 */
final class ScoreStreamModels {

  /** The directory of the records in the output. */
  static final String DIR = "_SPARK_KPCA_MODELS";

  private static final Pattern VERSION = Pattern.compile("version-(\\d+)");
  private static final ObjectMapper JSON = new ObjectMapper();

  private ScoreStreamModels() {}

  /** The name a progress line gives the model read: the stream version's, or the path. */
  static String name(String loaded) {
    String last = new Path(loaded).getName();
    return VERSION.matcher(last).matches() ? last : loaded;
  }

  /**
   * The first micro-batch this run writes: one after the last the output or the checkpoint holds as
   * committed (the file sink's log in {@code _spark_metadata} may be a batch ahead of the
   * checkpoint's commit log after a kill), 0 for a new query.
   */
  static long firstBatch(Configuration conf, String output, String checkpoint) throws IOException {
    long last = -1;
    last = Math.max(last, highestBatch(conf, new Path(checkpoint, "commits")));
    last = Math.max(last, highestBatch(conf, new Path(output, "_spark_metadata")));
    return last + 1;
  }

  private static long highestBatch(Configuration conf, Path log) throws IOException {
    FileSystem fs = log.getFileSystem(conf);
    long last = -1;
    if (!fs.exists(log)) {
      return last;
    }
    for (FileStatus entry : fs.listStatus(log)) {
      String name = entry.getPath().getName().replaceFirst("\\.compact$", "");
      if (name.matches("\\d+")) {
        last = Math.max(last, Long.parseLong(name));
      }
    }
    return last;
  }

  /** Writes this run's record (replacing one of a run that started at the same batch). */
  static Path record(Configuration conf, String output, long fromBatch, String model, String loaded)
      throws IOException {
    ObjectNode json = JSON.createObjectNode();
    json.put("fromBatch", fromBatch);
    json.put("model", model);
    json.put("loaded", loaded);
    Matcher version = VERSION.matcher(new Path(loaded).getName());
    if (version.matches()) {
      json.put("streamVersion", Long.parseLong(version.group(1)));
    } else {
      json.putNull("streamVersion");
    }
    json.put("startedAt", Instant.now().toString());
    Path file =
        new Path(
            new Path(output, DIR), String.format(Locale.ROOT, "from-batch-%012d.json", fromBatch));
    FileSystem fs = file.getFileSystem(conf);
    fs.mkdirs(file.getParent());
    try (OutputStream out = fs.create(file, true)) {
      out.write(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(json));
    }
    return file;
  }
}
