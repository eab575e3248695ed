package io.github.sparkkpca.persistence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model's tables are written without a task above Spark's 1000 KiB warning: a Nyström model of m
 * = 1000 landmarks of d = 784 (6.3 MB of landmarks, 8 MB of weights and scatter) saves without
 * "task of very large size" and loads back bit for bit. The same landmarks written as one local
 * collection do log the warning (the capture works).
 */
class TaskSizeTest {

  @TempDir Path dir;

  /** Spark's warnings of oversized tasks, captured while {@code body} runs. */
  private static List<String> largeTaskWarnings(Runnable body) {
    List<String> warnings = new ArrayList<>();
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    Configuration config = context.getConfiguration();
    String name = "org.apache.spark.scheduler.TaskSetManager";
    AbstractAppender appender =
        new AbstractAppender("large-tasks", null, null, true, Property.EMPTY_ARRAY) {
          @Override
          public void append(LogEvent event) {
            String message = event.getMessage().getFormattedMessage();
            if (message.contains("very large size")) {
              synchronized (warnings) {
                warnings.add(message);
              }
            }
          }
        };
    appender.start();
    LoggerConfig logger = new LoggerConfig(name, Level.WARN, true);
    logger.addAppender(appender, Level.WARN, null);
    config.addLogger(name, logger);
    context.updateLoggers();
    try {
      body.run();
    } finally {
      config.removeLogger(name);
      context.updateLoggers();
      appender.stop();
    }
    return warnings;
  }

  @Test
  void aModelWithMultiMegabyteLandmarksIsWrittenInSmallTasks() throws Exception {
    int n = 500;
    int d = 784;
    Random random = new Random(7);
    double[][] x = new double[n][d];
    for (double[] row : x) {
      for (int t = 0; t < d; t++) {
        row[t] = random.nextDouble();
      }
    }
    NystromKernelPCAModel model =
        new NystromKernelPCA()
            .setK(2)
            .setNumLandmarks(n)
            .setGamma(0.01)
            .setSeed(1)
            .fit(LocalSpark.frame(x, 2));
    Path path = dir.resolve("large");
    List<String> saving = largeTaskWarnings(() -> save(model, path));
    assertEquals(List.of(), saving);
    NystromKernelPCAModel loaded = NystromKernelPCAModel.load(path.toString());
    assertArrayEquals(model.landmarks().toArray(), loaded.landmarks().toArray(), 0.0);
    assertArrayEquals(
        model.solution().featurePCA().components(),
        loaded.solution().featurePCA().components(),
        0.0);
    assertArrayEquals(
        model.solution().featurePCA().statistics().scatter(),
        loaded.solution().featurePCA().statistics().scatter(),
        0.0);

    // The same landmarks as one local collection: Spark warns.
    List<Row> rows = new ArrayList<>();
    for (int j = 0; j < n; j++) {
      rows.add(RowFactory.create(j, new DenseVector(x[j])));
    }
    List<String> local =
        largeTaskWarnings(
            () ->
                LocalSpark.spark()
                    .createDataFrame(rows, ModelTables.INDEXED)
                    .write()
                    .parquet(dir.resolve("local").toString()));
    assertFalse(local.isEmpty());
    assertTrue(local.get(0).contains("very large size"), local.get(0));
  }

  private static void save(NystromKernelPCAModel model, Path path) {
    try {
      model.write().save(path.toString());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
