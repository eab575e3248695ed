package io.github.sparkkpca.persistence;

import io.github.sparkkpca.feature.FeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import org.apache.spark.sql.SparkSession;

/**
 * How one kind of feature map is written to and read from a model directory's {@code data/}: one
 * codec per {@link FeatureMap#kind()}, so models of every kind share the rest of the format ({@link
 * ModelData}). Each kind's codec is a row of {@link ModelKind}.
 */
interface FeatureMapCodec {

  /** Writes the map's own tables under {@code dataDir}. */
  void write(FeatureMap map, String dataDir, SparkSession spark);

  /**
   * Reads a map written by {@link #write}.
   *
   * @param kernel the fitted kernel (from the metadata)
   * @param dim d, the input dimension recorded in the summary
   * @throws IllegalArgumentException naming the table and row when the data are inconsistent or not
   *     finite
   */
  FeatureMap read(String dataDir, SparkSession spark, Kernel kernel, int dim);
}
