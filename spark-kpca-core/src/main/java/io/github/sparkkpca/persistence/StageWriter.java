package io.github.sparkkpca.persistence;

import java.io.IOException;
import org.apache.spark.ml.param.Params;
import org.apache.spark.ml.util.MLWriter;

/**
 * The writer of every stage of this library. Spark's {@code MLWriter.save} deletes an existing path
 * when overwrite was asked for, whatever it holds; this one replaces only a stage saved by
 * spark-kpca (or an empty directory), writing beside it and swapping the new one in ({@link
 * SafeOutput#saveStage}), and refuses an existing path without overwrite, as Spark does.
 */
public abstract class StageWriter extends MLWriter {

  /** The path {@link #save} was asked for (saveImpl writes into a hidden sibling of it). */
  private String requested;

  @Override
  public void save(String path) throws IOException {
    requested = path;
    SafeOutput.saveStage(path, shouldOverwrite(), sparkSession(), this::saveImpl);
  }

  /**
   * The path the user asked {@link #save} to write, for messages: saveImpl's own argument is a
   * hidden sibling that is renamed into place; {@code fallback} when save was not called.
   */
  protected String requestedPath(String fallback) {
    return requested != null ? requested : fallback;
  }

  /**
   * The writer of a stage that is its params only (estimators without supplied data, evaluators).
   */
  public static StageWriter paramsOnly(Params stage) {
    return new StageWriter() {
      @Override
      public void saveImpl(String path) {
        Persistence.saveMetadata(stage, path, sparkSession());
      }
    };
  }
}
