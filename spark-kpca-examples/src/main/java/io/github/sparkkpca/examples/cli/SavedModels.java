package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.ml.AbstractKernelPCAModel;
import io.github.sparkkpca.persistence.Persistence;
import io.github.sparkkpca.streaming.StreamingKernelPCA;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * How every command that reads a kernel PCA model ({@code transform}, {@code update}, {@code
 * export}, {@code evaluate}, {@code grow}) finds it: a directory saved by {@code fit} or {@code
 * update}, or a stream directory written by {@code stream} (its {@code version-N} subdirectories),
 * of which the newest committed version is read and named on the console. Anything else is refused
 * with one line naming the option, before Spark's reader would log a stack trace.
 */
final class SavedModels {

  private SavedModels() {}

  /**
   * The saved model directory to read for {@code dir} given to {@code option}: {@code dir} itself,
   * or the newest committed version of a stream directory (said on {@code out}).
   *
   * @throws IllegalArgumentException naming the option and the path when {@code dir} holds no saved
   *     model, or is a stream directory without a committed version yet
   */
  static String resolve(ManagedSession spark, String option, String dir, PrintWriter out) {
    var conf = spark.session().sparkContext().hadoopConfiguration();
    Path root = new Path(dir);
    try {
      FileSystem fs = root.getFileSystem(conf);
      if (!fs.exists(new Path(root, "metadata"))
          && fs.exists(new Path(root, StreamingKernelPCA.MARKER))) {
        String latest = StreamingKernelPCA.latestVersion(dir, conf);
        if (latest == null) {
          throw new IllegalArgumentException(
              option + " " + dir + ": the stream has written no model version yet");
        }
        SparkKpcaCli.progress(
            out,
            "%s %s is a stream directory: reading its newest version, %s",
            option,
            dir,
            new Path(latest).getName());
        require(spark, option, latest);
        return latest;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(option + " " + dir + ": " + e.getMessage(), e);
    }
    require(spark, option, dir);
    return dir;
  }

  /** {@link #resolve}, then the model of whichever kind it holds. */
  static AbstractKernelPCAModel<?> load(
      ManagedSession spark, String option, String dir, PrintWriter out) {
    return AbstractKernelPCAModel.loadAny(resolve(spark, option, dir, out));
  }

  /**
   * The model in the resolved directory {@code modelDir}, of whichever kind, said on {@code out}.
   */
  static AbstractKernelPCAModel<?> loadAny(PrintWriter out, String modelDir) {
    SparkKpcaCli.progress(out, "loading the model from %s...", modelDir);
    return AbstractKernelPCAModel.loadAny(modelDir);
  }

  /**
   * Fails with a one-line message when {@code dir} holds no saved model, before Spark's reader
   * would log a warning with a stack trace about the missing metadata.
   */
  static void require(ManagedSession spark, String option, String dir) {
    Path metadata = new Path(dir, "metadata");
    try {
      FileSystem fs = metadata.getFileSystem(spark.session().sparkContext().hadoopConfiguration());
      if (!fs.exists(metadata)) {
        String replacing =
            Persistence.beingReplaced(dir, spark.session().sparkContext().hadoopConfiguration());
        if (replacing != null) {
          throw new IllegalArgumentException(option + " " + dir + ": " + replacing);
        }
        throw new IllegalArgumentException(
            option
                + ": no saved model in "
                + dir
                + " ("
                + (fs.exists(new Path(dir)) ? "it has no metadata directory" : "no such directory")
                + "); save one with spark-kpca fit --model-out");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(option + " " + dir + ": " + e.getMessage(), e);
    }
  }
}
