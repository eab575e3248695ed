package io.github.sparkkpca.persistence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import io.github.sparkkpca.testing.SavedModelKinds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.feature.StandardScaler;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The optional signature of saved stages ({@link ModelSignature}): with a key configured (the Spark
 * conf or the environment variable), a model is signed when saved and loaded only when its
 * signature matches; without a key a signed model loads.
 */
class ModelSignatureTest {

  @TempDir Path dir;

  private static final String KEY = "a key of the tests";

  private static SparkSession spark() {
    return LocalSpark.spark();
  }

  @AfterEach
  void noKey() {
    spark().conf().unset(ModelSignature.CONF);
    ModelSignature.environment = System::getenv;
  }

  private static NystromKernelPCAModel model() {
    return (NystromKernelPCAModel) SavedModelKinds.Kind.NYSTROM.model();
  }

  private Path save(String name) throws IOException {
    Path path = dir.resolve(name);
    model().write().save(path.toString());
    return path;
  }

  private static String refusal(Path path) {
    return assertThrows(
            IllegalArgumentException.class, () -> NystromKernelPCAModel.load(path.toString()))
        .getMessage();
  }

  private static final String NOT_SIGNED =
      "it is not signed (no _signature.json), but a signing key is configured"
          + " (spark.kpca.model.signingSecret or SPARK_KPCA_SIGNING_KEY), so only models signed with"
          + " that key are loaded; save it again with the key";

  private static final String MISMATCH =
      "_signature.json does not match _manifest.json under the configured signing key"
          + " (spark.kpca.model.signingSecret or SPARK_KPCA_SIGNING_KEY): the model was changed after"
          + " it was signed, or signed with another key";

  private static String cannotLoad(Path path) {
    return "Cannot load NystromKernelPCAModel from '" + path + "': ";
  }

  @Test
  void aSignedModelLoadsWithItsKeyAndWithoutAKey() throws IOException {
    spark().conf().set(ModelSignature.CONF, KEY);
    Path path = save("signed");
    assertTrue(Files.exists(path.resolve(ModelSignature.NAME)));
    NystromKernelPCAModel loaded = NystromKernelPCAModel.load(path.toString());
    assertArrayEquals(model().landmarks().toArray(), loaded.landmarks().toArray(), 0.0);
    spark().conf().unset(ModelSignature.CONF);
    NystromKernelPCAModel.load(path.toString());
    // Saved again without a key (overwrite), the model has no signature left behind.
    model().write().overwrite().save(path.toString());
    assertFalse(Files.exists(path.resolve(ModelSignature.NAME)));
  }

  @Test
  void anUnsignedModelIsRefusedWhenAKeyIsConfigured() throws IOException {
    Path path = save("unsigned");
    assertFalse(Files.exists(path.resolve(ModelSignature.NAME)));
    spark().conf().set(ModelSignature.CONF, KEY);
    assertEquals(cannotLoad(path) + NOT_SIGNED, refusal(path));
    // The model loader of any kind (loadAny) refuses it as well.
    assertThrows(
        IllegalArgumentException.class,
        () -> io.github.sparkkpca.ml.AbstractKernelPCAModel.loadAny(path.toString()));
  }

  @Test
  void aModelSignedWithAnotherKeyIsRefused() throws IOException {
    spark().conf().set(ModelSignature.CONF, KEY);
    Path path = save("other-key");
    spark().conf().set(ModelSignature.CONF, KEY + "!");
    assertEquals(cannotLoad(path) + MISMATCH, refusal(path));
  }

  /**
   * A table edited and its manifest recomputed (as anyone can), the signature kept: refused under
   * the key, though the manifest matches the files.
   */
  @Test
  void aTableEditedWithItsManifestRecomputedIsRefused() throws IOException {
    spark().conf().set(ModelSignature.CONF, KEY);
    Path path = save("edited");
    byte[] signature = Files.readAllBytes(path.resolve(ModelSignature.NAME));
    String statistics = path.resolve("data").resolve("statistics").toString();
    var df = spark().read().parquet(statistics);
    List<Row> rows = new ArrayList<>();
    for (Row row : df.collectAsList()) {
      double[] mean = ((Vector) row.get(1)).toArray();
      mean[0] *= 1.0000001;
      rows.add(RowFactory.create(row.get(0), new DenseVector(mean), row.get(2)));
    }
    Path rewritten = path.resolve("data").resolve("statistics-new");
    spark().createDataFrame(rows, df.schema()).coalesce(1).write().parquet(rewritten.toString());
    SavedModelKinds.deleteTree(Path.of(statistics));
    Files.move(rewritten, Path.of(statistics));
    spark().conf().unset(ModelSignature.CONF);
    FileSystem fs =
        new org.apache.hadoop.fs.Path(path.toString())
            .getFileSystem(spark().sparkContext().hadoopConfiguration());
    Manifest.write(fs, new org.apache.hadoop.fs.Path(path.toString()));
    Files.write(path.resolve(ModelSignature.NAME), signature);
    spark().conf().set(ModelSignature.CONF, KEY);
    assertEquals(cannotLoad(path) + MISMATCH, refusal(path));
  }

  /** The environment variable is a key as the conf is; the conf, when set, takes precedence. */
  @Test
  void theEnvironmentVariableIsAKey() throws IOException {
    ModelSignature.environment = name -> name.equals(ModelSignature.ENV) ? KEY : null;
    Path path = save("env");
    assertTrue(Files.exists(path.resolve(ModelSignature.NAME)));
    NystromKernelPCAModel.load(path.toString());
    spark().conf().set(ModelSignature.CONF, "another key");
    assertEquals(cannotLoad(path) + MISMATCH, refusal(path));
    spark().conf().unset(ModelSignature.CONF);
    ModelSignature.environment = name -> name.equals(ModelSignature.ENV) ? "wrong" : null;
    assertEquals(cannotLoad(path) + MISMATCH, refusal(path));
  }

  /** A pipeline's spark-kpca stage is signed and checked like a model saved alone. */
  @Test
  void aPipelinesStageIsSignedAndChecked() throws IOException {
    PipelineModel pipeline =
        new Pipeline()
            .setStages(
                new PipelineStage[] {
                  new StandardScaler().setInputCol("features").setOutputCol("scaled"),
                  new NystromKernelPCA()
                      .setInputCol("scaled")
                      .setK(2)
                      .setNumLandmarks(8)
                      .setGamma(0.3)
                      .setSeed(1)
                })
            .fit(SavedModelKinds.rows());
    Path unsigned = dir.resolve("pipeline-unsigned");
    pipeline.write().save(unsigned.toString());
    spark().conf().set(ModelSignature.CONF, KEY);
    Path signed = dir.resolve("pipeline-signed");
    pipeline.write().save(signed.toString());
    PipelineModel.load(signed.toString());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PipelineModel.load(unsigned.toString()));
    assertTrue(
        e.getMessage().startsWith("Cannot load NystromKernelPCAModel from '")
            && e.getMessage().contains(unsigned.resolve("stages").toString())
            && e.getMessage().endsWith(NOT_SIGNED),
        e.getMessage());
  }
}
